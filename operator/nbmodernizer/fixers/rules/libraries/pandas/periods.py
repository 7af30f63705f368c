"""Which expressions of a cell are known to hold pandas period data (a Period, a PeriodIndex,
a Series / DataFrame indexed by periods).

pandas 3 renamed the offset aliases `'M'`, `'Q'`, `'Y'` (`'ME'`, `'QE'`, `'YE'`) but not the
period ones: `ts.resample('M')` on a period-indexed series is current code, and `'ME'` there
raises. Known here, per scope (a function's bindings, or the cell's): a call to
`period_range`, `PeriodIndex`, `Period`, or to a helper named after `period_range` (the
test fixture `simple_period_range_series`); `x.to_period(...)`; a Series / DataFrame built
on a period index; a slice of one; a name whose every binding in its scope is one of these
(`toolkit.known`).
"""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst

from nbmodernizer.fixers.rules.toolkit.calls import keyword_arg, method_name
from nbmodernizer.fixers.rules.toolkit.known import known_names
from nbmodernizer.fixers.rules.toolkit.nodes import dotted_name, qualified

# by their last name under pandas (`pandas.core.indexes.period.PeriodIndex` in its own tests)
_PERIOD_CONSTRUCTORS = frozenset({"period_range", "PeriodIndex", "Period"})
_INDEXED = frozenset({"Series", "DataFrame"})
_PERIOD_METHODS = frozenset({"to_period"})


class PeriodScopes:
    """The period names of each scope, for a transformer walking the cell: `enter` the cell
    and each function, `leave` each function, ask `known(node)` in the current scope."""

    def __init__(self, aliases: Mapping[str, str]) -> None:
        self.aliases = aliases
        self.scopes: list[set[str]] = []

    def enter(self, scope: cst.Module | cst.FunctionDef) -> None:
        self.scopes.append(known_names(scope, self._known))

    def leave(self) -> None:
        self.scopes.pop()

    def known(self, node: cst.BaseExpression) -> bool:
        return bool(self.scopes) and self._known(node, self.scopes[-1])

    def _known(self, node: cst.BaseExpression, names: set[str]) -> bool:
        if isinstance(node, cst.Name):
            return node.value in names
        if isinstance(node, cst.Subscript):
            sliced = any(isinstance(element.slice, cst.Slice) for element in node.slice)
            return sliced and self._known(node.value, names)
        if not isinstance(node, cst.Call):
            return False
        name = qualified(node.func, self.aliases) or ""
        name = name.rpartition(".")[2] if name.startswith("pandas.") else ""
        if name in _PERIOD_CONSTRUCTORS or method_name(node) in _PERIOD_METHODS:
            return True
        callee = dotted_name(node.func) or ""
        if "period_range" in callee.rpartition(".")[2]:
            return True
        if name in _INDEXED:
            index = keyword_arg(node, "index")
            positional = [arg for arg in node.args if arg.keyword is None and not arg.star]
            if index is None and len(positional) >= 2:
                index = positional[1]
            return index is not None and self._known(index.value, names)
        return False
