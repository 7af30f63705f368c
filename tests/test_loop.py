"""The loop and the diagnosis are pure: drive them with events, no kernel."""

from __future__ import annotations

import pytest

from nbmodernizer.diagnose import diagnose
from nbmodernizer.loop import (
    Execute,
    Executed,
    Finish,
    Fixed,
    NotFixed,
    RequestFix,
    Unrunnable,
    start,
    step,
)
from nbmodernizer.spec import Metric, ScoreSpec
from nbmodernizer.status import ExecutionStatus, FixType, Issue, Outcome, Phase
from nbmodernizer.summary import build_status
from testing.factories import fix_record, ran, scored


@pytest.mark.parametrize(
    ("execution", "score", "issue", "outcome"),
    [
        (ran(), scored(0.91), Issue.NONE, Outcome.ERROR_FREE_REPRODUCIBLE),
        (ran((3, "ValueError")), scored(0.91), Issue.ERROR, Outcome.ERROR_REPRODUCIBLE),
        (ran(), scored(0.5), Issue.SCORE_DEVIATION, Outcome.ERROR_FREE_NON_REPRODUCIBLE),
        (ran((1, "AttributeError")), scored(None), Issue.ERROR, Outcome.ERROR_NON_REPRODUCIBLE),
        (
            ran(),
            scored(None, "the notebook did not write submission.csv"),
            Issue.ERROR,
            Outcome.ERROR_FREE_NON_REPRODUCIBLE,
        ),
        (
            ran(status=ExecutionStatus.TIMEOUT, executed=2),
            scored(None),
            Issue.TIMEOUT,
            Outcome.ERROR_NON_REPRODUCIBLE,
        ),
        (ran(status=ExecutionStatus.FAILED, executed=0), scored(None), Issue.ERROR, Outcome.FAILED),
    ],
)
def test_diagnosis_and_outcome(execution, score, issue, outcome) -> None:
    diagnosis = diagnose(execution, score)
    assert (diagnosis.issue, diagnosis.outcome) == (issue, outcome)


def test_fix_type_follows_issue() -> None:
    assert (
        diagnose(ran(status=ExecutionStatus.TIMEOUT), scored(None)).fix_type
        is FixType.RUNTIME_REDUCTION
    )
    assert (
        diagnose(
            ran(
                (0, "E"),
            ),
            scored(None),
        ).fix_type
        is FixType.ERROR_REPAIR
    )
    assert diagnose(ran(), scored(0.2)).fix_type is FixType.SCORE_CALIBRATION
    assert (
        "did not write" in diagnose(ran(), scored(None, "the notebook did not write s.csv")).detail
    )


def test_reproducible_at_once_finishes_after_one_execution() -> None:
    state, action = start(16)
    assert action == Execute(0)
    state, action = step(state, Executed(0, ran(), scored(0.9)))
    assert isinstance(action, Finish)
    assert action.outcome is Outcome.ERROR_FREE_REPRODUCIBLE and action.best_revision == 0


def test_error_then_fix_then_reproduced() -> None:
    state, _ = start(16)
    state, action = step(state, Executed(0, ran((2, "AttributeError")), scored(None)))
    assert action == RequestFix(
        revision=0, next_revision=1, issue=Issue.ERROR, fix_type=FixType.ERROR_REPAIR
    )
    state, action = step(state, Fixed(fix_record(1)))
    assert action == Execute(1)
    state, action = step(state, Executed(1, ran(), scored(0.89)))
    assert isinstance(action, Finish) and action.best_revision == 1
    assert [a.fix.iteration if a.fix else None for a in state.attempts] == [None, 1]


def test_error_reproducible_keeps_fixing_then_stops_when_nothing_changes() -> None:
    state, _ = start(16)
    state, action = step(state, Executed(0, ran((4, "ValueError")), scored(0.9)))
    assert isinstance(action, RequestFix) and action.issue is Issue.ERROR
    state, action = step(state, NotFixed("rules: no change"))
    assert isinstance(action, Finish)
    assert action.outcome is Outcome.ERROR_REPRODUCIBLE
    assert action.reason == "no fixer changed the notebook: rules: no change"


