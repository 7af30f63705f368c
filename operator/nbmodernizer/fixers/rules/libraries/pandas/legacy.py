"""pandas 0.x-1.x APIs removed since, whose successor is another spelling of the same thing:
DataFrame/Series methods, `.dt.week`, constructors, keywords, moved functions."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from nbmodernizer.fixers.rules.libraries.pandas.common import (
    FRAME_OR_SERIES,
    is_module_receiver,
    missing,
    pandas_lacks,
)
from nbmodernizer.fixers.rules.libraries.pandas.frame_methods import (
    AXES,
    KEPT_PROBES,
    METHODS,
    REMOVED,
    SHARED,
    Methods,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    CallRewriter,
    as_keyword,
    call_arguments,
    calls_to,
    drop,
    edit_keywords,
    keyword_arg,
    new_arg,
    rename_to,
    rewrite_calls,
    with_args,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer
from nbmodernizer.fixers.rules.toolkit.moves import move_names, moved
from nbmodernizer.fixers.rules.toolkit.needles import attribute_named, either, method_called
from nbmodernizer.fixers.rules.toolkit.nodes import code, expression
from nbmodernizer.fixers.rules.toolkit.probes import (
    all_of,
    module_gone,
    no_parameter,
)

# --- .dt.week ---------------------------------------------------------------------------------


class _DtWeek(cst.CSTTransformer):
    """`s.dt.week` / `s.dt.weekofyear` -> `s.dt.isocalendar().week.astype('int64')`: the same
    ISO week numbers and dtype (a NaT, which gave a float NaN before, now fails loudly at this
    line instead of turning into a nullable integer)."""

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        value = updated_node.value
        if updated_node.attr.value not in ("week", "weekofyear"):
            return updated_node
        if not (isinstance(value, cst.Attribute) and value.attr.value == "dt"):
            return updated_node
        return expression(f"{code(value)}.isocalendar().week.astype('int64')").with_changes(
            lpar=updated_node.lpar, rpar=updated_node.rpar
        )


# --- constructors and moved names -------------------------------------------------------------

_INDEX_DTYPES = {"Int64Index": "int64", "UInt64Index": "uint64", "Float64Index": "float64"}


def _typed_index(dtype: str) -> Callable[[cst.Call, CallRewriter], cst.BaseExpression | None]:
    def build(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
        if call_arguments(call) is None or keyword_arg(call, "dtype") is not None:
            return None
        pandas = rewriter.module_ref("pandas", "pd")
        return call.with_changes(
            func=expression(f"{pandas}.Index"),
            args=with_args(call, [*call.args, new_arg("dtype", repr(dtype))]).args,
        )

    return build


def _time_grouper(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`pd.TimeGrouper('M')` -> `pd.Grouper(freq='M')` (freq was its first parameter)."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) > 1:
        return None
    pandas = rewriter.module_ref("pandas", "pd")
    args = [as_keyword(arg, "freq") if arg.keyword is None else arg for arg in call.args]
    return call.with_changes(func=expression(f"{pandas}.Grouper"), args=args)


def _from_items(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`DataFrame.from_items(items)` -> `DataFrame.from_dict(dict(items))` (column order kept:
    dicts keep insertion order); calls with `columns=`/`orient=` are left alone."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) != 1 or arguments[1]:
        return None
    pandas = rewriter.module_ref("pandas", "pd")
    items = code(arguments[0][0].value)
    return expression(f"{pandas}.DataFrame.from_dict(dict({items}))")


def _concat_join_axes(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`pd.concat(objs, axis=1, join_axes=[idx])` -> `pd.concat(objs, axis=1).reindex(idx)`;
    along axis 0 the other axis is the columns: `.reindex(columns=idx)`."""
    join = keyword_arg(call, "join_axes")
    if join is None or not isinstance(join.value, cst.List) or len(join.value.elements) != 1:
        return None
    axis = keyword_arg(call, "axis")
    along = code(axis.value) if axis is not None else "0"
    if along not in AXES:
        return None
    labels = join.value.elements[0].value
    rest = [arg for arg in call.args if arg is not join]
    concat = call.with_changes(args=with_args(call, rest).args)
    target = [cst.Arg(value=labels)] if AXES[along] == 1 else [new_arg("columns", labels)]
    return cst.Call(func=cst.Attribute(value=concat, attr=cst.Name("reindex")), args=target)


