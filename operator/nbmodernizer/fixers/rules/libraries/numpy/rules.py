"""NumPy drift."""

from __future__ import annotations

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.cells import chain
from nbmodernizer.fixers.rules.toolkit.moves import move_names, moved, replace_attributes
from nbmodernizer.fixers.rules.toolkit.probes import any_of, lacks

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


# probed per name where the notebook runs: `np.bool` and `np.long` are back in NumPy 2 (its
# own bool_ and C long)
_ALIAS_PROBES = tuple(
    (f"numpy.builtin-type-aliases:{old.split('.')[1]}", lacks("numpy", old.split(".")[1]))
    for old in _ALIASES
)


def _alias_gone(qualified: str, context: RuleContext) -> bool:
    return context.gone(f"numpy.builtin-type-aliases:{qualified.split('.')[1]}")


_SPELLINGS = {
    "NaN": "nan",
    "NAN": "nan",
    "Inf": "inf",
    "INF": "inf",
    "Infinity": "inf",
    "PINF": "inf",
}

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
        rewrite=replace_attributes(_ALIASES, when=_alias_gone),
        symptoms=(
            Symptom(
                "AttributeError",
                r"module 'numpy' has no attribute '(float|int|bool|object|str|long|unicode|complex)'",
            ),
        ),
        gone=any_of(*(probe for _, probe in _ALIAS_PROBES)),
        reads=_ALIAS_PROBES,
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
        summary="`np.NaN`, `np.NAN`, `np.Inf`, `np.INF`, `np.Infinity`, `np.PINF`, `np.NINF`, "
        "`np.PZERO`, `np.NZERO` -> `np.nan` / `np.inf` / `-np.inf` / `0.0` / `-0.0`",
        kind=Kind.API,
        rewrite=chain(
            replace_attributes(
                {
                    **{f"numpy.{old}": f"numpy.{new}" for old, new in _SPELLINGS.items()},
                    "numpy.NINF": "-numpy.inf",
                    "numpy.PZERO": "0.0",
                    "numpy.NZERO": "-0.0",
                }
            ),
            # `from numpy import NaN` keeps its local name: `from numpy import nan as NaN`
            move_names(moved("numpy", "numpy", _SPELLINGS), keep_local=True),
        ),
        symptoms=(
            Symptom(
                "AttributeError",
                r"`np\.(NaN|NAN|Inf|INF|Infinity|PINF|NINF|PZERO|NZERO)` was removed",
            ),
            Symptom("ImportError", r"cannot import name '(NaN|NAN|Inf|INF|Infinity|PINF)' from"),
        ),
        gone=lacks("numpy", "NaN"),
        examples=(
            Example(
                before="import numpy as np\nfrom numpy import NaN\n"
                "result = [np.NaN, np.Inf, np.INF, np.NINF, np.PZERO, np.NZERO, NaN]\n",
                after="import numpy as np\nfrom numpy import nan as NaN\n"
                "result = [np.nan, np.inf, np.inf, -np.inf, 0.0, -0.0, NaN]\n",
                error="ImportError",
                check="np.isnan(result[0]) and result[1] == result[2] == float('inf') "
                "and result[3] == -float('inf') and str(result[4:6]) == '[0.0, -0.0]' "
                "and np.isnan(result[6])",
            ),
            Example(  # without np.INF, which no numpy of the eras had (issue #22)
                before="import numpy as np\n"
                "result = [np.NaN, np.NAN, np.Inf, np.Infinity, np.PINF, np.NINF, np.PZERO]\n",
                after="import numpy as np\n"
                "result = [np.nan, np.nan, np.inf, np.inf, np.inf, -np.inf, 0.0]\n",
                error="AttributeError",
                check="np.isnan(result[:2]).all() and result[2:5] == [float('inf')] * 3 "
                "and result[5:] == [-float('inf'), 0.0]",
            ),
        ),
    ),
)
