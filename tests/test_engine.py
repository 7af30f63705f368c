"""The store is the loop's only memory: replaying it gives back the state and next action."""

from __future__ import annotations

from pathlib import Path

import pytest

from nbmodernizer.engine import (
    MAX_ENVIRONMENT_BYTES,
    FixOutcome,
    advance,
    fix_step,
    grade_revision,
    read_environment,
    record_result,
    replay,
    store_environment,
    store_execution,
)
from nbmodernizer.facts import EnvironmentFacts, FactsError
from nbmodernizer.fixers import FixerChain, FixRequest
from nbmodernizer.fixers.base import FixAttempt, FixProposal, Learner
from nbmodernizer.grade import parse_answers
from nbmodernizer.loop import Attempt, Execute, Finish, Graded, LoopState, RequestFix, start
from nbmodernizer.notebook import copy_notebook, serialise
from nbmodernizer.revision import RunOutput
from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.status import CostSummary, FixType, Issue, Outcome
from nbmodernizer.store import RevisionExistsError
from nbmodernizer.store.layout import ENVIRONMENT, NOTEBOOK, OVERSIZE_MARKER, Oversized
from nbmodernizer.store.revisions import LocalStore, read_submission
from testing.factories import ran
from testing.notebooks import notebook

SPEC = ModernizationSpec.model_validate(
    {"notebook": "n.ipynb", "score": {"metric": "accuracy", "target": 1.0, "answers": "a.csv"}}
)
ANSWERS = parse_answers(b"id,y\n1,1\n2,0\n", "id")
GOOD = b"id,y\n1,1\n2,0\n"


class ChangeOneCell:
    name = "scripted"

    def propose(self, request: FixRequest) -> FixAttempt:
        changed = copy_notebook(request.notebook)
        changed.cells[1].source = "fixed = True"
        return FixAttempt(FixProposal(changed, "set fixed"), CostSummary(usd=0.25, requests=1))


@pytest.fixture
def store(tmp_path: Path) -> LocalStore:
    store = LocalStore(tmp_path / "run")
    store.put(0, NOTEBOOK, serialise(notebook("broken = 1 / 0")))
    return store


def test_a_run_can_stop_anywhere_and_resume_from_the_store(store: LocalStore) -> None:
    state, action = start(4)
    assert replay(store, 4)[1] == Execute(0)
    # revision 0 fails: the executor stores its run, the grader its result
    nb = notebook("broken = 1 / 0")
    store_execution(store, 0, [RunOutput(nb, ran((1, "ZeroDivisionError")), None)])
    assert replay(store, 4)[1] == Execute(0)  # executed but not graded yet: grade again
    graded = grade_revision(store, 0, ANSWERS, SPEC)
    assert graded.score.reason == "the notebook did not write submission.csv"
    state, action = record_result(store, state, 0, *graded)
    assert isinstance(action, RequestFix)
    assert replay(store, 4) == (state, action)
    # the fixer makes revision 1
    outcome = fix_step(store, state, action, FixerChain([ChangeOneCell()]), SPEC, None)
    assert outcome.action == Execute(1) and outcome.record is not None
    assert replay(store, 4) == (outcome.state, outcome.action)
    # revision 1 reproduces
    store_execution(store, 1, [RunOutput(nb, ran(), GOOD)])
    state, action = record_result(store, outcome.state, 1, *grade_revision(store, 1, ANSWERS, SPEC))
    assert isinstance(action, Finish) and action.outcome is Outcome.ERROR_FREE_REPRODUCIBLE
    replayed_state, replayed_action = replay(store, 4)
    assert replayed_action == action
    assert replayed_state.spent == CostSummary(usd=0.25, requests=1)
    assert [a.fix.fixer if a.fix else None for a in replayed_state.attempts] == [None, "scripted"]


def test_repeating_a_step_after_a_restart_is_harmless_but_changing_history_is_refused(
    store: LocalStore,
) -> None:
    nb = notebook("x = 1")
    outputs = [RunOutput(nb, ran(), GOOD)]
    store_execution(store, 0, outputs)
    store_execution(store, 0, outputs)  # the same bytes again: a no-op
    with pytest.raises(RevisionExistsError):
        store_execution(store, 0, [RunOutput(nb, ran((1, "E")), GOOD)])


