"""Names of a cell known to hold one kind of value (a masked array, period data): a name
whose every binding in the code read is a value of that kind (a cheap reading of the code,
not a flow analysis; any other binding, a parameter, a loop target, an import, makes the
name unknown)."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from nbmodernizer.fixers.rules.toolkit.traversal import look


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


def known_names(
    node: cst.CSTNode, known: Callable[[cst.BaseExpression, set[str]], bool]
) -> set[str]:
    """The names every binding of which in `node` is `known(value, names known so far)`."""
    found = _Bindings()
    look(node, found)
    names: set[str] = set()
    changed = True
    while changed:  # `m = np.ma.array(x)`, `n = m[1:]`: read until nothing changes
        changed = False
        for name, values in found.values.items():
            if name in names or name in found.others:
                continue
            if all(known(value, names) for value in values):
                names.add(name)
                changed = True
    return names
