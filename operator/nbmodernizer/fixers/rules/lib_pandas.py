"""pandas drift: APIs removed in pandas 1-3, copy-on-write and the `str` dtype of pandas 3."""

from __future__ import annotations

import functools
import importlib.util
import inspect
import warnings
from typing import Any

from nbmodernizer.fixers.rules import pandas_transforms as pt
from nbmodernizer.fixers.rules.cst_tools import (
    chain,
    cst_rewrite,
    move_module,
    rename_methods,
    replace_attributes,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom


def _pandas() -> Any:
    import pandas

    return pandas


def _lacks(owner: str, *names: str) -> bool:
    """Whether `pandas.<owner>` (or pandas itself for "") has none of `names`."""
    pd = _pandas()
    target = pd if not owner else getattr(pd, owner)
    return not any(hasattr(target, name) for name in names)


def _lacks_parameter(function: Any, name: str) -> bool:
    return name not in inspect.signature(function).parameters


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


@functools.cache
def _copy_on_write() -> bool:
    """A chained assignment on a tiny frame does not reach the frame."""
    pd = _pandas()
    frame = pd.DataFrame({"a": [1, 2]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame["a"][frame["a"] > 1] = 0
    return bool(frame["a"].iloc[1] == 2)


@functools.cache
def _text_is_not_object() -> bool:
    pd = _pandas()
    return bool(pd.Series(["a"]).dtype != object)


def _str_replace_literal_by_default() -> bool:
    pd = _pandas()
    return inspect.signature(pd.Series.str.replace).parameters["regex"].default is False


def _no_tools_module() -> bool:
    return importlib.util.find_spec("pandas.tools") is None


def _missing(kind: str, attribute: str) -> Symptom:
    return Symptom("AttributeError", rf"'{kind}' object has no attribute '{attribute}'")


_FRAME_OR_SERIES = "(DataFrame|Series)"

RULES = (
    Rule(
        id="pandas.dataframe-append",
        library="pandas",
        changed_in="2.0",
        summary=(
            "`df.append(other)` -> `pd.concat([df, other])` (a dict row becomes "
            "`pd.DataFrame([row])`); only calls that look like pandas, in the failing cell"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(pt.AppendToConcat),
        symptoms=(_missing(_FRAME_OR_SERIES, "append"),),
        gone=None,  # `.append(` is list.append too: only where the error says so
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1], 'b': ['x']})\n"
                    "seen = [1, 2]\n"
                    "seen.append(3)\n"
                    "frame = frame.append({'a': 2, 'b': 'y'}, ignore_index=True)\n"
                    "more = frame.append(pd.DataFrame({'a': [3], 'b': ['z']}))\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1], 'b': ['x']})\n"
                    "seen = [1, 2]\n"
                    "seen.append(3)\n"
                    "frame = pd.concat([frame, pd.DataFrame([{'a': 2, 'b': 'y'}])], "
                    "ignore_index=True)\n"
                    "more = pd.concat([frame, pd.DataFrame({'a': [3], 'b': ['z']})])\n"
                ),
                error="AttributeError",
                check=(
                    "seen == [1, 2, 3] and frame['a'].tolist() == [1, 2] "
                    "and more.index.tolist() == [0, 1, 0] and more['b'].tolist() == ['x', 'y', 'z']"
                ),
            ),
            Example(
                before=(
                    "import pandas as pd\n"
                    "table = pd.DataFrame(columns=['k', 'v'])\n"
                    "for k in range(2):\n"
                    "    row = pd.Series([k, k * 10], index=table.columns)\n"
                    "    table = table.append(row, ignore_index=True)\n"
                    "keys = table['k'].append(pd.Series([5]), ignore_index=True)\n"
                    "flags = []\n"
                    "flags.append(pd.Series([True]))\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "table = pd.DataFrame(columns=['k', 'v'])\n"
                    "for k in range(2):\n"
                    "    row = pd.Series([k, k * 10], index=table.columns)\n"
                    "    table = pd.concat([table, row.to_frame().T], ignore_index=True)\n"
                    "keys = pd.concat([table['k'], pd.Series([5])], ignore_index=True)\n"
                    "flags = []\n"
                    "flags.append(pd.Series([True]))\n"
                ),
                error="AttributeError",
                check=(
                    "table['v'].tolist() == [0, 10] and keys.tolist() == [0, 1, 5] "
                    "and len(flags) == 1"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.ix-indexer",
        library="pandas",
        changed_in="1.0",
        summary=(
            "`.ix[...]` -> `.loc[...]` (`.ix` fell back to positions when the index was not "
            "integer-labelled; `.loc` is label-only)"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: pt.IxToLoc()),
        symptoms=(_missing(_FRAME_OR_SERIES, "ix"),),
        gone=lambda: _lacks("DataFrame", "ix"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2, 3], 'b': [4, 5, 6]}, index=[10, 20, 30])\n"
                    "value = frame.ix[20, 'b']\n"
                    "frame.ix[frame['a'] > 1, 'b'] = 0\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2, 3], 'b': [4, 5, 6]}, index=[10, 20, 30])\n"
                    "value = frame.loc[20, 'b']\n"
                    "frame.loc[frame['a'] > 1, 'b'] = 0\n"
                ),
                error="AttributeError",
                check="value == 5 and frame['b'].tolist() == [4, 0, 0]",
            ),
        ),
    ),
    Rule(
        id="pandas.as-matrix",
        library="pandas",
        changed_in="1.0",
        summary="`df.as_matrix()` -> `df.values`; `df.as_matrix(columns=cols)` -> `df[cols].values`",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: pt.AsMatrix()),
        symptoms=(_missing(_FRAME_OR_SERIES, "as_matrix"),),
        gone=lambda: _lacks("DataFrame", "as_matrix"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3.5, 4.5]})\n"
                    "X = frame.as_matrix()\n"
                    "y = frame.as_matrix(columns=['b'])\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3.5, 4.5]})\n"
                    "X = frame.values\n"
                    "y = frame[['b']].values\n"
                ),
                error="AttributeError",
                check="X.shape == (2, 2) and X[1, 1] == 4.5 and y.tolist() == [[3.5], [4.5]]",
            ),
        ),
    ),
    Rule(
        id="pandas.iteritems",
        library="pandas",
        changed_in="2.0",
        summary=(
            "`Series.iteritems()` / `DataFrame.iteritems()` -> `.items()` (by method name: a "
            "Python 2 `dict.iteritems()` gets the same, also right, rewrite)"
        ),
        kind=Kind.API,
        rewrite=rename_methods({"iteritems": "items"}),
        symptoms=(_missing(_FRAME_OR_SERIES, "iteritems"),),
        gone=lambda: _lacks("Series", "iteritems") and _lacks("DataFrame", "iteritems"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\n"
                    "sums = {name: column.sum() for name, column in frame.iteritems()}\n"
                    "pairs = list(frame['a'].iteritems())\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\n"
                    "sums = {name: column.sum() for name, column in frame.items()}\n"
                    "pairs = list(frame['a'].items())\n"
                ),
                error="AttributeError",
                check="sums == {'a': 3, 'b': 7} and pairs == [(0, 1), (1, 2)]",
            ),
        ),
    ),
    Rule(
        id="pandas.applymap",
        library="pandas",
        changed_in="3.0",
        summary="`DataFrame.applymap(f)` -> `DataFrame.map(f)`",
        kind=Kind.API,
        rewrite=rename_methods({"applymap": "map"}),
        symptoms=(_missing("DataFrame", "applymap"),),
        gone=lambda: _lacks("DataFrame", "applymap"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1.234, 2.0]})\n"
                    "text = frame.applymap(lambda v: '%.1f' % v)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1.234, 2.0]})\n"
                    "text = frame.map(lambda v: '%.1f' % v)\n"
                ),
                error="AttributeError",
                check="text['a'].tolist() == ['1.2', '2.0']",
            ),
        ),
    ),
    Rule(
        id="pandas.fillna-method",
        library="pandas",
        changed_in="3.0",
        summary=(
            "`fillna(method='ffill'|'pad')` -> `.ffill()`, `fillna(method='bfill'|'backfill')` "
            "-> `.bfill()`, keeping `axis`, `limit`, `inplace`"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: pt.FillnaMethod()),
        symptoms=(Symptom("TypeError", r"fillna\(\) got an unexpected keyword argument 'method'"),),
        gone=lambda: _lacks_parameter(_pandas().DataFrame.fillna, "method"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1.0, None, None, 4.0]})\n"
                    "forward = frame.fillna(method='ffill', limit=1)\n"
                    "frame.fillna(method='backfill', inplace=True)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1.0, None, None, 4.0]})\n"
                    "forward = frame.ffill(limit=1)\n"
                    "frame.bfill(inplace=True)\n"
                ),
                error="TypeError",
                check=(
                    "forward['a'].fillna(-1).tolist() == [1.0, 1.0, -1, 4.0] "
                    "and frame['a'].tolist() == [1.0, 4.0, 4.0, 4.0]"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.read-csv-bad-lines",
        library="pandas",
        changed_in="2.0",
        summary=(
            "`read_csv(error_bad_lines=False)` -> `on_bad_lines='warn'` (`'skip'` with "
            "`warn_bad_lines=False`, the old default warned)"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(pt.BadLines),
        symptoms=(
            Symptom("TypeError", r"got an unexpected keyword argument '(error|warn)_bad_lines'"),
        ),
        gone=lambda: _lacks_parameter(_pandas().read_csv, "error_bad_lines"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "loud = pd.read_csv('../input/rows.csv', error_bad_lines=False)\n"
                    "quiet = pd.read_csv('../input/rows.csv', error_bad_lines=False,\n"
                    "                    warn_bad_lines=False)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "loud = pd.read_csv('../input/rows.csv', on_bad_lines='warn')\n"
                    "quiet = pd.read_csv('../input/rows.csv', on_bad_lines='skip')\n"
                ),
                error="TypeError",
                check="loud['a'].tolist() == quiet['a'].tolist() == [1, 6]",
                files={"input/rows.csv": "a,b\n1,2\n3,4,5\n6,7\n"},
            ),
        ),
    ),
    Rule(
        id="pandas.read-csv-squeeze",
        library="pandas",
        changed_in="2.0",
        summary='`read_csv(..., squeeze=True)` -> `read_csv(...).squeeze("columns")`',
        kind=Kind.API,
        rewrite=cst_rewrite(pt.Squeeze),
        symptoms=(Symptom("TypeError", r"got an unexpected keyword argument 'squeeze'"),),
        gone=lambda: _lacks_parameter(_pandas().read_csv, "squeeze"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "labels = pd.read_csv('../input/labels.csv', squeeze=True)\n"
                    "table = pd.read_csv('../input/labels.csv', squeeze=False)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "labels = pd.read_csv('../input/labels.csv').squeeze(\"columns\")\n"
                    "table = pd.read_csv('../input/labels.csv')\n"
                ),
                error="TypeError",
                check=(
                    "isinstance(labels, pd.Series) and labels.tolist() == [0, 1] "
                    "and isinstance(table, pd.DataFrame)"
                ),
                files={"input/labels.csv": "label\n0\n1\n"},
            ),
        ),
    ),
    Rule(
        id="pandas.module-aliases",
        library="pandas",
        changed_in="2.0",
        summary=(
            "`pd.datetime` -> `datetime.datetime`, `pd.np` -> `np` (the import is added at the "
            "top of the cell when the notebook has none)"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(pt.ModuleAliases),
        symptoms=(Symptom("AttributeError", r"module 'pandas' has no attribute '(datetime|np)'"),),
        gone=lambda: _lacks("", "datetime") and _lacks("", "np"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "stamp = pd.datetime(2017, 1, 2)\n"
                    "values = pd.np.arange(3) + pd.np.nan\n"
                ),
                after=(
                    "import datetime\n"
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "stamp = datetime.datetime(2017, 1, 2)\n"
                    "values = np.arange(3) + np.nan\n"
                ),
                error="AttributeError",
                check="stamp.year == 2017 and len(values) == 3 and np.isnan(values).all()",
            ),
            Example(
                before=(
                    "import numpy\n"
                    "import pandas as pd\n"
                    "from datetime import datetime\n"
                    "stamp = pd.datetime.now()\n"
                    "zeros = pd.np.zeros(2)\n"
                ),
                after=(
                    "import numpy\n"
                    "import pandas as pd\n"
                    "from datetime import datetime\n"
                    "stamp = datetime.now()\n"
                    "zeros = numpy.zeros(2)\n"
                ),
                error="AttributeError",
                check="stamp.year >= 2024 and zeros.tolist() == [0.0, 0.0]",
            ),
        ),
    ),
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
        rewrite=cst_rewrite(pt.KeywordOnly),
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
        rewrite=cst_rewrite(pt.NumericOnly),
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
        rewrite=cst_rewrite(pt.StrReplaceRegex),
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
        rewrite=cst_rewrite(pt.ValueCounts),
        symptoms=(Symptom("AttributeError", r"module 'pandas' has no attribute 'value_counts'"),),
        gone=lambda: _lacks("", "value_counts"),
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
        rewrite=cst_rewrite(pt.Ravel),
        symptoms=(_missing("Series", "ravel"),),
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
        rewrite=cst_rewrite(pt.FreqAliases),
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
        rewrite=cst_rewrite(pt.Lookup),
        symptoms=(_missing("DataFrame", "lookup"),),
        gone=lambda: _lacks("DataFrame", "lookup"),
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
    Rule(
        id="pandas.chained-assignment",
        library="pandas",
        changed_in="3.0",
        summary=(
            "copy-on-write: `df['a'][mask] = v` / `df.a[mask] = v` (also `+=`) -> "
            "`df.loc[mask, 'a'] = v`, which pandas 3 otherwise ignores with only a warning; "
            "`df[['a', 'b']][mask] = v` never worked and is left alone"
        ),
        kind=Kind.SILENT,
        rewrite=cst_rewrite(pt.ChainedAssignment),
        gone=_copy_on_write,
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'age': [10, 0, 30], 'sex': ['m', 'f', 'm'], "
                    "'n': [1, 2, 3]})\n"
                    "frame['age'][frame['age'] == 0] = 20\n"
                    "frame.sex[frame.sex == 'm'] = 'male'\n"
                    "frame['n'][frame['n'] > 1] += 10\n"
                    "frame[['age', 'n']][frame['n'] > 100] = 0\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'age': [10, 0, 30], 'sex': ['m', 'f', 'm'], "
                    "'n': [1, 2, 3]})\n"
                    "frame.loc[frame['age'] == 0, 'age'] = 20\n"
                    "frame.loc[frame.sex == 'm', 'sex'] = 'male'\n"
                    "frame.loc[frame['n'] > 1, 'n'] += 10\n"
                    "frame[['age', 'n']][frame['n'] > 100] = 0\n"
                ),
                check=(
                    "frame['age'].tolist() == [10, 20, 30] "
                    "and frame['sex'].tolist() == ['male', 'f', 'male'] "
                    "and frame['n'].tolist() == [1, 12, 13]"
                ),
            ),
            Example(
                before=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "train = pd.DataFrame({'bmi': [0.0, 20.0, 30.0], 'bp': [80.0, 0.0, 90.0]})\n"
                    "grid = np.zeros((2, 2))\n"
                    "for col in ['bmi', 'bp']:\n"
                    "    median = train[col][train[col] > 0].median()\n"
                    "    train[col][train[col] == 0] = median\n"
                    "train['bp'][2] = 70.0\n"
                    "grid[0][grid[0] == 0] = 1.0\n"
                ),
                after=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "train = pd.DataFrame({'bmi': [0.0, 20.0, 30.0], 'bp': [80.0, 0.0, 90.0]})\n"
                    "grid = np.zeros((2, 2))\n"
                    "for col in ['bmi', 'bp']:\n"
                    "    median = train[col][train[col] > 0].median()\n"
                    "    train.loc[train[col] == 0, col] = median\n"
                    "train.loc[2, 'bp'] = 70.0\n"
                    "grid[0][grid[0] == 0] = 1.0\n"
                ),
                check=(
                    "train['bmi'].tolist() == [25.0, 20.0, 30.0] "
                    "and train['bp'].tolist() == [80.0, 85.0, 70.0] "
                    "and grid.tolist() == [[1.0, 1.0], [0.0, 0.0]]"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.chained-indexer-assignment",
        library="pandas",
        changed_in="3.0",
        summary=(
            "copy-on-write: `df['a'].iloc[i] = v` -> `df.iloc[i, df.columns.get_loc('a')] = v`, "
            "`df['a'].loc[k] = v` -> `df.loc[k, 'a'] = v` (also `.iat` / `.at`)"
        ),
        kind=Kind.SILENT,
        rewrite=cst_rewrite(pt.ChainedIndexer),
        gone=_copy_on_write,
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3, 4]}, index=['x', 'y'])\n"
                    "frame['a'].iloc[0] = 10\n"
                    "frame.b.loc['y'] = 40\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3, 4]}, index=['x', 'y'])\n"
                    "frame.iloc[0, frame.columns.get_loc('a')] = 10\n"
                    "frame.loc['y', 'b'] = 40\n"
                ),
                check="frame['a'].tolist() == [10, 2] and frame['b'].tolist() == [3, 40]",
            ),
        ),
    ),
    Rule(
        id="pandas.chained-inplace",
        library="pandas",
        changed_in="3.0",
        summary=(
            "copy-on-write: `df['a'].fillna(v, inplace=True)` (also `replace`, `clip`, "
            "`interpolate`, `ffill`, `bfill`, `where`, `mask`) -> `df['a'] = df['a'].fillna(v)`"
        ),
        kind=Kind.SILENT,
        rewrite=cst_rewrite(pt.ChainedInplace),
        gone=_copy_on_write,
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'age': [20.0, None], 'sex': ['m', 'f']})\n"
                    "frame['age'].fillna(frame['age'].mean(), inplace=True)\n"
                    "frame.sex.replace('m', 'male', inplace=True)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'age': [20.0, None], 'sex': ['m', 'f']})\n"
                    "frame['age'] = frame['age'].fillna(frame['age'].mean())\n"
                    "frame['sex'] = frame['sex'].replace('m', 'male')\n"
                ),
                check="frame['age'].tolist() == [20.0, 20.0] and frame['sex'].tolist() == ['male', 'f']",
            ),
        ),
    ),
    Rule(
        id="pandas.str-dtype-object-comparison",
        library="pandas",
        changed_in="3.0",
        summary=(
            "text columns are `str`, no longer `object`: `s.dtype == object` -> "
            "`s.dtype in (object, 'str')`, `df.dtypes == 'object'` -> "
            "`(df.dtypes == 'object') | (df.dtypes == 'str')` (`!=` likewise)"
        ),
        kind=Kind.SILENT,
        rewrite=cst_rewrite(pt.ObjectDtypeComparison),
        gone=_text_is_not_object,
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'name': ['a', 'b'], 'n': [1, 2], 'mixed': [1, 'x']})\n"
                    "text = [c for c in frame.columns if frame[c].dtype == object]\n"
                    "numeric = frame.columns[frame.dtypes != 'object'].tolist()\n"
                    "flags = [frame[c].dtype != np.object_ for c in frame.columns]\n"
                ),
                after=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'name': ['a', 'b'], 'n': [1, 2], 'mixed': [1, 'x']})\n"
                    "text = [c for c in frame.columns if frame[c].dtype in (object, 'str')]\n"
                    "numeric = frame.columns[(frame.dtypes != 'object') & (frame.dtypes != 'str')]"
                    ".tolist()\n"
                    "flags = [frame[c].dtype not in (np.object_, 'str') for c in frame.columns]\n"
                ),
                check=(
                    "text == ['name', 'mixed'] and numeric == ['n'] and flags == [False, True, False]"
                ),
            ),
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'city': ['x', 'y'], 'n': [1.5, 2.5]})\n"
                    "kinds = [str(frame[c].dtype) == 'object' for c in frame.columns]\n"
                    "names = [c for c in frame.columns if frame[c].dtype.name != 'object']\n"
                    "codes = {c: frame[c].astype('category').cat.codes for c in frame.columns\n"
                    "         if frame.dtypes[c] == 'O'}\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'city': ['x', 'y'], 'n': [1.5, 2.5]})\n"
                    "kinds = [str(frame[c].dtype) in ('object', 'str') for c in frame.columns]\n"
                    "names = [c for c in frame.columns if frame[c].dtype.name not in ('object', 'str')]\n"
                    "codes = {c: frame[c].astype('category').cat.codes for c in frame.columns\n"
                    "         if frame.dtypes[c] in ('O', 'str')}\n"
                ),
                check="kinds == [True, False] and names == ['n'] and list(codes) == ['city']",
            ),
        ),
    ),
    Rule(
        id="pandas.str-dtype-mixed-assignment",
        library="pandas",
        changed_in="3.0",
        summary=(
            "a `str` column refuses numbers (`df.loc[df['sex'] == 'male', 'sex'] = 0`): the "
            "column is first made `object`, as text columns were, when the mask shows it holds "
            "text; in the failing cell only"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(pt.MixedColumnAssignment),
        symptoms=(Symptom("TypeError", r"Invalid value '.*' for dtype '(str|string)'"),),
        gone=None,  # which column is text is only known when it fails
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'sex': ['male', 'female', 'male'], 'port': ['S', 'C', 'Q']})\n"
                    "# encode the labels\n"
                    "frame.loc[frame['sex'] == 'male', 'sex'] = 0\n"
                    "frame.loc[frame['sex'] == 'female', 'sex'] = 1\n"
                    "frame.loc[frame.port.isin(['S', 'Q']), 'port'] = 0\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'sex': ['male', 'female', 'male'], 'port': ['S', 'C', 'Q']})\n"
                    "# encode the labels\n"
                    "frame['sex'] = frame['sex'].astype(object)\n"
                    "frame.loc[frame['sex'] == 'male', 'sex'] = 0\n"
                    "frame.loc[frame['sex'] == 'female', 'sex'] = 1\n"
                    "frame['port'] = frame['port'].astype(object)\n"
                    "frame.loc[frame.port.isin(['S', 'Q']), 'port'] = 0\n"
                ),
                error="TypeError",
                check=(
                    "frame['sex'].tolist() == [0, 1, 0] and frame['sex'].dtype == object "
                    "and frame['port'].tolist() == [0, 'C', 0]"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.str-dtype-issubdtype",
        library="pandas",
        changed_in="3.0",
        summary=(
            "`np.issubdtype(s.dtype, t)` on a `str` column (numpy cannot read that dtype) -> "
            "`np.issubdtype(s.dtype if s.dtype != 'str' else object, t)`: the legacy `object`; "
            "in the failing cell only"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(pt.IssubdtypeText),
        symptoms=(Symptom("TypeError", r"Cannot interpret '<StringDtype\(.*\)>' as a data type"),),
        gone=None,  # only calls that meet a `str` column fail
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'name': ['a', 'b'], 'n': [1, 2], 'ok': [True, False]})\n"
                    "numeric = [c for c in frame.columns if np.issubdtype(frame[c].dtype, np.number)]\n"
                    "text = [c for c in frame.columns if np.issubdtype(frame.dtypes[c], np.object_)]\n"
                ),
                after=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'name': ['a', 'b'], 'n': [1, 2], 'ok': [True, False]})\n"
                    "numeric = [c for c in frame.columns if np.issubdtype(frame[c].dtype if "
                    "frame[c].dtype != 'str' else object, np.number)]\n"
                    "text = [c for c in frame.columns if np.issubdtype(frame.dtypes[c] if "
                    "frame.dtypes[c] != 'str' else object, np.object_)]\n"
                ),
                error="TypeError",
                check="numeric == ['n'] and text == ['name']",
            ),
        ),
    ),
    Rule(
        id="pandas.sort-to-sort-values",
        library="pandas",
        changed_in="0.20",
        summary=(
            "`df.sort('a')` / `df.sort(columns=[...])` -> `df.sort_values(...)` (only with column "
            "names, so `list.sort()` is never touched)"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(pt.SortToSortValues),
        symptoms=(_missing("DataFrame", "sort"),),
        gone=lambda: _lacks("DataFrame", "sort"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [2, 1, 3], 'b': [1, 1, 0]})\n"
                    "order = [3, 1, 2]\n"
                    "order.sort()\n"
                    "by_a = frame.sort('a', ascending=False)\n"
                    "frame.sort(columns=['b', 'a'], inplace=True)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [2, 1, 3], 'b': [1, 1, 0]})\n"
                    "order = [3, 1, 2]\n"
                    "order.sort()\n"
                    "by_a = frame.sort_values('a', ascending=False)\n"
                    "frame.sort_values(by=['b', 'a'], inplace=True)\n"
                ),
                error="AttributeError",
                check=(
                    "order == [1, 2, 3] and by_a['a'].tolist() == [3, 2, 1] "
                    "and frame['a'].tolist() == [3, 1, 2]"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.get-set-value",
        library="pandas",
        changed_in="1.0",
        summary=(
            "`df.get_value(i, 'c')` -> `df.at[i, 'c']`, `df.set_value(i, 'c', v)` -> "
            "`df.at[i, 'c'] = v` (`.iat` with `takeable=True`; Series likewise)"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(pt.GetSetValue),
        symptoms=(_missing(_FRAME_OR_SERIES, "(get|set)_value"),),
        gone=lambda: _lacks("DataFrame", "get_value", "set_value"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2]}, index=['x', 'y'])\n"
                    "first = frame.get_value('x', 'a')\n"
                    "frame.set_value('y', 'a', 20)\n"
                    "last = frame['a'].get_value(1, takeable=True)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2]}, index=['x', 'y'])\n"
                    "first = frame.at['x', 'a']\n"
                    "frame.at['y', 'a'] = 20\n"
                    "last = frame['a'].iat[1]\n"
                ),
                error="AttributeError",
                check="first == 1 and last == 20 and frame['a'].tolist() == [1, 20]",
            ),
        ),
    ),
    Rule(
        id="pandas.plotting-module",
        library="pandas",
        changed_in="0.25",
        summary=(
            "`pandas.tools.plotting` -> `pandas.plotting`, `pd.scatter_matrix` -> "
            "`pd.plotting.scatter_matrix`"
        ),
        kind=Kind.API,
        rewrite=chain(
            move_module("pandas.tools.plotting", "pandas.plotting"),
            replace_attributes(
                {
                    "pandas.scatter_matrix": "pandas.plotting.scatter_matrix",
                    "pandas.tools.plotting": "pandas.plotting",
                }
            ),
        ),
        symptoms=(
            Symptom("ModuleNotFoundError", r"No module named 'pandas\.tools'"),
            Symptom("AttributeError", r"module 'pandas' has no attribute '(scatter_matrix|tools)'"),
        ),
        gone=lambda: _lacks("", "scatter_matrix") and _no_tools_module(),
        examples=(
            Example(
                before=(
                    "import matplotlib\n"
                    "matplotlib.use('Agg')\n"
                    "import pandas as pd\n"
                    "from pandas.tools.plotting import andrews_curves\n"
                    "frame = pd.DataFrame({'a': [1.0, 2.0, 3.0], 'b': [2.0, 1.0, 0.0], "
                    "'k': ['x', 'y', 'x']})\n"
                    "axes = pd.scatter_matrix(frame[['a', 'b']])\n"
                    "curves = andrews_curves(frame, 'k')\n"
                ),
                after=(
                    "import matplotlib\n"
                    "matplotlib.use('Agg')\n"
                    "import pandas as pd\n"
                    "from pandas.plotting import andrews_curves\n"
                    "frame = pd.DataFrame({'a': [1.0, 2.0, 3.0], 'b': [2.0, 1.0, 0.0], "
                    "'k': ['x', 'y', 'x']})\n"
                    "axes = pd.plotting.scatter_matrix(frame[['a', 'b']])\n"
                    "curves = andrews_curves(frame, 'k')\n"
                ),
                error="ModuleNotFoundError",
                check="axes.shape == (2, 2) and curves is not None",
            ),
        ),
    ),
    Rule(
        id="pandas.is-monotonic",
        library="pandas",
        changed_in="2.0",
        summary="`.is_monotonic` -> `.is_monotonic_increasing`",
        kind=Kind.API,
        rewrite=cst_rewrite(
            lambda _context: pt.RenameAttribute({"is_monotonic": "is_monotonic_increasing"})
        ),
        symptoms=(_missing("(Index|Series|RangeIndex|DatetimeIndex)", "is_monotonic"),),
        gone=lambda: _lacks("Index", "is_monotonic") and _lacks("Series", "is_monotonic"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'t': [1, 2, 2]}, index=[3, 1, 2])\n"
                    "flags = (frame['t'].is_monotonic, frame.index.is_monotonic)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'t': [1, 2, 2]}, index=[3, 1, 2])\n"
                    "flags = (frame['t'].is_monotonic_increasing, frame.index.is_monotonic_increasing)\n"
                ),
                error="AttributeError",
                check="flags == (True, False)",
            ),
        ),
    ),
)
