"""The operator under stress: restarts, bad input, failing Jobs, a lost store, a failing
LLM, spec changes, deletion and the concurrency cap. Each ends in a clear status."""

from __future__ import annotations

import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from testing.k8s.client import K8sApi, wait_until
from testing.k8s.kubelet import Kubelet
from testing.k8s.product import OperatorStarter, free_port, push_case, status_of, wait_finished
from testing.k8s.resources import JOBS, NBMS
from testing.llm_server import Answer, Failure, fix_reply, scripted_llm
from testing.notebooks import PREDICT, READ, WRITE
from testing.s3server import S3Bucket, closed_port_url

pytestmark = pytest.mark.kernel
SLOW = "import time\ntime.sleep(4)"


def job_names(api: K8sApi, name: str) -> list[str]:
    jobs = api.list(JOBS, label_selector=f"nbmodernizer.dev/modernization={name}")
    return sorted(j["metadata"]["name"] for j in jobs)


def failure_reason(api: K8sApi, job: str) -> str | None:
    """The reason of the Job's Failed condition, as the Job controller writes it."""
    conditions = (api.get(JOBS, job).get("status") or {}).get("conditions") or []
    failed = [c for c in conditions if c["type"] == "Failed" and c["status"] == "True"]
    return str(failed[0]["reason"]) if failed else None


