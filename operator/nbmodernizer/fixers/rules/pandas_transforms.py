"""LibCST transformers for the pandas rules (lib_pandas.py).

The helpers at the top (`module_name`, `ImportingTransformer`, `is_module_receiver`,
`call_arguments`, `keyword_arg`, `with_keyword`, `statement_before`) are generic: they could
move to cst_tools.py.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import libcst as cst

from nbmodernizer.fixers.rules.cells import dotted_name, expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import callee_is, method_name

# --------------------------------------------------------------------------- generic helpers

_SPACE = cst.SimpleWhitespace(" ")
_COMMA = cst.Comma(whitespace_after=_SPACE)
_NO_SPACE = cst.SimpleWhitespace("")


def module_name(context: RuleContext, module: str, default: str) -> tuple[str, str | None]:
    """The notebook's local name for `module` and, when it never imports it, the import line."""
    if context.aliases.get(default) == module:
        return default, None
    for local, target in sorted(context.aliases.items()):
        if target == module and "." not in local:
            return local, None
    if default == module:
        return default, f"import {module}"
    return default, f"import {module} as {default}"


class ImportingTransformer(cst.CSTTransformer):
    """A transformer that may ask for import lines, added at the top of the cell."""

    def __init__(self) -> None:
        super().__init__()
        self.imports: list[str] = []

    def need(self, line: str | None) -> None:
        if line is not None and line not in self.imports:
            self.imports.append(line)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self.imports:
            return updated_node
        present = {updated_node.code_for_node(statement).strip() for statement in updated_node.body}
        lines = [cst.parse_statement(line + "\n") for line in self.imports if line not in present]
        return updated_node.with_changes(body=[*lines, *updated_node.body])


def is_module_receiver(node: cst.BaseExpression, context: RuleContext) -> bool:
    """Whether `node` (a method call's receiver) is an imported module or name (`np`, `tf.x`)."""
    name = dotted_name(node)
    return name is not None and name.split(".")[0] in context.aliases


def call_arguments(call: cst.Call) -> tuple[list[cst.Arg], dict[str, cst.Arg]] | None:
    """Positional and keyword arguments; None when the call unpacks `*args` / `**kwargs`."""
    positional: list[cst.Arg] = []
    keywords: dict[str, cst.Arg] = {}
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            positional.append(arg)
        else:
            keywords[arg.keyword.value] = arg
    return positional, keywords


def keyword_arg(name: str, value: cst.BaseExpression) -> cst.Arg:
    return cst.Arg(
        keyword=cst.Name(name),
        value=value,
        equal=cst.AssignEqual(whitespace_before=_NO_SPACE, whitespace_after=_NO_SPACE),
    )


def with_keyword(call: cst.Call, name: str, value: cst.BaseExpression) -> cst.Call:
    """`f(a)` -> `f(a, name=value)`."""
    args = list(call.args)
    if args:
        last = args[-1]
        comma = last.comma if isinstance(last.comma, cst.Comma) else _COMMA
        args[-1] = last.with_changes(comma=comma)
    return call.with_changes(args=[*args, keyword_arg(name, value)])


