"""The operator's pure parts: Job states, conditions, the capacity cap, the work queue."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

from nbmodernizer.cluster import reconcile
from nbmodernizer.cluster.conditions import conditions_for
from nbmodernizer.cluster.controller import URGENT, WorkQueue
from nbmodernizer.cluster.jobs import JobSettings
from nbmodernizer.cluster.jobstate import Capacity, infrastructure_result, job_state
from nbmodernizer.cluster.status_writer import Progress, StatusWriter, merged
from nbmodernizer.cluster.subject import Subject
from nbmodernizer.loop import LoopState
from nbmodernizer.status import ExecutionStatus, Outcome, Phase


def test_job_states() -> None:
    assert job_state({"status": {}}) == ("running", "")
    assert job_state({"spec": {"suspend": True}, "status": {}}) == ("suspended", "Suspended")
    complete = {"status": {"succeeded": 1, "conditions": [{"type": "Complete", "status": "True"}]}}
    assert job_state(complete) == ("succeeded", "Complete")
    deadline = {
        "status": {
            "conditions": [{"type": "Failed", "status": "True", "reason": "DeadlineExceeded"}]
        }
    }
    assert job_state(deadline) == ("failed", "DeadlineExceeded")
    assert job_state({"status": {"failed": 1}}) == ("failed", "Failed")


def test_an_indexed_job_is_running_until_all_its_indexes_ended() -> None:
    indexed = {"completionMode": "Indexed", "completions": 4, "backoffLimitPerIndex": 1}
    some = {"succeeded": 2, "failed": 1, "completedIndexes": "0-1", "failedIndexes": "3"}
    assert job_state({"spec": indexed, "status": some}) == ("running", "")
    assert job_state({"spec": indexed, "status": {"succeeded": 4}}) == ("succeeded", "Complete")
    failed = [{"type": "Failed", "status": "True", "reason": "FailedIndexes"}]
    assert job_state({"spec": indexed, "status": {"conditions": failed}}) == (
        "failed",
        "FailedIndexes",
    )


def test_reconcile_py_stays_small() -> None:
    """New logic goes in modules of its own under cluster/ (indexed.py, grants.py, ...)."""
    source = Path(reconcile.__file__).read_text()
    assert len(source.splitlines()) < 600


def test_a_job_past_its_deadline_is_a_timeout_and_a_crash_is_a_failure() -> None:
    timeout = infrastructure_result("failed", "DeadlineExceeded", 720)
    assert timeout.status is ExecutionStatus.TIMEOUT and timeout.duration_seconds == 720
    crash = infrastructure_result("failed", "BackoffLimitExceeded", 720)
    assert crash.status is ExecutionStatus.FAILED and crash.failure is not None
    assert "BackoffLimitExceeded" in crash.failure
    silent = infrastructure_result("succeeded", "Complete", 720)
    assert silent.failure == "the Job succeeded but stored no execution result"


def test_conditions_follow_the_phase_and_keep_transition_times() -> None:
    running = conditions_for(Phase.RUNNING, None, "iteration 1", [], 3, "t1")
    by_type = {c["type"]: c for c in running}
    assert (
        by_type["Progressing"]["status"] == "True" and by_type["Progressing"]["reason"] == "Running"
    )
    assert by_type["Reproduced"]["status"] == "Unknown"
    assert by_type["SpecAccepted"]["status"] == "True"
    assert all(c["observedGeneration"] == 3 for c in running)
    done = conditions_for(
        Phase.SUCCEEDED, Outcome.ERROR_FREE_REPRODUCIBLE, "done", running, 3, "t2"
    )
    by_type = {c["type"]: c for c in done}
    assert (
        by_type["Progressing"]["status"] == "False"
        and by_type["Progressing"]["lastTransitionTime"] == "t2"
    )
    assert (
        by_type["Reproduced"]["status"] == "True"
        and by_type["Reproduced"]["reason"] == "ErrorFreeReproducible"
    )
    assert (
        by_type["StoreAvailable"]["lastTransitionTime"] == "t1"
    )  # unchanged status keeps its time
    broken = conditions_for(
        Phase.FAILED,
        Outcome.FAILED,
        "x",
        [],
        1,
        "t",
        spec_error="spec.score.target: Field required",
    )
    assert {c["type"]: c for c in broken}["SpecAccepted"]["reason"] == "InvalidSpec"


def test_capacity_caps_running_jobs() -> None:
    capacity = Capacity(2)
    assert capacity.reserve("a") and capacity.reserve("b")
    assert not capacity.reserve("c")
    assert capacity.reserve("a")  # already counted
    capacity.mark("a", running=False)
    assert capacity.reserve("c")


def test_work_queue_never_runs_one_key_twice_at_once_and_reruns_it_after() -> None:
    seen: list[str] = []
    inside: set[str] = set()
    overlap: list[str] = []

    def handle(key: str) -> float | None:
        if key in inside:
            overlap.append(key)
        inside.add(key)
        seen.append(key)
        import time

        time.sleep(0.05)
        inside.discard(key)
        return None

    async def scenario() -> None:
        queue = WorkQueue(handle, workers=3)
        queue.start()
        queue.add("ns/a")
        queue.add("ns/a")  # deduplicated while waiting
        queue.add("ns/b")
        await asyncio.sleep(0.01)
        queue.add("ns/a")  # arrives while a is being handled: handled again after
        await asyncio.sleep(0.3)
        await queue.stop()

    asyncio.run(scenario())
    assert overlap == []
    assert seen.count("ns/a") == 2 and seen.count("ns/b") == 1


def test_work_queue_reruns_a_busy_key_only_for_a_change_that_was_not_its_own_write() -> None:
    seen: list[str] = []
    written: set[str] = set()

    def handle(key: str) -> float | None:
        import time

        seen.append(key)
        time.sleep(0.05)
        written.add("v2")  # the write's answer comes after its watch event
        return None

    async def scenario() -> None:
        queue = WorkQueue(handle, workers=2)
        queue.start()
        queue.add("ns/a")
        queue.add("ns/b")
        await asyncio.sleep(0.01)
        queue.add("ns/a", lambda: "v2" in written)  # our own write: no second run
        queue.add("ns/b", lambda: "v3" in written)  # somebody else's change: run again
        await asyncio.sleep(0.3)
        queue.add("ns/a", lambda: "v2" in written)  # idle now, and known as ours
        await asyncio.sleep(0.1)
        await queue.stop()

    asyncio.run(scenario())
    assert seen.count("ns/a") == 1 and seen.count("ns/b") == 2


def test_a_status_write_that_changes_nothing_is_not_made_and_own_writes_are_known() -> None:
    assert merged({"a": 1, "b": {"c": 2, "d": 3}}, {"a": None, "b": {"d": 4}}) == {
        "b": {"c": 2, "d": 4}
    }
    patches: list[dict[str, object]] = []
    version = iter(range(10, 99))

    class Kube:
        def merge_patch(self, path: str, patch: dict[str, Any]) -> dict[str, object]:
            patches.append(patch)
            return {"metadata": {"resourceVersion": str(next(version))}, **patch}

    writer = StatusWriter(cast(Any, Kube()))
    subject = Subject.of(
        {"metadata": {"namespace": "ns", "name": "a", "generation": 1}, "spec": {}},
        JobSettings(runner_image="runner", s3_bucket="b"),
    )
    state = LoopState(max_iterations=3)
    written = writer.write(subject, state, Progress(Phase.RUNNING, 0), None)
    assert written is not None and len(patches) == 1
    again = writer.write(written, state, Progress(Phase.RUNNING, 0), None)
    assert again is written and len(patches) == 1  # the status says so already
    writer.write(written, state, Progress(Phase.RUNNING, 1), None)
    assert len(patches) == 2
    assert writer.wrote("ns/a", "10") and writer.wrote("ns/a", "11")
    assert not writer.wrote("ns/a", "12") and not writer.wrote("ns/b", "10")


def test_work_queue_takes_urgent_keys_first_and_a_key_once() -> None:
    seen: list[str] = []

    def handle(key: str) -> float | None:
        seen.append(key)
        return None

    async def scenario() -> None:
        queue = WorkQueue(handle, workers=1)
        for key in ("ns/new-1", "ns/new-2", "ns/started"):
            queue.add(key)
        queue.add("ns/started", priority=URGENT)  # its Job ended: it goes first, and once
        queue.add("ns/ended", priority=URGENT)
        queue.start()
        await asyncio.sleep(0.2)
        await queue.stop()

    asyncio.run(scenario())
    assert seen == ["ns/started", "ns/ended", "ns/new-1", "ns/new-2"]
