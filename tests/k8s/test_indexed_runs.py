"""Several runs of an iteration as one Indexed Job: the real operator process against the
emulator, S3 on moto's server, each index's pod run by the test kubelet (the runner's real
command through the pod shim)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from testing.k8s.client import K8sApi, wait_until
from testing.k8s.emulator import EmulatorServer
from testing.k8s.kubelet import Kubelet
from testing.k8s.product import (
    OperatorStarter,
    pod_base_env,
    pod_shim,
    push_case,
    status_of,
    wait_finished,
)
from testing.k8s.resources import JOBS, NBMS
from testing.notebooks import PREDICT, READ, WRITE
from testing.s3server import S3Bucket

pytestmark = pytest.mark.kernel
SLOW = "import time\ntime.sleep(4)"


def jobs_of(api: K8sApi, name: str) -> list[dict[str, Any]]:
    return api.list(JOBS, label_selector=f"nbmodernizer.dev/modernization={name}")


def revision_keys(bucket: S3Bucket, api: K8sApi, name: str) -> set[str]:
    prefix = f"runs/{api.namespace}/{name}/revisions/0000/"
    stored = bucket.keys()
    return {key[len(prefix) :] for key in stored if key.startswith(prefix)}


def test_four_fixed_runs_are_one_indexed_job_of_four_pods_all_graded(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    case = push_case(tmp_path, s3_bucket, "four", READ, PREDICT, WRITE, score={"runs": 4})
    k8s_api.create(NBMS, case)
    operator = nbmod_operator()

    status = status_of(wait_finished(k8s_api, "four", operator))

    assert status["phase"] == "Succeeded" and status["outcome"] == "ErrorFreeReproducible"
    [job] = jobs_of(k8s_api, "four")
    assert job["metadata"]["name"] == "four-it-000"
    assert (job["spec"]["completionMode"], job["spec"]["completions"]) == ("Indexed", 4)
    assert job["status"]["completedIndexes"] == "0-3"
    [revision] = status["revisions"]
    assert revision["scores"] == [1.0, 1.0, 1.0, 1.0]  # one entry per run, each graded
    assert revision["runs"] == 4 and "all 4 run(s)" in revision["evidence"]
    runs = [f"-{n}" for n in (1, 2, 3)]
    assert {
        "submission.csv",
        "executed.ipynb",
        "execution.json",
        "environment.json",  # stored by the first of the four pods; the others found it there
        *(f"submission{n}.csv" for n in runs),
        *(f"executed{n}.ipynb" for n in runs),
        *(f"execution{n}.json" for n in runs),
    } <= revision_keys(s3_bucket, k8s_api, "four")
    if runner_kubelet is not None:
        pods = runner_kubelet.runs_of("four-it-000")
        assert sorted(run.index or 0 for run in pods) == [0, 1, 2, 3]
        assert all(run.exit_code == 0 for run in pods)  # each stored it or found it stored


def test_adaptive_runs_stop_the_job_once_the_evidence_is_in(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    """Three identical scores decide (a zero-width interval inside the band): with three
    pods at once, the fourth run is still going when they are in, and is stopped."""
    score = {"runs": 4, "runsPolicy": "adaptive"}
    case = push_case(tmp_path, s3_bucket, "adapt", READ, SLOW, PREDICT, WRITE, score=score)
    k8s_api.create(NBMS, case)
    operator = nbmod_operator("--max-parallel-runs", "3")

    done = wait_finished(k8s_api, "adapt", operator)

    status = status_of(done)
    assert status["outcome"] == "ErrorFreeReproducible"
    [revision] = status["revisions"]
    assert revision["runs"] == 3 and revision["scores"] == [1.0, 1.0, 1.0]
    assert "lies inside the band" in revision["evidence"]
    assert "after 3 of 4 runs" in revision["evidence"]
    stopped = wait_until(  # Events are posted by a thread of their own: no reconcile waits
        lambda: [e for e in k8s_api.events_for(done) if e["reason"] == "RunsStopped"],
        what="the RunsStopped event",
    )
    assert len(stopped) == 1 and "adapt-it-000 stopped after 3 run(s)" in stopped[0]["message"]
    wait_until(lambda: not jobs_of(k8s_api, "adapt"), timeout=10, what="the Job deleted")
    assert "submission-3.csv" not in revision_keys(s3_bucket, k8s_api, "adapt")
    if runner_kubelet is not None:
        wait_until(lambda: runner_kubelet.active == 0, timeout=10, what="the pods stopped")
        fourth = [run for run in runner_kubelet.runs_of("adapt-it-000") if run.index == 3]
        assert len(fourth) <= 1 and all(run.reason == "Killed" for run in fourth)  # stopped


def crashing_shim(folder: Path, index: int) -> Path:
    """The pod shim, except that the pod of `index` dies (as one the node OOM-kills) before
    the runner does anything."""
    shim = pod_shim(folder)
    crash = folder / "nbmod-crashing"
    crash.write_text(
        f"#!{sys.executable}\n"
        "import os, sys\n"
        f"if os.environ.get('JOB_COMPLETION_INDEX') == '{index}':\n"
        "    sys.exit(137)\n"
        f"os.execv({str(shim)!r}, [{str(shim)!r}, *sys.argv[1:]])\n"
    )
    crash.chmod(0o755)
    return crash


def test_an_index_whose_pod_dies_is_an_error_run_not_a_lost_iteration(
    k8s_emulator: EmulatorServer,
    k8s_api: K8sApi,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    shim = crashing_shim(tmp_path, 1)
    kubelet = Kubelet(k8s_api, base_env=pod_base_env(tmp_path), executables={"nbmod": str(shim)})
    case = push_case(tmp_path, s3_bucket, "crash", READ, PREDICT, WRITE, score={"runs": 4})
    k8s_api.create(NBMS, case)
    with kubelet:
        operator = nbmod_operator()
        status = status_of(wait_finished(k8s_api, "crash", operator))
        died = [run for run in kubelet.runs_of("crash-it-000") if run.index == 1]
    assert [run.exit_code for run in died] == [137, 137]  # retried once (backoffLimitPerIndex)
    assert status["iterations"] == 1  # the iteration was recorded, not lost or run again
    [revision] = status["revisions"]
    # Run 1 failed at once; the decision came when run 0 completed, with 2 and 3 counted if
    # they had completed by then: runs are taken in index order, up to one still going.
    assert revision["issue"] == "Error" and revision["runs"] in (2, 3, 4)
    assert "run 1's pod failed 2 times" in status["lastError"]
    assert [j["metadata"]["name"] for j in jobs_of(k8s_api, "crash")] in ([], ["crash-it-000"])
    assert not kubelet.errors
