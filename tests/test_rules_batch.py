"""`fixer.rewrite_cell` asks the LibCST rules in one walk which would change a cell
(`rules.batch`) and runs only those: the result must be exactly running every rule in turn."""

from __future__ import annotations

from pathlib import Path

import nbformat

from nbmodernizer import cells
from nbmodernizer.fixers.rules import all_rules
from nbmodernizer.fixers.rules.batch import would_change
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.fixer import KIND_ORDER, rewrite_cell
from nbmodernizer.fixers.rules.model import Rule
from nbmodernizer.fixers.rules.toolkit.cells import CstRewrite, cst_rewrite
from nbmodernizer.notebook import code_cells

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RULES = all_rules()


def one_by_one(
    source: str, context: RuleContext, refused: frozenset[str] = frozenset()
) -> tuple[str, list[str]]:
    """Every rule in turn, again and again until none changes the cell (the fixpoint
    `rewrite_cell` reaches in one call), without the rules it refused."""
    applied: list[str] = []
    while True:
        before = source
        for rule in sorted(RULES, key=lambda r: KIND_ORDER.index(r.kind)):
            if rule.id in refused:
                continue
            rewritten = rule.rewrite(source, context)
            if rewritten != source:
                applied.append(rule.id)
                source = rewritten
        if source == before:
            return source, applied


def sources() -> list[str]:
    found = [e.before for r in RULES for e in r.examples] + [
        e.after for r in RULES for e in r.examples
    ]
    for path in sorted(EXAMPLES.glob("*/**/*.ipynb")):
        found += [c.source for c in code_cells(nbformat.read(path, as_version=4))]
    return found


def test_batched_rewriting_is_running_every_rule() -> None:
    for source in sources():  # every rule, gone or not: the most rules a cell can meet
        context = RuleContext(aliases=cells.imports([source]))
        refused: set[str] = set()

        def refuse(rule: Rule, _reason: str, seen: set[str] = refused) -> None:
            seen.add(rule.id)

        result = rewrite_cell(source, RULES, context, on_refuse=refuse)
        assert result == one_by_one(source, context, frozenset(refused)), source


def test_a_transformer_that_only_looks_is_not_named() -> None:
    import libcst as cst

    class Looks(cst.CSTTransformer):
        def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
            return updated_node

    class Renames(cst.CSTTransformer):
        def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
            return (
                updated_node.with_changes(value="y") if updated_node.value == "x" else updated_node
            )

    rewrites = [cst_rewrite(lambda _c: Looks()), cst_rewrite(lambda _c: Renames())]
    assert all(isinstance(r, CstRewrite) for r in rewrites)
    walked = [r for r in rewrites if isinstance(r, CstRewrite)]
    assert would_change("x = 1\n", walked, RuleContext()) == {1}
    assert would_change("z = 1\n", walked, RuleContext()) == set()
