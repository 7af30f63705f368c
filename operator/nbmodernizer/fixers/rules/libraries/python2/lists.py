"""Builtins that returned lists and return iterators or views now (`map`, `range`, `d.keys()`)."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import method_name
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite

_LAZY_BUILTINS = frozenset({"map", "filter", "zip"})

_VIEWS = frozenset({"keys", "values", "items"})


def _lazy(node: cst.BaseExpression) -> bool:
    if not isinstance(node, cst.Call):
        return False
    if isinstance(node.func, cst.Name):
        return node.func.value in _LAZY_BUILTINS
    return method_name(node) in _VIEWS and not node.args


def _listed(node: cst.BaseExpression) -> cst.Call:
    return cst.Call(func=cst.Name("list"), args=[cst.Arg(node)])


class LazyViews(cst.CSTTransformer):
    """`d.keys()[0]` -> `list(d.keys())[0]`, `len(map(f, x))` -> `len(list(map(f, x)))`."""

    def __init__(self, _context: RuleContext) -> None:
        pass

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        if _lazy(original_node.value):
            return updated_node.with_changes(value=_listed(updated_node.value))
        return updated_node

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if (
            isinstance(func, cst.Name)
            and func.value == "len"
            and len(updated_node.args) == 1
            and _lazy(original_node.args[0].value)
        ):
            arg = updated_node.args[0]
            return updated_node.with_changes(args=[arg.with_changes(value=_listed(arg.value))])
        return updated_node


_RANGE_CONSUMERS = frozenset(
    {
        *("list", "tuple", "set", "frozenset", "sorted", "enumerate", "zip", "len", "sum"),
        *("min", "max", "any", "all", "iter", "reversed", "map", "filter", "dict"),
    }
)


class RangeLists(cst.CSTTransformer):
    """`range(...)` was a list: `list(range(...))`, except where it is only iterated."""

    def __init__(self, _context: RuleContext) -> None:
        self.iterated: set[int] = set()

    def visit_For(self, node: cst.For) -> None:
        self.iterated.add(id(node.iter))

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self.iterated.add(id(node.iter))

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value in _RANGE_CONSUMERS:
            self.iterated.update(id(arg.value) for arg in node.args)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if (
            isinstance(updated_node.func, cst.Name)
            and updated_node.func.value == "range"
            and id(original_node) not in self.iterated
        ):
            return _listed(updated_node)
        return updated_node


RULES = (
    Rule(
        id="python2.lazy-views",
        library="python",
        changed_in="3.0",
        summary="`d.keys()[0]` -> `list(d.keys())[0]`, `map(...)[i]`, `len(filter(...))` -> "
        "`list(...)` first (reactive)",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(LazyViews),
        symptoms=(
            Symptom(
                "TypeError",
                r"'(dict_keys|dict_values|dict_items|map|filter|zip)' object is not subscriptable",
            ),
            Symptom("TypeError", r"object of type '(map|filter|zip)' has no len\(\)"),
        ),
        examples=(
            Example(
                before=(
                    "d = {'a': 1, 'b': 2}\n"
                    "first = d.keys()[0]\n"
                    "doubled = map(lambda x: 2 * x, [1, 2, 3])[1:]\n"
                    "n = len(filter(None, [0, 1, 2]))\n"
                ),
                after=(
                    "d = {'a': 1, 'b': 2}\n"
                    "first = list(d.keys())[0]\n"
                    "doubled = list(map(lambda x: 2 * x, [1, 2, 3]))[1:]\n"
                    "n = len(list(filter(None, [0, 1, 2])))\n"
                ),
                error="TypeError",
                check="first == 'a' and doubled == [4, 6] and n == 2",
            ),
        ),
    ),
    Rule(
        id="python2.range-list",
        library="python",
        changed_in="3.0",
        summary="`range(...)` used as a list (`+`, `.append`, item assignment) -> "
        "`list(range(...))` (reactive; loops keep `range`)",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(RangeLists),
        symptoms=(
            Symptom("TypeError", r"unsupported operand type\(s\) for \+: 'range' and"),
            Symptom("TypeError", r"'range' object does not support item (assignment|deletion)"),
            Symptom("AttributeError", r"'range' object has no attribute"),
        ),
        examples=(
            Example(
                before=(
                    "order = range(5)\n"
                    "order.append(5)\n"
                    "both = range(2) + range(3)\n"
                    "squares = [i * i for i in range(3)]\n"
                    "for i in range(2):\n"
                    "    both[i] = sum(range(4))\n"
                ),
                after=(
                    "order = list(range(5))\n"
                    "order.append(5)\n"
                    "both = list(range(2)) + list(range(3))\n"
                    "squares = [i * i for i in range(3)]\n"
                    "for i in range(2):\n"
                    "    both[i] = sum(range(4))\n"
                ),
                error="AttributeError",
                check="order == [0, 1, 2, 3, 4, 5] and both == [6, 6, 0, 1, 2] and squares == [0, 1, 4]",
            ),
        ),
    ),
)
