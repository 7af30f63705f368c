"""pandas drift: renamed methods, attributes and modules."""

from __future__ import annotations

import importlib.util

from nbmodernizer.fixers.rules.cst_tools import (
    chain,
    cst_rewrite,
    move_module,
    replace_attributes,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.pandas_common import FRAME_OR_SERIES, lacks, missing
from nbmodernizer.fixers.rules.pandas_str_dtype import (
    GetSetValue,
    RenameAttribute,
    SortToSortValues,
)


def _no_tools_module() -> bool:
    return importlib.util.find_spec("pandas.tools") is None


RULES = (
    Rule(
        id="pandas.sort-to-sort-values",
        library="pandas",
        changed_in="0.20",
        summary=(
            "`df.sort('a')` / `df.sort(columns=[...])` -> `df.sort_values(...)` (only with column "
            "names, so `list.sort()` is never touched)"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(SortToSortValues),
        symptoms=(missing("DataFrame", "sort"),),
        gone=lambda: lacks("DataFrame", "sort"),
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
        rewrite=cst_rewrite(GetSetValue),
        symptoms=(missing(FRAME_OR_SERIES, "(get|set)_value"),),
        gone=lambda: lacks("DataFrame", "get_value", "set_value"),
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
        gone=lambda: lacks("", "scatter_matrix") and _no_tools_module(),
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
            lambda _context: RenameAttribute({"is_monotonic": "is_monotonic_increasing"})
        ),
        symptoms=(missing("(Index|Series|RangeIndex|DatetimeIndex)", "is_monotonic"),),
        gone=lambda: lacks("Index", "is_monotonic") and lacks("Series", "is_monotonic"),
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
