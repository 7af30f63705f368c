"""The steps both drivers take, with the revision store as the only memory.

Every step reads what it needs from the store and writes what it learnt there before the
loop moves on, so a driver that stops at any point can `replay` the store and continue: the
local CLI runs the steps in one process; the operator runs them across Job completions and
restarts. What the store holds per revision, who writes it and when: `nbmodernizer.store`.

`advance` is the loop both drivers run: it takes the loop from a state to its Finish, or to
the point where it must wait, asking a `Driver` (`local._InProcess`, `cluster.reconcile.
_InCluster`) only how to execute a revision and how to fix one.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Protocol

from nbmodernizer.environment import imported_modules
from nbmodernizer.execute import bounded_execution
from nbmodernizer.facts import EnvironmentFacts, FactsError, ProbeRequest
from nbmodernizer.fidelity import assess
from nbmodernizer.fixers import FixerChain, FixRequest
from nbmodernizer.fixers.base import Learner
from nbmodernizer.grade import Answers, SubmissionLimits, grade_runs, score_runs
from nbmodernizer.loop import (
    Action,
    Attempt,
    Execute,
    Executed,
    Finish,
    Fixed,
    Graded,
    LoopState,
    NotFixed,
    RequestFix,
    start,
    step,
)
from nbmodernizer.notebook import (
    Notebook,
    NotebookError,
    cell_changes,
    fingerprint,
    parse_notebook,
    serialise,
)
from nbmodernizer.revision import RunOutput, representative, representative_index
from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.status import ExecutionResult, ExecutionStatus, FixRecord, ScoreResult
from nbmodernizer.store.layout import (
    ENVIRONMENT,
    EXECUTED,
    EXECUTION,
    NOTEBOOK,
    executed_name,
    execution_name,
)
from nbmodernizer.store.revisions import (
    RevisionStore,
    StoredResult,
    read_execution,
    read_fix,
    read_result,
    read_submission,
    write_execution,
    write_fix,
    write_result,
    write_submission,
)

MAX_EXECUTION_BYTES = 16 * 2**20  # execution.json: facts, not outputs
MAX_EXECUTED_BYTES = 64 * 2**20  # executed.ipynb (its outputs are bounded by the executor)
MAX_ENVIRONMENT_BYTES = 4 * 2**20  # environment.json: versions, probes' answers, signatures


def environment_request(notebook: Notebook) -> ProbeRequest:
    """What envprobe.py is asked before a revision runs (by both drivers: `local`, and the
    runner's fetch stage in the cluster): the modules the notebook imports beyond the standard
    library (their distributions' versions become the execution's packages) and the probes
    (and signatures) of the rules for those libraries."""
    from nbmodernizer.fixers.rules.catalog import probe_request  # the whole catalog: on use

    return probe_request(imported_modules(notebook) - set(sys.stdlib_module_names))


def store_environment(store: RevisionStore, revision: int, facts: EnvironmentFacts) -> None:
    """The revision's environment.json: the facts of the environment its kernel runs in."""
    text = json.dumps(facts.model_dump(mode="json"), indent=2, sort_keys=True) + "\n"
    store.put(revision, ENVIRONMENT, text.encode())


def read_environment(store: RevisionStore, revision: int) -> EnvironmentFacts | None:
    """The facts of the environment the revision ran in; None when there are none (a run
    folder of a version before environment.json). What an executor stored is untrusted:
    FactsError when it is too large or not facts."""
    data = store.get_at_most(revision, ENVIRONMENT, MAX_ENVIRONMENT_BYTES)
    if data is None:
        return None
    if isinstance(data, int):
        raise FactsError(f"{ENVIRONMENT}: {data} bytes, more than {MAX_ENVIRONMENT_BYTES}")
    return EnvironmentFacts.parse(data, f"revision {revision}'s {ENVIRONMENT}")


def store_execution(store: RevisionStore, revision: int, outputs: list[RunOutput]) -> None:
    """What the executor keeps: the representative executed notebook, every run's
    execution facts and every submission that was written."""
    store.put(revision, EXECUTED, serialise(representative(outputs).executed))
    for run, output in enumerate(outputs):
        if output.submission is not None:
            write_submission(store, revision, run, output.submission)
    write_execution(store, revision, [output.execution for output in outputs])


def store_run(store: RevisionStore, revision: int, run: int, output: RunOutput) -> None:
    """What one run of an Indexed Job (index `run`) keeps, under its own names
    (`layout.run_output_names`), its execution facts last. Run 0's are `store_execution`'s."""
    store.put(revision, executed_name(run), serialise(output.executed))
    if output.submission is not None:
        write_submission(store, revision, run, output.submission)
    write_execution(store, revision, [output.execution], execution_name(run))


def _read_runs(store: RevisionStore, revision: int, name: str) -> list[ExecutionResult] | None:
    runs = read_execution(store, revision, name, MAX_EXECUTION_BYTES)
    return None if runs is None else [bounded_execution(run) for run in runs]


def missing_run(run: int) -> ExecutionResult:
    """Run N of an Indexed Job that stored no execution facts: an Error run."""
    failure = f"run {run} stored no {execution_name(run)}: its pod failed or was stopped"
    return ExecutionResult(status=ExecutionStatus.FAILED, duration_seconds=0.0, failure=failure)


def stored_runs(
    store: RevisionStore,
    revision: int,
    spec: ModernizationSpec,
    count: int | None = None,
    failed: Mapping[int, ExecutionResult] | None = None,
) -> list[ExecutionResult]:
    """Every run's execution facts. `count` None: `execution.json` holds them all (one pod or
    the local CLI ran them). Else runs 0..count-1 each stored their own (`execution_name`);
    a run in `failed` (its pod failed: whatever it stored is not trusted) or that stored
    nothing is an Error run. ValueError (and pydantic's) when a file cannot be used."""
    if count is None:
        runs = _read_runs(store, revision, EXECUTION)
        if runs is None:
            raise ValueError(f"{EXECUTION} is not there")
        if not runs:
            raise ValueError(f"{EXECUTION} holds no run")
        return runs[: spec.score.runs]
    found: list[ExecutionResult] = []
    for run in range(min(count, spec.score.runs)):
        if failed is not None and run in failed:
            found.append(failed[run])
        elif (own := _read_runs(store, revision, execution_name(run))) is None:
            found.append(missing_run(run))
        else:
            if run == 0 and len(own) > 1:  # one pod ran them all (a Job of an older operator)
                return own[: spec.score.runs]
            if len(own) != 1:
                raise ValueError(f"{execution_name(run)} holds {len(own)} runs, not 1")
            found.append(own[0])
    if not found:
        raise ValueError("no run")
    return found


def grade_revision(
    store: RevisionStore,
    revision: int,
    answers: Answers,
    spec: ModernizationSpec,
    limits: SubmissionLimits | None = None,
    count: int | None = None,
    failed: Mapping[int, ExecutionResult] | None = None,
) -> Graded:
    """The representative run and the score of a revision whose runs are stored (`count`,
    `failed`: as `stored_runs`; with a count the score says how many runs it used).

    What an executor stored is untrusted: only the names a runner may write are read (at most
    `score.runs` runs, `submission[-N].csv` for N below that), each submission's size is
    checked before it is read, and its rows before it is parsed (`limits`)."""
    limits = limits or SubmissionLimits()
    try:
        runs = stored_runs(store, revision, spec, count, failed)
    except (ValueError, KeyError, TypeError) as error:  # pydantic's ValidationError included
        failure = f"the runner's {EXECUTION} cannot be used: {str(error)[:500]}"
        execution = ExecutionResult(
            status=ExecutionStatus.FAILED, duration_seconds=0.0, failure=failure
        )
        return Graded(execution, score_runs([], failure, spec.score))
    submissions = [
        None
        if failed is not None and run in failed
        else read_submission(store, revision, run, limits.max_bytes)
        for run in range(len(runs))
    ]
    score = grade_runs(submissions, answers, spec.score, limits)
    if count is not None:
        score = score.model_copy(update={"runs": len(runs)})
    run = representative_index(runs)
    return Graded(runs[run], score, run)


def record_result(
    store: RevisionStore,
    state: LoopState,
    revision: int,
    execution: ExecutionResult,
    score: ScoreResult,
    run: int = 0,
    learner: Learner | None = None,
) -> tuple[LoopState, Action]:
    """Step the loop with a graded revision (`Graded`'s fields) and store its result.json."""
    state, action = step(state, Executed(revision, execution, score, run))
    if learner is not None:  # before result.json: a repeated step learns again, idempotently
        learner.after_execution(store, state)
    diagnosis = state.attempts[-1].diagnosis
    write_result(store, revision, StoredResult(execution, score, diagnosis, run))
    return state, action


def replay(store: RevisionStore, max_iterations: int) -> tuple[LoopState, Action]:
    """The loop's state and next action from what the store holds. Revisions are numbered
    from 0 without gaps and each is read up to its first missing file, so no listing is
    needed: once the cache holds what was read, a replay costs one request (the file the
    loop waits for)."""
    state, action = start(max_iterations)
    for revision in itertools.count():
        if revision > 0:
            fix = read_fix(store, revision)
            if fix is None:
                break
            state, action = step(state, Fixed(fix))
        result = read_result(store, revision)
        if result is None:
            break
        executed = Executed(revision, result.execution, result.score, result.run)
        state, action = step(state, executed)
    return state, action


def load_notebook(store: RevisionStore, revision: int, name: str = NOTEBOOK) -> Notebook:
    return parse_notebook(store.get(revision, name)).notebook


def load_executed(
    store: RevisionStore, revision: int, source: Notebook, name: str = EXECUTED
) -> Notebook:
    """The executed revision, if it is a notebook of a sane size (it comes from the runner:
    untrusted); else the revision itself, without outputs."""
    data = store.get_at_most(revision, name, MAX_EXECUTED_BYTES)
    if not isinstance(data, bytes):
        return source
    try:
        return parse_notebook(data).notebook
    except NotebookError:
        return source


def _tried(store: RevisionStore, revision: int, source: Notebook) -> dict[str, int]:
    """Every revision's fingerprint so far (the first revision of a notebook seen twice)."""
    tried = {fingerprint(source): revision}
    for earlier in reversed(range(revision)):
        tried[fingerprint(load_notebook(store, earlier))] = earlier
    return tried


def executed_of(attempt: Attempt) -> str:
    """The executed notebook of the run that speaks for the revision: `executed.ipynb` (the
    executor kept the representative's), or with runs stored one by one (`score.runs`: an
    Indexed Job) the representative run's own."""
    return EXECUTED if attempt.score.runs is None else executed_name(attempt.run)


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
    """Ask the chain for the next revision; store it (and how it was made) before stepping.
    The rules apply proactively what the revision's environment.json says is gone; without
    one (an older run folder), or with one that cannot be read, only what an error calls for."""
    attempt = state.attempts[-1]
    source = load_notebook(store, action.revision)
    notes: list[str] = []
    try:
        environment = read_environment(store, action.revision)
    except FactsError as error:
        environment = None
        notes.append(f"{error}: the rules apply only what an error calls for")
    request = FixRequest(
        notebook=source,
        executed=load_executed(
            store,
            action.revision,
            source,
            executed_of(attempt),
        ),
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
        tried=_tried(store, action.revision, source),
        environment=environment,
    )
    result = chain.propose(request)
    notes.extend(result.notes)
    if result.proposal is None or result.fixer is None:
        reason = "; ".join(result.notes) or "no fixers configured"
        state, next_action = step(state, NotFixed(reason, result.spent))
        return FixOutcome(state, next_action, None, notes)
    record = FixRecord.of(
        result.proposal,
        iteration=action.next_revision,
        issue=action.issue,
        type=action.fix_type,
        fixer=result.fixer,
        changes=cell_changes(source, result.proposal.notebook),
        spent=result.spent,
        fidelity=assess(
            load_notebook(store, 0),
            result.proposal.notebook,
            PurePosixPath(spec.score.answers).name or None,
        ),
    )
    store.put(action.next_revision, NOTEBOOK, serialise(result.proposal.notebook))
    write_fix(store, record)
    state, next_action = step(state, Fixed(record))
    return FixOutcome(state, next_action, record, notes)


class Driver(Protocol):
    """How one place runs the loop: how it executes a revision and how it fixes one.
    `advance` decides which to do, and when; a driver answers None where it must wait."""

    def execute(self, state: LoopState, revision: int) -> Graded | None:
        """The graded runs of `revision`, or None while they are under way."""
        ...

    def learner(self) -> Learner | None:
        """What learns from each executed fix (the fix memory), if anything."""
        ...

    def recorded(self, attempt: Attempt) -> None:
        """The revision's result is stored (report it: progress, events, metrics)."""
        ...

    def fix(self, state: LoopState, request: RequestFix) -> FixOutcome | None:
        """`fix_step` as this driver runs it (its chain, its inputs); None: not now."""
        ...


def advance(
    store: RevisionStore, state: LoopState, action: Action, driver: Driver
) -> tuple[LoopState, Action]:
    """Take the loop from `action` to its Finish, or to the first Execute or RequestFix that
    the driver cannot answer yet (the action returned then is the one to wait for)."""
    while not isinstance(action, Finish):
        if isinstance(action, Execute):
            graded = driver.execute(state, action.revision)
            if graded is None:
                break
            learner = driver.learner() if action.revision > 0 else None  # revision 0: no fix
            state, action = record_result(store, state, action.revision, *graded, learner)
            driver.recorded(state.attempts[-1])
        else:
            fixed = driver.fix(state, action)
            if fixed is None:
                break
            state, action = fixed.state, fixed.action
    return state, action
