"""LibCST transforms for pandas calls whose arguments or meaning changed."""

from __future__ import annotations

import re

import libcst as cst

from nbmodernizer.fixers.rules.arguments import string_literal
from nbmodernizer.fixers.rules.cells import dotted_name, expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import as_keyword, code, method_name, with_commas
from nbmodernizer.fixers.rules.pandas_cst import (
    ImportingTransformer,
    call_arguments,
    is_module_receiver,
    module_name,
    with_keyword,
)

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
                arg = as_keyword(arg, name)
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
            self.fill_receivers.append(code(func.value))
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
                and code(func.value) in self.fill_receivers
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
                arg = as_keyword(arg, self.LEGACY[n])
            args.append(arg)
        series = cst.Call(
            func=func.with_changes(attr=cst.Name("Series")),
            args=[values.with_changes(comma=cst.MaybeSentinel.DEFAULT)],
        )
        return updated_node.with_changes(
            func=cst.Attribute(series, cst.Name("value_counts")), args=with_commas(args)
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
            func=expression(f"{np}.ravel"), args=with_commas([first, *updated_node.args])
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
        lookup = (
            f"{frame}.to_numpy()[{frame}.index.get_indexer({code(rows)}), "
            f"{frame}.columns.get_indexer({code(cols)})]"
        )
        return expression(lookup).with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
