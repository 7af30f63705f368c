"""The loop's state as the status/report object (one schema for report.json and .status)."""

from __future__ import annotations

from collections.abc import Callable

from nbmodernizer.loop import Attempt, LoopState
from nbmodernizer.spec import ScoreSpec
from nbmodernizer.status import (
    Issue,
    ModernizationStatus,
    Outcome,
    Phase,
    RevisionRecord,
    ScoreSummary,
)


def _revision_record(attempt: Attempt, uri: str) -> RevisionRecord:
    fix = attempt.fix
    return RevisionRecord(
        iteration=attempt.revision,
        uri=uri,
        issue=attempt.diagnosis.issue,
        outcome=attempt.diagnosis.outcome,
        fix_type=fix.type if fix else None,
        fixer=fix.fixer if fix else None,
        score=attempt.score.value,
        scores=attempt.score.values if len(attempt.score.values) > 1 else [],
        evidence=attempt.score.evidence,
        runs=attempt.score.runs,
        duration_seconds=attempt.execution.duration_seconds,
        fidelity=fix.fidelity if fix else None,
    )


def _score_summary(spec: ScoreSpec | None, best: Attempt | None) -> ScoreSummary | None:
    if spec is None:
        return None
    return ScoreSummary(
        metric=spec.metric,
        target=spec.target,
        value=best.score.value if best else None,
        reproduced=bool(best and best.score.reproduced),
        tolerance=spec.tolerance,
    )


def _last_error(state: LoopState) -> str | None:
    if not state.attempts:  # stopped before running: the reason is the error
        return state.finish.reason if state.finish else None
    last = state.attempts[-1]
    return last.diagnosis.detail if last.diagnosis.issue is not Issue.NONE else None


def phase_of(state: LoopState) -> Phase:
    """Failed or Succeeded once the loop finished, else Running (the cluster driver says
    Queued or Fixing where it waits for those)."""
    if state.finish is None:
        return Phase.RUNNING
    return Phase.FAILED if state.finish.outcome is Outcome.FAILED else Phase.SUCCEEDED


def headline(state: LoopState, spec: ScoreSpec | None) -> str:
    best = state.best
    if state.finish is None:
        return f"iteration {len(state.attempts) + 1} of at most {state.max_iterations}"
    runs = len(state.attempts)
    parts = [f"{state.finish.outcome.value} after {runs} iteration{'s' if runs != 1 else ''}"]
    if spec is not None and best is not None and best.score.value is not None:
        parts.append(
            f"{spec.metric.value} {best.score.value:.6g} vs target {spec.target:.6g}"
            f" (revision {best.revision})"
        )
    parts.append(state.finish.reason)
    return "; ".join(parts)


def build_status(
    state: LoopState,
    spec: ScoreSpec | None,
    uri_of: Callable[[int], str],
    phase: Phase,
    started_at: str | None = None,
    completed_at: str | None = None,
    notes: list[str] | None = None,
) -> ModernizationStatus:
    best = state.best
    last = state.attempts[-1] if state.attempts else None
    fixes = state.fixes
    return ModernizationStatus(
        phase=phase,
        outcome=state.finish.outcome if state.finish else None,
        message=headline(state, spec),
        iteration=last.revision if last else 0,
        iterations=len(state.attempts),
        best_revision=state.finish.best_revision if state.finish else None,
        last_issue=last.diagnosis.issue if last else None,
        last_error=_last_error(state),
        score=_score_summary(spec, best),
        cost=state.spent,
        fixes=fixes,
        revisions=[_revision_record(a, uri_of(a.revision)) for a in state.attempts],
        stop_reason=state.finish.reason if state.finish else None,
        notes=notes or [],
        started_at=started_at,
        completed_at=completed_at,
    )