_CONSTRUCTORS = {
    **{f"pandas.{name}": _typed_index(dtype) for name, dtype in _INDEX_DTYPES.items()},
    "pandas.TimeGrouper": _time_grouper,
    "pandas.DataFrame.from_items": _from_items,
    "pandas.concat": _concat_join_axes,
}


# --- keywords ---------------------------------------------------------------------------------


def _whitespace(arg: cst.Arg) -> cst.Arg | None:
    """`delim_whitespace=True` -> `sep=r'\\s+'`; False is the default: dropped."""
    if code(arg.value) == "True":
        return arg.with_changes(keyword=cst.Name("sep"), value=expression("r'\\s+'"))
    return None if code(arg.value) == "False" else arg


class _ArrayMethods(ImportingTransformer):
    """`s.reshape(...)` / `s.nonzero()` -> `np.asarray(s).reshape(...)`: what a Series did
    through its values, and the same for an ndarray (`np.asarray` of one is itself)."""

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in ("reshape", "nonzero"):
            return updated_node
        receiver = func.value
        if is_module_receiver(receiver, self.context) or _is_asarray(receiver):
            return updated_node
        numpy = self.module_ref("numpy", "np")
        wrapped = cst.Call(func=expression(f"{numpy}.asarray"), args=[cst.Arg(value=receiver)])
        return updated_node.with_changes(func=func.with_changes(value=wrapped))


def _is_asarray(node: cst.BaseExpression) -> bool:
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "asarray"
    )


def _parser_format(arg: cst.Arg) -> cst.Arg | None:
    """`date_parser=lambda x: pd.to_datetime(x, format=F)` (or `datetime.strptime(x, F)`)
    -> `date_format=F`; any other parser is left alone (it fails, and says so)."""
    value = arg.value
    if not isinstance(value, cst.Lambda) or len(value.params.params) != 1:
        return arg
    body = value.body
    name = value.params.params[0].name.value
    if not isinstance(body, cst.Call) or not isinstance(body.func, cst.Attribute | cst.Name):
        return arg
    callee = code(body.func).rpartition(".")[2]
    arguments = call_arguments(body)
    if arguments is None or not arguments[0] or code(arguments[0][0].value) != name:
        return arg
    positional, keywords = arguments
    if callee == "to_datetime" and len(positional) == 1 and set(keywords) == {"format"}:
        fmt = keywords["format"].value
    elif callee == "strptime" and len(positional) == 2 and not keywords:
        fmt = positional[1].value
    else:
        return arg
    return arg.with_changes(keyword=cst.Name("date_format"), value=fmt)


_MOVED = {
    **moved("pandas.io.json", "pandas", ["json_normalize"]),
    **moved(
        "pandas.util.testing",
        "pandas.testing",
        ["assert_frame_equal", "assert_series_equal", "assert_index_equal"],
    ),
}

_READERS = calls_to("pandas.read_csv", "pandas.read_table", "pandas.read_fwf")

_FRAME = "import pandas as pd\nframe = pd.DataFrame({'a': [3.0, 1.0, 2.0]}, index=[2, 0, 1])\n"


