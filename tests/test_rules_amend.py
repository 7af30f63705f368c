"""A rule's rewrite that raises on the data at hand: its alternative, a revert, or the next
fixer — never "no rule applies" to an error of our own making (issue #9 part 4)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import nbformat
import pytest

from nbmodernizer.cli import main
from nbmodernizer.engine import fix_step, grade_revision, record_result, store_execution
from nbmodernizer.fixers import FixerChain, FixRequest
from nbmodernizer.fixers.base import FixAttempt, FixProposal
from nbmodernizer.fixers.rules import RulesFixer, all_rules
from nbmodernizer.fixers.rules.model import Example, Kind, Rule
from nbmodernizer.fixers.rules.toolkit.probes import ALWAYS
from nbmodernizer.loop import Finish, RequestFix, start
from nbmodernizer.notebook import cell_changes, copy_notebook, fingerprint, serialise
from nbmodernizer.revision import RunOutput
from nbmodernizer.status import CellError, FixRecord, FixType, Issue, RuleOccurrence, RuleUse
from nbmodernizer.store.layout import NOTEBOOK
from nbmodernizer.store.revisions import LocalStore
from testing.environment_facts import gone
from testing.factories import ran
from testing.notebooks import PREDICT, READ, WRITE, kaggle_folder, notebook
from tests.test_cell_reading import modernize
from tests.test_engine import ANSWERS, SPEC
from tests.test_rules_fixer import request

# `pd.read_pickle`: the columns' labels are unknown, so `.ix[:, [0, 2]]` is undecided
LEGACY = "import pandas as pd\nframe = pd.read_pickle('t.pkl')\nsub = frame.ix[:, [0, 2]]"
AS_LOC = "import pandas as pd\nframe = pd.read_pickle('t.pkl')\nsub = frame.loc[:, [0, 2]]"
AS_ILOC = "import pandas as pd\nframe = pd.read_pickle('t.pkl')\nsub = frame.iloc[:, [0, 2]]"
IX = "pandas.ix-indexer"


def at(cell: int, *spans: tuple[int, int, int]) -> list[RuleOccurrence]:
    return [RuleOccurrence(cell=cell, line=line, start=s, end=e) for line, s, e in spans]


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
    assert attempt.proposal.rules == (RuleUse(rule=IX, cells=[1], occurrences=at(1, (3, 12, 15))),)


def test_a_rewrite_that_raises_at_its_own_line_gets_the_rules_other_reading() -> None:
    fix = made_by_rules(
        notebook(LEGACY), notebook(AS_LOC), RuleUse(rule="pandas.ix-indexer", cells=[1])
    )
    attempt = RulesFixer(all_rules()).propose(after_rules(notebook(AS_LOC), raised(1, 3), fix))
    assert attempt.proposal is not None
    assert attempt.proposal.notebook.cells[1].source == AS_ILOC
    # a record made before occurrences were kept reads as before
    assert attempt.proposal.rules == (
        RuleUse(rule=IX, cells=[1], action="alternative", occurrences=at(1, (3, 12, 16))),
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


# `train` is read in another cell: lines 2 and 3 are undecided (`.loc`, `.iloc` where `.loc`
# raises), line 4 holds a label (`.loc` either way). Line 2 meant positions, line 3 a label.
MIXED = (
    "target = 'target'\n"
    "X = train.ix[:, 1:-1]\n"
    "y = train.ix[:, target]\n"
    "labels = train.ix[:, 'target']"
)
READ_TRAIN = "import pandas as pd\ntrain = pd.read_pickle('train.pkl')"


def rules_round(nb: Any, error: tuple[int, str]) -> tuple[Any, FixRecord]:
    attempt = RulesFixer(all_rules()).propose(request(nb, error))
    assert attempt.proposal is not None
    return attempt.proposal.notebook, made_by_rules(
        nb, attempt.proposal.notebook, *attempt.proposal.rules
    )


def amend_round(nb: Any, error: CellError, *fixes: FixRecord) -> tuple[Any, FixRecord]:
    attempt = RulesFixer(all_rules()).propose(after_rules(nb, error, *fixes))
    assert attempt.proposal is not None, attempt.note
    changed = attempt.proposal.notebook
    fix = fixes[-1].model_copy(
        update={
            "iteration": fixes[-1].iteration + 1,
            "changes": cell_changes(nb, changed),
            "rules": list(attempt.proposal.rules),
        }
    )
    return changed, fix


def test_only_the_occurrence_on_the_line_that_raised_gets_the_other_reading() -> None:
    first, fix = rules_round(notebook(READ_TRAIN, MIXED), (2, "AttributeError"))
    assert first.cells[2].source == MIXED.replace(".ix[", ".loc[")
    assert fix.rules == [
        RuleUse(rule=IX, cells=[2], occurrences=at(2, (2, 10, 13), (3, 10, 13), (4, 15, 18)))
    ]
    second, amend = amend_round(first, raised(2, 2, "TypeError"), fix)
    assert second.cells[2].source == (
        "target = 'target'\n"
        "X = train.iloc[:, 1:-1]\n"
        "y = train.loc[:, target]\n"
        "labels = train.loc[:, 'target']"
    )
    assert amend.rules == [
        RuleUse(rule=IX, cells=[2], occurrences=at(2, (3, 10, 13), (4, 15, 18))),
        RuleUse(rule=IX, cells=[2], action="alternative", occurrences=at(2, (2, 10, 14))),
    ]


def test_a_second_occurrence_that_raises_later_joins_the_first() -> None:
    first, fix = rules_round(notebook(READ_TRAIN, MIXED), (2, "AttributeError"))
    second, amend = amend_round(first, raised(2, 2, "TypeError"), fix)
    # were line 3 positions too, it would raise next: redone from the legacy cell, both flip
    third, again = amend_round(second, raised(2, 3), fix, amend)
    assert third.cells[2].source == (
        "target = 'target'\n"
        "X = train.iloc[:, 1:-1]\n"
        "y = train.iloc[:, target]\n"
        "labels = train.loc[:, 'target']"
    )
    assert again.rules == [
        RuleUse(rule=IX, cells=[2], occurrences=at(2, (4, 15, 18))),
        RuleUse(
            rule=IX, cells=[2], action="alternative", occurrences=at(2, (2, 10, 14), (3, 10, 14))
        ),
    ]


def test_an_occurrence_the_key_decided_has_no_other_reading() -> None:
    first, fix = rules_round(notebook(READ_TRAIN, MIXED), (2, "AttributeError"))
    attempt = RulesFixer(all_rules()).propose(after_rules(first, raised(2, 4), fix))
    assert attempt.proposal is None and attempt.note is not None
    assert "line 4, a line rule pandas.ix-indexer wrote" in attempt.note
    assert "no other reading" in attempt.note


def test_an_occurrence_whose_other_reading_raised_too_is_the_next_fixers() -> None:
    first, fix = rules_round(notebook(READ_TRAIN, MIXED), (2, "AttributeError"))
    second, amend = amend_round(first, raised(2, 2, "TypeError"), fix)
    attempt = RulesFixer(all_rules()).propose(after_rules(second, raised(2, 2), fix, amend))
    assert attempt.proposal is None and attempt.note is not None
    assert (
        "line 2, a line rule pandas.ix-indexer wrote" in attempt.note
        and "next fixer" in attempt.note
    )


def silent_rule() -> Rule:
    return Rule(
        id="demo.silent-default",
        library="demo",
        changed_in="0",
        summary="restores a legacy default",
        kind=Kind.SILENT,
        rewrite=lambda source, _context: source.replace("Model()", "Model(legacy=True)"),
        examples=(Example(before="", after="", check="True"),),
        gone=ALWAYS,
    )


def test_a_silent_rule_whose_line_raised_is_reverted_there_and_not_applied_there_again() -> None:
    rules = [silent_rule()]
    legacy = notebook("m = Model()", "n = Model()")
    rewritten = notebook("m = Model(legacy=True)", "n = Model(legacy=True)")
    fix = made_by_rules(legacy, rewritten, RuleUse(rule="demo.silent-default", cells=[1, 2]))
    fixer = RulesFixer(rules, libraries=[])
    silent = gone("demo.silent-default")  # the environment lacks the legacy default
    attempt = fixer.propose(
        replace(after_rules(rewritten, raised(1, 1, "TypeError"), fix), environment=silent)
    )
    assert attempt.proposal is not None
    cells = [cell.source for cell in attempt.proposal.notebook.cells[1:]]
    assert cells == ["m = Model()", "n = Model(legacy=True)"]
    assert attempt.proposal.rules == (
        RuleUse(rule="demo.silent-default", cells=[1], action="reverted"),
    )
    revert = fix.model_copy(update={"iteration": 2, "rules": list(attempt.proposal.rules)})
    # a later, ordinary round leaves the cell it was reverted in alone
    later = replace(
        request(attempt.proposal.notebook, (2, "ValueError"), environment=silent),
        fixes=(fix, revert),
    )
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
    occurrence = {"cell": 3, "line": 1, "start": 11, "end": 15}
    assert report["fixes"][1]["rules"] == [
        {"rule": IX, "cells": [3], "action": "alternative", "occurrences": [occurrence]}
    ]
    assert final.cells[3].source.startswith("sub = test.iloc[:, [0, 2]]")


@pytest.mark.kernel
def test_a_rewrite_wrong_both_ways_is_left_to_the_next_fixer_on_a_kernel(tmp_path: Path) -> None:
    # a row's position and a column's label: neither `.loc` nor `.iloc` takes both
    legacy = "first = test.set_index('id').ix[0, 'x']\ntest[['id', 'y']].to_csv('submission.csv')"
    code, report, _ = modernize(tmp_path, READ, PREDICT, legacy, fix={"maxIterations": 16})
    assert code != 0 and report["outcome"] == "ErrorNonReproducible"
    # the key holds a label: `.iloc` is no reading of it, so it is not tried
    assert len(report["revisions"]) == 2
    reason = report["stopReason"]
    assert "no rule applies" not in reason
    assert "rule pandas.ix-indexer wrote" in reason and "next fixer" in reason


# `.ix[:, 1:-1]` took the columns between the id and the target by position
TRAIN = "id,x,target\n1,0.3,1\n2,-0.5,0\n3,1.2,1\n4,-2.0,0\n"
READ_BOTH = (
    "import pandas as pd\n"
    "train = pd.read_csv('../input/train.csv')\n"
    "test = pd.read_csv('../input/test.csv')"
)
THRESHOLD = "threshold = X[y == 1]['x'].min()\ntest['y'] = (test['x'] >= threshold).astype(int)"


def modernize_with_train(root: Path, *sources: str) -> tuple[int, dict[str, Any], Any]:
    spec = kaggle_folder(root, *sources, WRITE)
    (root / "input" / "train.csv").write_text(TRAIN)
    code = main(["modernize", str(spec), "--out", str(root / "out")])
    report = json.loads((root / "out" / "report.json").read_text())
    return code, report, nbformat.read(root / "out" / "final.ipynb", as_version=4)


@pytest.mark.kernel
def test_positions_and_a_label_in_one_cell_are_reproduced_by_the_rules_on_a_kernel(
    tmp_path: Path,
) -> None:
    legacy = f"{READ_BOTH}\nX, y = train.ix[:, 1:-1], train.ix[:, 'target']\n{THRESHOLD}"
    code, report, final = modernize_with_train(tmp_path, legacy)
    assert code == 0, report["message"]
    assert report["outcome"] == "ErrorFreeReproducible"
    assert [r["issue"] for r in report["revisions"]] == ["Error", "Reproducible"]
    assert final.cells[1].source.splitlines()[3] == (
        "X, y = train.iloc[:, 1:-1], train.loc[:, 'target']"
    )
    occurrences = [{"cell": 1, "line": 4, "start": s, "end": e} for s, e in ((13, 17), (34, 37))]
    assert report["fixes"][0]["rules"] == [
        {"rule": IX, "cells": [1], "action": "applied", "occurrences": occurrences}
    ]


@pytest.mark.kernel
def test_an_undecided_occurrence_is_amended_alone_on_a_kernel(tmp_path: Path) -> None:
    # `train` is read in another cell: lines 2 and 3 are undecided, line 4 holds a label;
    # `.iloc` for both undecided lines would fail at line 3 (a label in a variable)
    mixed = (
        "target = 'target'\n"
        "X = train.ix[:, 1:-1]\n"
        "y = train.ix[:, target]\n"
        "assert (train.ix[:, 'target'] == y).all()\n"
        f"{THRESHOLD}"
    )
    code, report, final = modernize_with_train(tmp_path, READ_BOTH, mixed)
    assert code == 0, report["message"]
    assert report["outcome"] == "ErrorFreeReproducible"
    assert [r["issue"] for r in report["revisions"]] == ["Error", "Error", "Reproducible"]
    assert final.cells[2].source.splitlines()[1:4] == [
        "X = train.iloc[:, 1:-1]",
        "y = train.loc[:, target]",
        "assert (train.loc[:, 'target'] == y).all()",
    ]
    amended = report["fixes"][1]
    assert "TypeError at cell 2 line 2, a line rule pandas.ix-indexer wrote" in amended["summary"]
    lines = [(use["action"], [o["line"] for o in use["occurrences"]]) for use in amended["rules"]]
    assert lines == [("applied", [3, 4]), ("alternative", [2])]
