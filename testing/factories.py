"""Small builders for engine records, so pure tests read as scenarios."""

from __future__ import annotations

from nbmodernizer.spec import Metric
from nbmodernizer.status import (
    CellError,
    CostSummary,
    ExecutionResult,
    ExecutionStatus,
    FixRecord,
    FixType,
    Issue,
    ScoreResult,
)

TARGET = 0.9


def ran(
    *errors: tuple[int, str], status: ExecutionStatus = ExecutionStatus.COMPLETED, executed: int = 5
) -> ExecutionResult:
    return ExecutionResult(
        status=status,
        duration_seconds=1.0,
        cells_total=5,
        cells_executed=executed,
        cell_errors=[CellError(cell_index=i, ename=name, evalue="boom") for i, name in errors],
        timed_out_cell=executed if status is ExecutionStatus.TIMEOUT else None,
        failure="kernel did not start" if status is ExecutionStatus.FAILED else None,
    )


def scored(value: float | None, reason: str | None = None) -> ScoreResult:
    if value is None:
        return ScoreResult(metric=Metric.ACCURACY, target=TARGET, reason=reason or "no submission")
    gap = abs(value - TARGET) / TARGET
    return ScoreResult(
        metric=Metric.ACCURACY,
        target=TARGET,
        value=value,
        values=[value],
        reproduced=gap <= 0.1,
        relative_gap=gap,
    )


def fix_record(iteration: int, issue: Issue = Issue.ERROR, fixer: str = "rules") -> FixRecord:
    kind = {
        Issue.ERROR: FixType.ERROR_REPAIR,
        Issue.TIMEOUT: FixType.RUNTIME_REDUCTION,
        Issue.SCORE_DEVIATION: FixType.SCORE_CALIBRATION,
    }[issue]
    return FixRecord(
        iteration=iteration,
        issue=issue,
        type=kind,
        fixer=fixer,
        cost=CostSummary(usd=0.01, input_tokens=10, output_tokens=5),
    )
