"""pandas drift: removed methods, indexers and `read_csv` arguments."""

from __future__ import annotations

import inspect
from typing import Any

from nbmodernizer.fixers.rules.cst_tools import (
    cst_rewrite,
    rename_methods,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.pandas_common import FRAME_OR_SERIES, _pandas, lacks, missing
from nbmodernizer.fixers.rules.pandas_removals import (
    AppendToConcat,
    AsMatrix,
    BadLines,
    FillnaMethod,
    IxToLoc,
    ModuleAliases,
    Squeeze,
)


def _lacks_parameter(function: Any, name: str) -> bool:
    return name not in inspect.signature(function).parameters


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
        rewrite=cst_rewrite(AppendToConcat),
        symptoms=(missing(FRAME_OR_SERIES, "append"),),
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
        rewrite=cst_rewrite(lambda _context: IxToLoc()),
        symptoms=(missing(FRAME_OR_SERIES, "ix"),),
        gone=lambda: lacks("DataFrame", "ix"),
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
        rewrite=cst_rewrite(lambda _context: AsMatrix()),
        symptoms=(missing(FRAME_OR_SERIES, "as_matrix"),),
        gone=lambda: lacks("DataFrame", "as_matrix"),
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
        symptoms=(missing(FRAME_OR_SERIES, "iteritems"),),
        gone=lambda: lacks("Series", "iteritems") and lacks("DataFrame", "iteritems"),
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
        symptoms=(missing("DataFrame", "applymap"),),
        gone=lambda: lacks("DataFrame", "applymap"),
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
        rewrite=cst_rewrite(lambda _context: FillnaMethod()),
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
        rewrite=cst_rewrite(BadLines),
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
        rewrite=cst_rewrite(Squeeze),
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
        rewrite=cst_rewrite(ModuleAliases),
        symptoms=(Symptom("AttributeError", r"module 'pandas' has no attribute '(datetime|np)'"),),
        gone=lambda: lacks("", "datetime") and lacks("", "np"),
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
)
