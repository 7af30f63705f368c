"""Statements: building them, adding them before a line, editing or dropping them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Rewrite
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.nodes import dotted_name, with_commas


def small_statement(code: str) -> cst.BaseSmallStatement:
    """The one simple statement this code spells (`x = 1`)."""
    line = cst.parse_statement(code + "\n")
    assert isinstance(line, cst.SimpleStatementLine)
    return line.body[0]


def statement_before(
    line: cst.SimpleStatementLine, new: Sequence[cst.BaseSmallStatement]
) -> cst.FlattenSentinel[cst.BaseStatement]:
    """`new` statements on their own lines right before `line` (comments above stay above)."""
    added = [cst.SimpleStatementLine(body=[statement]) for statement in new]
    added[0] = added[0].with_changes(leading_lines=line.leading_lines)
    return cst.FlattenSentinel([*added, line.with_changes(leading_lines=())])


def _removed_line(
    line: cst.SimpleStatementLine,
) -> cst.SimpleStatementLine | cst.RemovalSentinel:
    """Remove a statement line; a line carrying comments becomes `pass` to keep them."""
    commented = line.trailing_whitespace.comment is not None or any(
        empty.comment is not None for empty in line.leading_lines
    )
    return line.with_changes(body=[cst.Pass()]) if commented else cst.RemoveFromParent()


class StatementEditor(cst.CSTTransformer):
    """Edits or drops the small statements of each line (`edit`); a line left empty goes, and
    a block left empty gets `pass`."""

    def edit(self, small: cst.BaseSmallStatement) -> cst.BaseSmallStatement | None:
        """The statement, changed or as it is; None drops it."""
        raise NotImplementedError

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        body: list[cst.BaseSmallStatement] = []
        changed = False
        for small in updated_node.body:
            edited = self.edit(small)
            changed = changed or edited is not small
            if edited is not None:
                body.append(edited)
        if not changed:
            return updated_node
        if not body:
            return _removed_line(updated_node)
        body[-1] = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(body=body)

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        if updated_node.body:
            return updated_node
        return updated_node.with_changes(body=[cst.SimpleStatementLine(body=[cst.Pass()])])


class _ImportedNameDropper(StatementEditor):
    """Remove `names` from `from module import ...` (the statement too when none is left)."""

    def __init__(self, module: str, names: frozenset[str]) -> None:
        super().__init__()
        self.module, self.names = module, names

    def _drops(self, alias: cst.ImportAlias) -> bool:
        return isinstance(alias.name, cst.Name) and alias.name.value in self.names

    def edit(self, small: cst.BaseSmallStatement) -> cst.BaseSmallStatement | None:
        if (
            isinstance(small, cst.ImportFrom)
            and not small.relative
            and small.module is not None
            and dotted_name(small.module) == self.module
            and not isinstance(small.names, cst.ImportStar)
            and any(self._drops(alias) for alias in small.names)
        ):
            kept = [alias for alias in small.names if not self._drops(alias)]
            return small.with_changes(names=with_commas(kept)) if kept else None
        return small


def drop_imported_names(module: str, names: Sequence[str]) -> Rewrite:
    """`from module import gone, kept` -> `from module import kept` (for names now inlined)."""
    return cst_rewrite(
        lambda _context: _ImportedNameDropper(module, frozenset(names)), tuple(names)
    )


class _StatementRemover(StatementEditor):
    """Drop expression statements for which `drops(expression, context)` is true."""

    def __init__(
        self, context: RuleContext, drops: Callable[[cst.BaseExpression, RuleContext], bool]
    ) -> None:
        super().__init__()
        self.context, self.drops = context, drops

    def edit(self, small: cst.BaseSmallStatement) -> cst.BaseSmallStatement | None:
        dropped = isinstance(small, cst.Expr) and self.drops(small.value, self.context)
        return None if dropped else small


def remove_statements(drops: Callable[[cst.BaseExpression, RuleContext], bool]) -> Rewrite:
    """Drop the expression statements `drops` says are no-ops today (`plt.hold(True)`)."""
    return cst_rewrite(lambda context: _StatementRemover(context, drops))
