"""The steps both drivers take, with the revision store as the only memory.

Every step reads what it needs from the store and writes what it learnt there before the
loop moves on, so a driver that stops at any point can `replay` the store and continue: the
local CLI runs the steps in one process; the operator runs them across Job completions and
restarts.

Per revision the store holds, in the order they are written:
    notebook.ipynb (+ fix.json)     the revision, before it runs      (driver / fixer)
    executed.ipynb, execution.json,
    submission[-N].csv               what running it produced          (executor: CLI or pod)
    result.json                      execution, score and diagnosis    (grader: CLI or operator)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from nbmodernizer.fidelity import assess
from nbmodernizer.fixers import FixerChain, FixRequest
from nbmodernizer.fixers.base import Learner
from nbmodernizer.loop import (
    Action,
    Executed,
    Fixed,
    LoopState,
    NotFixed,
    RequestFix,
    start,
    step,
)
from nbmodernizer.notebook import Notebook, cell_changes, parse_notebook, serialise
from nbmodernizer.revision import RunOutput, grade_runs, representative, representative_index
from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.status import ExecutionResult, FixRecord, ScoreResult
from nbmodernizer.store import (
    EXECUTED,
    EXECUTION,
    FIX,
    NOTEBOOK,
    RESULT,
    RevisionStore,
    submission_name,
)


def _json(data: object) -> bytes:
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode()


def store_execution(store: RevisionStore, revision: int, outputs: list[RunOutput]) -> None:
    """What the executor keeps: the representative executed notebook, every run's
    execution facts and every submission that was written."""
    store.put(revision, EXECUTED, serialise(representative(outputs).executed))
    for run, output in enumerate(outputs):
        if output.submission is not None:
            store.put(revision, submission_name(run), output.submission)
    runs = [output.execution.to_wire() for output in outputs]
    store.put(revision, EXECUTION, _json({"runs": runs}))


def has_execution(store: RevisionStore, revision: int) -> bool:
    return store.exists(revision, EXECUTION)


def load_runs(store: RevisionStore, revision: int) -> list[ExecutionResult]:
    document = json.loads(store.get(revision, EXECUTION))
    return [ExecutionResult.model_validate(run) for run in document["runs"]]


def grade_revision(
    store: RevisionStore, revision: int, answers: pd.DataFrame, spec: ModernizationSpec
) -> tuple[ExecutionResult, ScoreResult]:
    """The representative execution and the score of a revision whose runs are stored."""
    runs = load_runs(store, revision)
    submissions = [_submission(store, revision, run) for run in range(len(runs))]
    return runs[representative_index(runs)], grade_runs(submissions, answers, spec)


def _submission(store: RevisionStore, revision: int, run: int) -> bytes | None:
    name = submission_name(run)
    return store.get(revision, name) if store.exists(revision, name) else None


def record_result(
    store: RevisionStore,
    state: LoopState,
    revision: int,
    execution: ExecutionResult,
    score: ScoreResult,
    learner: Learner | None = None,
) -> tuple[LoopState, Action]:
    state, action = step(state, Executed(revision, execution, score))
    if learner is not None:  # before result.json: a repeated step learns again, idempotently
        learner.after_execution(store, state)
    attempt = state.attempts[-1]
    document = {
        "execution": execution.to_wire(),
        "score": score.to_wire(),
        "diagnosis": attempt.diagnosis.to_wire(),
    }
    store.put(revision, RESULT, _json(document))
    return state, action


def replay(store: RevisionStore, max_iterations: int) -> tuple[LoopState, Action]:
    """The loop's state and next action from what the store holds."""
    state, action = start(max_iterations)
    for revision in store.revisions():
        if revision > 0:
            if not store.exists(revision, FIX):
                break
            fix = FixRecord.model_validate_json(store.get(revision, FIX))
            state, action = step(state, Fixed(fix))
        if not store.exists(revision, RESULT):
            break
        document = json.loads(store.get(revision, RESULT))
        execution = ExecutionResult.model_validate(document["execution"])
        score = ScoreResult.model_validate(document["score"])
        state, action = step(state, Executed(revision, execution, score))
    return state, action


def load_notebook(store: RevisionStore, revision: int, name: str = NOTEBOOK) -> Notebook:
    return parse_notebook(store.get(revision, name)).notebook


@dataclass(frozen=True)
class FixOutcome:
    state: LoopState
    action: Action
    record: FixRecord | None
    notes: list[str]


def fix_step(
    store: RevisionStore,
    state: LoopState,
    action: RequestFix,
    chain: FixerChain,
    spec: ModernizationSpec,
    input_dir: Path | None,
) -> FixOutcome:
    """Ask the chain for the next revision; store it (and how it was made) before stepping."""
    attempt = state.attempts[-1]
    source = load_notebook(store, action.revision)
    request = FixRequest(
        notebook=source,
        executed=load_notebook(store, action.revision, EXECUTED),
        execution=attempt.execution,
        score=attempt.score,
        diagnosis=attempt.diagnosis,
        issue=action.issue,
        fix_type=action.fix_type,
        spec=spec,
        input_dir=input_dir,
        history=tuple(a.diagnosis for a in state.attempts[:-1]),
        spent=state.spent,
        fixes=tuple(state.fixes),
    )
    result = chain.propose(request)
    if result.proposal is None or result.fixer is None:
        reason = "; ".join(result.notes) or "no fixers configured"
        state, next_action = step(state, NotFixed(reason, result.spent))
        return FixOutcome(state, next_action, None, result.notes)
    spent = result.spent
    record = FixRecord(
        iteration=action.next_revision,
        issue=action.issue,
        type=action.fix_type,
        fixer=result.fixer,
        summary=result.proposal.summary,
        changes=cell_changes(source, result.proposal.notebook),
        input_tokens=spent.input_tokens,
        output_tokens=spent.output_tokens,
        cost_usd=spent.usd,
        requests=spent.requests,
        rejected_replies=spent.rejected_replies,
        estimated_replies=spent.estimated_replies,
        mode=result.proposal.mode,
        fidelity=assess(load_notebook(store, 0), result.proposal.notebook),
        memory_entries=list(result.proposal.memory) or None,
        saved_usd=result.proposal.saved_usd or None,
    )
    store.put(action.next_revision, NOTEBOOK, serialise(result.proposal.notebook))
    store.put(
        action.next_revision, FIX, (record.model_dump_json(by_alias=True, indent=2) + "\n").encode()
    )
    state, next_action = step(state, Fixed(record))
    return FixOutcome(state, next_action, record, result.notes)