RULES = (
    Rule(
        id="pandas.removed-methods",
        library="pandas",
        changed_in="1.0",
        summary="`s.order()` -> `sort_values`, `valid` -> `dropna`, `clip_upper(t)`/"
        "`clip_lower(t)` -> `clip(upper=t)`/`clip(lower=t)`, `sortlevel(l)` -> "
        "`sort_index(level=l)`, `reindex_axis` -> `reindex`, `sort_index(by=)` -> "
        "`sort_values(by=)`, `get_dtype_counts()` -> `dtypes.value_counts()`, `ftypes` -> "
        "`dtypes`, `backfill`/`pad` -> `bfill`/`ffill`, `mad()` -> "
        "`(x - x.mean()).abs().mean()`",
        kind=Kind.API,
        rewrite=cst_rewrite(
            lambda context: Methods(context, METHODS),
            (*METHODS, "ftypes"),
            either(method_called(*METHODS), attribute_named("ftypes")),
        ),
        symptoms=(
            missing(FRAME_OR_SERIES, f"({REMOVED}|ftypes)"),
            Symptom("TypeError", r"sort_index\(\) got an unexpected keyword argument 'by'"),
        ),
        gone=all_of(
            pandas_lacks("Series", "clip_upper"), pandas_lacks("DataFrame", "get_dtype_counts")
        ),
        reads=KEPT_PROBES,
        examples=(
            Example(
                before=_FRAME + "s = frame['a']\n"
                "ordered = s.order()\nclipped = s.clip_upper(2.5)\nlow = s.clip_lower(1.5)\n"
                "counts = frame.get_dtype_counts()\nby = frame.sort_index(by='a')\n"
                "kinds = frame.ftypes\nfilled = pd.Series([None, 1.0]).backfill()\n"
                "m = s.mad()\nlevels = frame.sortlevel()\n"
                "r = frame.reindex_axis(['a'], 1)\nv = pd.Series([1.0, None]).valid()\n",
                after=_FRAME + "s = frame['a']\n"
                "ordered = s.sort_values()\nclipped = s.clip(upper=2.5)\nlow = s.clip(lower=1.5)\n"
                "counts = frame.dtypes.value_counts()\nby = frame.sort_values(by='a')\n"
                "kinds = frame.dtypes\nfilled = pd.Series([None, 1.0]).bfill()\n"
                "m = (s - s.mean()).abs().mean()\n"
                "levels = frame.sort_index(level=0)\n"
                "r = frame.reindex(['a'], axis=1)\nv = pd.Series([1.0, None]).dropna()\n",
                error="AttributeError",
                check="ordered.tolist() == [1.0, 2.0, 3.0] and clipped.max() == 2.5 "
                "and low.min() == 1.5 and counts.tolist() == [1] "
                "and by['a'].tolist() == [1.0, 2.0, 3.0] and kinds['a'] == 'float64' "
                "and filled.tolist() == [1.0, 1.0] and abs(m - 2 / 3) < 1e-12 "
                "and levels.index.tolist() == [0, 1, 2] "
                "and r.columns.tolist() == ['a'] and v.tolist() == [1.0]",
            ),
            Example(
                before="import numpy as np\nimport pandas as pd\n"
                "s = pd.Series(['a', 'b'])\npadded = s.str.pad(3)\ngrid = np.pad([1], 1)\n"
                "cube = np.zeros((2, 3, 4)).swapaxes(0, 1)\n"
                "m = s.order()\n",
                after="import numpy as np\nimport pandas as pd\n"
                "s = pd.Series(['a', 'b'])\npadded = s.str.pad(3)\ngrid = np.pad([1], 1)\n"
                "cube = np.zeros((2, 3, 4)).swapaxes(0, 1)\n"
                "m = s.sort_values()\n",
                error="AttributeError",
                check="padded.tolist() == ['  a', '  b'] and grid.tolist() == [0, 1, 0] "
                "and cube.shape == (3, 2, 4)",
            ),
        ),
    ),
    Rule(
        id="pandas.frame-swapaxes-bool",
        library="pandas",
        changed_in="3.0",
        summary="`df.swapaxes(0, 1)` -> `df.transpose()`, `x.bool()` -> `bool(x.squeeze())`; "
        "only in a cell that failed on it (ndarrays keep `swapaxes`, torch tensors `.bool()`)",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda context: Methods(context, SHARED)),
        symptoms=(missing(FRAME_OR_SERIES, "(swapaxes|bool)"),),
        gone=None,
        examples=(
            Example(
                before=_FRAME + "t = frame.swapaxes(0, 1)\nflag = pd.Series([True]).bool()\n",
                after=_FRAME + "t = frame.transpose()\nflag = bool(pd.Series([True]).squeeze())\n",
                error="AttributeError",
                check="t.shape == (1, 3) and t.columns.tolist() == [2, 0, 1] and flag is True",
            ),
        ),
    ),
    Rule(
        id="pandas.dt-week",
        library="pandas",
        changed_in="2.0",
        summary="`s.dt.week` / `s.dt.weekofyear` -> `s.dt.isocalendar().week.astype('int64')` "
        "(the same ISO weeks, the same dtype; a NaT now fails at that line)",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: _DtWeek(), ("week", "weekofyear")),
        symptoms=(missing("DatetimeProperties", "(week|weekofyear)"),),
        gone=pandas_lacks("DatetimeIndex", "week", "weekofyear"),
        examples=(
            Example(
                before="import pandas as pd\n"
                "d = pd.Series(pd.to_datetime(['2021-01-03', '2021-01-04', '2020-12-31']))\n"
                "w = d.dt.week\nw2 = d.dt.weekofyear + 1\n",
                after="import pandas as pd\n"
                "d = pd.Series(pd.to_datetime(['2021-01-03', '2021-01-04', '2020-12-31']))\n"
                "w = d.dt.isocalendar().week.astype('int64')\n"
                "w2 = d.dt.isocalendar().week.astype('int64') + 1\n",
                error="AttributeError",
                check="w.tolist() == [53, 1, 53] and str(w.dtype) == 'int64' "
                "and w2.tolist() == [54, 2, 54]",
            ),
        ),
    ),
    Rule(
        id="pandas.removed-constructors",
        library="pandas",
        changed_in="2.0",
        summary="`pd.Int64Index(x)`/`UInt64Index`/`Float64Index` -> `pd.Index(x, dtype=...)`, "
        "`pd.TimeGrouper(f)` -> `pd.Grouper(freq=f)`, `DataFrame.from_items(items)` -> "
        "`DataFrame.from_dict(dict(items))`, `pd.concat(..., join_axes=[i])` -> "
        "`pd.concat(...).reindex(i)`",
        kind=Kind.API,
        rewrite=rewrite_calls(_CONSTRUCTORS, keywords={"pandas.concat": ("join_axes",)}),
        symptoms=(
            Symptom(
                "AttributeError",
                r"module 'pandas' has no attribute '(U?Int64Index|Float64Index|TimeGrouper)'",
            ),
            Symptom("AttributeError", r"type object 'DataFrame' has no attribute 'from_items'"),
            Symptom("TypeError", r"concat\(\) got an unexpected keyword argument 'join_axes'"),
        ),
        gone=pandas_lacks("", "Int64Index", "TimeGrouper"),
        examples=(
            Example(
                before="import pandas as pd\nidx = pd.Int64Index([3, 1])\n"
                "frame = pd.DataFrame.from_items([('b', [1, 2]), ('a', [3, 4])])\n"
                "g = pd.Series([1, 2], index=pd.to_datetime(['2020-01-01', '2020-02-01']))"
                ".groupby(pd.TimeGrouper('MS')).sum()\n"
                "joined = pd.concat([frame, frame[['a']]], axis=1, join_axes=[frame.index[:1]])\n",
                after="import pandas as pd\nidx = pd.Index([3, 1], dtype='int64')\n"
                "frame = pd.DataFrame.from_dict(dict([('b', [1, 2]), ('a', [3, 4])]))\n"
                "g = pd.Series([1, 2], index=pd.to_datetime(['2020-01-01', '2020-02-01']))"
                ".groupby(pd.Grouper(freq='MS')).sum()\n"
                "joined = pd.concat([frame, frame[['a']]], axis=1).reindex(frame.index[:1])\n",
                error="AttributeError",
                check="idx.tolist() == [3, 1] and str(idx.dtype) == 'int64' "
                "and frame.columns.tolist() == ['b', 'a'] and g.tolist() == [1, 2] "
                "and joined.shape == (1, 3)",
            ),
        ),
    ),
    Rule(
        id="pandas.removed-keywords",
        library="pandas",
        changed_in="3.0",
        summary="`to_datetime`/`read_csv(infer_datetime_format=)` dropped (inference is the "
        "default), `read_csv(delim_whitespace=True)` -> `sep=r'\\s+'`, "
        "`to_csv(line_terminator=)` -> `lineterminator=`, `read_csv(date_parser=lambda x: "
        "pd.to_datetime(x, format=F))` (or `strptime(x, F)`) -> `date_format=F`",
        kind=Kind.API,
        rewrite=chain(
            edit_keywords(
                calls_to("pandas.to_datetime", "pandas.read_csv", "pandas.read_table"),
                {"infer_datetime_format": drop()},
            ),
            edit_keywords(
                _READERS, {"delim_whitespace": _whitespace, "date_parser": _parser_format}
            ),
            edit_keywords(
                lambda call, _context: (
                    isinstance(call.func, cst.Attribute) and call.func.attr.value == "to_csv"
                ),
                {"line_terminator": rename_to("lineterminator")},
            ),
        ),
        symptoms=(
            Symptom(
                "TypeError",
                r"got an unexpected keyword argument "
                r"'(infer_datetime_format|delim_whitespace|line_terminator|date_parser)'",
            ),
        ),
        gone=no_parameter("pandas.to_datetime", "infer_datetime_format"),
        examples=(
            Example(
                before="import pandas as pd\n"
                "d = pd.to_datetime(['2020-01-02'], infer_datetime_format=True)\n"
                "t = pd.read_csv('../input/t.txt', delim_whitespace=True)\n"
                "u = pd.read_csv('../input/u.csv', parse_dates=['d'], "
                "date_parser=lambda x: pd.datetime.strptime(x, '%Y%m'))\n"
                "t.to_csv('out.csv', index=False, line_terminator='\\n')\n",
                after="import pandas as pd\n"
                "d = pd.to_datetime(['2020-01-02'])\n"
                "t = pd.read_csv('../input/t.txt', sep=r'\\s+')\n"
                "u = pd.read_csv('../input/u.csv', parse_dates=['d'], date_format='%Y%m')\n"
                "t.to_csv('out.csv', index=False, lineterminator='\\n')\n",
                error="TypeError",
                check="d[0].day == 2 and t.columns.tolist() == ['a', 'b'] "
                "and open('out.csv').read() == 'a,b\\n1,2\\n' "
                "and u['d'][0] == pd.Timestamp('2017-02-01')",
                files={"input/t.txt": "a  b\n1   2\n", "input/u.csv": "d\n201702\n"},
            ),
        ),
    ),
    Rule(
        id="pandas.series-array-methods",
        library="pandas",
        changed_in="1.0",
        summary="`s.reshape(...)` / `s.nonzero()` on a Series -> `np.asarray(s).reshape(...)`; "
        "only in a cell that failed on it (an ndarray's `np.asarray` is itself)",
        kind=Kind.API,
        rewrite=cst_rewrite(_ArrayMethods),
        symptoms=(missing("Series", "(reshape|nonzero)"),),
        gone=None,
        examples=(
            Example(
                before="import numpy as np\nimport pandas as pd\n"
                "frame = pd.DataFrame({'y': [1.0, 0.0, 2.0]})\n"
                "column = frame['y'].reshape(-1, 1)\nflat = np.arange(4).reshape(2, 2)\n"
                "hits = frame.y.nonzero()[0]\n",
                after="import numpy as np\nimport pandas as pd\n"
                "frame = pd.DataFrame({'y': [1.0, 0.0, 2.0]})\n"
                "column = np.asarray(frame['y']).reshape(-1, 1)\n"
                "flat = np.asarray(np.arange(4)).reshape(2, 2)\n"
                "hits = np.asarray(frame.y).nonzero()[0]\n",
                error="AttributeError",
                check="column.shape == (3, 1) and flat.tolist() == [[0, 1], [2, 3]] "
                "and hits.tolist() == [0, 2]",
            ),
        ),
    ),
    Rule(
        id="pandas.moved-functions",
        library="pandas",
        changed_in="2.0",
        summary="`pandas.io.json.json_normalize` -> `pandas.json_normalize`; "
        "`pandas.util.testing.assert_*_equal` -> `pandas.testing`",
        kind=Kind.API,
        rewrite=move_names(_MOVED, reference="module"),
        symptoms=(
            Symptom("ImportError", r"cannot import name 'json_normalize' from 'pandas\.io\.json'"),
            Symptom(
                "AttributeError", r"module 'pandas\.io\.json' has no attribute 'json_normalize'"
            ),
            Symptom("ModuleNotFoundError", r"No module named 'pandas\.util\.testing'"),
        ),
        gone=module_gone("pandas.util.testing"),
        examples=(
            Example(
                before="import pandas as pd\nfrom pandas.io.json import json_normalize\n"
                "from pandas.util.testing import assert_frame_equal\n"
                "flat = json_normalize([{'a': {'b': 1}}])\nassert_frame_equal(flat, flat)\n",
                after="import pandas as pd\nfrom pandas import json_normalize\n"
                "from pandas.testing import assert_frame_equal\n"
                "flat = json_normalize([{'a': {'b': 1}}])\nassert_frame_equal(flat, flat)\n",
                error="ImportError",
                check="flat.columns.tolist() == ['a.b']",
            ),
        ),
    ),
)
