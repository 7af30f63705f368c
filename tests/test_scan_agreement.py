"""`nbmod scan` agrees with the loop: every rule the loop's rules fixer applies before
anything fails is a finding of `scan` in the same cell (recall), modern code has no findings
(false positives), and `nbmod fix` is idempotent; on every rule's examples and on
examples/*/ (no kernel: the loop's fixer is asked as the loop asks it before any error)."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import nbformat
import pytest

from nbmodernizer.fixers.rules import RulesFixer, all_libraries, all_rules
from nbmodernizer.fixers.rules.fixer import notebook_context
from nbmodernizer.fixers.rules.model import Example, Rule
from nbmodernizer.scan.finding import Scanner
from nbmodernizer.scan.sources import SourceFile, read
from testing.notebooks import notebook, write_notebook
from tests.test_rules_fixer import request as fix_request

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_APPLIED = re.compile(r"([\w.\-]+) \(cells? ([\d, ]+)\)")

SCANNER = Scanner(all_rules(), all_libraries())
FIXER = RulesFixer(all_rules())


def loop_applies(nb: Any) -> dict[int, set[str]]:
    """cell index -> the rules the loop's rules fixer applies before anything failed."""
    attempt = FIXER.propose(fix_request(nb))
    applied: dict[int, set[str]] = defaultdict(set)
    if attempt.proposal is not None:
        for rule_id, cells in _APPLIED.findall(attempt.proposal.summary):
            for cell in cells.split(", "):
                applied[int(cell)].add(rule_id)
    return dict(applied)


def scan_finds(path: Path) -> dict[int, set[str]]:
    found: dict[int, set[str]] = defaultdict(set)
    for finding in SCANNER.scan(read(path)).findings:
        assert finding.cell is not None
        found[finding.cell - 1].add(finding.rule)
    return dict(found)


def rewritten(source: SourceFile) -> str:
    return source.rewritten(SCANNER.scan(source).rewritten)


# Findings on already-modern code, each with why it is tolerated. `from six.moves import range
# as xrange` binds `xrange` to `range`: python2.xrange rewrites the call to `range(...)`, which
# means the same (the import stays, unused).
KNOWN_FALSE_POSITIVES = {"sklearn.externals-six-0": {"python2.xrange"}}

EXAMPLE_CASES = [
    pytest.param(rule, example, id=f"{rule.id}-{n}")
    for rule in all_rules()
    if rule.gone is not None
    for n, example in enumerate(rule.examples)
]


@pytest.mark.parametrize(("rule", "example"), EXAMPLE_CASES)
def test_rule_example_scan_agrees_with_the_loop(
    rule: Rule, example: Example, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    path = write_notebook(tmp_path / "before.ipynb", notebook(example.before))
    loop = loop_applies(nbformat.read(path, as_version=4))
    assert scan_finds(path) == loop  # recall, and nothing the loop would not do
    # fixed once, nothing is left to fix
    once = rewritten(read(path))
    (tmp_path / "once.ipynb").write_text(once)
    assert rewritten(read(tmp_path / "once.ipynb")) == once
    assert scan_finds(tmp_path / "once.ipynb") == {}
    # the modern form has no findings
    after = write_notebook(tmp_path / "after.ipynb", notebook(example.after))
    case = request.node.callspec.id
    expected = KNOWN_FALSE_POSITIVES.get(case)
    assert scan_finds(after) == ({1: expected} if expected else {})


@pytest.mark.parametrize(
    "path", sorted(EXAMPLES.glob("*/notebook.ipynb")), ids=lambda p: p.parent.name
)
def test_example_notebook_scan_agrees_with_the_loop(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    assert scan_finds(path) == without_guesses(loop_applies(nb), nb)


IX = next(rule for rule in all_rules() if rule.id == "pandas.ix-indexer")


def without_guesses(applied: dict[int, set[str]], nb: Any) -> dict[int, set[str]]:
    """What the loop applies less its `.ix` guesses: an `.ix` whose key says neither labels
    nor positions is written `.loc` where a run follows to check it (the loop), left by
    `scan` (libraries/pandas/indexers.py). A cell whose `.ix` are all guesses drops the rule."""
    sources = [cell.source for cell in nb.cells if cell.cell_type == "code"]
    context, _ = notebook_context(sources, False, None)  # as scan reads it: no run follows
    kept: dict[int, set[str]] = {}
    for index, rules in applied.items():
        source = nb.cells[index].source
        if IX.id in rules and IX.rewrite(source, context) == source:
            rules = rules - {IX.id}
        if rules:
            kept[index] = rules
    return kept


@pytest.mark.parametrize(
    "path", sorted(EXAMPLES.glob("*/reference/*.ipynb")), ids=lambda p: p.parent.parent.name
)
def test_reference_notebooks_have_no_findings(path: Path) -> None:
    assert scan_finds(path) == {}


def test_the_wine_example_is_found_where_the_loop_repairs_it() -> None:
    found = scan_finds(EXAMPLES / "wine-removed-apis-2016" / "notebook.ipynb")
    assert {rule for rules in found.values() for rule in rules} >= {
        "sklearn.cross-validation-module",
        "pandas.ix-indexer",
        "numpy.builtin-type-aliases",
    }
