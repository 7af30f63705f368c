"""What a cluster user sees: a finished modernization's report and final notebook in S3 with
their URIs in its status, `nbmod pull` / `fleet pull` / `fleet report` against the API server,
and `kubectl nbm` through kubectl's own plugin mechanism.

Real parts: the `nbmod operator` process on the emulator, moto's S3 server, the CLI as
separate processes with a kubeconfig, kubectl v1.37 (.tools/bin), headless Chromium."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from nbmodernizer.cli import main
from testing.browser import Elements, blank, dump_dom, screenshot
from testing.k8s.client import K8sApi, wait_until
from testing.k8s.kopf_process import isolated_env
from testing.k8s.kubelet import Kubelet
from testing.k8s.product import OperatorStarter, push_case, status_of, wait_finished
from testing.k8s.resources import NBMS
from testing.notebooks import PREDICT, READ, WRITE
from testing.s3server import S3Bucket
from testing.tools import REQUIRE_TOOLS

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = "kubectl-nbm"
SPEC = {
    "notebook": "s3://b/n.ipynb",
    "score": {"metric": "accuracy", "target": 0.9, "answers": "s3://b/a.csv"},
}


def files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def plugin_bin(tmp_path: Path) -> Path:
    """The folder holding `kubectl-nbm`: the venv's bin, where `make setup` installs it from
    pyproject.toml's [project.scripts]. A venv installed before the plugin existed gets the
    script pip would write for that entry point (under .ci/run it must be installed)."""
    installed = Path(sys.executable).with_name(PLUGIN)
    if installed.is_file():
        return installed.parent
    if os.environ.get(REQUIRE_TOOLS) == "1":
        pytest.fail(f"{installed} is not installed: make setup", pytrace=False)
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, function = scripts[PLUGIN].split(":")
    folder = tmp_path / "plugin-bin"
    folder.mkdir()
    script = folder / PLUGIN
    script.write_text(
        f"#!{sys.executable}\nimport sys\nfrom {module} import {function}\n"
        f"if __name__ == '__main__':\n    sys.exit({function}())\n"
    )
    script.chmod(0o755)
    return folder


def user_env(k8s_api: K8sApi, plugin_bin: Path | None = None, **extra: str) -> dict[str, str]:
    """A user's shell: this environment (S3's endpoint and keys), KUBECONFIG at the API."""
    env = isolated_env(k8s_api.kubeconfig, extra)
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(ROOT / "operator"), env.get("PYTHONPATH")])
    )
    if plugin_bin is not None:
        env["PATH"] = os.pathsep.join(
            [str(plugin_bin), str(Path(sys.executable).parent), env["PATH"]]
        )
    return env


def nbmod(k8s_api: K8sApi, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "nbmodernizer.cli", *args],
        env=user_env(k8s_api), cwd=cwd, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    return done


def kubectl_nbm(
    kube_tools: Path, env: dict[str, str], cwd: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    """`kubectl nbm ...`: the real kubectl, finding the plugin on PATH."""
    return subprocess.run(
        [str(kube_tools / "kubectl"), "nbm", *args],
        env=env, cwd=cwd, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def made_up(k8s_api: K8sApi, name: str, status: dict[str, Any], **labels: str) -> None:
    """A resource whose status says what the operator would have written."""
    meta: dict[str, Any] = {"name": name, "labels": labels}
    k8s_api.create(NBMS, {"kind": "NotebookModernization", "metadata": meta, "spec": SPEC})
    k8s_api.patch_status(NBMS, name, status)


@pytest.mark.kernel
def test_a_finished_modernization_is_one_command_away(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    kube_tools: Path,
    plugin_bin: Path,
    tmp_path: Path,
) -> None:
    name, ns = "rules-fix", k8s_api.namespace
    fixable = (READ, "import numpy as np\nscale = np.float(1)", PREDICT, WRITE)
    k8s_api.create(NBMS, push_case(tmp_path / "cases", s3_bucket, name, *fixable))
    operator = nbmod_operator()
    done = wait_finished(k8s_api, name, operator)
    operator.stop()  # the made-up resources below keep the statuses they are given
    status = status_of(done)
    assert status["outcome"] == "ErrorFreeReproducible" and status["iterations"] == 2

    # the status says where the report and the final notebook are, beside the revisions
    prefix = f"runs/{ns}/{name}"
    assert status["report"] == s3_bucket.uri(f"{prefix}/report.html")
    assert status["finalNotebook"] == s3_bucket.uri(f"{prefix}/final.ipynb")
    report = s3_bucket.read(f"{prefix}/report.html").decode()
    assert f"<title>{name} — notebook modernization report</title>" in report
    assert "ErrorFreeReproducible" in report and "np.float" in report  # the diff
    final = s3_bucket.read(f"{prefix}/final.ipynb")
    assert final == s3_bucket.read(f"{prefix}/revisions/0001/executed.ipynb")
    told = wait_until(  # Events are posted by a thread of their own: no reconcile waits
        lambda: [e for e in k8s_api.events_for(done) if e["reason"] == "ReportStored"],
        what="the ReportStored event",
    )
    assert [e["message"] for e in told] == [
        f"report: {status['report']}; final notebook: {status['finalNotebook']}"
    ]

    # nbmod pull: the folder `nbmod modernize --out` writes, and the local tools work on it
    work = tmp_path / "user"
    work.mkdir()
    pulled = nbmod(k8s_api, work, "pull", name, "-n", ns, "--out", "pulled")
    assert pulled.returncode == 0, pulled.stderr
    folder = work / "pulled"
    assert json.loads((folder / "report.json").read_text()) == status_of(k8s_api.get(NBMS, name))
    assert (folder / "report.html").read_text() == report
    assert (folder / "final.ipynb").read_bytes() == final
    stored = s3_bucket.keys()
    revisions = {k.removeprefix(f"{prefix}/") for k in stored if "/revisions/" in k}
    assert {f for f in files(folder) if f.startswith("revisions/")} == revisions
    rendered = nbmod(k8s_api, work, "render", "pulled", "--name", name)
    assert rendered.returncode == 0 and rendered.stdout == report, rendered.stderr
    spec = tmp_path / "cases" / name / "spec.yaml"
    assert main(["modernize", str(spec), "--out", str(tmp_path / "local")]) == 0
    operator_only = {"revisions/0000/spec.json"}  # the spec the run started with
    assert files(folder) - operator_only == files(tmp_path / "local")

    # the fleet: a pulled report is linked from the page; others by their status
    made_up(k8s_api, "broken", {"phase": "Failed", "outcome": "Failed", "lastError": "no answers"})
    made_up(k8s_api, "queued", {"phase": "Queued"})
    fleet = nbmod(k8s_api, work, "fleet", "pull", "-n", ns, "--out", "fleet", "--workers", "2")
    assert fleet.returncode == 0, fleet.stderr
    assert "3 of 3 pulled" in fleet.stdout
    assert (work / "fleet" / ns / name / "report.html").read_text() == report
    page = nbmod(k8s_api, work, "fleet", "report", "-n", ns, "--out", "fleet")
    assert page.returncode == 0, page.stderr
    index = work / "fleet" / "index.html"
    assert not blank(screenshot(index, tmp_path / "fleet.png", tmp_path / "profile"))
    dom = Elements(dump_dom(index, tmp_path / "profile"))
    assert dom.count("tr", "notebook") == 3
    assert dom.hrefs() == [f"{ns}/{name}/report.html"]
    assert all((work / "fleet" / href).is_file() for href in dom.hrefs())

    # kubectl nbm, through kubectl's plugin mechanism, on the same fleet
    env = user_env(k8s_api, plugin_bin)
    table = kubectl_nbm(kube_tools, env, work, "summary", "-n", ns, "--json")
    assert table.returncode == 0, table.stderr
    counts = json.loads(table.stdout)
    assert counts["total"] == 3 and counts["reproduced"] == 1 and counts["unfinished"] == 1
    fetched = kubectl_nbm(kube_tools, env, work, "report", name, "-n", ns)
    assert fetched.returncode == 0, fetched.stderr
    assert (work / f"{name}.html").read_text() == report


def test_kubectl_nbm_behaves_as_a_kubectl_plugin(
    k8s_api: K8sApi, s3_bucket: S3Bucket, kube_tools: Path, plugin_bin: Path, tmp_path: Path
) -> None:
    ns = k8s_api.namespace
    s3_bucket.put("runs/a/report.html", b"<p>the report of a</p>")
    done = {"phase": "Succeeded", "outcome": "ErrorFreeReproducible", "iterations": 1}
    made_up(k8s_api, "a", {**done, "report": s3_bucket.uri("runs/a/report.html")}, team="x")
    made_up(k8s_api, "b", {"phase": "Succeeded", "outcome": "Failed"}, team="y")
    env = user_env(k8s_api, plugin_bin)

    listed = subprocess.run(
        [str(kube_tools / "kubectl"), "plugin", "list"], env=env, capture_output=True, text=True
    )
    assert PLUGIN in listed.stdout, listed.stdout + listed.stderr
    helped = kubectl_nbm(kube_tools, env, tmp_path, "--help")
    assert helped.returncode == 0 and "usage: kubectl nbm" in helped.stdout
    assert all(command in helped.stdout for command in ("summary", "report", "pull"))

    # the namespace: -n, else the kubeconfig context's
    text = kubectl_nbm(kube_tools, env, tmp_path, "summary")
    assert text.returncode == 0, text.stderr
    assert (
        "ErrorFreeReproducible              1" in text.stdout
        and "total                              2" in text.stdout
    )
    selected = kubectl_nbm(kube_tools, env, tmp_path, "summary", "-A", "-l", "team=y", "--json")
    assert json.loads(selected.stdout)["outcomes"]["Failed"] == 1
    assert json.loads(selected.stdout)["total"] == 1

    # --kubeconfig and --context, as kubectl takes them
    two = tmp_path / "two-contexts.yaml"
    config = yaml.safe_load(k8s_api.kubeconfig.read_text())
    good = config["contexts"][0]["name"]
    config["clusters"].append({"name": "gone", "cluster": {"server": "http://127.0.0.1:9"}})
    config["contexts"].append({"name": "gone", "context": {"cluster": "gone", "user": good}})
    config["current-context"] = "gone"
    two.write_text(yaml.safe_dump(config))
    elsewhere = {**env, "KUBECONFIG": str(tmp_path / "absent.yaml")}
    chosen = kubectl_nbm(
        kube_tools,
        elsewhere,
        tmp_path,
        "summary",
        "--kubeconfig",
        str(two),
        "--context",
        good,
        "-n",
        ns,
    )
    assert chosen.returncode == 0, chosen.stderr
    unreachable = kubectl_nbm(kube_tools, elsewhere, tmp_path, "summary", "--kubeconfig", str(two))
    assert unreachable.returncode == 1 and "cannot reach the API server" in unreachable.stderr

    # report and pull by name; a missing resource is an error that says so
    fetched = kubectl_nbm(kube_tools, env, tmp_path, "report", "a", "--out", "a.html")
    assert fetched.returncode == 0, fetched.stderr
    assert (tmp_path / "a.html").read_bytes() == b"<p>the report of a</p>"
    pulled = kubectl_nbm(kube_tools, env, tmp_path, "pull", "a")
    assert pulled.returncode == 0, pulled.stderr
    assert (tmp_path / "nbmod-fleet" / ns / "a" / "report.html").is_file()
    no_report = kubectl_nbm(kube_tools, env, tmp_path, "report", "b")
    assert no_report.returncode == 1 and f"{ns}/b has no report yet (Failed)" in no_report.stderr
    for command in ("report", "pull"):
        missing = kubectl_nbm(kube_tools, env, tmp_path, command, "nope", "-n", ns)
        assert missing.returncode == 1, missing.stdout
        assert missing.stderr.strip() == (
            f'error: notebookmodernizations.nbmodernizer.dev "nope" not found in namespace "{ns}"'
        )
