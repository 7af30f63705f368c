"""Python 2 leftovers.

Cells with Python 2 syntax do not parse as Python 3, so the syntax rules work on text: on
`text_tools.code_mask`, where string literals and comments are masked, so that nothing in
a string or a comment is ever touched. They come first: once they ran, the cell parses and
the LibCST rules after them (and those of the other modules) can work on it.
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import itertools
import re
import string
import sys
from functools import cache

import libcst as cst

from nbmodernizer.fixers.rules.cells import dotted_name
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import (
    chain,
    cst_rewrite,
    method_name,
    replace_attributes,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.text_tools import (
    Edit,
    apply_edits,
    atom,
    compound_headers,
    parses,
    rename_names,
    simple_statements,
    split_top_level,
    string_tokens,
    strip_span,
    text_rewrite,
)


@cache
def rejected(code: str) -> bool:
    """Probe: the running Python rejects this Python 2 code."""
    try:
        compile(code, "<probe>", "exec")
    except SyntaxError:
        return True
    return False


def _statement_parses(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


def _items(source: str, mask: str, start: int, end: int) -> list[str]:
    """The comma-separated items of source[start:end] (an empty last item: trailing comma)."""
    return [
        source[a:b]
        for a, b in (strip_span(mask, part) for part in split_top_level(mask, (start, end)))
    ]


# --- print ------------------------------------------------------------------------------------


def _print_statements(source: str, mask: str, _context: RuleContext) -> str:
    cell_parses = parses(source)
    edits: list[Edit] = []
    for start, end in simple_statements(mask):
        if not re.match(r"print\b", mask[start:end]):
            continue
        rest = mask[start + 5 : end]
        chevron = re.match(r"\s*>>", rest)
        if not rest.strip():
            if not cell_parses:  # a bare `print` wrote an empty line; in a Python 3 cell: no-op
                edits.append((start, end, "print()"))
            continue
        if not chevron and (cell_parses or _statement_parses(source[start:end])):
            continue
        items = _items(source, mask, start + 5, end)
        extra: list[str] = []
        if chevron:
            extra.append("file=" + items[0].lstrip()[2:].strip())
            items = items[1:]
        if len(items) > 1 and not items[-1]:
            items = items[:-1]
            extra.insert(0, 'end=" "')
        arguments = [item for item in items if item] + extra
        edits.append((start, end, "print(" + ", ".join(arguments) + ")"))
    return apply_edits(source, edits)


# --- except, raise, exec ---------------------------------------------------------------------


def _except_comma(source: str, mask: str, _context: RuleContext) -> str:
    if parses(source):  # a Python 3 cell: nothing to do
        return source
    edits: list[Edit] = []
    for keyword, header in compound_headers(mask):
        if keyword != "except":
            continue
        parts = [strip_span(mask, part) for part in split_top_level(mask, header)]
        if len(parts) == 2 and re.fullmatch(r"[A-Za-z_]\w*", mask[parts[1][0] : parts[1][1]]):
            edits.append((parts[0][1], parts[1][0], " as "))
    return apply_edits(source, edits)


def _tuple_contents(source: str, mask: str, text_start: int, text_end: int) -> str | None:
    """`a, b` for a parenthesized tuple `(a, b)` spanning exactly source[text_start:text_end]."""
    if mask[text_start] != "(" or mask[text_end - 1] != ")":
        return None
    depth = 0
    for index in range(text_start, text_end):
        depth += {"(": 1, ")": -1}.get(mask[index], 0)
        if depth == 0 and index < text_end - 1:
            return None  # `(a) + (b)`: the first paren closes early
    inner = (text_start + 1, text_end - 1)
    if len(split_top_level(mask, inner)) < 2:
        return None
    return source[inner[0] : inner[1]].strip().rstrip(",").rstrip()


def _raise_comma(source: str, mask: str, _context: RuleContext) -> str:
    if parses(source):  # a Python 3 cell: nothing to do
        return source
    edits: list[Edit] = []
    for start, end in simple_statements(mask):
        if not re.match(r"raise\s", mask[start:end]):
            continue
        parts = [strip_span(mask, part) for part in split_top_level(mask, (start + 5, end))]
        if len(parts) not in (2, 3) or any(a >= b for a, b in parts):
            continue
        kind = source[parts[0][0] : parts[0][1]]
        value = _tuple_contents(source, mask, *parts[1])
        if value is None:
            value = source[parts[1][0] : parts[1][1]]
        replacement = kind if value == "None" else f"{kind}({value})"
        if len(parts) == 3:
            replacement += f".with_traceback({source[parts[2][0] : parts[2][1]]})"
        edits.append((parts[0][0], end, replacement))
    return apply_edits(source, edits)


def _exec_statements(source: str, mask: str, _context: RuleContext) -> str:
    edits: list[Edit] = []
    for start, end in simple_statements(mask):
        if not re.match(r"exec\b", mask[start:end]):
            continue
        statement_parses = _statement_parses(source[start:end])
        if statement_parses and not re.search(r"\)\s+in\s", mask[start:end]):
            continue  # `exec(code)`; but `exec (code) in ns` parses and means something else
        code_end = end
        namespaces: list[str] = []
        depth = 0
        for index in range(start + 4, end):
            depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(mask[index], 0)
            if depth == 0 and re.match(r"\sin\s", mask[index - 1 : index + 3]):
                code_end = index
                namespaces = _items(source, mask, index + 2, end)
                break
        code = source[start + 4 : code_end].strip()
        edits.append((start, end, "exec(" + ", ".join([code, *namespaces]) + ")"))
    return apply_edits(source, edits)


# --- operators and literals -------------------------------------------------------------------


def _backticks(source: str, mask: str, _context: RuleContext) -> str:
    if parses(source):  # a Python 3 cell: nothing to do
        return source
    edits: list[Edit] = []
    for m in re.finditer(r"`([^`\n]+)`", mask):
        inner = source[m.start(1) : m.end(1)].strip()
        try:
            ast.parse(f"({inner})", mode="eval")
        except SyntaxError:
            continue  # nested backticks: left alone
        if len(split_top_level(mask, (m.start(1), m.end(1)))) > 1:
            inner = f"({inner})"  # `1, 2` was the repr of a tuple
        edits.append((m.start(), m.end(), f"repr({inner})"))
    return apply_edits(source, edits)


def _diamond(source: str, mask: str, _context: RuleContext) -> str:
    if parses(source):  # a Python 3 cell: nothing to do
        return source
    return apply_edits(source, [(m.start(), m.end(), "!=") for m in re.finditer(r"<>", mask)])


def _numeric_literals(source: str, mask: str, _context: RuleContext) -> str:
    if parses(source):  # a Python 3 cell: nothing to do
        return source
    edits: list[Edit] = [  # octal first: `0777L` is octal (apply_edits keeps the first)
        (m.start(), m.end(), "0o" + m.group(1))
        for m in re.finditer(r"(?<![\w.])0([0-7]+)[lL]?(?![\w.])", mask)
        if m.group(1).strip("0")
    ]
    edits += [
        (m.start(), m.end(), m.group(1))
        for m in re.finditer(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)[lL]\b", mask)
    ]
    return apply_edits(source, edits)


def _ur_strings(source: str, _mask: str, _context: RuleContext) -> str:
    if parses(source):  # a Python 3 cell: nothing to do
        return source
    edits: list[Edit] = []
    for token in string_tokens(source):
        body = token.body(source)
        if token.prefix.lower() == "ur" and "\\u" not in body and "\\U" not in body:
            edits.append((token.start, token.start + 2, token.prefix[1]))
    return apply_edits(source, edits)


# --- LibCST rules for cells that parse ----------------------------------------------------------

_ITER_METHODS = {
    "iteritems": "items",
    "itervalues": "values",
    "iterkeys": "keys",
    "viewitems": "items",
    "viewvalues": "values",
    "viewkeys": "keys",
}


class _IterMethods(cst.CSTTransformer):
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


class _HasKey(cst.CSTTransformer):
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


_MODULES = {
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


class _RenamedModules(cst.CSTTransformer):
    """`import cPickle as pickle` -> `import pickle`; `import urllib2` ->
    `import urllib.request as urllib2` (the local name stays, so later cells still work)."""

    def __init__(self, _context: RuleContext) -> None:
        pass

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        names = []
        for alias in updated_node.names:
            old = dotted_name(alias.name)
            if old not in _MODULES:
                names.append(alias)
                continue
            new = _MODULES[old]
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
        if old not in _MODULES or updated_node.relative:
            return updated_node
        return updated_node.with_changes(module=_dotted(_MODULES[old]))


_ITERTOOLS_BUILTINS = {"izip": "zip", "imap": "map", "ifilter": "filter"}
_ITERTOOLS_RENAMED = {"izip_longest": "zip_longest", "ifilterfalse": "filterfalse"}


class _Itertools(cst.CSTTransformer):
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


class _StringFunctions(cst.CSTTransformer):
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


class _LazyViews(cst.CSTTransformer):
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


class _RangeLists(cst.CSTTransformer):
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


def _import_reduce(source: str, context: RuleContext) -> str:
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


RULES = (
    Rule(
        id="python2.print-statement",
        library="python",
        changed_in="3.0",
        summary='`print x, y` -> `print(x, y)`; `print x,` -> `print(x, end=" ")`; '
        "`print >>f, x` -> `print(x, file=f)`",
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_print_statements),
        symptoms=(
            Symptom("SyntaxError", r"Missing parentheses in call to 'print'"),
            Symptom(
                "TypeError", r"unsupported operand type\(s\) for >>: 'builtin_function_or_method'"
            ),
        ),
        gone=lambda: rejected("print 'x'"),
        examples=(
            Example(
                before=(
                    "import io\n"
                    "out = io.StringIO()\n"
                    "rows = [(1, 'a'), (2, 'b')]\n"
                    "for n, s in rows:\n"
                    '    print >>out, "row %d:" % n, s  # one per row\n'
                    "    print >>out, n,\n"
                    "print >>out\n"
                    "if rows: print >>out, 'done'\n"
                    "text = out.getvalue()\n"
                ),
                after=(
                    "import io\n"
                    "out = io.StringIO()\n"
                    "rows = [(1, 'a'), (2, 'b')]\n"
                    "for n, s in rows:\n"
                    '    print("row %d:" % n, s, file=out)  # one per row\n'
                    '    print(n, end=" ", file=out)\n'
                    "print(file=out)\n"
                    "if rows: print('done', file=out)\n"
                    "text = out.getvalue()\n"
                ),
                error="TypeError",
                check="text == 'row 1: a\\n1 row 2: b\\n2 \\ndone\\n'",
            ),
            Example(
                before=(
                    "import contextlib, io\n"
                    "buffer = io.StringIO()\n"
                    "with contextlib.redirect_stdout(buffer):\n"
                    '    print "loss: %.2f" % 0.5, "(print x in a string stays)"\n'
                    "    print\n"
                ),
                after=(
                    "import contextlib, io\n"
                    "buffer = io.StringIO()\n"
                    "with contextlib.redirect_stdout(buffer):\n"
                    '    print("loss: %.2f" % 0.5, "(print x in a string stays)")\n'
                    "    print()\n"
                ),
                error="SyntaxError",
                check="buffer.getvalue() == 'loss: 0.50 (print x in a string stays)\\n\\n'",
            ),
        ),
    ),
    Rule(
        id="python2.except-comma",
        library="python",
        changed_in="3.0",
        summary="`except E, e:` -> `except E as e:`",
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_except_comma),
        symptoms=(Symptom("SyntaxError", r"multiple exception types must be parenthesized"),),
        gone=lambda: rejected("try:\n    pass\nexcept ValueError, e:\n    pass\n"),
        examples=(
            Example(
                before=(
                    "caught = []\n"
                    "for value in ['x', None]:\n"
                    "    try:\n"
                    "        int(value)\n"
                    "    except ValueError, e:\n"
                    "        caught.append('value')\n"
                    "    except (TypeError, KeyError), error:  # two kinds\n"
                    "        caught.append(type(error).__name__)\n"
                ),
                after=(
                    "caught = []\n"
                    "for value in ['x', None]:\n"
                    "    try:\n"
                    "        int(value)\n"
                    "    except ValueError as e:\n"
                    "        caught.append('value')\n"
                    "    except (TypeError, KeyError) as error:  # two kinds\n"
                    "        caught.append(type(error).__name__)\n"
                ),
                error="SyntaxError",
                check="caught == ['value', 'TypeError']",
            ),
        ),
    ),
    Rule(
        id="python2.raise-comma",
        library="python",
        changed_in="3.0",
        summary='`raise E, "msg"` -> `raise E("msg")`; `raise E, v, tb` -> '
        "`raise E(v).with_traceback(tb)`",
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_raise_comma),
        symptoms=(Symptom("SyntaxError", r"invalid syntax"),),
        gone=lambda: rejected("raise ValueError, 'x'"),
        examples=(
            Example(
                before=(
                    "messages = []\n"
                    "def check(x):\n"
                    "    if x < 0:\n"
                    '        raise ValueError, "negative: %d" % x\n'
                    "    if x > 9: raise KeyError, ('big', x)\n"
                    "for x in (-1, 10):\n"
                    "    try:\n"
                    "        check(x)\n"
                    "    except (ValueError, KeyError) as e:\n"
                    "        messages.append(e.args)\n"
                ),
                after=(
                    "messages = []\n"
                    "def check(x):\n"
                    "    if x < 0:\n"
                    '        raise ValueError("negative: %d" % x)\n'
                    "    if x > 9: raise KeyError('big', x)\n"
                    "for x in (-1, 10):\n"
                    "    try:\n"
                    "        check(x)\n"
                    "    except (ValueError, KeyError) as e:\n"
                    "        messages.append(e.args)\n"
                ),
                error="SyntaxError",
                check="messages == [('negative: -1',), ('big', 10)]",
            ),
        ),
    ),
    Rule(
        id="python2.exec-statement",
        library="python",
        changed_in="3.0",
        summary='`exec "code"` -> `exec("code")`; `exec code in ns` -> `exec(code, ns)`',
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_exec_statements),
        symptoms=(Symptom("SyntaxError", r"Missing parentheses in call to 'exec'"),),
        gone=lambda: rejected("exec 'x = 1'"),
        examples=(
            Example(
                before=(
                    "ns = {'a': 5}\n"
                    'exec "a = 2"\n'
                    'exec "b = a * 3" in ns\n'
                    'exec "c = a + 1" in ns, ns\n'
                ),
                after=(
                    "ns = {'a': 5}\n"
                    'exec("a = 2")\n'
                    'exec("b = a * 3", ns)\n'
                    'exec("c = a + 1", ns, ns)\n'
                ),
                error="SyntaxError",
                check="a == 2 and ns['b'] == 15 and ns['c'] == 6",
            ),
        ),
    ),
    Rule(
        id="python2.backticks",
        library="python",
        changed_in="3.0",
        summary="`` `x` `` -> `repr(x)`",
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_backticks),
        symptoms=(Symptom("SyntaxError", r"invalid syntax"),),
        gone=lambda: rejected("x = `1`"),
        examples=(
            Example(
                before="n = 3\nlabel = 'n=' + `n` + ', s=' + `'x'` + ' `kept`'\n",
                after="n = 3\nlabel = 'n=' + repr(n) + ', s=' + repr('x') + ' `kept`'\n",
                error="SyntaxError",
                check="label == \"n=3, s='x' `kept`\"",
            ),
        ),
    ),
    Rule(
        id="python2.diamond-operator",
        library="python",
        changed_in="3.0",
        summary="`a <> b` -> `a != b`",
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_diamond),
        symptoms=(Symptom("SyntaxError", r"invalid syntax"),),
        gone=lambda: rejected("x = 1 <> 2"),
        examples=(
            Example(
                before="kept = [x for x in [1, 2, 3] if x <> 2]\nflag = '<>' <> 'x'\n",
                after="kept = [x for x in [1, 2, 3] if x != 2]\nflag = '<>' != 'x'\n",
                error="SyntaxError",
                check="kept == [1, 3] and flag",
            ),
        ),
    ),
    Rule(
        id="python2.numeric-literals",
        library="python",
        changed_in="3.0",
        summary="long literals `10L` -> `10`, octal `0777` -> `0o777`",
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_numeric_literals),
        symptoms=(
            Symptom("SyntaxError", r"invalid (decimal|hexadecimal) literal"),
            Symptom("SyntaxError", r"leading zeros in decimal integer literals"),
        ),
        gone=lambda: rejected("x = 10L") and rejected("x = 0777"),
        examples=(
            Example(
                before="big = 10L ** 20 + 0xFFL\nmode = 0755\nzero = 00\nf = 07.5\nx10L = 'x10L'\n",
                after="big = 10 ** 20 + 0xFF\nmode = 0o755\nzero = 00\nf = 07.5\nx10L = 'x10L'\n",
                error="SyntaxError",
                check="big == 10 ** 20 + 255 and mode == 493 and zero == 0 and f == 7.5",
            ),
        ),
    ),
    Rule(
        id="python2.ur-strings",
        library="python",
        changed_in="3.0",
        summary="`ur'...'` -> `r'...'` (strings without `\\u` escapes)",
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_ur_strings),
        symptoms=(Symptom("SyntaxError", r"invalid syntax"),),
        gone=lambda: rejected("x = ur'a'"),
        examples=(
            Example(
                before="import re\nwords = re.findall(ur'\\w+', u'two words')\npat = UR\"\\d\"\n",
                after="import re\nwords = re.findall(r'\\w+', u'two words')\npat = R\"\\d\"\n",
                error="SyntaxError",
                check="words == ['two', 'words'] and pat == '\\\\d'",
            ),
        ),
    ),
    Rule(
        id="python2.xrange",
        library="python",
        changed_in="3.0",
        summary="`xrange(...)` -> `range(...)`",
        kind=Kind.PYTHON2,
        rewrite=rename_names({"xrange": "range"}),
        symptoms=(Symptom("NameError", r"name 'xrange' is not defined"),),
        gone=lambda: not hasattr(builtins, "xrange"),
        examples=(
            Example(
                before=(
                    "total = sum(i for i in xrange(5))\n"
                    "pairs = [(i, j) for i in xrange(2) for j in xrange(1, 3)]\n"
                    "text = 'xrange stays in strings'  # and xrange in comments\n"
                ),
                after=(
                    "total = sum(i for i in range(5))\n"
                    "pairs = [(i, j) for i in range(2) for j in range(1, 3)]\n"
                    "text = 'xrange stays in strings'  # and xrange in comments\n"
                ),
                error="NameError",
                check="total == 10 and pairs == [(0, 1), (0, 2), (1, 1), (1, 2)]",
            ),
        ),
    ),
    Rule(
        id="python2.raw-input",
        library="python",
        changed_in="3.0",
        summary="`raw_input` -> `input`",
        kind=Kind.PYTHON2,
        rewrite=rename_names({"raw_input": "input"}),
        symptoms=(Symptom("NameError", r"name 'raw_input' is not defined"),),
        gone=lambda: not hasattr(builtins, "raw_input"),
        examples=(
            Example(
                before="ask = raw_input\nprompt = 'raw_input'\n",
                after="ask = input\nprompt = 'raw_input'\n",
                error="NameError",
                check="ask is input",
            ),
        ),
    ),
    Rule(
        id="python2.removed-builtins",
        library="python",
        changed_in="3.0",
        summary="`unicode` / `basestring` -> `str`, `unichr` -> `chr`, `long(x)` -> `int(x)`, "
        "`file(...)` -> `open(...)` (reactive: the names may be the notebook's own)",
        kind=Kind.PYTHON2,
        rewrite=rename_names(
            {"unicode": "str", "basestring": "str", "unichr": "chr", "long": "int", "file": "open"},
            calls_only=("long", "file"),
        ),
        symptoms=(
            Symptom("NameError", r"name '(unicode|basestring|unichr|long|file)' is not defined"),
        ),
        examples=(
            Example(
                before=(
                    "long_name = 'x'\n"
                    "values = [unicode(3), unichr(65), long('7')]\n"
                    "flags = [isinstance(v, basestring) for v in values]\n"
                    "long = 'a variable'\n"
                ),
                after=(
                    "long_name = 'x'\n"
                    "values = [str(3), chr(65), int('7')]\n"
                    "flags = [isinstance(v, str) for v in values]\n"
                    "long = 'a variable'\n"
                ),
                error="NameError",
                check="values == ['3', 'A', 7] and flags == [True, True, False]",
            ),
        ),
    ),
    Rule(
        id="python2.reduce-import",
        library="python",
        changed_in="3.0",
        summary="`reduce(...)` without import -> `from functools import reduce` added to the cell",
        kind=Kind.PYTHON2,
        rewrite=_import_reduce,
        symptoms=(Symptom("NameError", r"name 'reduce' is not defined"),),
        examples=(
            Example(
                before="# product\nimport operator\nproduct = reduce(operator.mul, [1, 2, 3, 4])\n",
                after=(
                    "# product\nfrom functools import reduce\nimport operator\n"
                    "product = reduce(operator.mul, [1, 2, 3, 4])\n"
                ),
                error="NameError",
                check="product == 24",
            ),
        ),
    ),
    Rule(
        id="python2.dict-iter-methods",
        library="python",
        changed_in="3.0",
        summary="`d.iteritems()` / `itervalues()` / `iterkeys()` / `viewitems()` ... -> "
        "`d.items()` / `values()` / `keys()`",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(_IterMethods),
        symptoms=(
            Symptom("AttributeError", r"object has no attribute '(iter|view)(items|values|keys)'"),
        ),
        gone=lambda: not hasattr(dict, "iteritems"),
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
        rewrite=cst_rewrite(_HasKey),
        symptoms=(Symptom("AttributeError", r"object has no attribute 'has_key'"),),
        gone=lambda: not hasattr(dict, "has_key"),
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
    Rule(
        id="python2.renamed-modules",
        library="python",
        changed_in="3.0",
        summary="`cPickle`, `cStringIO`/`StringIO`, `urllib2`, `urlparse`, `Queue`, "
        "`ConfigParser`, ... -> `pickle`, `io`, `urllib.request`, ... (local names kept)",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(_RenamedModules),
        symptoms=(
            Symptom("ModuleNotFoundError", r"No module named '(" + "|".join(_MODULES) + ")'"),
        ),
        gone=lambda: importlib.util.find_spec("cPickle") is None,
        examples=(
            Example(
                before=(
                    "import cPickle as pickle\n"
                    "import cPickle, os\n"
                    "from StringIO import StringIO\n"
                    "import urllib2\n"
                    "data = pickle.loads(cPickle.dumps([1, 2]))\n"
                    "text = StringIO('abc').read()\n"
                ),
                after=(
                    "import pickle\n"
                    "import pickle as cPickle, os\n"
                    "from io import StringIO\n"
                    "import urllib.request as urllib2\n"
                    "data = pickle.loads(cPickle.dumps([1, 2]))\n"
                    "text = StringIO('abc').read()\n"
                ),
                error="ModuleNotFoundError",
                check="data == [1, 2] and text == 'abc' and urllib2.urlopen and urllib2.HTTPError",
            ),
        ),
    ),
    Rule(
        id="python2.itertools-builtins",
        library="python",
        changed_in="3.0",
        summary="`from itertools import izip, imap, ifilter` -> `izip = zip` ...; "
        "`izip_longest` / `ifilterfalse` -> `zip_longest` / `filterfalse`",
        kind=Kind.PYTHON2,
        rewrite=chain(
            cst_rewrite(_Itertools),
            replace_attributes(
                {
                    "itertools.izip": "zip",
                    "itertools.imap": "map",
                    "itertools.ifilter": "filter",
                    "itertools.izip_longest": "itertools.zip_longest",
                    "itertools.ifilterfalse": "itertools.filterfalse",
                }
            ),
        ),
        symptoms=(
            Symptom(
                "ImportError", r"cannot import name '(izip|imap|ifilter|izip_longest|ifilterfalse)'"
            ),
            Symptom("AttributeError", r"module 'itertools' has no attribute"),
        ),
        gone=lambda: not hasattr(itertools, "izip"),
        examples=(
            Example(
                before=(
                    "import itertools\n"
                    "from itertools import izip, chain, izip_longest as zl\n"
                    "from itertools import imap\n"
                    "pairs = list(izip('ab', [1, 2])) + list(itertools.izip('c', [3]))\n"
                    "squares = list(imap(lambda x: x * x, [1, 2]))\n"
                    "longest = list(zl('ab', [1]))\n"
                ),
                after=(
                    "import itertools\n"
                    "from itertools import chain, zip_longest as zl; izip = zip\n"
                    "imap = map\n"
                    "pairs = list(izip('ab', [1, 2])) + list(zip('c', [3]))\n"
                    "squares = list(imap(lambda x: x * x, [1, 2]))\n"
                    "longest = list(zl('ab', [1]))\n"
                ),
                error="ImportError",
                check=(
                    "pairs == [('a', 1), ('b', 2), ('c', 3)] and squares == [1, 4] "
                    "and longest == [('a', 1), ('b', None)]"
                ),
            ),
        ),
    ),
    Rule(
        id="python2.module-attributes",
        library="python",
        changed_in="3.0",
        summary="`string.letters` / `lowercase` / `uppercase` -> `string.ascii_*`, "
        "`string.maketrans` -> `str.maketrans`, `sys.maxint` -> `sys.maxsize`, "
        "`os.getcwdu` -> `os.getcwd`",
        kind=Kind.PYTHON2,
        rewrite=replace_attributes(
            {
                "string.letters": "string.ascii_letters",
                "string.lowercase": "string.ascii_lowercase",
                "string.uppercase": "string.ascii_uppercase",
                "string.maketrans": "str.maketrans",
                "sys.maxint": "sys.maxsize",
                "os.getcwdu": "os.getcwd",
            }
        ),
        symptoms=(
            Symptom(
                "AttributeError",
                r"module 'string' has no attribute '(letters|lowercase|uppercase|maketrans)'",
            ),
            Symptom("AttributeError", r"module 'sys' has no attribute 'maxint'"),
            Symptom("AttributeError", r"module 'os' has no attribute 'getcwdu'"),
        ),
        gone=lambda: not hasattr(string, "letters") and not hasattr(sys, "maxint"),
        examples=(
            Example(
                before=(
                    "import string, sys\n"
                    "alphabet = string.letters[:3] + string.uppercase[-1]\n"
                    "table = string.maketrans('ab', 'xy')\n"
                    "swapped = 'abc'.translate(table)\n"
                    "big = sys.maxint > 2 ** 31\n"
                ),
                after=(
                    "import string, sys\n"
                    "alphabet = string.ascii_letters[:3] + string.ascii_uppercase[-1]\n"
                    "table = str.maketrans('ab', 'xy')\n"
                    "swapped = 'abc'.translate(table)\n"
                    "big = sys.maxsize > 2 ** 31\n"
                ),
                error="AttributeError",
                check="alphabet == 'abcZ' and swapped == 'xyc' and big",
            ),
        ),
    ),
    Rule(
        id="python2.string-functions",
        library="python",
        changed_in="3.0",
        summary="`string.join(words, sep)` -> `sep.join(words)`, `string.lower(s)` -> "
        "`s.lower()`, `string.atoi(s)` -> `int(s)`, two-argument `s.translate(table, delete)` "
        "-> `s.translate(str.maketrans('', '', delete))`",
        kind=Kind.PYTHON2,
        rewrite=chain(
            replace_attributes({"string.maketrans": "str.maketrans"}),
            cst_rewrite(_StringFunctions),
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'string' has no attribute '\w+'"),
            Symptom("TypeError", r"translate\(\) takes exactly one argument \(2 given\)"),
        ),
        gone=lambda: not hasattr(string, "join"),
        examples=(
            Example(
                before=(
                    "import string\n"
                    "words = string.split('a b,c', ',')\n"
                    "joined = string.join(words, '-') + string.join(['x', 'y'])\n"
                    "shout = string.upper(joined + 'z')\n"
                    "n = string.atoi('12')\n"
                    "clean = 'a.b!'.translate(string.maketrans('', ''), string.punctuation)\n"
                ),
                after=(
                    "import string\n"
                    "words = 'a b,c'.split(',')\n"
                    "joined = '-'.join(words) + \" \".join(['x', 'y'])\n"
                    "shout = (joined + 'z').upper()\n"
                    "n = int('12')\n"
                    "clean = 'a.b!'.translate(str.maketrans('', '', string.punctuation))\n"
                ),
                error="AttributeError",
                check="joined == 'a b-cx y' and shout == 'A B-CX YZ' and n == 12 and clean == 'ab'",
            ),
        ),
    ),
    Rule(
        id="python2.lazy-views",
        library="python",
        changed_in="3.0",
        summary="`d.keys()[0]` -> `list(d.keys())[0]`, `map(...)[i]`, `len(filter(...))` -> "
        "`list(...)` first (reactive)",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(_LazyViews),
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
        rewrite=cst_rewrite(_RangeLists),
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
