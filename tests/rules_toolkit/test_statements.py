"""toolkit.statements: statements added, dropped, edited."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.toolkit.calls import method_name
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.statements import (
    drop_imported_names,
    remove_statements,
    small_statement,
    statement_before,
)


def _is_hold(node: cst.BaseExpression, _context: RuleContext) -> bool:
    return isinstance(node, cst.Call) and method_name(node) == "hold"


def test_dropped_statements_keep_their_comments_and_blocks_stay_valid() -> None:
    rewrite = remove_statements(_is_hold)
    assert rewrite("plt.hold(True)\nx = 1\n", RuleContext()) == "x = 1\n"
    assert (
        rewrite("x = 1\n# overlay\nplt.hold(True)\n", RuleContext()) == "x = 1\n# overlay\npass\n"
    )
    assert rewrite("if x:\n    plt.hold(True)\n", RuleContext()) == "if x:\n    pass\n"
    assert rewrite("plt.hold(True); y = 2\n", RuleContext()) == "y = 2\n"


def test_names_dropped_from_an_import() -> None:
    rewrite = drop_imported_names("scipy.stats", ["itemfreq"])
    assert rewrite("from scipy.stats import itemfreq, norm\n", RuleContext()) == (
        "from scipy.stats import norm\n"
    )
    assert rewrite("from scipy.stats import itemfreq\nx = 1\n", RuleContext()) == "x = 1\n"


class _Before(cst.CSTTransformer):
    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        return statement_before(updated_node, [small_statement("x = x.copy()")])


def test_statements_added_before_a_line_take_its_comments_along() -> None:
    rewrite = cst_rewrite(lambda _context: _Before())
    assert rewrite("# set it\nx[0] = 1\n", RuleContext()) == "# set it\nx = x.copy()\nx[0] = 1\n"
