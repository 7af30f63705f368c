"""Functions and methods pandas removed or changed: value counts, ravel, frequency aliases,
lookup."""

from __future__ import annotations

import re

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.pandas.common import (
    is_module_receiver,
    missing,
    pandas_lacks,
)
from nbmodernizer.fixers.rules.libraries.pandas.periods import PeriodScopes
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    as_keyword,
    call_arguments,
    method_call,
    method_name,
)
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer
from nbmodernizer.fixers.rules.toolkit.needles import call_to, has_string, parts
from nbmodernizer.fixers.rules.toolkit.nodes import (
    code,
    dotted_name,
    expression,
    qualified,
    string_literal,
    with_commas,
)
from nbmodernizer.fixers.rules.toolkit.probes import rejects


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
        super().__init__(context)

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
        np = self.module_ref("numpy", "np")
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
        self.periods = PeriodScopes(context.aliases)

    def visit_Module(self, node: cst.Module) -> None:
        self.periods.enter(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.periods.enter(node)

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
        self.periods.leave()
        return updated_node

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
            if spec[2] is _OFFSETS and self.periods.known(updated_node.func.value):
                spec = (spec[0], spec[1], _PERIODS)  # `ts.resample('M')` on periods: current
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
        found = method_call(updated_node, "lookup")
        if found is None:
            return updated_node
        func, positional, keywords = found
        frame = dotted_name(func.value)
        if frame is None or is_module_receiver(func.value, self.context):
            return updated_node
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


RULES = (
    Rule(
        id="pandas.value-counts-function",
        library="pandas",
        changed_in="3.0",
        summary="`pd.value_counts(values, ...)` -> `pd.Series(values).value_counts(...)`",
        kind=Kind.API,
        rewrite=cst_rewrite(ValueCounts, ("value_counts",), call_to(["pandas.value_counts"])),
        symptoms=(Symptom("AttributeError", r"module 'pandas' has no attribute 'value_counts'"),),
        gone=pandas_lacks("", "value_counts"),
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "counts = pd.value_counts(['a', 'b', 'a'])\n"
                    "share = pd.value_counts(np.array([1, 1, 2]), normalize=True)\n"
                ),
                after=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "counts = pd.Series(['a', 'b', 'a']).value_counts()\n"
                    "share = pd.Series(np.array([1, 1, 2])).value_counts(normalize=True)\n"
                ),
                error="AttributeError",
                check="counts['a'] == 2 and counts.index[0] == 'a' and share[1] == 2 / 3",
            ),
        ),
    ),
    Rule(
        id="pandas.series-ravel",
        library="pandas",
        changed_in="3.0",
        summary="`s.ravel()` -> `np.ravel(s)` (the same for an ndarray); in the failing cell only",
        kind=Kind.API,
        rewrite=cst_rewrite(Ravel),
        symptoms=(missing("Series", "ravel"),),
        gone=None,  # `.ravel()` is mostly numpy's
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "target = pd.DataFrame({'y': [0, 1, 1]})['y']\n"
                    "flat = target.ravel()\n"
                ),
                after=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "target = pd.DataFrame({'y': [0, 1, 1]})['y']\n"
                    "flat = np.ravel(target)\n"
                ),
                error="AttributeError",
                check="isinstance(flat, np.ndarray) and flat.tolist() == [0, 1, 1]",
            ),
        ),
    ),
    Rule(
        id="pandas.freq-aliases",
        library="pandas",
        changed_in="3.0",
        summary=(
            "frequency strings: `'H'` -> `'h'`, `'T'` -> `'min'`, `'S'` -> `'s'`, `'L'` -> `'ms'`, "
            "and for offsets (date_range, resample, Grouper) `'M'` -> `'ME'`, `'Q'` -> `'QE'`, "
            "`'A'`/`'Y'` -> `'YE'` (periods keep `'M'`, `'Q'`; `'A'` -> `'Y'`)"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(
            FreqAliases,
            (*parts(*_FUNCTION_FREQ), *_METHOD_FREQ),
            has_string(
                lambda text: any(
                    modern_freq(text, table) is not None
                    for _, _, table in (*_FUNCTION_FREQ.values(), *_METHOD_FREQ.values())
                )
            ),
        ),
        symptoms=(
            Symptom("ValueError", r"Invalid frequency: "),
            Symptom("ValueError", r"passed window \S+ is not compatible with a datetimelike index"),
        ),
        gone=rejects("from pandas.tseries.frequencies import to_offset\nto_offset('H')"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "index = pd.date_range('2020-01-01', periods=48, freq='H')\n"
                    "hourly = pd.Series(range(48), index=index)\n"
                    "monthly = hourly.resample('M').sum()\n"
                    "quarter = pd.date_range('2020-01-01', periods=3, freq='15T')\n"
                    "years = hourly.index.to_period('A')\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "index = pd.date_range('2020-01-01', periods=48, freq='h')\n"
                    "hourly = pd.Series(range(48), index=index)\n"
                    "monthly = hourly.resample('ME').sum()\n"
                    "quarter = pd.date_range('2020-01-01', periods=3, freq='15min')\n"
                    "years = hourly.index.to_period('Y')\n"
                ),
                error="ValueError",
                check=(
                    "monthly.index.tolist() == [pd.Timestamp('2020-01-31')] "
                    "and monthly.iloc[0] == sum(range(48)) "
                    "and quarter[1] == pd.Timestamp('2020-01-01 00:15') and str(years[0]) == '2020'"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.dataframe-lookup",
        library="pandas",
        changed_in="2.0",
        summary=(
            "`df.lookup(rows, cols)` -> `df.to_numpy()[df.index.get_indexer(rows), "
            "df.columns.get_indexer(cols)]`"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(Lookup, ("lookup",)),
        symptoms=(missing("DataFrame", "lookup"),),
        gone=pandas_lacks("DataFrame", "lookup"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3, 4]}, index=['x', 'y'])\n"
                    "picked = frame.lookup(['x', 'y', 'y'], ['b', 'a', 'b'])\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3, 4]}, index=['x', 'y'])\n"
                    "picked = frame.to_numpy()[frame.index.get_indexer(['x', 'y', 'y']), "
                    "frame.columns.get_indexer(['b', 'a', 'b'])]\n"
                ),
                error="AttributeError",
                check="picked.tolist() == [3, 2, 4]",
            ),
        ),
    ),
)
