"""LibCST transforms for removed pandas APIs (`append`, `.ix`, `as_matrix`, `read_csv` arguments,
module aliases)."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.arguments import literal_bool, string_literal
from nbmodernizer.fixers.rules.cells import expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import callee_is, code, with_commas
from nbmodernizer.fixers.rules.pandas_cst import (
    COMMA,
    ImportingTransformer,
    call_arguments,
    is_module_receiver,
    module_name,
    single_index,
    subscript_of,
)

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
        return index is not None and code(index.value).endswith(".columns")

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
        elements = [cst.Element(func.value, comma=COMMA)]
        elements += [
            cst.Element(piece, comma=COMMA if n < len(pieces) - 1 else cst.MaybeSentinel.DEFAULT)
            for n, piece in enumerate(pieces)
        ]
        frames = cst.Arg(cst.List(elements), comma=positional[0].comma)
        rest = [arg for arg in updated_node.args if arg.keyword is not None]
        return cst.Call(
            func=expression(f"{pd}.concat"),
            args=with_commas([frames, *rest]),
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
            func=func.with_changes(attr=cst.Name(_FILL[method])), args=with_commas(args)
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
        return updated_node.with_changes(args=with_commas(args))


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
        call = updated_node.with_changes(args=with_commas(args))
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