def test_max_iterations_counts_executions_and_keeps_the_best() -> None:
    state, _ = start(3)
    values = [0.5, 0.7, 0.6]
    for revision, value in enumerate(values):
        state, action = step(state, Executed(revision, ran(), scored(value)))
        if revision < 2:
            assert isinstance(action, RequestFix)
            state, action = step(state, Fixed(fix_record(revision + 1, Issue.SCORE_DEVIATION)))
    assert isinstance(action, Finish)
    assert action.reason == "reached maxIterations (3)"
    assert action.best_revision == 1  # closest to the target, though not reproduced
    assert action.outcome is Outcome.ERROR_FREE_NON_REPRODUCIBLE


def test_best_prefers_error_free_reproduction_over_an_earlier_erroring_one() -> None:
    state, _ = start(16)
    state, _ = step(state, Executed(0, ran((1, "E")), scored(0.9)))
    state, _ = step(state, Fixed(fix_record(1)))
    state, action = step(state, Executed(1, ran(), scored(0.86)))
    assert isinstance(action, Finish) and action.best_revision == 1
    assert action.outcome is Outcome.ERROR_FREE_REPRODUCIBLE


def test_kernel_that_cannot_start_is_failed_without_fixing() -> None:
    state, _ = start(16)
    state, action = step(
        state, Executed(0, ran(status=ExecutionStatus.FAILED, executed=0), scored(None))
    )
    assert isinstance(action, Finish) and action.outcome is Outcome.FAILED


def test_unrunnable_input_and_finished_state_is_terminal() -> None:
    state, _ = start(16)
    state, action = step(state, Unrunnable("spec.notebook: file not found: x.ipynb"))
    assert action == Finish(Outcome.FAILED, None, "spec.notebook: file not found: x.ipynb")
    again, action2 = step(state, Executed(0, ran(), scored(0.9)))
    assert again is state and action2 == action


def test_status_sums_cost_and_lists_revisions() -> None:
    state, _ = start(16)
    state, _ = step(state, Executed(0, ran((0, "ImportError")), scored(None)))
    state, _ = step(state, Fixed(fix_record(1, fixer="llm")))
    state, _ = step(state, Executed(1, ran(), scored(0.9)))
    score_spec = ScoreSpec(metric=Metric.ACCURACY, target=0.9, answers="a.csv")
    status = build_status(state, score_spec, lambda r: f"mem://{r}", Phase.SUCCEEDED)
    wire = status.to_wire()
    assert wire["outcome"] == "ErrorFreeReproducible"
    assert wire["iterations"] == 2 and wire["bestRevision"] == 1
    assert wire["cost"] == {
        "usd": 0.01,
        "inputTokens": 10,
        "outputTokens": 5,
        "requests": 0,
        "rejectedReplies": 0,
        "estimatedReplies": 0,
        "savedUsd": 0.0,
    }
    assert [r["uri"] for r in wire["revisions"]] == ["mem://0", "mem://1"]
    assert wire["revisions"][1]["fixer"] == "llm"
    assert wire["fixes"][0]["type"] == "ErrorRepair"
    assert wire["score"] == {
        "metric": "accuracy",
        "target": 0.9,
        "value": 0.9,
        "reproduced": True,
        "tolerance": 0.1,
    }


def test_a_status_as_a_merge_patch_removes_what_no_longer_holds() -> None:
    state, _ = start(16)
    state, _ = step(state, Executed(0, ran((0, "ImportError")), scored(None)))
    before = build_status(state, None, lambda r: f"mem://{r}", Phase.FIXING).to_wire()
    assert before["lastError"]
    state, _ = step(state, Fixed(fix_record(1)))
    state, _ = step(state, Executed(1, ran(), scored(0.9)))
    after = build_status(state, None, lambda r: f"mem://{r}", Phase.SUCCEEDED)
    patch = after.merge_patch({**before, "conditions": []})
    assert patch["lastError"] is None  # the fixed error goes; fields of others stay
    assert "conditions" not in patch and patch["outcome"] == "ErrorFreeReproducible"
