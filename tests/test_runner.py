"""`nbmod run-iteration`, the Job's command, as a real process against the S3 test server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import pytest

from nbmodernizer.notebook import serialise
from nbmodernizer.runner import parse_revision
from nbmodernizer.store.revisions import S3Store
from testing.notebooks import PREDICT, READ, WRITE, notebook
from testing.s3server import S3Bucket, s3_bucket_fixture, signing_s3_bucket_fixture  # noqa: F401

pytestmark = pytest.mark.kernel


def run_iteration(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "nbmodernizer.cli", "run-iteration", *args]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=120, env=dict(os.environ), check=False
    )


def test_parse_revision_uri() -> None:
    ref = parse_revision("s3://bucket/runs/ns/name/revisions/0003/")
    assert isinstance(ref.store, S3Store) and ref.revision == 3
    assert ref.store.uri == "s3://bucket/runs/ns/name"
    with pytest.raises(ValueError, match="must end in /revisions/<number>/"):
        parse_revision("s3://bucket/runs/ns/name/")


def test_executes_a_stored_revision_with_inputs_from_s3(
    s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    store = S3Store(s3_bucket.uri("runs/default/tiny"))
    store.put(2, "notebook.ipynb", serialise(notebook(READ, PREDICT, "1/0", WRITE)))
    s3_bucket.put("inputs/tiny/test.csv", b"id,x\n1,0.5\n2,-1.0\n")
    kaggle = tmp_path / "kaggle"
    (kaggle / "working").mkdir(parents=True)
    (kaggle / "working" / "stale.txt").write_text("from an earlier run")
    done = run_iteration(
        "--revision", store.uri_of(2, "").rstrip("/") + "/",
        "--inputs", s3_bucket.uri("inputs/tiny/"),
        "--input-dir", str(kaggle / "input"),
        "--working-dir", str(kaggle / "working"),
        "--timeout-seconds", "60",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "revision 2: completed, 1 cell error(s)" in done.stdout
    keys = s3_bucket.keys()
    prefix = "runs/default/tiny/revisions/0002/"
    assert {prefix + n for n in ("executed.ipynb", "execution.json", "submission.csv")} <= set(keys)
    runs = json.loads(s3_bucket.read(prefix + "execution.json"))["runs"]
    assert len(runs) == 1 and runs[0]["cellErrors"][0]["ename"] == "ZeroDivisionError"
    assert s3_bucket.read(prefix + "submission.csv") == b"id,y\n1,1\n2,0\n"
    assert not (kaggle / "working" / "stale.txt").exists()
    assert not any(k.endswith("result.json") for k in keys)  # grading is the operator's


def test_missing_revision_is_an_infrastructure_failure(s3_bucket: S3Bucket, tmp_path: Path) -> None:
    done = run_iteration(
        "--revision", s3_bucket.uri("runs/x/revisions/0000/"),
        "--working-dir", str(tmp_path / "w"), "--input-dir", str(tmp_path / "i"),
        "--timeout-seconds", "5",
    )  # fmt: skip
    assert done.returncode == 3
    assert "nbmod run-iteration:" in done.stderr and "revisions/0000/notebook.ipynb" in done.stderr


@dataclass(frozen=True)
class GrantedPod:
    """A runner command with grants only (no AWS_* in its environment) for one revision."""

    folder: str  # the revision's folder in the bucket
    command: list[str]
    env: dict[str, str]


def granted_pod(s3_bucket: S3Bucket, tmp_path: Path, revision: int, runs: int) -> GrantedPod:
    from nbmodernizer.store.grants import make_grants
    from nbmodernizer.store.s3 import signing_client

    store = S3Store(s3_bucket.uri("runs/default/tiny"))
    store.put(revision, "notebook.ipynb", serialise(notebook(READ, PREDICT, WRITE)))
    s3_bucket.put("inputs/tiny/test.csv", b"id,x\n1,0.5\n2,-1.0\n")
    folder = f"runs/default/tiny/revisions/{revision:04d}/"
    grants = make_grants(
        signing_client(s3_bucket.endpoint), s3_bucket.name, folder, revision, runs, 120,
        (s3_bucket.name, "inputs/tiny/"),
    )  # fmt: skip
    grants_file = tmp_path / "grants.json"
    grants_file.write_text(grants.to_json())
    kaggle = tmp_path / "kaggle"
    command = [
        sys.executable, "-m", "nbmodernizer.cli", "run-iteration",
        "--revision", store.uri_of(revision, ""), "--grants", str(grants_file),
        "--input-dir", str(kaggle / "input"), "--working-dir", str(kaggle / "working"),
        "--timeout-seconds", "60", "--runs", "1",
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    return GrantedPod(folder, command, env)


def test_executes_with_grants_only_and_no_credential(s3_bucket: S3Bucket, tmp_path: Path) -> None:
    """`--grants FILE`: plain HTTP on pre-signed URLs; the process has no AWS_* at all."""
    pod = granted_pod(s3_bucket, tmp_path, revision=1, runs=1)
    done = subprocess.run(pod.command, capture_output=True, text=True, timeout=120, env=pod.env)
    assert done.returncode == 0, done.stderr
    assert "revision 1: completed, 0 cell error(s)" in done.stdout
    assert s3_bucket.read(pod.folder + "submission.csv") == b"id,y\n1,1\n2,0\n"
    assert {pod.folder + n for n in ("executed.ipynb", "execution.json")} <= set(s3_bucket.keys())
    # one container (--stage all): its own interpreter was probed before the notebook ran
    facts = json.loads(s3_bucket.read(pod.folder + "environment.json"))
    assert facts["executable"] == sys.executable
    [run] = json.loads(s3_bucket.read(pod.folder + "execution.json"))["runs"]
    assert run["packages"] == facts["packages"] and "pandas" in facts["packages"]
    again = subprocess.run(pod.command, capture_output=True, text=True, timeout=120, env=pod.env)
    assert again.returncode == 4  # its outputs exist: never overwritten, and said so
    assert "refusing a tampered revision" in again.stderr


def test_a_pod_of_an_indexed_job_runs_once_under_its_own_names(
    s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    """JOB_COMPLETION_INDEX (Kubernetes sets it in each pod of an Indexed Job) is the run:
    the pod executes once and writes that run's own files through the Job's grants."""
    pod = granted_pod(s3_bucket, tmp_path, revision=0, runs=3)
    env = {**pod.env, "JOB_COMPLETION_INDEX": "2"}
    done = subprocess.run(pod.command, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert "revision 0 run 2: completed" in done.stdout
    folder, stored = pod.folder, s3_bucket.keys()
    written = {k[len(folder) :] for k in stored if k.startswith(folder)}
    assert written == {
        "notebook.ipynb", "environment.json",
        "executed-2.ipynb", "submission-2.csv", "execution-2.json",
    }  # fmt: skip
    runs = json.loads(s3_bucket.read(folder + "execution-2.json"))["runs"]
    assert len(runs) == 1 and runs[0]["status"] == "completed"
    several = subprocess.run(
        [*pod.command[:-1], "2", "--run-index", "1"], capture_output=True, text=True, env=env
    )
    assert several.returncode == 3 and "--runs 1 (one run a pod)" in several.stderr


SEEK_GRANTS = (
    "import os\nfound, pid = [], os.getpid()\nfor _ in range(4):\n"
    "    pid = int(open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()[1])\n"
    "    if pid <= 1:\n        break\n"
    "    found += [a for a in open(f'/proc/{pid}/cmdline', 'rb').read().split(b'\\0')\n"
    "              if a == b'--grants']\n"
    "print('GRANTS SEEN', found)"
)


def test_the_pod_split_stages_fetch_host_the_kernel_and_execute(
    signing_s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    """The four containers a granted pod runs, as processes here: `fetch` with the read
    grants (and the tools), the probe and the kernel's host (kernelhost.py as copied, run as
    a script: no nbmodernizer import) with none (the kernel is the host's child), `execute`
    with the write grants, storing the facts; a store that checks signatures; the kernel's
    ancestors show no grant."""
    from nbmodernizer.store.grants import make_grants, split_grants
    from nbmodernizer.store.s3 import signing_client

    bucket = signing_s3_bucket
    store = S3Store(bucket.uri("runs/default/tiny"))
    store.put(1, "notebook.ipynb", serialise(notebook(SEEK_GRANTS, READ, PREDICT, WRITE)))
    bucket.put("inputs/tiny/test.csv", b"id,x\n1,0.5\n2,-1.0\n")
    folder = "runs/default/tiny/revisions/0001/"
    grants = make_grants(
        signing_client(bucket.endpoint), bucket.name, folder, 1, 1, 120,
        (bucket.name, "inputs/tiny/"),
    )  # fmt: skip
    reads, writes = split_grants(grants)
    (tmp_path / "read.json").write_text(reads.to_json())
    (tmp_path / "write.json").write_text(writes.to_json())
    assert "X-Amz-Signature" not in writes.notebook and not writes.inputs and not reads.outputs
    folders = ("input", "working", "notebook", "kernel", "tools", "facts")
    pod = {name: str(tmp_path / name) for name in folders}
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}

    def stage(name: str, *flags: str) -> list[str]:
        return [sys.executable, "-m", "nbmodernizer.cli", "run-iteration", "--stage", name,
                "--revision", store.uri_of(1, ""), "--timeout-seconds", "60",
                "--input-dir", pod["input"], "--working-dir", pod["working"], *flags]  # fmt: skip

    fetch = stage("fetch", "--grants", str(tmp_path / "read.json"),
                  "--notebook-dir", pod["notebook"], "--tools-dir", pod["tools"])  # fmt: skip
    done = subprocess.run(fetch, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "input" / "test.csv").exists()
    request = json.loads((tmp_path / "tools" / "request.json").read_text())
    assert request["modules"] == ["pandas"]  # the notebook's imports
    assert "pandas.applymap" in request["probes"]  # the catalog's probes for them
    tools = tmp_path / "tools"
    kernelhost = str(tools / "kernelhost.py")
    facts = tmp_path / "facts" / "environment.json"
    probe = [sys.executable, "-I", kernelhost, "--probe", str(tools / "envprobe.py"),
             "--request", str(tools / "request.json"), "--facts", str(facts)]  # fmt: skip
    done = subprocess.run(probe, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    found = json.loads(facts.read_text())
    assert found["packages"]["pandas"] == version("pandas") and found["probes"]["pandas.applymap"]
    host = subprocess.Popen(
        [sys.executable, "-I", kernelhost, "--kernel-dir", pod["kernel"],
         "--working-dir", pod["working"]], env=env, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    execute = stage("execute", "--grants", str(tmp_path / "write.json"),
                    "--notebook-dir", pod["notebook"], "--kernel-dir", pod["kernel"],
                    "--facts-dir", pod["facts"])  # fmt: skip
    done = subprocess.run(execute, capture_output=True, text=True, timeout=180, env=env)
    assert done.returncode == 0, done.stderr
    assert host.wait(timeout=30) == 0  # told it was done: the pod completes
    assert "revision 1: completed, 0 cell error(s)" in done.stdout
    assert bucket.read(folder + "submission.csv") == b"id,y\n1,1\n2,0\n"
    assert b"GRANTS SEEN []" in bucket.read(folder + "executed.ipynb")
    assert bucket.read(folder + "environment.json") == facts.read_bytes()  # as printed
    execution = json.loads(bucket.read(folder + "execution.json"))
    assert execution["runs"][0]["packages"] == {"pandas": version("pandas")}


def test_a_stage_without_what_it_needs_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from nbmodernizer.cli import main

    base = ["run-iteration", "--revision", "s3://b/r/revisions/0000/", "--timeout-seconds", "1"]
    assert main([*base, "--stage", "execute", "--grants", "g.json"]) == 2
    assert "--stage execute needs --notebook-dir, --kernel-dir" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # the kernel's host is kernelhost.py, not a stage
        main([*base, "--stage", "kernel"])