def test_several_runs_are_graded_together(store: LocalStore) -> None:
    spec = SPEC.model_copy(update={"score": SPEC.score.model_copy(update={"runs": 3})})
    nb = notebook("x = 1")
    half = b"id,y\n1,1\n2,1\n"
    store_execution(store, 0, [RunOutput(nb, ran(), s) for s in (GOOD, GOOD, half)])
    assert sorted(p.name for p in (store.root / "revisions" / "0000").iterdir()) == [
        "executed.ipynb",
        "execution.json",
        "notebook.ipynb",
        "submission-1.csv",
        "submission-2.csv",
        "submission.csv",
    ]
    assert grade_revision(store, 0, ANSWERS, spec).score.values == [1.0, 1.0, 0.5]


def test_a_fix_that_changes_nothing_ends_the_loop_and_keeps_its_cost(store: LocalStore) -> None:
    class Spender:
        name = "spender"

        def propose(self, request: FixRequest) -> FixAttempt:
            return FixAttempt(
                None, CostSummary(usd=0.1, requests=2, rejected_replies=2), "rejected"
            )

    state, _ = start(4)
    store_execution(store, 0, [RunOutput(notebook("x"), ran((1, "NameError")), None)])
    state, action = record_result(store, state, 0, *grade_revision(store, 0, ANSWERS, SPEC))
    assert isinstance(action, RequestFix) and action.fix_type is FixType.ERROR_REPAIR
    outcome = fix_step(store, state, action, FixerChain([Spender()]), SPEC, None)
    assert isinstance(outcome.action, Finish)
    assert outcome.action.reason == "no fixer changed the notebook: spender: rejected"
    assert outcome.state.spent == CostSummary(usd=0.1, requests=2, rejected_replies=2)
    assert outcome.state.attempts[-1].diagnosis.issue is Issue.ERROR


class Scripted:
    """A driver whose executions arrive when the test says (as a cluster's Jobs do) and
    whose first fix is held (as the LLM budget holds one)."""

    def __init__(self, store: LocalStore) -> None:
        self.store = store
        self.ready: dict[int, bytes | None] = {}  # revision -> its run's submission
        self.holds = 1
        self.revisions: list[int] = []  # those recorded, in order

    def execute(self, state: LoopState, revision: int) -> Graded | None:
        if revision not in self.ready:
            return None
        errors = () if self.ready[revision] else ((1, "ZeroDivisionError"),)
        run = RunOutput(notebook("x"), ran(*errors), self.ready[revision])
        store_execution(self.store, revision, [run])
        return grade_revision(self.store, revision, ANSWERS, SPEC)

    def learner(self) -> Learner | None:
        return None

    def recorded(self, attempt: Attempt) -> None:
        self.revisions.append(attempt.revision)

    def fix(self, state: LoopState, request: RequestFix) -> FixOutcome | None:
        if self.holds:
            self.holds -= 1
            return None
        return fix_step(self.store, state, request, FixerChain([ChangeOneCell()]), SPEC, None)


def test_advance_stops_where_the_driver_must_wait_and_resumes_from_the_store(
    store: LocalStore,
) -> None:
    driver = Scripted(store)
    state, action = advance(store, *start(4), driver)
    assert action == Execute(0) and state.attempts == ()  # its Job has not ended yet
    driver.ready[0] = None
    state, action = advance(store, state, action, driver)
    assert isinstance(action, RequestFix) and driver.revisions == [0]  # the fix is held
    state, action = advance(store, *replay(store, 4), driver)  # a restarted operator
    assert action == Execute(1) and len(state.fixes) == 1
    driver.ready[1] = GOOD
    state, action = advance(store, *replay(store, 4), driver)
    assert isinstance(action, Finish) and action.outcome is Outcome.ERROR_FREE_REPRODUCIBLE
    assert driver.revisions == [0, 1] and replay(store, 4) == (state, action)