def finish_args(args: Sequence[cst.Arg]) -> list[cst.Arg]:
    """Arguments with no trailing comma after the last one."""
    result = list(args)
    if result:
        result[-1] = result[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return result


def literal_bool(node: cst.BaseExpression) -> bool | None:
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node.value == "True"
    return None


def string_literal(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def subscript_of(
    value: cst.BaseExpression, *indexes: cst.BaseExpression, attr: str | None = None
) -> cst.Subscript:
    """`value[i, j]`, or `value.attr[i, j]`."""
    base: cst.BaseExpression = value if attr is None else cst.Attribute(value, cst.Name(attr))
    elements = [
        cst.SubscriptElement(
            cst.Index(index), comma=_COMMA if n < len(indexes) - 1 else cst.MaybeSentinel.DEFAULT
        )
        for n, index in enumerate(indexes)
    ]
    return cst.Subscript(value=base, slice=elements)


def single_index(node: cst.Subscript) -> cst.BaseExpression | None:
    """The index of `x[i]` (not a slice, not a tuple, not starred), else None."""
    if len(node.slice) != 1:
        return None
    element = node.slice[0].slice
    if not isinstance(element, cst.Index) or element.star is not None:
        return None
    if isinstance(element.value, cst.Tuple):
        return None
    return element.value


def names_in(node: cst.CSTNode) -> set[str]:
    """Every bare name used in `node`."""
    found: set[str] = set()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    node.visit(_Names())
    return found


def statement_before(
    line: cst.SimpleStatementLine, new: Sequence[cst.BaseSmallStatement]
) -> cst.FlattenSentinel[cst.BaseStatement]:
    """`new` statements on their own lines right before `line` (comments above stay above)."""
    added = [cst.SimpleStatementLine(body=[statement]) for statement in new]
    added[0] = added[0].with_changes(leading_lines=line.leading_lines)
    return cst.FlattenSentinel([*added, line.with_changes(leading_lines=())])


def source(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def small_statement(code: str) -> cst.BaseSmallStatement:
    line = cst.parse_statement(code + "\n")
    assert isinstance(line, cst.SimpleStatementLine)
    return line.body[0]


# --------------------------------------------------------------------------- API removals


class AppendToConcat(ImportingTransformer):
    """`df.append(other, ignore_index=True)` -> `pd.concat([df, other], ignore_index=True)`.

    Only calls that look like pandas: a pandas keyword, a pandas argument, or a result that is
    used (list.append returns None, so `x = x.append(...)` is never a list).
    """

    KEYWORDS = frozenset({"ignore_index", "verify_integrity", "sort"})

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.bare: set[int] = set()
        self.series_names: set[str] = set()

    def _row(self, node: cst.BaseExpression) -> bool:
        """`pd.Series(values, index=df.columns)`: a row for a DataFrame."""
        if not self._pandas_call(node, "pandas.Series"):
            return False
        assert isinstance(node, cst.Call)
        index = next((a for a in node.args if a.keyword and a.keyword.value == "index"), None)
        return index is not None and source(index.value).endswith(".columns")

    def visit_Assign(self, node: cst.Assign) -> None:
        if self._row(node.value):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    self.series_names.add(target.target.value)

    def visit_Expr(self, node: cst.Expr) -> None:
        self.bare.add(id(node.value))

    def _pandas_call(self, node: cst.BaseExpression, *names: str) -> bool:
        return isinstance(node, cst.Call) and qualified(node.func, self.context.aliases) in names

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "append":
            return updated_node
        if is_module_receiver(func.value, self.context):
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None:
            return updated_node
        positional, keywords = arguments
        if len(positional) != 1 or not set(keywords) <= self.KEYWORDS:
            return updated_node
        other = positional[0].value
        looks_pandas = (
            bool(keywords)
            or id(original_node) not in self.bare
            or self._pandas_call(other, "pandas.DataFrame", "pandas.Series")
        )
        if not looks_pandas:
            return updated_node
        pd, line = module_name(self.context, "pandas", "pd")
        pieces = self._pieces(other, pd, self._series(func.value))
        if pieces is None:
            return updated_node
        self.need(line)
        elements = [cst.Element(func.value, comma=_COMMA)]
        elements += [
            cst.Element(piece, comma=_COMMA if n < len(pieces) - 1 else cst.MaybeSentinel.DEFAULT)
            for n, piece in enumerate(pieces)
        ]
        frames = cst.Arg(cst.List(elements), comma=positional[0].comma)
        rest = [arg for arg in updated_node.args if arg.keyword is not None]
        return cst.Call(
            func=expression(f"{pd}.concat"),
            args=finish_args([frames, *rest]),
            lpar=updated_node.lpar,
            rpar=updated_node.rpar,
            whitespace_before_args=updated_node.whitespace_before_args,
        )

    def _series(self, receiver: cst.BaseExpression) -> bool:
        """`pd.Series(...)` or a column `df['a']`: a Series, to which a Series adds values."""
        if isinstance(receiver, cst.Subscript):
            label = single_index(receiver)
            return label is not None and string_literal(label) is not None
        return self._pandas_call(receiver, "pandas.Series")

    def _pieces(
        self, other: cst.BaseExpression, pd: str, series: bool
    ) -> list[cst.BaseExpression] | None:
        def frame_of_rows(rows: cst.BaseExpression) -> cst.Call:
            return cst.Call(func=expression(f"{pd}.DataFrame"), args=[cst.Arg(rows)])

        def row_frame(series: cst.BaseExpression) -> cst.BaseExpression:
            to_frame = cst.Call(func=cst.Attribute(series, cst.Name("to_frame")))
            return cst.Attribute(to_frame, cst.Name("T"))

        if isinstance(other, cst.Dict):
            return [frame_of_rows(cst.List([cst.Element(other)]))]
        if isinstance(other, cst.List):
            values = [element.value for element in other.elements]
            if any(isinstance(element, cst.StarredElement) for element in other.elements):
                return None
            if values and all(isinstance(value, cst.Dict) for value in values):
                return [frame_of_rows(other)]
            if any(isinstance(value, cst.Dict | cst.List) for value in values):
                return None
            return values
        if series:
            return [other]
        if self._row(other) or (isinstance(other, cst.Name) and other.value in self.series_names):
            return [row_frame(other)]
        if self._pandas_call(other, "pandas.Series"):
            return None  # a Series' row for a DataFrame, or more values for a Series: unknown
        return [other]


class IxToLoc(cst.CSTTransformer):
    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        value = updated_node.value
        if isinstance(value, cst.Attribute) and value.attr.value == "ix":
            return updated_node.with_changes(value=value.with_changes(attr=cst.Name("loc")))
        return updated_node


class AsMatrix(cst.CSTTransformer):
    """`df.as_matrix()` -> `df.values`; `df.as_matrix(columns=cols)` -> `df[cols].values`."""

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "as_matrix":
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None:
            return updated_node
        positional, keywords = arguments
        if set(keywords) - {"columns"} or len(positional) + len(keywords) > 1:
            return updated_node
        columns = positional[0].value if positional else None
        if "columns" in keywords:
            columns = keywords["columns"].value
        receiver: cst.BaseExpression = func.value
        if columns is not None and not (isinstance(columns, cst.Name) and columns.value == "None"):
            receiver = subscript_of(receiver, columns)
        return cst.Attribute(
            value=receiver, attr=cst.Name("values"), lpar=updated_node.lpar, rpar=updated_node.rpar
        )


_FILL = {"ffill": "ffill", "pad": "ffill", "bfill": "bfill", "backfill": "bfill"}


class FillnaMethod(cst.CSTTransformer):
    """`x.fillna(method='ffill', limit=1)` -> `x.ffill(limit=1)`."""

    KEEP = frozenset({"axis", "inplace", "limit"})

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "fillna":
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None:
            return updated_node
        positional, keywords = arguments
        method = string_literal(keywords["method"].value) if "method" in keywords else None
        if positional or method not in _FILL:
            return updated_node
        value = keywords.get("value")
        if value is not None and not (
            isinstance(value.value, cst.Name) and value.value.value == "None"
        ):
            return updated_node
        if set(keywords) - self.KEEP - {"method", "value"}:
            return updated_node
        args = [arg for arg in updated_node.args if arg.keyword and arg.keyword.value in self.KEEP]
        return updated_node.with_changes(
            func=func.with_changes(attr=cst.Name(_FILL[method])), args=finish_args(args)
        )


_READERS = ("pandas.read_csv", "pandas.read_table")


def _is_reader(call: cst.Call, context: RuleContext) -> bool:
    return callee_is(call, _READERS, context)


class BadLines(cst.CSTTransformer):
    """`error_bad_lines=False` (+ `warn_bad_lines`) -> `on_bad_lines='warn'|'skip'`."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not _is_reader(original_node, self.context):
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None:
            return updated_node
        _, keywords = arguments
        error_arg, warn_arg = keywords.get("error_bad_lines"), keywords.get("warn_bad_lines")
        if error_arg is None and warn_arg is None:
            return updated_node
        error = literal_bool(error_arg.value) if error_arg else True
        warn = literal_bool(warn_arg.value) if warn_arg else True  # the legacy default
        if error is None or warn is None:
            return updated_node
        args: list[cst.Arg] = []
        for arg in updated_node.args:
            keyword = arg.keyword.value if arg.keyword else None
            if keyword == "error_bad_lines" and not error:
                value = cst.SimpleString(f"'{'warn' if warn else 'skip'}'")
                args.append(arg.with_changes(keyword=cst.Name("on_bad_lines"), value=value))
            elif keyword not in ("error_bad_lines", "warn_bad_lines"):
                args.append(arg)
        return updated_node.with_changes(args=finish_args(args))


class Squeeze(cst.CSTTransformer):
    """`pd.read_csv(f, squeeze=True)` -> `pd.read_csv(f).squeeze("columns")`."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not _is_reader(original_node, self.context):
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None or "squeeze" not in arguments[1]:
            return updated_node
        squeeze = literal_bool(arguments[1]["squeeze"].value)
        if squeeze is None:
            return updated_node
        args = [
            arg for arg in updated_node.args if not (arg.keyword and arg.keyword.value == "squeeze")
        ]
        call = updated_node.with_changes(args=finish_args(args))
        if not squeeze:
            return call
        return cst.Call(
            func=cst.Attribute(call.with_changes(lpar=(), rpar=()), cst.Name("squeeze")),
            args=[cst.Arg(cst.SimpleString('"columns"'))],
            lpar=updated_node.lpar,
            rpar=updated_node.rpar,
        )


class ModuleAliases(ImportingTransformer):
    """`pd.datetime` -> `datetime.datetime`, `pd.np` -> `np` (imports added when needed)."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def _datetime_class(self) -> str:
        for local, target in sorted(self.context.aliases.items()):
            if target == "datetime.datetime":
                return local
        module, line = module_name(self.context, "datetime", "datetime")
        self.need(line)
        return f"{module}.datetime"

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = qualified(original_node, self.context.aliases)
        if name == "pandas.np":
            np, line = module_name(self.context, "numpy", "np")
            self.need(line)
            replacement = expression(np)
        elif name == "pandas.datetime":
            replacement = expression(self._datetime_class())
        else:
            return updated_node
        return replacement.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


# method -> (positional arguments pandas 3 accepts, the legacy names of the ones after them)
KEYWORD_ONLY: dict[str, tuple[int, tuple[str, ...]]] = {
    "drop": (1, ("axis", "index", "columns", "level", "inplace", "errors")),
    "any": (0, ("axis", "bool_only", "skipna")),
    "dropna": (0, ("axis",)),
    "sort_index": (0, ("axis", "level", "ascending", "inplace", "kind", "na_position")),
    "ffill": (0, ("axis", "inplace", "limit")),
    "bfill": (0, ("axis", "inplace", "limit")),
    "interpolate": (1, ("axis", "limit", "inplace", "limit_direction", "limit_area")),
    "set_index": (1, ("drop", "append", "inplace", "verify_integrity")),
    "pivot": (0, ("index", "columns", "values")),
    "drop_duplicates": (1, ("keep", "inplace")),
    "where": (2, ("inplace", "axis", "level")),
    "mask": (2, ("inplace", "axis", "level")),
}
_CONCAT: tuple[int, tuple[str, ...]] = (1, ("axis", "join"))


class KeywordOnly(cst.CSTTransformer):
    """`df.drop('c', 1)` -> `df.drop('c', axis=1)`: legacy positional arguments as keywords."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if qualified(updated_node.func, self.context.aliases) == "pandas.concat":
            accepted, names = _CONCAT
        else:
            func = updated_node.func
            if not isinstance(func, cst.Attribute) or func.attr.value not in KEYWORD_ONLY:
                return updated_node
            if is_module_receiver(func.value, self.context):
                return updated_node
            accepted, names = KEYWORD_ONLY[func.attr.value]
        arguments = call_arguments(updated_node)
        if arguments is None:
            return updated_node
        positional, keywords = arguments
        extra = positional[accepted:]
        if not extra or len(extra) > len(names) or set(names[: len(extra)]) & set(keywords):
            return updated_node
        args: list[cst.Arg] = []
        for n, arg in enumerate(updated_node.args):
            if n >= accepted and arg.keyword is None:
                name = names[n - accepted]
                arg = arg.with_changes(
                    keyword=cst.Name(name),
                    equal=cst.AssignEqual(whitespace_before=_NO_SPACE, whitespace_after=_NO_SPACE),
                )
            args.append(arg)
        return updated_node.with_changes(args=args)


class NumericOnly(cst.CSTTransformer):
    """Reductions that silently dropped text columns get `numeric_only=True` spelled out."""

    GROUPED = frozenset({"mean", "median", "std", "var", "sem", "sum", "prod"})
    FILLED = frozenset({"mean", "median", "std", "var", "sem"})

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.fill_receivers: list[str] = []

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "fillna":
            self.fill_receivers.append(source(func.value))
        else:
            self.fill_receivers.append("")

    @staticmethod
    def _grouped(receiver: cst.BaseExpression) -> bool:
        if isinstance(receiver, cst.Subscript):
            receiver = receiver.value
        return isinstance(receiver, cst.Call) and method_name(receiver) == "groupby"

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        self.fill_receivers.pop()
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or is_module_receiver(func.value, self.context):
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None or "numeric_only" in arguments[1]:
            return updated_node
        positional, _ = arguments
        method = func.attr.value
        applies = (
            (method in ("corr", "cov") and not positional)
            or (method in self.GROUPED and self._grouped(func.value))
            or (
                method in self.FILLED
                and not positional
                and dotted_name(func.value) is not None
                and source(func.value) in self.fill_receivers
            )
        )
        if not applies:
            return updated_node
        return with_keyword(updated_node, "numeric_only", cst.Name("True"))


_REGEX_CHARS = frozenset(".^$*+?{}[]\\|()")


class StrReplaceRegex(cst.CSTTransformer):
    """`s.str.replace('a.b', x)` -> `s.str.replace('a.b', x, regex=True)` (the old default)."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not (
            isinstance(func, cst.Attribute)
            and func.attr.value == "replace"
            and isinstance(func.value, cst.Attribute)
            and func.value.attr.value == "str"
        ):
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None or "regex" in arguments[1]:
            return updated_node
        positional, keywords = arguments
        pat = (
            positional[0].value if positional else keywords.get("pat", cst.Arg(cst.Name("_"))).value
        )
        repl_arg = positional[1] if len(positional) > 1 else keywords.get("repl")
        if len(positional) > 2:  # n, case, flags, regex positionally: leave it
            return updated_node
        if isinstance(pat, cst.Call) and qualified(pat.func, self.context.aliases) == "re.compile":
            return with_keyword(updated_node, "regex", cst.Name("True"))
        text = string_literal(pat)
        if text is None or len(text) < 2:  # a single character was always literal
            return updated_node
        repl = string_literal(repl_arg.value) if repl_arg is not None else None
        if (
            _REGEX_CHARS & set(text)
            or (repl is not None and "\\" in repl)
            or {"case", "flags"} & set(keywords)
        ):
            return with_keyword(updated_node, "regex", cst.Name("True"))
        return updated_node


class ValueCounts(cst.CSTTransformer):
    """`pd.value_counts(x, normalize=True)` -> `pd.Series(x).value_counts(normalize=True)`."""

    LEGACY = ("sort", "ascending", "normalize", "bins", "dropna")

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if qualified(func, self.context.aliases) != "pandas.value_counts":
            return updated_node
        if not isinstance(func, cst.Attribute):
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None or not arguments[0] or len(arguments[0]) > 1 + len(self.LEGACY):
            return updated_node
        values, *rest = updated_node.args
        args = []
        for n, arg in enumerate(rest):
            if arg.keyword is None:
                arg = arg.with_changes(
                    keyword=cst.Name(self.LEGACY[n]),
                    equal=cst.AssignEqual(whitespace_before=_NO_SPACE, whitespace_after=_NO_SPACE),
                )
            args.append(arg)
        series = cst.Call(
            func=func.with_changes(attr=cst.Name("Series")),
            args=[values.with_changes(comma=cst.MaybeSentinel.DEFAULT)],
        )
        return updated_node.with_changes(
            func=cst.Attribute(series, cst.Name("value_counts")), args=finish_args(args)
        )


class Ravel(ImportingTransformer):
    """`s.ravel()` -> `np.ravel(s)`: the same for a Series (gone) and an ndarray."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "ravel":
            return updated_node
        receiver = func.value
        if is_module_receiver(receiver, self.context):
            return updated_node
        if isinstance(receiver, cst.Attribute) and receiver.attr.value == "values":
            return updated_node
        if isinstance(receiver, cst.Call) and method_name(receiver) == "to_numpy":
            return updated_node
        if call_arguments(updated_node) is None:
            return updated_node
        np, line = module_name(self.context, "numpy", "np")
        self.need(line)
        first = cst.Arg(receiver.with_changes(lpar=(), rpar=()))
        return updated_node.with_changes(
            func=expression(f"{np}.ravel"), args=finish_args([first, *updated_node.args])
        )


_COMMON_FREQ = {"H": "h", "BH": "bh", "T": "min", "S": "s", "L": "ms", "U": "us", "N": "ns"}
_OFFSET_FREQ = {
    "M": "ME",
    "BM": "BME",
    "SM": "SME",
    "CBM": "CBME",
    "Q": "QE",
    "BQ": "BQE",
    "A": "YE",
    "Y": "YE",
    "BA": "BYE",
    "BY": "BYE",
    "AS": "YS",
    "BAS": "BYS",
}
_PERIOD_FREQ = {"A": "Y"}
_FREQ = re.compile(r"^(?P<n>-?\d*)(?P<base>[A-Za-z]+)(?P<anchor>-[A-Za-z]{3})?$")


def modern_freq(freq: str, table: dict[str, str]) -> str | None:
    found = _FREQ.match(freq)
    if found is None or found.group("base") not in table:
        return None
    return f"{found.group('n')}{table[found.group('base')]}{found.group('anchor') or ''}"


# where a frequency string goes: (callee or method, positional index or None, keyword, table)
_OFFSETS = {**_COMMON_FREQ, **_OFFSET_FREQ}
_PERIODS = {**_COMMON_FREQ, **_PERIOD_FREQ}
_FUNCTION_FREQ: dict[str, tuple[int | None, str, dict[str, str]]] = {
    "pandas.date_range": (3, "freq", _OFFSETS),
    "pandas.bdate_range": (3, "freq", _OFFSETS),
    "pandas.Grouper": (None, "freq", _OFFSETS),
    "pandas.period_range": (3, "freq", _PERIODS),
    "pandas.Period": (1, "freq", _PERIODS),
    "pandas.PeriodIndex": (None, "freq", _PERIODS),
    "pandas.tseries.frequencies.to_offset": (0, "freq", _OFFSETS),
}
_METHOD_FREQ: dict[str, tuple[int | None, str, dict[str, str]]] = {
    "resample": (0, "rule", _OFFSETS),
    "rolling": (0, "window", _OFFSETS),
    "floor": (0, "freq", _OFFSETS),
    "ceil": (0, "freq", _OFFSETS),
    "round": (0, "freq", _OFFSETS),
    "shift": (None, "freq", _OFFSETS),
    "to_period": (0, "freq", _PERIODS),
    "asfreq": (0, "freq", _COMMON_FREQ),  # DatetimeIndex or PeriodIndex: only common units
}


class FreqAliases(cst.CSTTransformer):
    """`freq='H'` -> `'h'`, `'T'` -> `'min'`, `'M'` -> `'ME'` (offsets) where pandas takes one."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        name = qualified(updated_node.func, self.context.aliases)
        spec = _FUNCTION_FREQ.get(name or "")
        if spec is None:
            method = method_name(updated_node)
            if method not in _METHOD_FREQ:
                return updated_node
            assert isinstance(updated_node.func, cst.Attribute)
            if is_module_receiver(updated_node.func.value, self.context):
                return updated_node
            spec = _METHOD_FREQ[method]
        position, keyword, table = spec
        args: list[cst.Arg] = []
        changed = False
        positional = 0
        for arg in updated_node.args:
            is_target = (arg.keyword is not None and arg.keyword.value == keyword) or (
                arg.keyword is None and not arg.star and positional == position
            )
            if arg.keyword is None:
                positional += 1
            text = string_literal(arg.value) if is_target else None
            new = modern_freq(text, table) if text is not None else None
            if new is not None and isinstance(arg.value, cst.SimpleString):
                quote = arg.value.quote
                arg = arg.with_changes(
                    value=cst.SimpleString(f"{arg.value.prefix}{quote}{new}{quote}")
                )
                changed = True
            args.append(arg)
        return updated_node.with_changes(args=args) if changed else updated_node


class Lookup(cst.CSTTransformer):
    """`df.lookup(rows, cols)` -> `df.to_numpy()[df.index.get_indexer(rows), ...]`."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "lookup":
            return updated_node
        frame = dotted_name(func.value)
        arguments = call_arguments(updated_node)
        if frame is None or is_module_receiver(func.value, self.context) or arguments is None:
            return updated_node
        positional, keywords = arguments
        rows = (
            positional[0].value
            if positional
            else getattr(keywords.get("row_labels"), "value", None)
        )
        cols = positional[1].value if len(positional) > 1 else None
        if cols is None and "col_labels" in keywords:
            cols = keywords["col_labels"].value
        if rows is None or cols is None or len(updated_node.args) != 2:
            return updated_node
        code = (
            f"{frame}.to_numpy()[{frame}.index.get_indexer({source(rows)}), "
            f"{frame}.columns.get_indexer({source(cols)})]"
        )
        return expression(code).with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


# --------------------------------------------------------------------------- copy-on-write

# attributes of a frame that are not columns
_NOT_COLUMNS = frozenset(
    {
        "loc", "iloc", "at", "iat", "ix", "values", "index", "columns", "T", "str", "dt", "cat",
        "shape", "dtypes", "dtype", "array", "flags", "attrs", "axes", "plot", "sparse",
    }
)  # fmt: skip
# attributes only a DataFrame / Series has: evidence that a name is one
_FRAME_ATTRS = frozenset(
    {
        "loc", "iloc", "at", "iat", "ix", "groupby", "fillna", "isnull", "isna", "notnull",
        "notna", "dropna", "columns", "dtypes", "head", "tail", "describe", "value_counts",
        "merge", "query", "iterrows", "itertuples", "to_csv", "pivot_table", "sort_values",
        "reset_index", "set_index", "select_dtypes", "nunique", "info", "corr", "drop",
        "apply", "isin", "duplicated", "drop_duplicates",
    }
)  # fmt: skip
_COLUMN_ATTRS = frozenset(
    {
        "isnull", "isna", "notnull", "notna", "fillna", "value_counts", "str", "dt", "cat",
        "map", "apply", "median", "mode", "nunique", "unique", "iloc", "loc", "isin",
        "between", "dropna", "quantile", "idxmax", "idxmin", "to_frame", "sort_values",
    }
)  # fmt: skip
_MASK_METHODS = frozenset(
    {"isnull", "isna", "notnull", "notna", "isin", "between", "duplicated", "contains",
     "startswith", "endswith", "match"}
)  # fmt: skip


def _base_name(node: cst.BaseExpression) -> str | None:
    """`df` for `df`, `df['a']`, `df['a'][m]`."""
    while isinstance(node, cst.Subscript):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


class _Evidence(cst.CSTVisitor):
    """What the cell shows about names: DataFrames, other objects, labels and lists."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.frames: set[str] = set()  # used as a DataFrame / Series
        self.others: set[str] = set()  # bound to something else (dict, list, numpy, ...)
        self.lists: set[str] = set()  # bound to a list: not a column label
        self.texts: set[str] = set()  # bound to text: a column label
        self.counters: set[str] = set()  # bound to integers: a position, not a column label
        self.masks: dict[str, set[str]] = {}  # bound to a boolean mask: the names it uses

    def visit_Attribute(self, node: cst.Attribute) -> None:
        value = node.value
        if isinstance(value, cst.Name) and node.attr.value in _FRAME_ATTRS:
            self.frames.add(value.value)
        if node.attr.value in _COLUMN_ATTRS:
            if isinstance(value, cst.Subscript) and self._column_key(value):
                base = _base_name(value)
                if base is not None:
                    self.frames.add(base)
            if (
                isinstance(value, cst.Attribute)
                and isinstance(value.value, cst.Name)
                and value.attr.value not in _NOT_COLUMNS
            ):
                self.frames.add(value.value.value)

    def _column_key(self, node: cst.Subscript) -> bool:
        """`df['a']` / `df[name]`, not `frames[0]` / `frames[i]` (i a counter)."""
        while isinstance(node.value, cst.Subscript):
            node = node.value
        key = single_index(node)
        if isinstance(key, cst.Name):
            return key.value not in self.counters and key.value not in self.lists
        return key is not None and string_literal(key) is not None

    def _bind(self, name: str, value: cst.BaseExpression) -> None:
        if _is_mask(value):
            self.masks[name] = names_in(value)
        if isinstance(value, cst.Integer):
            self.counters.add(name)
        if string_literal(value) is not None:
            self.texts.add(name)
        elif isinstance(value, cst.List | cst.Tuple | cst.ListComp | cst.Set):
            self.lists.add(name)
            self.others.add(name)
        elif isinstance(value, cst.Dict | cst.DictComp):
            self.others.add(name)
        elif isinstance(value, cst.Call):
            callee = qualified(value.func, self.context.aliases) or ""
            if callee.startswith("pandas.") or method_name(value) in ("read_csv", "copy"):
                self.frames.add(name)
            elif callee.split(".")[0] in self.context.aliases.values():
                self.others.add(name)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self._bind(target.target.value, node.value)

    def visit_For(self, node: cst.For) -> None:
        items, target = node.iter, node.target
        if isinstance(items, cst.Call) and dotted_name(items.func) in ("range", "enumerate"):
            names = target.elements if isinstance(target, cst.Tuple) else [cst.Element(target)]
            if names and isinstance(names[0].value, cst.Name):
                self.counters.add(names[0].value.value)
            return
        if not isinstance(target, cst.Name):
            return
        if isinstance(items, cst.List | cst.Tuple | cst.Set):
            if items.elements and all(
                string_literal(element.value) is not None for element in items.elements
            ):
                self.texts.add(target.value)
        elif dotted_name(items) is not None:  # `for col in cols`, `for col in df.columns`
            self.texts.add(target.value)


def _is_mask_over(
    node: cst.BaseExpression, frame: str, masks: dict[str, set[str]] | None = None
) -> bool:
    """`df['a'] > 0`, `~df.b.isnull()`, `(m1) & (m2)`, or a name bound to one: a boolean mask
    built from `frame`."""
    if isinstance(node, cst.Name) and masks is not None and node.value in masks:
        return frame in masks[node.value]
    return frame in names_in(node) and _is_mask(node)


def _is_mask(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Comparison):
        return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.BitInvert):
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(
        node.operator, cst.BitAnd | cst.BitOr | cst.BitXor
    ):
        return True
    return isinstance(node, cst.Call) and method_name(node) in _MASK_METHODS


class CowBase(cst.CSTTransformer):
    """Shared: find `df['col']` / `df.col` column selections that pandas 3 treats as copies."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.evidence = _Evidence(context)

    def visit_Module(self, node: cst.Module) -> None:
        node.visit(self.evidence)

    def column(
        self, node: cst.BaseExpression
    ) -> tuple[cst.BaseExpression, cst.BaseExpression, bool] | None:
        """(frame, label, label is surely a column name) for `frame['label']` / `frame[name]` /
        `frame.label`, else None."""
        if isinstance(node, cst.Subscript):
            frame = node.value
            base = dotted_name(frame)
            if base is None or is_module_receiver(frame, self.context):
                return None
            if base.split(".")[0] in self.evidence.others:
                return None
            label = single_index(node)
            if isinstance(label, cst.Name):
                if label.value in self.evidence.lists or label.value in ("True", "False", "None"):
                    return None
                return frame, label, label.value in self.evidence.texts
            if isinstance(label, cst.SimpleString):
                return frame, label, True
            if isinstance(label, cst.Integer):
                return frame, label, False
            return None
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
            if node.attr.value in _NOT_COLUMNS or node.value.value in ("self", "cls"):
                return None
            if is_module_receiver(node.value, self.context):
                return None
            if node.value.value in self.evidence.others:
                return None
            # `obj.attr[...]` is any object's attribute unless the cell shows a DataFrame
            return node.value, cst.SimpleString(f"'{node.attr.value}'"), False
        return None

    def is_frame(self, frame: cst.BaseExpression) -> bool:
        return isinstance(frame, cst.Name) and frame.value in self.evidence.frames


class _TargetRewriter(CowBase):
    """Rewrites the target of `target = value` and `target += value`."""

    def _rewrite(self, target: cst.BaseExpression) -> cst.BaseExpression | None:
        raise NotImplementedError

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        if len(updated_node.targets) != 1:
            return updated_node
        new = self._rewrite(updated_node.targets[0].target)
        if new is None:
            return updated_node
        return updated_node.with_changes(targets=[updated_node.targets[0].with_changes(target=new)])

    def leave_AugAssign(
        self, original_node: cst.AugAssign, updated_node: cst.AugAssign
    ) -> cst.AugAssign:
        new = self._rewrite(updated_node.target)
        return updated_node if new is None else updated_node.with_changes(target=new)


class ChainedAssignment(_TargetRewriter):
    """`df['a'][mask] = v` / `df.a[mask] = v` -> `df.loc[mask, 'a'] = v`."""

    def _rewrite(self, target: cst.BaseExpression) -> cst.BaseExpression | None:
        if not isinstance(target, cst.Subscript):
            return None
        key = single_index(target)
        found = self.column(target.value)
        if key is None or found is None or isinstance(key, cst.Slice):
            return None
        frame, label, sure = found
        frame_name = (dotted_name(frame) or "").split(".")[0]
        if not (
            self.is_frame(frame) or (sure and _is_mask_over(key, frame_name, self.evidence.masks))
        ):
            return None
        return subscript_of(frame, key, label, attr="loc")


class ChainedIndexer(_TargetRewriter):
    """`df['a'].iloc[0] = v` -> `df.iloc[0, df.columns.get_loc('a')] = v`; `.loc` likewise."""

    def _rewrite(self, target: cst.BaseExpression) -> cst.BaseExpression | None:
        if not isinstance(target, cst.Subscript) or not isinstance(target.value, cst.Attribute):
            return None
        indexer = target.value.attr.value
        key = single_index(target)
        found = self.column(target.value.value)
        if indexer not in ("loc", "iloc", "at", "iat") or key is None or found is None:
            return None
        frame, label, sure = found
        if not (sure or self.is_frame(frame)):
            return None
        if indexer in ("loc", "at"):
            return subscript_of(frame, key, label, attr=indexer)
        get_loc = cst.Call(
            func=cst.Attribute(cst.Attribute(frame, cst.Name("columns")), cst.Name("get_loc")),
            args=[cst.Arg(label)],
        )
        return subscript_of(frame, key, get_loc, attr=indexer)


_INPLACE = frozenset(
    {"fillna", "replace", "clip", "interpolate", "ffill", "bfill", "where", "mask"}
)


class ChainedInplace(CowBase):
    """`df['a'].fillna(0, inplace=True)` -> `df['a'] = df['a'].fillna(0)`."""

    def leave_Expr(self, original_node: cst.Expr, updated_node: cst.Expr) -> cst.BaseSmallStatement:
        call = updated_node.value
        if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute):
            return updated_node
        if call.func.attr.value not in _INPLACE:
            return updated_node
        arguments = call_arguments(call)
        if arguments is None or "inplace" not in arguments[1]:
            return updated_node
        if literal_bool(arguments[1]["inplace"].value) is not True:
            return updated_node
        found = self.column(call.func.value)
        if found is None:
            return updated_node
        frame, label, sure = found
        if not (sure or self.is_frame(frame)):
            return updated_node
        column = subscript_of(frame, label)
        receiver = call.func.value if isinstance(call.func.value, cst.Subscript) else column
        args = [arg for arg in call.args if not (arg.keyword and arg.keyword.value == "inplace")]
        value = call.with_changes(
            func=call.func.with_changes(value=receiver), args=finish_args(args)
        )
        return cst.Assign(targets=[cst.AssignTarget(column)], value=value)


# --------------------------------------------------------------------------- string dtype

_OBJECT_SPELLINGS = frozenset({"object", "'object'", '"object"', "'O'", '"O"'})


def _is_object(node: cst.BaseExpression, context: RuleContext) -> bool:
    if source(node) in _OBJECT_SPELLINGS:
        return True
    return qualified(node, context.aliases) in ("numpy.object_", "numpy.object")


class ObjectDtypeComparison(cst.CSTTransformer):
    """`s.dtype == object` -> `s.dtype in (object, 'str')`; `.dtypes` compare both."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def _dtype_side(
        self, node: cst.Comparison
    ) -> tuple[cst.BaseExpression, cst.BaseExpression, str] | None:
        if len(node.comparisons) != 1:
            return None
        target = node.comparisons[0]
        if not isinstance(target.operator, cst.Equal | cst.NotEqual):
            return None
        left, right = node.left, target.comparator
        if _is_object(left, self.context):
            left, right = right, left
        if not _is_object(right, self.context):
            return None
        if self._kind(left) is None:
            return None
        return left, right, "==" if isinstance(target.operator, cst.Equal) else "!="

    @staticmethod
    def _kind(node: cst.BaseExpression) -> str | None:
        """ "one" for one dtype (`s.dtype`, `df.dtypes[c]`, `s.dtype.name`, `str(s.dtype)`),
        "many" for `df.dtypes`, None for anything else."""
        if isinstance(node, cst.Attribute) and node.attr.value == "dtypes":
            return "many"
        if isinstance(node, cst.Attribute) and node.attr.value == "dtype":
            return "one"
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute):
            return "one" if node.value.attr.value == "dtypes" else None
        if isinstance(node, cst.Attribute) and node.attr.value == "name":
            inner = node.value
            return (
                "one" if isinstance(inner, cst.Attribute) and inner.attr.value == "dtype" else None
            )
        if isinstance(node, cst.Call) and dotted_name(node.func) == "str" and len(node.args) == 1:
            inner = node.args[0].value
            if isinstance(inner, cst.Attribute) and inner.attr.value in ("dtype", "dtypes"):
                return "one"
        return None

    def leave_Comparison(
        self, original_node: cst.Comparison, updated_node: cst.Comparison
    ) -> cst.BaseExpression:
        found = self._dtype_side(updated_node)
        if found is None:
            return updated_node
        dtype, spelling, operator = found
        quote = '"' if source(spelling).startswith('"') else "'"
        text = f"{quote}str{quote}"
        if self._kind(dtype) == "one":
            op = "in" if operator == "==" else "not in"
            code = f"{source(dtype)} {op} ({source(spelling)}, {text})"
        else:
            join = "|" if operator == "==" else "&"
            code = (
                f"(({source(dtype)} {operator} {source(spelling)}) {join} "
                f"({source(dtype)} {operator} {text}))"
            )
        new = expression(code)
        if updated_node.lpar:
            new = new.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
        return new

    # the `.dtypes` form comes wrapped in parentheses; drop them where they are not needed
    def _bare(self, node: cst.BaseExpression) -> cst.BaseExpression:
        if isinstance(node, cst.BinaryOperation) and len(node.lpar) == 1:
            return node.with_changes(lpar=(), rpar=())
        return node

    def leave_Index(self, original_node: cst.Index, updated_node: cst.Index) -> cst.Index:
        if isinstance(original_node.value, cst.Comparison) and not original_node.value.lpar:
            return updated_node.with_changes(value=self._bare(updated_node.value))
        return updated_node

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        if isinstance(original_node.value, cst.Comparison) and not original_node.value.lpar:
            return updated_node.with_changes(value=self._bare(updated_node.value))
        return updated_node


def column_ref(node: cst.BaseExpression) -> tuple[str, str] | None:
    """(frame code, column name) for `df['a']` and `df.a`."""
    if isinstance(node, cst.Subscript):
        label = single_index(node)
        text = string_literal(label) if label is not None else None
        frame = dotted_name(node.value)
        return (frame, text) if frame is not None and text is not None else None
    if isinstance(node, cst.Attribute) and node.attr.value not in _NOT_COLUMNS:
        frame = dotted_name(node.value)
        return (frame, node.attr.value) if frame is not None else None
    return None


class _TextEvidence(cst.CSTVisitor):
    """Whether an expression compares a column with text (`df['a'] == 'x'`, `.str.`, `isin`)."""

    def __init__(self, column: tuple[str, str]) -> None:
        super().__init__()
        self.column = column
        self.found = False

    def visit_Comparison(self, node: cst.Comparison) -> None:
        sides = [node.left, *(target.comparator for target in node.comparisons)]
        if any(column_ref(side) == self.column for side in sides) and any(
            string_literal(side) is not None for side in sides
        ):
            self.found = True

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute):
            return
        if (
            isinstance(func.value, cst.Attribute)
            and func.value.attr.value == "str"
            and column_ref(func.value.value) == self.column
        ):
            self.found = True
        if func.attr.value == "isin" and column_ref(func.value) == self.column and node.args:
            values = node.args[0].value
            if isinstance(values, cst.List | cst.Tuple | cst.Set) and all(
                string_literal(element.value) is not None for element in values.elements
            ):
                self.found = True


class MixedColumnAssignment(cst.CSTTransformer):
    """Before `df.loc[df['c'] == 'male', 'c'] = 0`: `df['c'] = df['c'].astype(object)`.

    A text column read today has the `str` dtype, which refuses non-text values; the legacy
    column was `object` and took them. Only when the mask shows the column holds text.
    """

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.done: set[tuple[str, str]] = set()

    @staticmethod
    def _target(
        target: cst.BaseExpression,
    ) -> tuple[str, cst.BaseExpression, cst.BaseExpression] | None:
        """(frame, label, mask) for `df.loc[mask, 'c']` and `df['c'][mask]`."""
        if not isinstance(target, cst.Subscript):
            return None
        value = target.value
        if isinstance(value, cst.Attribute) and value.attr.value == "loc":
            if len(target.slice) != 2:
                return None
            mask, label = (element.slice for element in target.slice)
            frame = dotted_name(value.value)
            if not isinstance(mask, cst.Index) or not isinstance(label, cst.Index):
                return None
            if frame is None or string_literal(label.value) is None:
                return None
            return frame, label.value, mask.value
        key = single_index(target)
        if key is not None and isinstance(value, cst.Subscript):
            frame, label_node = dotted_name(value.value), single_index(value)
            if frame is None or label_node is None or string_literal(label_node) is None:
                return None
            return frame, label_node, key
        return None

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        added: list[cst.BaseSmallStatement] = []
        for statement in updated_node.body:
            if not isinstance(statement, cst.Assign) or len(statement.targets) != 1:
                continue
            if string_literal(statement.value) is not None or source(statement.value) == "None":
                continue
            found = self._target(statement.targets[0].target)
            if found is None:
                continue
            frame, label, mask = found
            key = (frame, string_literal(label) or "")
            if key in self.done:
                continue
            evidence = _TextEvidence(key)
            mask.visit(evidence)
            if not evidence.found:
                continue
            self.done.add(key)
            column = f"{frame}[{source(label)}]"
            added.append(small_statement(f"{column} = {column}.astype(object)"))
        if not added:
            return updated_node
        return statement_before(updated_node, added)


class IssubdtypeText(cst.CSTTransformer):
    """`np.issubdtype(s.dtype, t)` -> `np.issubdtype(s.dtype if s.dtype != 'str' else object, t)`:
    numpy cannot read the `str` dtype; the column it stands for was `object`."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if qualified(updated_node.func, self.context.aliases) != "numpy.issubdtype":
            return updated_node
        if len(updated_node.args) != 2 or updated_node.args[0].keyword is not None:
            return updated_node
        first = updated_node.args[0]
        dtype = first.value
        if ObjectDtypeComparison._kind(dtype) != "one" or isinstance(dtype, cst.Call):
            return updated_node
        if isinstance(dtype, cst.Attribute) and dtype.attr.value == "name":
            return updated_node
        code = source(dtype)
        replaced = expression(f"{code} if {code} != 'str' else object")
        return updated_node.with_changes(
            args=[first.with_changes(value=replaced), *updated_node.args[1:]]
        )


class SortToSortValues(cst.CSTTransformer):
    """`df.sort('a')` / `df.sort(columns=['a', 'b'])` -> `df.sort_values(...)`."""

    LEGACY = ("axis", "ascending", "inplace", "kind", "na_position")

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    @staticmethod
    def _labels(node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.List | cst.Tuple):
            return bool(node.elements) and all(
                string_literal(element.value) is not None for element in node.elements
            )
        return string_literal(node) is not None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "sort":
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None or is_module_receiver(func.value, self.context):
            return updated_node
        positional, keywords = arguments
        by = positional[0].value if positional else getattr(keywords.get("columns"), "value", None)
        if by is None or not self._labels(by) or len(positional) > 1 + len(self.LEGACY):
            return updated_node
        args: list[cst.Arg] = []
        for n, arg in enumerate(updated_node.args):
            if arg.keyword is not None and arg.keyword.value == "columns":
                arg = arg.with_changes(keyword=cst.Name("by"))
            elif arg.keyword is None and n > 0:
                arg = arg.with_changes(
                    keyword=cst.Name(self.LEGACY[n - 1]),
                    equal=cst.AssignEqual(whitespace_before=_NO_SPACE, whitespace_after=_NO_SPACE),
                )
            args.append(arg)
        return updated_node.with_changes(
            func=func.with_changes(attr=cst.Name("sort_values")), args=args
        )


def _cell_access(call: cst.Call, method: str, count: tuple[int, ...]) -> cst.Subscript | None:
    """`df.get_value(i, 'c')` -> `df.at[i, 'c']` (`.iat` with `takeable=True`)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != method:
        return None
    arguments = call_arguments(call)
    if arguments is None or set(arguments[1]) - {"takeable"}:
        return None
    positional, keywords = arguments
    if len(positional) not in count:
        return None
    takeable = literal_bool(keywords["takeable"].value) if "takeable" in keywords else False
    if takeable is None:
        return None
    keys = [arg.value for arg in positional]
    if method == "set_value":
        keys = keys[:-1]
    return subscript_of(func.value, *keys, attr="iat" if takeable else "at")


class GetSetValue(cst.CSTTransformer):
    """`df.get_value(i, 'c')` -> `df.at[i, 'c']`; `df.set_value(i, 'c', v)` -> `df.at[...] = v`."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if isinstance(func, cst.Attribute) and is_module_receiver(func.value, self.context):
            return updated_node
        access = _cell_access(updated_node, "get_value", (1, 2))
        if access is None:
            return updated_node
        return access.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)

    def leave_Expr(self, original_node: cst.Expr, updated_node: cst.Expr) -> cst.BaseSmallStatement:
        call = updated_node.value
        if not isinstance(call, cst.Call):
            return updated_node
        func = call.func
        if isinstance(func, cst.Attribute) and is_module_receiver(func.value, self.context):
            return updated_node
        access = _cell_access(call, "set_value", (2, 3))
        if access is None:
            return updated_node
        value = [arg for arg in call.args if arg.keyword is None][-1].value
        return cst.Assign(targets=[cst.AssignTarget(access)], value=value)


class RenameAttribute(cst.CSTTransformer):
    """`x.old` -> `x.new` for an attribute that is not called (a property)."""

    def __init__(self, renames: dict[str, str]) -> None:
        super().__init__()
        self.renames = renames

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if updated_node.attr.value in self.renames:
            return updated_node.with_changes(attr=cst.Name(self.renames[updated_node.attr.value]))
        return updated_node
