"""Execution + score -> the issue to fix and the paper's outcome category. Pure."""

from __future__ import annotations

from nbmodernizer.status import (
    Diagnosis,
    ExecutionResult,
    ExecutionStatus,
    FixType,
    Issue,
    Outcome,
    ScoreResult,
)

FIX_FOR_ISSUE = {
    Issue.TIMEOUT: FixType.RUNTIME_REDUCTION,
    Issue.ERROR: FixType.ERROR_REPAIR,
    Issue.SCORE_DEVIATION: FixType.SCORE_CALIBRATION,
}


def outcome_of(execution: ExecutionResult, score: ScoreResult) -> Outcome:
    if execution.status is ExecutionStatus.FAILED and execution.cells_executed == 0:
        return Outcome.FAILED
    if score.reproduced:
        return (
            Outcome.ERROR_REPRODUCIBLE if execution.has_errors else Outcome.ERROR_FREE_REPRODUCIBLE
        )
    if execution.has_errors:
        return Outcome.ERROR_NON_REPRODUCIBLE
    return Outcome.ERROR_FREE_NON_REPRODUCIBLE


def _first_error(execution: ExecutionResult) -> str:
    if execution.failure:
        return execution.failure
    error = execution.cell_errors[0]
    return f"cell {error.cell_index}: {error.ename}: {error.evalue}".strip()


def _gap(score: ScoreResult) -> str:
    return (
        f"{score.metric.value} {score.value:.6g} vs target {score.target:.6g}"
        f" (relative gap {score.relative_gap or 0.0:.1%})"
    )


def diagnose(execution: ExecutionResult, score: ScoreResult) -> Diagnosis:
    outcome = outcome_of(execution, score)
    if execution.status is ExecutionStatus.TIMEOUT:
        issue = Issue.TIMEOUT
        detail = execution.failure or (
            f"stopped at cell {execution.timed_out_cell} after {execution.duration_seconds:.0f}s"
        )
    elif execution.status is ExecutionStatus.FAILED or execution.cell_errors:
        issue, detail = Issue.ERROR, _first_error(execution)
    elif score.value is None:
        issue, detail = Issue.ERROR, score.reason or "no score"
    elif not score.reproduced:
        issue, detail = Issue.SCORE_DEVIATION, _gap(score)
    else:
        return Diagnosis(issue=Issue.NONE, detail=_gap(score), outcome=outcome)
    return Diagnosis(issue=issue, fix_type=FIX_FOR_ISSUE[issue], detail=detail, outcome=outcome)
