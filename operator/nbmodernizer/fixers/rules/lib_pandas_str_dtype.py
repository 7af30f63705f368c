"""pandas drift: the `str` dtype that replaces `object` for text."""

from __future__ import annotations

import functools

from nbmodernizer.fixers.rules.cst_tools import (
    cst_rewrite,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.pandas_common import _pandas
from nbmodernizer.fixers.rules.pandas_str_dtype import (
    IssubdtypeText,
    MixedColumnAssignment,
    ObjectDtypeComparison,
)


@functools.cache
def _text_is_not_object() -> bool:
    pd = _pandas()
    return bool(pd.Series(["a"]).dtype != object)


RULES = (
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
        rewrite=cst_rewrite(ObjectDtypeComparison),
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
        rewrite=cst_rewrite(MixedColumnAssignment),
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
        rewrite=cst_rewrite(IssubdtypeText),
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
)
