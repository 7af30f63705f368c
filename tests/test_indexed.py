"""Runs of an Indexed Job: which have arrived (from the Job's status) and whether they decide,
graded from a real store by the engine's grader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from nbmodernizer.cluster.indexed import (
    Arrived,
    arrived,
    has_arrivals,
    judge,
    parse_indexes,
    stop_message,
)
from nbmodernizer.engine import (
    executed_of,
    grade_revision,
    load_executed,
    load_notebook,
    record_result,
    replay,
    store_execution,
    store_run,
)
from nbmodernizer.loop import start
from nbmodernizer.notebook import serialise
from nbmodernizer.revision import RunOutput
from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.status import ExecutionStatus
from nbmodernizer.store import layout
from nbmodernizer.store.revisions import LocalStore
from testing.factories import ran
from testing.notebooks import notebook
from tests.test_engine import ANSWERS, GOOD

BAD = b"id,y\n1,0\n2,1\n"  # accuracy 0


def spec(runs: int = 4, policy: str = "fixed") -> ModernizationSpec:
    score = {"metric": "accuracy", "target": 1.0, "answers": "a.csv", "runs": runs}
    return ModernizationSpec.model_validate(
        {"notebook": "n.ipynb", "score": score | {"runsPolicy": policy}}
    )


def job(**status: Any) -> dict[str, Any]:
    spec = {"completionMode": "Indexed", "completions": 4, "backoffLimitPerIndex": 1}
    return {"spec": spec | {"activeDeadlineSeconds": 720}, "status": status}


def ended(reason: str) -> list[dict[str, str]]:
    return [{"type": "Failed", "status": "True", "reason": reason}]


def test_parse_indexes() -> None:
    assert parse_indexes("0-2,5") == {0, 1, 2, 5}
    assert parse_indexes("3") == {3}
    assert parse_indexes("") == parse_indexes(None) == set()
    with pytest.raises(ValueError, match="not a list of indexes"):
        parse_indexes("0-x")


def test_runs_arrive_in_index_order() -> None:
    assert arrived(job(active=4), 4) == Arrived(0)
    assert arrived(job(completedIndexes="1-3"), 4).count == 0  # run 0 still going
    assert arrived(job(completedIndexes="0,2"), 4).count == 1
    some = arrived(job(completedIndexes="0,2", failedIndexes="1"), 4)
    assert (some.count, sorted(some.failed), some.ended) == (3, [1], False)
    assert some.failed[1].status is ExecutionStatus.FAILED
    assert "run 1's pod failed 2 times (backoffLimitPerIndex 1)" in (some.failed[1].failure or "")


def test_an_ended_job_ends_every_run_it_did_not_complete() -> None:
    late = arrived(job(completedIndexes="0,2", conditions=ended("DeadlineExceeded")), 4)
    assert (late.count, sorted(late.failed), late.ended) == (4, [1, 3], True)
    assert late.failed[3].status is ExecutionStatus.TIMEOUT
    assert late.failed[3].duration_seconds == 720
    assert arrived(None, 4) == Arrived(4, {}, True)  # gone: the store says what ran


def test_only_an_indexed_job_with_ended_runs_asks_for_a_reconcile() -> None:
    assert has_arrivals(job(completedIndexes="0"))
    assert has_arrivals(job(failedIndexes="2"))
    assert not has_arrivals(job(active=4))
    assert not has_arrivals({"spec": {}, "status": {"succeeded": 1}})


@pytest.fixture
def store(tmp_path: Path) -> LocalStore:
    store = LocalStore(tmp_path / "store")
    store.put(0, layout.NOTEBOOK, serialise(notebook("x = 1")))
    return store


def put_runs(store: LocalStore, *submissions: bytes | None, first: int = 0) -> None:
    for run, submission in enumerate(submissions, start=first):
        store_run(store, 0, run, RunOutput(notebook(f"run = {run}"), ran(), submission))


def judged(store: LocalStore, runs: Arrived, spec: ModernizationSpec) -> Any:
    return judge(runs, spec.score, lambda n, failed: grade_revision(
        store, 0, ANSWERS, spec, None, n, failed))  # fmt: skip


def test_each_run_stores_its_own_files_run_0_the_plain_names(store: LocalStore) -> None:
    put_runs(store, GOOD, None, GOOD)
    names = sorted(p.name for p in (store.root / "revisions/0000").iterdir())
    assert names == [
        "executed-1.ipynb",
        "executed-2.ipynb",
        "executed.ipynb",
        "execution-1.json",
        "execution-2.json",
        "execution.json",
        "notebook.ipynb",
        "submission-2.csv",  # run 1 wrote none
        "submission.csv",
    ]


def test_fixed_runs_wait_for_all_then_grade_each(store: LocalStore) -> None:
    put_runs(store, GOOD, GOOD, GOOD)
    assert judged(store, Arrived(3), spec()) is None  # fixed: all four are needed
    put_runs(store, GOOD, first=3)
    done = judged(store, Arrived(4, {}, True), spec())
    assert done is not None and not done.stop
    assert done.score.values == [1.0] * 4 and done.score.runs == 4 and done.score.reproduced


def test_adaptive_runs_stop_once_they_decide(store: LocalStore) -> None:
    put_runs(store, GOOD, GOOD)
    assert judged(store, Arrived(2), spec(policy="adaptive")) is None  # fewer than 3
    put_runs(store, GOOD, first=2)
    done = judged(store, Arrived(3), spec(policy="adaptive"))
    assert done is not None and done.stop  # run 3 still goes: the Job is to be deleted
    assert done.score.runs == 3 and done.score.reproduced
    assert "after 3 of 4 runs" in (done.score.evidence or "")
    assert stop_message("x-it-000", done).startswith("Job x-it-000 stopped after 3 run(s): ")
    again = grade_revision(store, 0, ANSWERS, spec(policy="adaptive"), None, done.score.runs)
    assert again == done.graded  # grading the stored revision again agrees


def test_a_run_that_failed_decides_at_once_and_speaks_for_the_revision(
    store: LocalStore,
) -> None:
    put_runs(store, GOOD)
    put_runs(store, BAD, first=1)  # a forged or partial upload of a failed index: not read
    runs = arrived(job(completedIndexes="0", failedIndexes="1"), 4)
    done = judged(store, runs, spec())
    assert done is not None and done.stop and done.score.runs == 2
    assert done.execution.status is ExecutionStatus.FAILED
    assert "run 1's pod failed" in (done.execution.failure or "")
    assert done.score.value is None and done.score.reason is not None


def test_a_completed_index_that_stored_nothing_is_an_error_run(store: LocalStore) -> None:
    put_runs(store, GOOD)
    done = judged(store, arrived(job(completedIndexes="0-1"), 4), spec())
    assert done is not None and done.execution.status is ExecutionStatus.FAILED
    assert "run 1 stored no execution-1.json" in (done.execution.failure or "")


def test_a_run_whose_submission_cannot_be_graded_decides(store: LocalStore) -> None:
    put_runs(store, GOOD, None)
    done = judged(store, Arrived(2), spec())
    assert done is not None and done.execution.status is ExecutionStatus.COMPLETED
    assert done.score.reason is not None and done.score.values == [1.0]


def test_a_revision_whose_one_pod_ran_every_run_is_graded_as_before(store: LocalStore) -> None:
    """A Job of an older operator (one pod, `--runs 3`) left one execution.json for all."""
    outputs = [RunOutput(notebook("x = 1"), ran(), GOOD) for _ in range(3)]
    store_execution(store, 0, outputs)
    execution, score, _ = grade_revision(store, 0, ANSWERS, spec(3), None, 3)
    assert score.values == [1.0, 1.0, 1.0] and score.runs == 3
    assert execution.status is ExecutionStatus.COMPLETED


def test_the_run_that_speaks_for_the_revision_is_recorded_and_its_notebook_read(
    store: LocalStore,
) -> None:
    """Run 1 raised: result.json names it, and the fixer is shown run 1's executed notebook."""
    put_runs(store, GOOD)
    raised = ran((1, "ValueError"), status=ExecutionStatus.FAILED)
    store_run(store, 0, 1, RunOutput(notebook("raised = 1"), raised, GOOD))
    done = judged(store, Arrived(2, {}, True), spec())
    assert done is not None and done.graded.run == 1
    state, _ = record_result(store, start(4)[0], 0, *done.graded)
    assert json.loads(store.get(0, layout.RESULT))["run"] == 1
    attempt = replay(store, 4)[0].attempts[0]
    assert attempt == state.attempts[0] and executed_of(attempt) == "executed-1.ipynb"
    executed = load_executed(store, 0, load_notebook(store, 0), executed_of(attempt))
    assert executed.cells[1].source == "raised = 1"
