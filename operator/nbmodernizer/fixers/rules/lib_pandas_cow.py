"""pandas silent drift: chained assignment under copy-on-write."""

from __future__ import annotations

import functools
import warnings

from nbmodernizer.fixers.rules.cst_tools import (
    cst_rewrite,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule
from nbmodernizer.fixers.rules.pandas_common import _pandas
from nbmodernizer.fixers.rules.pandas_cow import ChainedAssignment, ChainedIndexer, ChainedInplace


@functools.cache
def _copy_on_write() -> bool:
    """A chained assignment on a tiny frame does not reach the frame."""
    pd = _pandas()
    frame = pd.DataFrame({"a": [1, 2]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame["a"][frame["a"] > 1] = 0
    return bool(frame["a"].iloc[1] == 2)


RULES = (
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
        rewrite=cst_rewrite(ChainedAssignment),
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
        rewrite=cst_rewrite(ChainedIndexer),
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
        rewrite=cst_rewrite(ChainedInplace),
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
)
