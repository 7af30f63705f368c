"""Which expressions of a cell are known to be NumPy masked arrays (`numpy.ma`).

NumPy 2 removed `ndarray.ptp` but kept `MaskedArray.ptp`, and the two differ: `np.ptp(m, 0)`
reads a masked array's hidden values, `m.ptp(0)` skips them. A rule rewriting `a.ptp()` must
leave a masked array alone. Known here: a call to a `numpy.ma` function that returns a masked
array, a slice of one, and a name whose every binding in the cell is one of these (a cheap
reading of the cell, not a flow analysis; any other binding makes the name unknown).
"""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst

from nbmodernizer.fixers.rules.toolkit.nodes import qualified

# `numpy.ma` functions that return a MaskedArray (not `getdata`, `filled`, `count`, ...)
_MASKED_CONSTRUCTORS = frozenset(
    {
        "array", "masked_array", "MaskedArray", "asarray", "asanyarray", "copy", "where",
        "masked_where", "masked_equal", "masked_not_equal", "masked_greater",
        "masked_greater_equal", "masked_less", "masked_less_equal", "masked_inside",
        "masked_outside", "masked_invalid", "masked_values", "masked_object", "zeros", "ones",
        "empty", "arange", "concatenate", "stack", "vstack", "hstack",
    }
)  # fmt: skip


def _names(target: cst.BaseExpression) -> set[str]:
    """The names a binding target binds (`a`, `a, (b, *c)`); none for `x[0]` or `x.a`."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, cst.Tuple | cst.List):
        return {name for element in target.elements for name in _names(element.value)}
    return set()


class _Bindings(cst.CSTVisitor):
    def __init__(self) -> None:
        self.values: dict[str, list[cst.BaseExpression]] = {}  # `name = value`
        self.others: set[str] = set()  # names bound any other way

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self.values.setdefault(target.target.value, []).append(node.value)
            else:
                self.others |= _names(target.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if isinstance(node.target, cst.Name) and node.value is not None:
            self.values.setdefault(node.target.value, []).append(node.value)
        else:
            self.others |= _names(node.target)

    def visit_For(self, node: cst.For) -> None:
        self.others |= _names(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self.others |= _names(node.target)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.others |= _names(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:  # import / with / except ... as name
        self.others |= _names(node.name)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        self.others.add(node.evaluated_name.split(".")[0])

    def visit_Param(self, node: cst.Param) -> None:
        self.others.add(node.name.value)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.others.add(node.name.value)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.others.add(node.name.value)


class MaskedArrays:
    """The masked arrays of one cell (`module`), for a rule to ask about an expression."""

    def __init__(self, module: cst.Module, aliases: Mapping[str, str]) -> None:
        self.aliases = aliases
        found = _Bindings()
        module.visit(found)
        self.names: set[str] = set()
        changed = True
        while changed:  # `m = np.ma.array(x)`, `n = m[1:]`: read until nothing changes
            changed = False
            for name, values in found.values.items():
                if name in self.names or name in found.others:
                    continue
                if all(self.known(value) for value in values):
                    self.names.add(name)
                    changed = True

    def known(self, node: cst.BaseExpression) -> bool:
        """Whether `node` is known to be a masked array."""
        if isinstance(node, cst.Name):
            return node.value in self.names
        if isinstance(node, cst.Call):
            name = qualified(node.func, self.aliases)
            module, _, function = (name or "").rpartition(".")
            return module == "numpy.ma" and function in _MASKED_CONSTRUCTORS
        if isinstance(node, cst.Subscript):  # a slice of one (an integer index: a scalar)
            sliced = any(isinstance(element.slice, cst.Slice) for element in node.slice)
            return sliced and self.known(node.value)
        return False
