"""pandas' module-level moving-window functions (removed in 0.23): `pd.rolling_mean(s, w)`
-> `s.rolling(w).mean()` and the like."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from nbmodernizer.fixers.rules.libraries.pandas.common import pandas_lacks
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    CallRewriter,
    call_arguments,
    new_arg,
    rewrite_calls,
)
from nbmodernizer.fixers.rules.toolkit.nodes import atom, with_commas

# --- pd.rolling_mean(s, w) -> s.rolling(w).mean() -------------------------------------------

_ROLLING = ("mean", "sum", "std", "var", "min", "max", "median", "count", "skew", "kurt")
# function -> (method of the window object, the function's parameters after the data,
#              those of them that the window's constructor takes, the statistic's argument)
_Window = tuple[str, tuple[str, ...], frozenset[str], str | None]
_WINDOWS: dict[str, _Window] = {
    **{
        f"rolling_{stat}": ("rolling", ("window", "min_periods"), frozenset({"center"}), None)
        for stat in _ROLLING
    },
    "rolling_apply": ("rolling", ("window", "func"), frozenset({"min_periods", "center"}), "func"),
    "rolling_quantile": (
        "rolling",
        ("window", "quantile"),
        frozenset({"min_periods", "center"}),
        "quantile",
    ),
    **{
        f"expanding_{stat}": ("expanding", ("min_periods",), frozenset(), None) for stat in _ROLLING
    },
    "ewma": (
        "ewm",
        ("com",),
        frozenset({"span", "halflife", "alpha", "min_periods", "adjust", "ignore_na"}),
        None,
    ),
    "ewmstd": (
        "ewm",
        ("com",),
        frozenset({"span", "halflife", "alpha", "min_periods", "adjust", "ignore_na", "bias"}),
        None,
    ),
    "ewmvar": (
        "ewm",
        ("com",),
        frozenset({"span", "halflife", "alpha", "min_periods", "adjust", "ignore_na", "bias"}),
        None,
    ),
}
_STAT = {"ewma": "mean", "ewmstd": "std", "ewmvar": "var", "rolling_apply": "apply"}


def _window_call(function: str) -> Callable[[cst.Call, CallRewriter], cst.BaseExpression | None]:
    method, parameters, extra, stat_arg = _WINDOWS[function]

    def build(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
        arguments = call_arguments(call)
        if arguments is None or not arguments[0] or arguments[0][0] is not call.args[0]:
            return None
        positional, keywords = arguments
        if len(positional) > 1 + len(parameters):
            return None
        named = {name: arg.value for name, arg in zip(parameters, positional[1:], strict=False)}
        named.update({name: arg.value for name, arg in keywords.items()})
        known = set(parameters) | extra | ({"bias"} if method == "ewm" else set())
        if set(named) - known:
            return None  # freq=, how=, ...: no mechanical spelling
        bias = named.pop("bias", None)
        stat_value = named.pop(stat_arg, None) if stat_arg else None
        if stat_arg and stat_value is None:
            return None
        window = [new_arg(name, value) for name, value in named.items()]
        if method == "rolling" and "window" in named:
            window = [cst.Arg(value=named["window"])] + [
                new_arg(n, v) for n, v in named.items() if n != "window"
            ]
        data = atom(positional[0].value)
        opened = cst.Call(
            func=cst.Attribute(value=data, attr=cst.Name(method)), args=with_commas(window)
        )
        stat = _STAT.get(function, function.rpartition("_")[2])
        stat_args = [cst.Arg(value=stat_value)] if stat_value is not None else []
        if bias is not None:
            stat_args.append(new_arg("bias", bias))
        if function == "rolling_apply":  # it passed each window as an ndarray
            stat_args.append(new_arg("raw", "True"))
        return cst.Call(
            func=cst.Attribute(value=opened, attr=cst.Name(stat)), args=with_commas(stat_args)
        )

    return build


RULES = (
    Rule(
        id="pandas.moving-window-functions",
        library="pandas",
        changed_in="0.23",
        summary="`pd.rolling_mean(s, w)` -> `s.rolling(w).mean()` (every `rolling_*`, "
        "`rolling_apply` (with `raw=True`: it passed ndarrays), `rolling_quantile`, `expanding_*`, `ewma`/`ewmstd`/`ewmvar`); calls "
        "with `freq=`/`how=` are left alone",
        kind=Kind.API,
        rewrite=rewrite_calls({f"pandas.{name}": _window_call(name) for name in _WINDOWS}),
        symptoms=(
            Symptom(
                "AttributeError", r"module 'pandas' has no attribute '(rolling|expanding|ewm)\w*'"
            ),
        ),
        gone=pandas_lacks("", "rolling_mean", "ewma"),
        examples=(
            Example(
                before="import pandas as pd\ns = pd.Series([1.0, 2.0, 3.0, 4.0])\n"
                "m = pd.rolling_mean(s, 2)\nq = pd.rolling_max(s, window=3, min_periods=1)\n"
                "e = pd.ewma(s, span=2)\nx = pd.expanding_sum(s)\n"
                "a = pd.rolling_apply(s, 2, lambda w: w[-1] - w[0])\n",
                after="import pandas as pd\ns = pd.Series([1.0, 2.0, 3.0, 4.0])\n"
                "m = s.rolling(2).mean()\nq = s.rolling(3, min_periods=1).max()\n"
                "e = s.ewm(span=2).mean()\nx = s.expanding().sum()\n"
                "a = s.rolling(2).apply(lambda w: w[-1] - w[0], raw=True)\n",
                error="AttributeError",
                check="m.tolist()[1:] == [1.5, 2.5, 3.5] and q.tolist() == [1.0, 2.0, 3.0, 4.0] "
                "and abs(e.iloc[1] - 1.75) < 1e-12 and x.tolist() == [1.0, 3.0, 6.0, 10.0] "
                "and a.tolist()[1:] == [1.0, 1.0, 1.0]",
            ),
        ),
    ),
)
