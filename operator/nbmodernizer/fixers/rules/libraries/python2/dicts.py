"""Dictionary methods Python 3 removed (`iteritems`, `has_key`, ...)."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import method_name
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.nodes import atom
from nbmodernizer.fixers.rules.toolkit.probes import lacks_attribute

# --- LibCST rules for cells that parse ----------------------------------------------------------

_ITER_METHODS = {
    "iteritems": "items",
    "itervalues": "values",
    "iterkeys": "keys",
    "viewitems": "items",
    "viewvalues": "values",
    "viewkeys": "keys",
}


class IterMethods(cst.CSTTransformer):
    """`d.iteritems()` -> `d.items()`; `next(d.iteritems())` -> `next(iter(d.items()))`."""

    def __init__(self, _context: RuleContext) -> None:
        pass

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        name = method_name(updated_node)
        if isinstance(func, cst.Attribute) and name in _ITER_METHODS and not updated_node.args:
            return updated_node.with_changes(
                func=func.with_changes(attr=cst.Name(_ITER_METHODS[name]))
            )
        if (
            isinstance(func, cst.Name)
            and func.value == "next"
            and original_node.args
            and isinstance(original_node.args[0].value, cst.Call)
            and method_name(original_node.args[0].value) in ("iteritems", "itervalues", "iterkeys")
        ):
            first = updated_node.args[0]
            wrapped = cst.Call(func=cst.Name("iter"), args=[cst.Arg(first.value)])
            return updated_node.with_changes(
                args=[first.with_changes(value=wrapped), *updated_node.args[1:]]
            )
        return updated_node


class HasKey(cst.CSTTransformer):
    """`d.has_key(k)` -> `k in d`, parenthesized where an operator could bind it."""

    def __init__(self, _context: RuleContext) -> None:
        self.bare: set[int] = set()  # ids of calls standing where no parentheses are needed

    def _mark(self, node: cst.BaseExpression | None) -> None:
        if node is not None:
            self.bare.add(id(node))

    def visit_If(self, node: cst.If) -> None:
        self._mark(node.test)

    def visit_While(self, node: cst.While) -> None:
        self._mark(node.test)

    def visit_Assert(self, node: cst.Assert) -> None:
        self._mark(node.test)

    def visit_Assign(self, node: cst.Assign) -> None:
        self._mark(node.value)

    def visit_Return(self, node: cst.Return) -> None:
        self._mark(node.value)

    def visit_Expr(self, node: cst.Expr) -> None:
        self._mark(node.value)

    def visit_Arg(self, node: cst.Arg) -> None:
        self._mark(node.value)

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not):
            self._mark(node.expression)

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self._mark(node.left)
        self._mark(node.right)

    def leave_UnaryOperation(
        self, original_node: cst.UnaryOperation, updated_node: cst.UnaryOperation
    ) -> cst.BaseExpression:
        """`not d.has_key(k)` -> `k not in d`."""
        test = updated_node.expression
        if (
            isinstance(updated_node.operator, cst.Not)
            and isinstance(original_node.expression, cst.Call)
            and isinstance(test, cst.Comparison)
            and not test.lpar
            and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, cst.In)
        ):
            target = test.comparisons[0].with_changes(operator=cst.NotIn())
            return test.with_changes(
                comparisons=[target], lpar=updated_node.lpar, rpar=updated_node.rpar
            )
        return updated_node

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if (
            not isinstance(func, cst.Attribute)
            or func.attr.value != "has_key"
            or len(updated_node.args) != 1
            or updated_node.args[0].keyword is not None
            or updated_node.args[0].star
        ):
            return updated_node
        test = cst.Comparison(
            left=atom(updated_node.args[0].value),
            comparisons=[cst.ComparisonTarget(operator=cst.In(), comparator=func.value)],
        )
        if id(original_node) in self.bare:
            return test.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
        return test.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


RULES = (
    Rule(
        id="python2.dict-iter-methods",
        library="python",
        changed_in="3.0",
        summary="`d.iteritems()` / `itervalues()` / `iterkeys()` / `viewitems()` ... -> "
        "`d.items()` / `values()` / `keys()`",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(IterMethods, tuple(_ITER_METHODS)),
        symptoms=(
            Symptom("AttributeError", r"object has no attribute '(iter|view)(items|values|keys)'"),
        ),
        gone=lacks_attribute("builtins.dict", "iteritems"),
        examples=(
            Example(
                before=(
                    "d = {'a': 1, 'b': 2}\n"
                    "pairs = sorted((k, v) for k, v in d.iteritems())\n"
                    "total = sum(d.itervalues()) + len(list(d.viewkeys()))\n"
                    "first = next(d.iterkeys())\n"
                ),
                after=(
                    "d = {'a': 1, 'b': 2}\n"
                    "pairs = sorted((k, v) for k, v in d.items())\n"
                    "total = sum(d.values()) + len(list(d.keys()))\n"
                    "first = next(iter(d.keys()))\n"
                ),
                error="AttributeError",
                check="pairs == [('a', 1), ('b', 2)] and total == 5 and first == 'a'",
            ),
        ),
    ),
    Rule(
        id="python2.has-key",
        library="python",
        changed_in="3.0",
        summary="`d.has_key(k)` -> `k in d` (`not d.has_key(k)` -> `k not in d`)",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(HasKey, ("has_key",)),
        symptoms=(Symptom("AttributeError", r"object has no attribute 'has_key'"),),
        gone=lacks_attribute("builtins.dict", "has_key"),
        examples=(
            Example(
                before=(
                    "d = {'a': 1}\n"
                    "found = [d.has_key('a'), not d.has_key('b')]\n"
                    "if d.has_key('a') and not d.has_key('z'):\n"
                    "    found.append(d.has_key('b') == False)\n"
                ),
                after=(
                    "d = {'a': 1}\n"
                    "found = [('a' in d), 'b' not in d]\n"
                    "if 'a' in d and 'z' not in d:\n"
                    "    found.append(('b' in d) == False)\n"
                ),
                error="AttributeError",
                check="found == [True, True, True]",
            ),
        ),
    ),
)
