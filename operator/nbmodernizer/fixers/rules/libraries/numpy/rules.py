"""NumPy drift."""

from __future__ import annotations

import warnings

import numpy as np

from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.moves import replace_attributes

_ALIASES = {
    "numpy.float": "float",
    "numpy.int": "int",
    "numpy.bool": "bool",
    "numpy.object": "object",
    "numpy.str": "str",
    "numpy.long": "int",
    "numpy.unicode": "str",
    "numpy.complex": "complex",
}


def _lacks(qualified: str) -> bool:
    with warnings.catch_warnings():  # NumPy warns on some of these names (FutureWarning)
        warnings.simplefilter("ignore")
        return not hasattr(np, qualified.split(".", 1)[1])


# probed per name: `np.bool` and `np.long` are back in NumPy 2 (its own bool_ and C long)
_GONE_ALIASES = {old: new for old, new in _ALIASES.items() if _lacks(old)}

RULES = (
    Rule(
        id="numpy.builtin-type-aliases",
        library="numpy",
        changed_in="1.24",
        summary=(
            "`np.float`, `np.int`, `np.object`, `np.str` -> the builtins (each alias only where "
            "the installed NumPy lacks it: `np.bool` and `np.long` are back in NumPy 2)"
        ),
        kind=Kind.API,
        rewrite=replace_attributes(_GONE_ALIASES),
        symptoms=(
            Symptom(
                "AttributeError",
                r"module 'numpy' has no attribute '(float|int|bool|object|str|long|unicode|complex)'",
            ),
        ),
        gone=lambda: bool(_GONE_ALIASES),
        examples=(
            Example(
                before="import numpy as np\nresult = np.array(['1.5', '2'], dtype=np.float).sum() + np.int(2)\n",
                after="import numpy as np\nresult = np.array(['1.5', '2'], dtype=float).sum() + int(2)\n",
                error="AttributeError",
                check="result == 5.5",
            ),
        ),
    ),
    Rule(
        id="numpy.nan-spellings",
        library="numpy",
        changed_in="2.0",
        summary="`np.NaN`, `np.NAN`, `np.Inf`, `np.Infinity`, `np.PINF` -> `np.nan` / `np.inf`",
        kind=Kind.API,
        rewrite=replace_attributes(
            {
                "numpy.NaN": "numpy.nan",
                "numpy.NAN": "numpy.nan",
                "numpy.Inf": "numpy.inf",
                "numpy.Infinity": "numpy.inf",
                "numpy.PINF": "numpy.inf",
                "numpy.NINF": "-numpy.inf",
            }
        ),
        symptoms=(
            Symptom("AttributeError", r"`np\.(NaN|NAN|Inf|Infinity|PINF|NINF)` was removed"),
        ),
        gone=lambda: not hasattr(np, "NaN"),
        examples=(
            Example(
                before="import numpy as np\nresult = [np.NaN, np.Inf]\n",
                after="import numpy as np\nresult = [np.nan, np.inf]\n",
                error="AttributeError",
                check="np.isnan(result[0]) and result[1] == float('inf')",
            ),
        ),
    ),
)
