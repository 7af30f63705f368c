"""pandas drift: calls whose arguments or meaning changed (keyword-only arguments, `numeric_only`, `regex`, frequency aliases)."""

from __future__ import annotations

import functools
import inspect

from nbmodernizer.fixers.rules.cst_tools import (
    cst_rewrite,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.pandas_calls import (
    FreqAliases,
    KeywordOnly,
    Lookup,
    NumericOnly,
    Ravel,
    StrReplaceRegex,
    ValueCounts,
)
from nbmodernizer.fixers.rules.pandas_common import _pandas, lacks, missing


@functools.cache
def _axis_keyword_only() -> bool:
    pd = _pandas()
    parameter = inspect.signature(pd.DataFrame.drop).parameters["axis"]
    return bool(parameter.kind is inspect.Parameter.KEYWORD_ONLY)


@functools.cache
def _legacy_freq_refused() -> bool:
    from pandas.tseries.frequencies import to_offset

    try:
        to_offset("H")
    except ValueError:
        return True
    return False


def _str_replace_literal_by_default() -> bool:
    pd = _pandas()
    return inspect.signature(pd.Series.str.replace).parameters["regex"].default is False


RULES = (
    Rule(
        id="pandas.keyword-only-arguments",
        library="pandas",
        changed_in="2.0",
        summary=(
            "positional arguments pandas made keyword-only: `df.drop('c', 1)` -> "
            "`df.drop('c', axis=1)`; also `any`, `dropna`, `sort_index`, `ffill`/`bfill`, "
            "`interpolate`, `set_index`, `pivot`, `drop_duplicates`, `where`/`mask`, `pd.concat`"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(KeywordOnly),
        symptoms=(
            Symptom(
                "TypeError",
                r"(DataFrame|Series|NDFrame)\.\w+\(\) takes (from \d+ to )?\d+ positional "
                r"arguments? but \d+ were given",
            ),
            Symptom("TypeError", r"^concat\(\) takes 1 positional argument but \d+ were given"),
        ),
        gone=_axis_keyword_only,
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1.0, None], 'b': [3.0, 4.0]})\n"
                    "dropped = frame.drop('a', 1)\n"
                    "complete = frame.dropna(1)\n"
                    "big = (frame > 3).any(1)\n"
                    "wide = pd.concat([frame, frame], 1)\n"
                    "table = frame.pivot('a', 'b', 'b')\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1.0, None], 'b': [3.0, 4.0]})\n"
                    "dropped = frame.drop('a', axis=1)\n"
                    "complete = frame.dropna(axis=1)\n"
                    "big = (frame > 3).any(axis=1)\n"
                    "wide = pd.concat([frame, frame], axis=1)\n"
                    "table = frame.pivot(index='a', columns='b', values='b')\n"
                ),
                error="TypeError",
                check=(
                    "list(dropped.columns) == ['b'] and list(complete.columns) == ['b'] "
                    "and big.tolist() == [False, True] and wide.shape == (2, 4) "
                    "and table.shape == (2, 2)"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.numeric-only",
        library="pandas",
        changed_in="2.0",
        summary=(
            "reductions that used to drop text columns get `numeric_only=True`: `df.corr()`, "
            "`df.cov()`, `df.groupby(k).mean()` (`median`, `std`, `var`, `sem`, `sum`, `prod`), "
            "`df.fillna(df.mean())`; in the failing cell only"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(NumericOnly),
        symptoms=(
            Symptom("ValueError", r"could not convert string to float"),
            Symptom("TypeError", r"Cannot perform reduction '\w+' with string dtype"),
            Symptom("TypeError", r"dtype '(str|string)' does not support operation '\w+'"),
            Symptom("TypeError", r"agg function failed \[how->\w+,dtype->object\]"),
            Symptom("TypeError", r"Could not convert .* to numeric"),
        ),
        gone=None,  # whether a frame has text columns is only known when it fails
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'g': ['x', 'x', 'y'], 'v': [1.0, 2.0, None],\n"
                    "                      'w': [1.0, 0.0, 1.0], 'name': ['a', 'b', 'c']})\n"
                    "means = frame.groupby('g').mean()\n"
                    "filled = frame.fillna(frame.mean())\n"
                    "corr = frame.corr()\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'g': ['x', 'x', 'y'], 'v': [1.0, 2.0, None],\n"
                    "                      'w': [1.0, 0.0, 1.0], 'name': ['a', 'b', 'c']})\n"
                    "means = frame.groupby('g').mean(numeric_only=True)\n"
                    "filled = frame.fillna(frame.mean(numeric_only=True))\n"
                    "corr = frame.corr(numeric_only=True)\n"
                ),
                error="TypeError",
                check=(
                    "list(means.columns) == ['v', 'w'] and means.loc['x', 'v'] == 1.5 "
                    "and filled['v'].tolist() == [1.0, 2.0, 1.5] "
                    "and filled['name'].tolist() == ['a', 'b', 'c'] "
                    "and list(corr.columns) == ['v', 'w'] and corr.loc['v', 'w'] == -1.0"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.str-replace-regex",
        library="pandas",
        changed_in="2.0",
        summary=(
            "`s.str.replace(pat, repl)` with a regex-looking pattern of 2+ characters -> "
            "`regex=True` spelled out (the old default; single characters were always literal)"
        ),
        kind=Kind.SILENT,
        rewrite=cst_rewrite(StrReplaceRegex),
        symptoms=(
            Symptom(
                "ValueError", r"Cannot use a compiled regex as replacement pattern with regex=False"
            ),
        ),
        gone=_str_replace_literal_by_default,
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "names = pd.Series(['Mr. John  Smith', 'Mrs. Ann Lee'])\n"
                    "dots = names.str.replace('.', '')\n"
                    "spaced = names.str.replace('\\\\s+', ' ')\n"
                    "title = names.str.replace('^(Mr|Mrs)\\\\. ', '')\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "names = pd.Series(['Mr. John  Smith', 'Mrs. Ann Lee'])\n"
                    "dots = names.str.replace('.', '')\n"
                    "spaced = names.str.replace('\\\\s+', ' ', regex=True)\n"
                    "title = names.str.replace('^(Mr|Mrs)\\\\. ', '', regex=True)\n"
                ),
                check=(
                    "dots.tolist() == ['Mr John  Smith', 'Mrs Ann Lee'] "
                    "and spaced.tolist() == ['Mr. John Smith', 'Mrs. Ann Lee'] "
                    "and title.tolist() == ['John  Smith', 'Ann Lee']"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.value-counts-function",
        library="pandas",
        changed_in="3.0",
        summary="`pd.value_counts(values, ...)` -> `pd.Series(values).value_counts(...)`",
        kind=Kind.API,
        rewrite=cst_rewrite(ValueCounts),
        symptoms=(Symptom("AttributeError", r"module 'pandas' has no attribute 'value_counts'"),),
        gone=lambda: lacks("", "value_counts"),
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
        rewrite=cst_rewrite(FreqAliases),
        symptoms=(
            Symptom("ValueError", r"Invalid frequency: "),
            Symptom("ValueError", r"passed window \S+ is not compatible with a datetimelike index"),
        ),
        gone=_legacy_freq_refused,
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
        rewrite=cst_rewrite(Lookup),
        symptoms=(missing("DataFrame", "lookup"),),
        gone=lambda: lacks("DataFrame", "lookup"),
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
