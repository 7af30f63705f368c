"""Running a toolkit transform on a snippet, as a rule would."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite


def context(**aliases: str) -> RuleContext:
    return RuleContext(aliases=dict(aliases))


def on_calls(edit: Callable[[cst.Call], cst.Call]) -> Callable[[str], str]:
    """`source` -> `source` with `edit` applied to every call of `f(...)`."""

    class Edit(cst.CSTTransformer):
        def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
            if isinstance(updated_node.func, cst.Name) and updated_node.func.value == "f":
                return edit(updated_node)
            return updated_node

    rewrite = cst_rewrite(lambda _context: Edit())
    return lambda source: rewrite(source, RuleContext())
