"""The modernization loop as a pure state machine: (state, event) -> (state, next action).

Drivers (the local CLI, the operator) perform the actions — execute a revision, ask the
fixer chain for the next one — and feed back what happened as events. Nothing here does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

from nbmodernizer.diagnose import diagnose
from nbmodernizer.status import (
    CostSummary,
    Diagnosis,
    ExecutionResult,
    FixRecord,
    FixType,
    Issue,
    Outcome,
    ScoreResult,
)


@dataclass(frozen=True)
class Attempt:
    """One executed revision and what came of it."""

    revision: int
    execution: ExecutionResult
    score: ScoreResult
    diagnosis: Diagnosis
    fix: FixRecord | None  # how this revision was made; None for the original
    run: int = 0  # the run that speaks for the revision (`revision.representative_index`)


class Graded(NamedTuple):
    """What grading a revision's runs gave: the execution and the index of the run that
    speaks for the revision (`revision.representative_index`), and the score of them all."""

    execution: ExecutionResult
    score: ScoreResult
    run: int = 0


# Actions: what the driver must do next.
@dataclass(frozen=True)
class Execute:
    revision: int


@dataclass(frozen=True)
class RequestFix:
    revision: int  # the revision to fix
    next_revision: int
    issue: Issue
    fix_type: FixType


@dataclass(frozen=True)
class Finish:
    outcome: Outcome
    best_revision: int | None
    reason: str


Action = Execute | RequestFix | Finish


# Events: what happened.
@dataclass(frozen=True)
class Executed:
    revision: int
    execution: ExecutionResult
    score: ScoreResult
    run: int = 0  # the representative run


@dataclass(frozen=True)
class Fixed:
    fix: FixRecord


@dataclass(frozen=True)
class NotFixed:
    reason: str
    spent: CostSummary = field(default_factory=CostSummary)  # fixers may spend and still fail


@dataclass(frozen=True)
class Unrunnable:
    """The input cannot be run at all (invalid notebook, missing inputs, bad spec)."""

    reason: str


Event = Executed | Fixed | NotFixed | Unrunnable


@dataclass(frozen=True)
class LoopState:
    max_iterations: int
    attempts: tuple[Attempt, ...] = ()
    pending_fix: FixRecord | None = None
    finish: Finish | None = None
    unattributed: CostSummary = field(default_factory=CostSummary)  # spent on failed fixes

    @property
    def spent(self) -> CostSummary:
        total = self.unattributed
        for fix in self.fixes:
            total = total.plus(fix.cost)
        return total

    @property
    def fixes(self) -> list[FixRecord]:
        made = [a.fix for a in self.attempts if a.fix is not None]
        return made + ([self.pending_fix] if self.pending_fix is not None else [])

    @property
    def best(self) -> Attempt | None:
        return max(self.attempts, key=_rank, default=None)


def _rank(attempt: Attempt) -> tuple[bool, bool, bool, bool, float, int]:
    """Reproduced beats not; error-free beats errors; closer beats farther; earlier wins ties."""
    score = attempt.score
    return (
        score.reproduced,
        not attempt.execution.has_errors,
        attempt.diagnosis.outcome is not Outcome.FAILED,
        score.value is not None,
        -(score.relative_gap if score.relative_gap is not None else float("inf")),
        -attempt.revision,
    )


def start(max_iterations: int) -> tuple[LoopState, Action]:
    return LoopState(max_iterations=max_iterations), Execute(revision=0)


def unrunnable(reason: str) -> LoopState:
    """The finished state of a loop that could not start (invalid input, unreachable store)."""
    state, _ = step(LoopState(max_iterations=1), Unrunnable(reason))
    return state


def _finish(state: LoopState, reason: str) -> tuple[LoopState, Action]:
    best = state.best
    outcome = best.diagnosis.outcome if best is not None else Outcome.FAILED
    finish = Finish(outcome=outcome, best_revision=best.revision if best else None, reason=reason)
    return replace(state, finish=finish, pending_fix=None), finish


def step(state: LoopState, event: Event) -> tuple[LoopState, Action]:
    if state.finish is not None:
        return state, state.finish
    match event:
        case Unrunnable(reason=reason):
            finish = Finish(outcome=Outcome.FAILED, best_revision=None, reason=reason)
            return replace(state, finish=finish), finish
        case Executed():
            return _after_execution(state, event)
        case Fixed(fix=fix):
            return replace(state, pending_fix=fix), Execute(revision=fix.iteration)
        case NotFixed(reason=reason, spent=spent):
            state = replace(state, unattributed=state.unattributed.plus(spent))
            return _finish(state, _not_fixed(state, reason))


def _not_fixed(state: LoopState, notes: str) -> str:
    """Why the loop stops when no fixer changed the notebook: what the environment lacks
    first, where that is what failed (the fixers' notes would only say they had nothing)."""
    diagnosis = state.attempts[-1].diagnosis if state.attempts else None
    if diagnosis is not None and diagnosis.environment is not None:
        lacks = f"the environment lacks what the notebook needs ({diagnosis.environment.value})"
        return f"{lacks}: {diagnosis.detail}; no fixer changed the notebook: {notes}"
    return f"no fixer changed the notebook: {notes}"


def _after_execution(state: LoopState, event: Executed) -> tuple[LoopState, Action]:
    diagnosis = diagnose(event.execution, event.score)
    attempt = Attempt(
        event.revision, event.execution, event.score, diagnosis, state.pending_fix, event.run
    )
    state = replace(state, attempts=(*state.attempts, attempt), pending_fix=None)
    if diagnosis.issue is Issue.NONE:
        return _finish(state, "the score reproduces and every cell runs")
    if diagnosis.outcome is Outcome.FAILED:
        return _finish(state, f"the notebook could not run: {diagnosis.detail}")
    if len(state.attempts) >= state.max_iterations:
        return _finish(state, f"reached maxIterations ({state.max_iterations})")
    assert diagnosis.fix_type is not None
    return state, RequestFix(
        revision=event.revision,
        next_revision=event.revision + 1,
        issue=diagnosis.issue,
        fix_type=diagnosis.fix_type,
    )