def test_killing_the_operator_mid_run_finishes_with_no_duplicate_job(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    names = ["restart-a", "restart-b"]
    for name in names:
        k8s_api.create(NBMS, push_case(tmp_path, s3_bucket, name, READ, SLOW, PREDICT, WRITE))
    first = nbmod_operator()
    wait_until(lambda: all(job_names(k8s_api, n) for n in names), timeout=60, what="Jobs created")
    first.kill()  # SIGKILL while both Jobs run
    second = nbmod_operator()
    for name in names:
        done = wait_finished(k8s_api, name, second)
        assert status_of(done)["outcome"] == "ErrorFreeReproducible"
        assert job_names(k8s_api, name) == [f"{name}-it-000"]
        job = k8s_api.get(JOBS, f"{name}-it-000")
        assert job["status"].get("succeeded") == 1 and not job["status"].get("failed")
    if runner_kubelet is not None:
        assert len(runner_kubelet.runs) == 2  # each Job's pod ran once


def test_invalid_resource_fails_clearly_while_others_run(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    good = push_case(tmp_path, s3_bucket, "good")
    bad = push_case(tmp_path, s3_bucket, "bad")
    del bad["spec"]["score"]["target"]
    local = push_case(tmp_path, s3_bucket, "local-paths")
    local["spec"]["notebook"] = "notebook.ipynb"
    for document in (bad, local, good):
        k8s_api.create(NBMS, document)
    operator = nbmod_operator()
    status = status_of(wait_finished(k8s_api, "bad", operator))
    assert status["phase"] == "Failed" and status["outcome"] == "Failed"
    assert "spec.score.target: Field required" in status["lastError"]
    accepted = {c["type"]: c for c in status["conditions"]}["SpecAccepted"]
    assert accepted["status"] == "False" and accepted["reason"] == "InvalidSpec"
    status = status_of(wait_finished(k8s_api, "local-paths", operator))
    assert (
        status["lastError"]
        == "spec.notebook: in a cluster it must be an s3:// URI: 'notebook.ipynb'"
    )
    assert job_names(k8s_api, "bad") == [] and job_names(k8s_api, "local-paths") == []
    assert status_of(wait_finished(k8s_api, "good", operator))["phase"] == "Succeeded"


def test_failing_jobs_end_clearly(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    crash = push_case(tmp_path, s3_bucket, "crash")
    # nothing to grant: the operator refuses before a Job runs (with an s3 opt-out secret,
    # the runner would fail to fetch them and the Job would fail)
    crash["spec"]["inputs"] = s3_bucket.uri("nothing-here/")
    # the deadline (timeoutSeconds + margin 0) passes while the runner still starts its kernel
    stuck = push_case(
        tmp_path, s3_bucket, "stuck", READ, "import time\ntime.sleep(120)",
        execution={"timeoutSeconds": 4},
    )  # fmt: skip
    stuck["spec"]["fix"]["maxIterations"] = 1
    for document in (crash, stuck):
        k8s_api.create(NBMS, document)
    operator = nbmod_operator("--deadline-margin-seconds", "0")
    status = status_of(wait_finished(k8s_api, "crash", operator))
    assert status["phase"] == "Failed" and status["outcome"] == "Failed"
    assert status["lastError"].startswith("spec.inputs: no objects under s3://"), status
    status = status_of(wait_finished(k8s_api, "stuck", operator, timeout=120))
    assert failure_reason(k8s_api, "stuck-it-000") == "DeadlineExceeded"
    assert status["lastIssue"] == "Timeout"
    assert status["outcome"] == "ErrorNonReproducible"
    assert "deadline" in status["lastError"]


def test_an_unreachable_store_is_reported_then_fails(
    k8s_api: K8sApi, nbmod_operator: OperatorStarter, s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    k8s_api.create(NBMS, push_case(tmp_path, s3_bucket, "lost-store"))
    operator = nbmod_operator("--store-retries", "3", endpoint=closed_port_url())
    seen = k8s_api.wait_for(NBMS, "lost-store", lambda o: "lastError" in status_of(o), timeout=60)
    assert status_of(seen)["lastError"].startswith("S3 unreachable (1/3)")
    store = {c["type"]: c for c in status_of(seen)["conditions"]}["StoreAvailable"]
    assert store["status"] == "False" and store["reason"] == "StoreUnavailable"
    status = status_of(wait_finished(k8s_api, "lost-store", operator, timeout=90))
    assert status["phase"] == "Failed"
    assert status["lastError"].startswith("the revision store stayed unreachable")
    assert operator.running


def test_an_llm_answering_500_ends_with_the_reason(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    document = push_case(tmp_path, s3_bucket, "llm-down", READ, PREDICT, "1/0", WRITE)
    document["spec"]["fix"]["fixers"] = ["llm"]
    document["spec"]["fix"]["llm"] = {
        "model": "test-model",
        "maxRetries": 2,
        "inputUSDPerMTok": 1,
        "outputUSDPerMTok": 1,
    }
    with scripted_llm(*[Failure(500)] * 3) as llm:
        k8s_api.create(NBMS, document)
        operator = nbmod_operator(env={"OPENAI_BASE_URL": llm.url, "OPENAI_API_KEY": "sk-x"})
        status = status_of(wait_finished(k8s_api, "llm-down", operator))
    assert len(llm.requests) == 3
    prompt = llm.requests[0]["messages"][-1]["content"]
    assert "- ../input/test.csv (" in prompt and "columns: id,x" in prompt  # seen in the pod
    assert status["outcome"] == "ErrorReproducible"  # the score reproduces; cell 3 still fails
    assert "llm: request failed: gave up after 3 requests: 500" in status["stopReason"]
    assert status["cost"]["requests"] == 3 and status["cost"]["usd"] == 0


def test_metrics_move_spec_changes_are_not_applied_and_deletion_stops_the_job(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    port = free_port()
    operator = nbmod_operator("--metrics-port", str(port), "--max-concurrent-jobs", "1")

    def scrape() -> str:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
                return str(answer.read().decode())
        except OSError:
            return ""

    wait_until(lambda: "nbmodernizer_jobs_running" in scrape(), timeout=30, what="metrics served")
    assert 'nbmodernizer_executions_total{result="reproducible"} 0.0' in scrape()  # from the start
    k8s_api.create(NBMS, push_case(tmp_path, s3_bucket, "first", READ, SLOW, PREDICT, WRITE))
    wait_until(lambda: job_names(k8s_api, "first"), timeout=60, what="the first Job")
    k8s_api.create(NBMS, push_case(tmp_path, s3_bucket, "second"))
    queued = k8s_api.wait_for(
        NBMS, "second", lambda o: status_of(o).get("phase") == "Queued", timeout=30
    )
    assert job_names(k8s_api, "second") == []
    assert status_of(queued)["phase"] == "Queued"
    # change the spec of the running one: recorded, not applied
    k8s_api.patch(NBMS, "first", {"spec": {"score": {"target": 0.5}}})
    changed = k8s_api.wait_for(
        NBMS, "first",
        lambda o: any(
            c.get("reason") == "SpecChangedAfterStart" for c in status_of(o).get("conditions", [])
        ),
        timeout=30,
    )  # fmt: skip
    assert changed["metadata"]["generation"] == 2
    done = wait_finished(k8s_api, "first", operator)
    assert (
        status_of(done)["score"]["target"] == 1.0
        and status_of(done)["outcome"] == "ErrorFreeReproducible"
    )
    wait_finished(k8s_api, "second", operator)
    metrics = scrape()
    assert 'nbmodernizer_executions_total{result="reproducible"} 2.0' in metrics
    assert 'nbmodernizer_outcomes_total{outcome="ErrorFreeReproducible"} 2.0' in metrics
    assert 'nbmodernizer_modernizations{phase="Succeeded"} 2.0' in metrics
    assert "nbmodernizer_execution_duration_seconds_count 2.0" in metrics
    # deleting a running modernization stops its Job; its revisions stay
    k8s_api.create(
        NBMS,
        push_case(
            tmp_path, s3_bucket, "doomed", READ, "import time\ntime.sleep(60)", PREDICT, WRITE
        ),
    )
    wait_until(lambda: job_names(k8s_api, "doomed"), timeout=60, what="the doomed Job")
    k8s_api.delete(NBMS, "doomed")
    wait_until(lambda: k8s_api.find(NBMS, "doomed") is None, timeout=30, what="the resource gone")
    wait_until(lambda: job_names(k8s_api, "doomed") == [], timeout=30, what="its Job deleted")
    time.sleep(0.5)
    revision0 = f"runs/{k8s_api.namespace}/doomed/revisions/0000/"
    assert any(key.startswith(revision0) for key in s3_bucket.keys())  # noqa: SIM118


def test_past_the_fleets_llm_budget_a_fix_waits_visibly(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    llm = {"model": "test-model", "inputUSDPerMTok": 10, "outputUSDPerMTok": 10}

    def needs_the_llm(name: str) -> dict[str, Any]:
        document = push_case(tmp_path, s3_bucket, name, READ, PREDICT, "1/0", WRITE)
        document["spec"]["fix"].update({"fixers": ["rules", "llm"], "llm": llm, "maxIterations": 2})
        return document

    fixed = fix_reply({3: "ratio = 1"}, "no division by zero")
    with scripted_llm(Answer(fixed, 1000, 200), Answer(fixed, 1000, 200)) as server:
        env = {"OPENAI_BASE_URL": server.url, "OPENAI_API_KEY": "sk-x"}
        operator = nbmod_operator("--llm-budget-usd-per-hour", "0.005", env=env)
        k8s_api.create(NBMS, needs_the_llm("first"))
        first = status_of(wait_finished(k8s_api, "first", operator))
        assert first["outcome"] == "ErrorFreeReproducible" and first["cost"]["usd"] == 0.012
        k8s_api.create(NBMS, needs_the_llm("second"))

        def held() -> dict[str, Any] | None:
            status = status_of(k8s_api.get(NBMS, "second"))
            budget = [c for c in status.get("conditions", []) if c["type"] == "LLMBudgetAvailable"]
            return status if budget and budget[0]["status"] == "False" else None

        status = wait_until(held, timeout=120, what="the second fix to wait for the budget")
    assert status["phase"] == "Queued"
    condition = next(c for c in status["conditions"] if c["type"] == "LLMBudgetAvailable")
    assert condition["reason"] == "BudgetSpent"
    assert "$0.01 per hour is spent ($0.01 in the last hour); resumes in" in condition["message"]
    assert len(server.requests) == 1  # the second notebook's fix never reached the LLM
