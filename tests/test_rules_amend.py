"""A rule's rewrite that raises on the data at hand: its alternative, a revert, or the next
fixer — never "no rule applies" to an error of our own making (issue #9 part 4)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from nbmodernizer.engine import fix_step, grade_revision, record_result, store_execution
from nbmodernizer.fixers import FixerChain, FixRequest
from nbmodernizer.fixers.base import FixAttempt, FixProposal
from nbmodernizer.fixers.rules import RulesFixer, all_rules
from nbmodernizer.fixers.rules.model import Example, Kind, Rule
from nbmodernizer.loop import Finish, RequestFix, start
from nbmodernizer.notebook import cell_changes, copy_notebook, fingerprint, serialise
from nbmodernizer.revision import RunOutput
from nbmodernizer.status import CellError, FixRecord, FixType, Issue, RuleUse
from nbmodernizer.store.layout import NOTEBOOK
from nbmodernizer.store.revisions import LocalStore
from tests.factories import ran
from tests.notebooks import PREDICT, READ, notebook
from tests.test_cell_reading import modernize
from tests.test_engine import ANSWERS, SPEC
from tests.test_rules_fixer import request

LEGACY = "import pandas as pd\nframe = pd.read_csv('t.csv')\nsub = frame.ix[:, [0, 2]]"
AS_LOC = "import pandas as pd\nframe = pd.read_csv('t.csv')\nsub = frame.loc[:, [0, 2]]"
AS_ILOC = "import pandas as pd\nframe = pd.read_csv('t.csv')\nsub = frame.iloc[:, [0, 2]]"


def raised(cell: int, line: int, ename: str = "KeyError") -> CellError:
    traceback = [f"\x1b[0;31m{ename}\x1b[0m", f"Cell \x1b[0;32mIn[3], line {line}\x1b[0m"]
    return CellError(cell_index=cell, ename=ename, evalue="boom", traceback=traceback)


def made_by_rules(before: Any, after: Any, *uses: RuleUse) -> FixRecord:
    return FixRecord(
        iteration=1,
        issue=Issue.ERROR,
        type=FixType.ERROR_REPAIR,
        fixer="rules",
        changes=cell_changes(before, after),
        rules=list(uses),
    )


def after_rules(source: Any, error: CellError, *fixes: FixRecord) -> FixRequest:
    base = request(source)
    return replace(base, execution=ran().model_copy(update={"cell_errors": [error]}), fixes=fixes)


def test_the_rules_record_which_rule_changed_which_cells() -> None:
    attempt = RulesFixer(all_rules()).propose(request(notebook(LEGACY), (1, "AttributeError")))
    assert attempt.proposal is not None
    assert attempt.proposal.notebook.cells[1].source == AS_LOC
    assert attempt.proposal.rules == (RuleUse(rule="pandas.ix-indexer", cells=[1]),)


def test_a_rewrite_that_raises_at_its_own_line_gets_the_rules_other_reading() -> None:
    fix = made_by_rules(
        notebook(LEGACY), notebook(AS_LOC), RuleUse(rule="pandas.ix-indexer", cells=[1])
    )
    attempt = RulesFixer(all_rules()).propose(after_rules(notebook(AS_LOC), raised(1, 3), fix))
    assert attempt.proposal is not None
    assert attempt.proposal.notebook.cells[1].source == AS_ILOC
    assert attempt.proposal.rules == (
        RuleUse(rule="pandas.ix-indexer", cells=[1], action="alternative"),
    )
    assert "KeyError at cell 1 line 3, a line rule pandas.ix-indexer wrote" in (
        attempt.proposal.summary
    )


def test_when_the_other_reading_raised_too_the_line_is_the_next_fixers() -> None:
    fix = made_by_rules(
        notebook(LEGACY),
        notebook(AS_ILOC),
        RuleUse(rule="pandas.ix-indexer", cells=[1], action="alternative"),
    )
    attempt = RulesFixer(all_rules()).propose(after_rules(notebook(AS_ILOC), raised(1, 3), fix))
    assert attempt.proposal is None
    assert attempt.note is not None and "no rule applies" not in attempt.note
    assert "pandas.ix-indexer" in attempt.note and "next fixer" in attempt.note


def test_an_error_at_a_line_no_rule_wrote_is_answered_as_usual() -> None:
    fix = made_by_rules(
        notebook(LEGACY), notebook(AS_LOC), RuleUse(rule="pandas.ix-indexer", cells=[1])
    )
    attempt = RulesFixer(all_rules()).propose(after_rules(notebook(AS_LOC), raised(1, 2), fix))
    assert attempt.proposal is None and attempt.note == "no rule applies"


def silent_rule() -> Rule:
    return Rule(
        id="demo.silent-default",
        library="demo",
        changed_in="0",
        summary="restores a legacy default",
        kind=Kind.SILENT,
        rewrite=lambda source, _context: source.replace("Model()", "Model(legacy=True)"),
        examples=(Example(before="", after="", check="True"),),
        gone=lambda: True,
    )


def test_a_silent_rule_whose_line_raised_is_reverted_there_and_not_applied_there_again() -> None:
    rules = [silent_rule()]
    legacy = notebook("m = Model()", "n = Model()")
    rewritten = notebook("m = Model(legacy=True)", "n = Model(legacy=True)")
    fix = made_by_rules(legacy, rewritten, RuleUse(rule="demo.silent-default", cells=[1, 2]))
    fixer = RulesFixer(rules, libraries=[])
    attempt = fixer.propose(after_rules(rewritten, raised(1, 1, "TypeError"), fix))
    assert attempt.proposal is not None
    cells = [cell.source for cell in attempt.proposal.notebook.cells[1:]]
    assert cells == ["m = Model()", "n = Model(legacy=True)"]
    assert attempt.proposal.rules == (
        RuleUse(rule="demo.silent-default", cells=[1], action="reverted"),
    )
    revert = fix.model_copy(update={"iteration": 2, "rules": list(attempt.proposal.rules)})
    # a later, ordinary round leaves the cell it was reverted in alone
    later = replace(request(attempt.proposal.notebook, (2, "ValueError")), fixes=(fix, revert))
    assert fixer.propose(later).proposal is None


class Toggle:
    """A fixer that goes back and forth between two versions of a cell."""

    name = "toggle"

    def propose(self, request: FixRequest) -> FixAttempt:
        changed = copy_notebook(request.notebook)
        changed.cells[1].source = "x = 2" if changed.cells[1].source == "x = 1" else "x = 1"
        return FixAttempt(FixProposal(changed, "toggled"))


class Other:
    name = "other"

    def propose(self, request: FixRequest) -> FixAttempt:
        changed = copy_notebook(request.notebook)
        changed.cells[1].source = "x = 3"
        return FixAttempt(FixProposal(changed, "something new"))


def test_the_chain_passes_over_a_proposal_already_tried_to_the_next_fixer() -> None:
    first, second = notebook("x = 1"), notebook("x = 2")
    tried = {fingerprint(notebook("x = 0")): 0, fingerprint(first): 1, fingerprint(second): 2}
    ask = replace(request(second, (1, "E")), tried=tried)
    result = FixerChain([Toggle()]).propose(ask)
    assert result.proposal is None
    assert result.notes == ["toggle: proposed revision 1 again (already tried)"]
    result = FixerChain([Toggle(), Other()]).propose(ask)
    assert result.fixer == "other" and result.proposal is not None
    # a new proposal goes through
    assert FixerChain([Toggle()]).propose(replace(ask, tried={})).fixer == "toggle"


def test_the_loop_stops_a_fixer_that_proposes_a_revision_it_already_made(tmp_path: Path) -> None:
    store = LocalStore(tmp_path / "run")
    store.put(0, NOTEBOOK, serialise(notebook("x = 1")))
    chain = FixerChain([Toggle()])
    state, action = start(16)
    for revision in (0, 1):
        store_execution(store, revision, [RunOutput(notebook("x"), ran((1, "E")), None)])
        state, action = record_result(
            store, state, revision, *grade_revision(store, revision, ANSWERS, SPEC)
        )
        assert isinstance(action, RequestFix)
        outcome = fix_step(store, state, action, chain, SPEC, None)
        state, action = outcome.state, outcome.action
    assert isinstance(action, Finish)
    assert (
        action.reason
        == "no fixer changed the notebook: toggle: proposed revision 0 again (already tried)"
    )
    assert len(state.attempts) == 2


@pytest.mark.kernel
def test_a_rewrite_wrong_for_the_data_is_replaced_by_its_other_reading_on_a_kernel(
    tmp_path: Path,
) -> None:
    # the columns are named, so `.ix[:, [0, 2]]` meant positions: `.loc` raises KeyError
    legacy = "sub = test.ix[:, [0, 2]]\nsub.to_csv('submission.csv', index=False)"
    code, report, final = modernize(tmp_path, READ, PREDICT, legacy)
    assert code == 0, report["message"]
    assert report["outcome"] == "ErrorFreeReproducible"
    assert [r["issue"] for r in report["revisions"]] == ["Error", "Error", "Reproducible"]
    assert report["fixes"][1]["rules"] == [
        {"rule": "pandas.ix-indexer", "cells": [3], "action": "alternative"}
    ]
    assert final.cells[3].source.startswith("sub = test.iloc[:, [0, 2]]")


@pytest.mark.kernel
def test_a_rewrite_wrong_both_ways_is_left_to_the_next_fixer_on_a_kernel(tmp_path: Path) -> None:
    # a row's position and a column's label: neither `.loc` nor `.iloc` takes both
    legacy = "first = test.set_index('id').ix[0, 'x']\ntest[['id', 'y']].to_csv('submission.csv')"
    code, report, _ = modernize(tmp_path, READ, PREDICT, legacy, fix={"maxIterations": 16})
    assert code != 0 and report["outcome"] == "ErrorNonReproducible"
    assert len(report["revisions"]) == 3
    reason = report["stopReason"]
    assert "no rule applies" not in reason
    assert "rule pandas.ix-indexer wrote" in reason and "next fixer" in reason
