"""What the operator knows of runner Jobs: their state, what a Job that stored nothing means,
and the operator-wide cap on Jobs that have not finished."""

from __future__ import annotations

import threading
from collections.abc import Mapping

from nbmodernizer import metrics
from nbmodernizer.cluster.wire import child, children, number, text
from nbmodernizer.status import ExecutionResult, ExecutionStatus


class Capacity:
    """The operator-wide cap on runner Jobs that have not finished."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.active: set[str] = set()
        self.lock = threading.Lock()

    def reserve(self, key: str) -> bool:
        with self.lock:
            if key in self.active:
                return True
            if len(self.active) >= self.limit:
                return False
            self.active.add(key)
            metrics.JOBS_RUNNING.set(len(self.active))
            return True

    def mark(self, key: str, running: bool) -> None:
        with self.lock:
            if running:
                self.active.add(key)
            else:
                self.active.discard(key)
            metrics.JOBS_RUNNING.set(len(self.active))


def job_key(namespace: str, name: str) -> str:
    return f"{namespace}/{name}"


def job_state(job: Mapping[str, object]) -> tuple[str, str]:
    """('running' | 'suspended' | 'succeeded' | 'failed', reason)."""
    status = child(job, "status")
    for condition in children(status, "conditions"):
        if condition.get("status") != "True":
            continue
        if condition.get("type") in ("Complete", "SuccessCriteriaMet"):
            return "succeeded", text(condition, "reason") or "Complete"
        if condition.get("type") in ("Failed", "FailureTarget"):
            return "failed", text(condition, "reason") or "Failed"
    spec = child(job, "spec")
    if (number(status, "succeeded") or 0) >= (number(spec, "completions") or 1):
        return "succeeded", "Complete"
    if status.get("failed") and spec.get("completionMode") != "Indexed":  # indexes: retried
        return "failed", "Failed"
    if spec.get("suspend"):
        return "suspended", "Suspended"
    return "running", ""


def infrastructure_result(state: str, reason: str, deadline: float) -> ExecutionResult:
    """What a Job that finished without stored results tells about the execution."""
    if reason == "DeadlineExceeded":
        return ExecutionResult(
            status=ExecutionStatus.TIMEOUT,
            duration_seconds=deadline,
            failure="the Job exceeded its deadline (activeDeadlineSeconds) and was stopped",
        )
    if state == "succeeded":
        failure = "the Job succeeded but stored no execution result"
    else:
        failure = (
            f"the Job failed ({reason}): the runner exited non-zero; see its pod's logs "
            "(kubectl logs --all-containers)"
        )
    return ExecutionResult(status=ExecutionStatus.FAILED, duration_seconds=0.0, failure=failure)
