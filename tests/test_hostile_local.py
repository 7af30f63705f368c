"""The hostile notebook on this machine: the runner (`nbmod run-iteration`, as in a pod) and the
kernel it starts, with secrets in the driver's environment. The cluster twin, through the
operator and S3, is tests/k8s/test_hostile.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nbmodernizer.engine import grade_revision
from nbmodernizer.execute import kernel_environment
from nbmodernizer.grade import SubmissionLimits, parse_answers
from nbmodernizer.notebook import serialise
from nbmodernizer.runner import runner_environment
from nbmodernizer.spec import parse_modernization
from nbmodernizer.store.revisions import LocalStore
from testing import hostile
from testing.notebooks import PREDICT, READ, WRITE, notebook
from testing.s3server import S3Bucket, signing_s3_bucket_fixture  # noqa: F401

pytestmark = pytest.mark.kernel


def driver_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(hostile.SECRETS)
    env.update({"HOME": str(home), "AWS_CONFIG_FILE": "/nonexistent", "NBMOD_S3_BUCKET": "b"})
    env["AWS_SHARED_CREDENTIALS_FILE"] = "/nonexistent"
    return env


def run_runner(
    store: LocalStore, revision: int, root: Path, *extra: str
) -> subprocess.CompletedProcess[str]:
    (root / "input").mkdir(parents=True, exist_ok=True)
    (root / "input" / "test.csv").write_text("id,x\n1,0.5\n2,-1.0\n")
    command = [
        sys.executable, "-m", "nbmodernizer.cli", "run-iteration",
        "--revision", store.uri_of(revision, "").removeprefix("file://"),
        "--input-dir", str(root / "input"), "--working-dir", str(root / "working"),
        "--timeout-seconds", "60", *extra,
    ]  # fmt: skip
    return subprocess.run(
        command, capture_output=True, text=True, timeout=180, env=driver_env(root), check=False
    )


def test_the_kernel_environment_is_an_allowlist() -> None:
    source = {**hostile.SECRETS, "PATH": "/bin", "LANG": "C.UTF-8", "LC_ALL": "C",
              "JUPYTER_RUNTIME_DIR": "/j", "OMP_NUM_THREADS": "2", "NVIDIA_VISIBLE_DEVICES": "0",
              "CUDA_VISIBLE_DEVICES": "0", "HTTPS_PROXY": "http://u:p@proxy", "KAGGLE_KEY": "k",
              "GITHUB_TOKEN": "t", "NBMOD_S3_BUCKET": "b", "KUBECONFIG": "/k"}  # fmt: skip
    env = kernel_environment(source)
    assert set(env) == {
        "PATH", "LANG", "LC_ALL", "JUPYTER_RUNTIME_DIR", "OMP_NUM_THREADS",
        "NVIDIA_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES", "MPLBACKEND",
        "PIP_NO_INDEX", "PIP_DISABLE_PIP_VERSION_CHECK",
    }  # fmt: skip
    # what a notebook installs would change the environment later runs share: pip stays offline
    assert kernel_environment({"PIP_NO_INDEX": "0", "PIP_INDEX_URL": "x"})["PIP_NO_INDEX"] == "1"
    assert not hostile.leaked(json.dumps(env))
    runner = runner_environment({**source, "NBMOD_ITERATION": "3"}, keeps_s3_keys=False)
    assert "NBMOD_ITERATION" in runner and not hostile.leaked(json.dumps(runner))
    opt_out = runner_environment(source, keeps_s3_keys=True)
    assert opt_out["AWS_SECRET_ACCESS_KEY"] == hostile.SECRETS["AWS_SECRET_ACCESS_KEY"]


def test_a_hostile_notebook_finds_no_secret_of_the_runner(tmp_path: Path) -> None:
    store = LocalStore(tmp_path / "store")
    store.put(0, "notebook.ipynb", serialise(notebook(*hostile.sources(READ, PREDICT, WRITE))))
    done = run_runner(store, 0, tmp_path / "pod")
    assert done.returncode == 0, done.stderr
    executed = store.get(0, "executed.ipynb").decode()
    execution = store.get(0, "execution.json").decode()
    assert hostile.leaked(executed) == [] and hostile.leaked(execution) == []
    found = hostile.found(json.loads(executed))
    assert found["s3_list"].startswith('"DENIED NoCredentialsError'), found["s3_list"]
    assert "AWS_" not in found["os_environ"] and "NBMOD_HOSTILE" not in found["os_environ"]
    ancestors = found["ancestors"]
    assert "NBMOD_RUNNER_CLEAN" in ancestors  # the parent (the runner) was seen: a clean one
    assert store.get(0, "submission.csv") == b"id,y\n1,1\n2,0\n"


def test_an_oversized_submission_is_kept_as_a_line_and_graded_as_an_error(
    tmp_path: Path,
) -> None:
    store = LocalStore(tmp_path / "store")
    big = (  # 3 MB, written in chunks
        "with open('submission.csv', 'w') as f:\n"
        "    f.write('id,y\\n')\n"
        "    for _ in range(3000):\n"
        "        f.write('1,1\\n' * 250)"
    )
    store.put(0, "notebook.ipynb", serialise(notebook(big)))
    done = run_runner(store, 0, tmp_path / "pod", "--max-submission-bytes", "1000000")
    assert done.returncode == 0, done.stderr
    kept = store.get(0, "submission.csv")
    assert len(kept) < 200 and kept.endswith(b": 3000005 bytes\n")  # its size, not its rows
    spec = parse_modernization(
        {
            "apiVersion": "nbmodernizer.dev/v1alpha1",
            "kind": "NotebookModernization",
            "metadata": {"name": "big"},
            "spec": {
                "notebook": "n.ipynb",
                "score": {"metric": "accuracy", "target": 1.0, "answers": "a.csv"},
            },
        },
        "test",
    ).spec
    answers = parse_answers(b"id,y\n1,1\n", "id")
    score = grade_revision(store, 0, answers, spec, SubmissionLimits(max_bytes=10**6)).score
    assert score.value is None
    assert "submission.csv is 3000005 bytes, more than the 1000000 allowed" in str(score.reason)
    # the operator's own check, before reading: a store holding a large file directly
    store.put(1, "execution.json", store.get(0, "execution.json"))
    store.put(1, "submission.csv", b"id,y\n" + b"1,1\n" * 300_000)
    score = grade_revision(store, 1, answers, spec, SubmissionLimits(max_bytes=10**6)).score
    assert "1200005 bytes, more than the 1000000 allowed" in str(score.reason)
    score = grade_revision(store, 1, answers, spec, SubmissionLimits(max_rows=1000)).score
    assert "more than 1000 rows" in str(score.reason)


def test_endless_output_and_huge_errors_are_cut_with_a_marker(tmp_path: Path) -> None:
    store = LocalStore(tmp_path / "store")
    flood = (  # 24 MB of output, in 64 KB writes
        "import sys\nchunk = 'x' * 65536\nfor _ in range(384):\n    sys.stdout.write(chunk)"
    )
    huge_error = "raise ValueError('e' * 5_000_000)"
    store.put(0, "notebook.ipynb", serialise(notebook(flood, "print('after')", huge_error)))
    done = run_runner(store, 0, tmp_path / "pod")
    assert done.returncode == 0, done.stderr
    executed = store.get(0, "executed.ipynb")
    assert len(executed) < 3_000_000
    text = executed.decode()
    assert "characters of output cut]" in text and "after" in text
    runs = json.loads(store.get(0, "execution.json"))["runs"]
    [error] = runs[0]["cellErrors"]
    assert error["ename"] == "ValueError"
    assert len(error["evalue"]) < 2_100 and "characters cut]" in error["evalue"]
    assert sum(len(line) for line in error["traceback"]) < 25_000


def test_nbmod_modernize_hides_its_environment_from_the_kernel(tmp_path: Path) -> None:
    """The local driver keeps its keys (it needs the LLM's and S3's), but the kernel's
    environment is the allowlist; its parent's /proc environ is hidden only where the kernel
    lacks CAP_SYS_PTRACE (not as root: docs/security.md)."""
    from testing.notebooks import kaggle_folder

    spec = kaggle_folder(tmp_path / "case", *hostile.sources(READ, PREDICT, WRITE))
    command = [sys.executable, "-m", "nbmodernizer.cli", "modernize", str(spec),
               "--out", str(tmp_path / "out")]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=300, env=driver_env(tmp_path), check=False
    )
    assert done.returncode == 0, done.stderr
    executed = json.loads((tmp_path / "out" / "revisions/0000/executed.ipynb").read_text())
    found = hostile.found(executed)
    assert hostile.leaked(found["os_environ"] + found["proc_self_environ"]) == []
    assert found["s3_list"].startswith('"DENIED NoCredentialsError'), found["s3_list"]
    if os.geteuid() != 0:  # as root, /proc/<parent>/environ stays readable
        assert hostile.leaked(found["ancestors"]) == []


def test_a_submission_with_a_monstrous_header_is_an_error(tmp_path: Path) -> None:
    from nbmodernizer.grade import SubmissionError, grade_submission

    spec = parse_modernization(
        {
            "apiVersion": "nbmodernizer.dev/v1alpha1",
            "kind": "NotebookModernization",
            "metadata": {"name": "wide"},
            "spec": {
                "notebook": "n.ipynb",
                "score": {"metric": "accuracy", "target": 1.0, "answers": "a.csv"},
            },
        },
        "test",
    ).spec
    wide = tmp_path / "submission.csv"
    wide.write_text("id,y," + ",".join(f"c{n}" for n in range(20_000)) + "\n1,1\n")
    with pytest.raises(SubmissionError, match="more than 10000 columns"):
        grade_submission(wide.read_bytes(), parse_answers(b"id,y\n1,1\n", "id"), spec.score)


def test_in_one_process_the_kernel_finds_the_grants_and_the_store_refuses_each_edit(
    signing_s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    """Single-process mode (`--stage all`: the local runner, not the cluster's split pod): the
    kernel finds the grants on its runner's command line (docs/security.md) and edits them
    onto revision 0, another modernization's folder, result.json and the answers; a store that
    checks signatures refuses each (403 SignatureDoesNotMatch), and nothing changes."""
    from nbmodernizer.store.grants import make_grants
    from nbmodernizer.store.s3 import signing_client

    bucket = signing_s3_bucket
    revision_zero = "runs/default/rewriter/revisions/0000/notebook.ipynb"
    others = "runs/default/spy/revisions/0000/notebook.ipynb"
    answers = "fleet/rewriter/answers/answers.csv"
    for key in (revision_zero, others):
        bucket.put(key, b'{"cells": []}')
    bucket.put(answers, b"id,y\n1,1\n2,0\n")
    bucket.put("inputs/rewriter/test.csv", b"id,x\n1,0.5\n2,-1.0\n")
    cells = hostile.sources(hostile.GRANTS, hostile.rewrite_cell(answers), READ, PREDICT, WRITE)
    folder = "runs/default/rewriter/revisions/0001/"
    bucket.put(folder + "notebook.ipynb", serialise(notebook(*cells)))
    grants = make_grants(
        signing_client(bucket.endpoint), bucket.name, folder, 1, 1, 120,
        (bucket.name, "inputs/rewriter/"),
    )  # fmt: skip
    (tmp_path / "grants.json").write_text(grants.to_json())
    env = {k: v for k, v in driver_env(tmp_path).items() if not k.startswith("AWS_")}
    command = [
        sys.executable, "-m", "nbmodernizer.cli", "run-iteration",
        "--revision", f"s3://{bucket.name}/{folder}", "--grants", str(tmp_path / "grants.json"),
        "--input-dir", str(tmp_path / "input"), "--working-dir", str(tmp_path / "working"),
        "--timeout-seconds", "60",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, env=env)
    assert done.returncode == 0, done.stderr
    found = hostile.found(json.loads(bucket.read(folder + "executed.ipynb")))
    assert "submission.csv" in found["grants_read"]  # one process: the grants are in reach
    for attack in ("rewrite_revision_zero", "rewrite_other", "rewrite_result", "rewrite_answers"):
        assert "403" in found[attack] and "SignatureDoesNotMatch" in found[attack], attack
    assert bucket.read(revision_zero) == b'{"cells": []}' == bucket.read(others)
    assert bucket.read(folder + "submission.csv") == b"id,y\n1,1\n2,0\n"
    assert not [key for key in bucket.keys() if key.endswith("result.json")]  # noqa: SIM118
