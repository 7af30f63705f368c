"""LibCST transforms for the Python 2 name and module rules (cells that parse)."""

from __future__ import annotations

import re

import libcst as cst

from nbmodernizer.fixers.rules.cells import dotted_name
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import (
    method_name,
)
from nbmodernizer.fixers.rules.text_tools import (
    atom,
)

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


RENAMED_MODULES = {
    "cPickle": "pickle",
    "cStringIO": "io",
    "StringIO": "io",
    "Queue": "queue",
    "ConfigParser": "configparser",
    "urllib2": "urllib.request",
    "urlparse": "urllib.parse",
    "HTMLParser": "html.parser",
    "httplib": "http.client",
    "cookielib": "http.cookiejar",
    "Tkinter": "tkinter",
    "commands": "subprocess",
}


def _dotted(name: str) -> cst.Attribute | cst.Name:
    node = cst.parse_expression(name)
    assert isinstance(node, cst.Attribute | cst.Name)
    return node


class RenamedModules(cst.CSTTransformer):
    """`import cPickle as pickle` -> `import pickle`; `import urllib2` ->
    `import urllib.request as urllib2` (the local name stays, so later cells still work)."""

    def __init__(self, _context: RuleContext) -> None:
        pass

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        names = []
        for alias in updated_node.names:
            old = dotted_name(alias.name)
            if old not in RENAMED_MODULES:
                names.append(alias)
                continue
            new = RENAMED_MODULES[old]
            local = (
                alias.asname.name.value
                if alias.asname and isinstance(alias.asname.name, cst.Name)
                else old
            )
            asname = None if local == new else cst.AsName(name=cst.Name(local))
            names.append(alias.with_changes(name=_dotted(new), asname=asname))
        return updated_node.with_changes(names=names)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        old = dotted_name(updated_node.module) if updated_node.module else None
        if old not in RENAMED_MODULES or updated_node.relative:
            return updated_node
        return updated_node.with_changes(module=_dotted(RENAMED_MODULES[old]))


_ITERTOOLS_BUILTINS = {"izip": "zip", "imap": "map", "ifilter": "filter"}
_ITERTOOLS_RENAMED = {"izip_longest": "zip_longest", "ifilterfalse": "filterfalse"}


class Itertools(cst.CSTTransformer):
    """`from itertools import izip` -> `izip = zip` (the name stays bound for later cells)."""

    def __init__(self, _context: RuleContext) -> None:
        pass

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement]:
        module = dotted_name(updated_node.module) if updated_node.module else None
        if module != "itertools" or isinstance(updated_node.names, cst.ImportStar):
            return updated_node
        kept: list[cst.ImportAlias] = []
        assigns: list[cst.BaseSmallStatement] = []
        for alias in updated_node.names:
            name = alias.name.value if isinstance(alias.name, cst.Name) else ""
            local = (
                alias.asname.name.value
                if alias.asname and isinstance(alias.asname.name, cst.Name)
                else name
            )
            if name in _ITERTOOLS_BUILTINS:
                assigns.append(
                    cst.Assign(
                        targets=[cst.AssignTarget(cst.Name(local))],
                        value=cst.Name(_ITERTOOLS_BUILTINS[name]),
                    )
                )
            elif name in _ITERTOOLS_RENAMED:
                kept.append(
                    alias.with_changes(
                        name=cst.Name(_ITERTOOLS_RENAMED[name]),
                        asname=cst.AsName(name=cst.Name(local)),
                    )
                )
            else:
                kept.append(alias)
        if not assigns:
            if kept == list(updated_node.names):
                return updated_node
            return updated_node.with_changes(names=kept)
        if not kept:
            return cst.FlattenSentinel(assigns)
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return cst.FlattenSentinel([updated_node.with_changes(names=kept), *assigns])


_STRING_METHODS = frozenset(
    {
        *("lower", "upper", "strip", "lstrip", "rstrip", "split", "rsplit", "replace"),
        *("find", "rfind", "index", "rindex", "count", "capitalize", "swapcase", "zfill"),
        *("ljust", "rjust", "center", "expandtabs"),
    }
)
_STRING_CONVERSIONS = {"atoi": "int", "atof": "float", "atol": "int"}


class StringFunctions(cst.CSTTransformer):
    """`string.join(words, sep)` -> `sep.join(words)`, `string.lower(s)` -> `s.lower()`, ...;
    `s.translate(str.maketrans('', ''), chars)` -> `s.translate(str.maketrans('', '', chars))`."""

    def __init__(self, context: RuleContext) -> None:
        self.local = {name for name, module in context.aliases.items() if module == "string"}

    def _function(self, call: cst.Call) -> str | None:
        func = call.func
        if (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and func.value.value in self.local
        ):
            return func.attr.value
        return None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        function = self._function(updated_node)
        args = updated_node.args
        if any(arg.keyword or arg.star for arg in args):
            return updated_node
        if function == "join" and len(args) in (1, 2):
            separator = args[1].value if len(args) == 2 else cst.SimpleString('" "')
            return cst.Call(
                func=cst.Attribute(value=atom(separator), attr=cst.Name("join")),
                args=[args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)],
            )
        if function in _STRING_METHODS and args:
            rest = list(args[1:])
            if rest:
                rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return cst.Call(
                func=cst.Attribute(value=atom(args[0].value), attr=cst.Name(function)),
                args=rest,
            )
        if function in _STRING_CONVERSIONS and args:
            return updated_node.with_changes(func=cst.Name(_STRING_CONVERSIONS[function]))
        if method_name(updated_node) == "translate" and len(args) == 2:
            table = args[0].value
            if (
                isinstance(table, cst.Call)
                and dotted_name(table.func)
                in {"str.maketrans", *(f"{n}.maketrans" for n in self.local)}
                and len(table.args) == 2
                and all(
                    isinstance(a.value, cst.SimpleString) and a.value.evaluated_value == ""
                    for a in table.args
                )
            ):
                identity = cst.Call(
                    func=_dotted("str.maketrans"),
                    args=[
                        table.args[0].with_changes(
                            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                        ),
                        table.args[1].with_changes(
                            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                        ),
                        args[1].with_changes(comma=cst.MaybeSentinel.DEFAULT),
                    ],
                )
                return updated_node.with_changes(args=[cst.Arg(identity)])
        return updated_node


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


def import_reduce(source: str, context: RuleContext) -> str:
    """Reactive: `reduce` is not defined: import it from functools at the top of the cell."""
    if not re.search(r"(?<![\w.])reduce\s*\(", source) or re.search(
        r"(def\s+reduce\b|import\s+reduce\b|import.*,\s*reduce\b)", source
    ):
        return source
    lines = source.split("\n")
    insert = 0
    while insert < len(lines) and re.match(r"\s*(#.*)?$|from __future__ import", lines[insert]):
        insert += 1
    return "\n".join([*lines[:insert], "from functools import reduce", *lines[insert:]])