def test_an_older_runners_oversize_line_is_still_graded_as_oversized(store: LocalStore) -> None:
    """Stored revisions are write-once: the stand-in line an older runner kept still reads."""
    store_execution(store, 0, [RunOutput(notebook("x"), ran(), None)])
    older = b"submission.csv is 3000005 bytes, more than the 1000000 allowed (max submission bytes)"
    store.put(0, "submission.csv", OVERSIZE_MARKER + older + b"\n")
    assert read_submission(store, 0, 0, 10**6) == Oversized(3000005)
    score = grade_revision(store, 0, ANSWERS, SPEC).score
    assert score.value is None and "submission.csv is 3000005 bytes, more than" in str(score.reason)


# -- environment.json: the facts of the environment a revision ran in --------------------------

FACTS = EnvironmentFacts(
    python="3.11.7",
    executable="/envs/old/bin/python",
    packages={"pandas": "1.5.3"},
    probes={"pandas.read-csv-bad-lines": False, "numpy.builtin-type-aliases": True},
    signatures={"pandas.read_csv": (("filepath_or_buffer", "POSITIONAL_OR_KEYWORD"),)},
)


class Seeing:
    """Records the environment each request carried, and changes one cell."""

    name = "seeing"

    def __init__(self) -> None:
        self.seen: list[EnvironmentFacts | None] = []

    def propose(self, request: FixRequest) -> FixAttempt:
        self.seen.append(request.environment)
        return ChangeOneCell().propose(request)


def failed_revision0(store: LocalStore) -> tuple[LoopState, RequestFix]:
    store_execution(store, 0, [RunOutput(notebook("x"), ran((1, "NameError")), None)])
    state, action = record_result(store, start(4)[0], 0, *grade_revision(store, 0, ANSWERS, SPEC))
    assert isinstance(action, RequestFix)
    return state, action


def test_the_fixers_get_the_facts_of_the_environment_the_revision_ran_in(
    store: LocalStore,
) -> None:
    store_environment(store, 0, FACTS)
    store_environment(store, 0, FACTS)  # the same facts again: a no-op (write-once)
    with pytest.raises(RevisionExistsError):
        store_environment(store, 0, FACTS.model_copy(update={"packages": {"pandas": "3.0.0"}}))
    assert read_environment(store, 0) == FACTS
    fixer = Seeing()
    outcome = fix_step(store, *failed_revision0(store), FixerChain([fixer]), SPEC, None)
    assert fixer.seen == [FACTS] and outcome.record is not None and outcome.notes == []


def test_a_run_folder_without_environment_json_still_loads_and_fixes_reactively(
    store: LocalStore,
) -> None:
    """A run folder of a version before environment.json: its revisions have no facts, so the
    fixers get none (the rules then apply only what an error calls for)."""
    state, action = failed_revision0(store)
    assert not store.exists(0, ENVIRONMENT) and read_environment(store, 0) is None
    assert replay(store, 4) == (state, action)
    fixer = Seeing()
    outcome = fix_step(store, state, action, FixerChain([fixer]), SPEC, None)
    assert fixer.seen == [None] and outcome.action == Execute(1)


def test_environment_json_that_is_not_facts_is_not_used_and_says_why(store: LocalStore) -> None:
    """What an executor stored is untrusted: bounded, checked, and never fatal to the loop."""
    store.put(0, ENVIRONMENT, b'{"python": "3.11.7", "packages": {"pandas": 1}}')
    with pytest.raises(FactsError, match=r"revision 0's environment\.json: executable: Field req"):
        read_environment(store, 0)
    fixer = Seeing()
    outcome = fix_step(store, *failed_revision0(store), FixerChain([fixer]), SPEC, None)
    assert fixer.seen == [None] and outcome.record is not None
    [note] = outcome.notes
    assert note.startswith("revision 0's environment.json: ")
    assert note.endswith(": the rules apply only what an error calls for")


def test_an_oversized_environment_json_is_not_read(tmp_path: Path) -> None:
    store = LocalStore(tmp_path / "run")
    store.put(0, ENVIRONMENT, b" " * (MAX_ENVIRONMENT_BYTES + 1))
    with pytest.raises(FactsError, match=f"environment.json: {MAX_ENVIRONMENT_BYTES + 1} bytes"):
        read_environment(store, 0)
