"""Renamed pandas methods, attributes and modules."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.pandas.common import (
    FRAME_OR_SERIES,
    is_module_receiver,
    missing,
    pandas_lacks,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.bindings import OWN, rooted_in
from nbmodernizer.fixers.rules.toolkit.calls import as_keyword, call_arguments, method_call
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite
from nbmodernizer.fixers.rules.toolkit.moves import move_module, replace_attributes
from nbmodernizer.fixers.rules.toolkit.needles import method_called
from nbmodernizer.fixers.rules.toolkit.nodes import (
    literal_bool,
    string_literal,
    subscript_of,
)
from nbmodernizer.fixers.rules.toolkit.probes import all_of, module_gone


class SortToSortValues(cst.CSTTransformer):
    """`df.sort('a')` / `df.sort(columns=['a', 'b'])` -> `df.sort_values(...)`."""

    LEGACY = ("axis", "ascending", "inplace", "kind", "na_position")

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    @staticmethod
    def _labels(node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.List | cst.Tuple):
            return bool(node.elements) and all(
                string_literal(element.value) is not None for element in node.elements
            )
        return string_literal(node) is not None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        found = method_call(updated_node, "sort")
        if found is None or is_module_receiver(found[0].value, self.context):
            return updated_node
        func, positional, keywords = found
        by = positional[0].value if positional else getattr(keywords.get("columns"), "value", None)
        if by is None or not self._labels(by) or len(positional) > 1 + len(self.LEGACY):
            return updated_node
        args: list[cst.Arg] = []
        for n, arg in enumerate(updated_node.args):
            if arg.keyword is not None and arg.keyword.value == "columns":
                arg = arg.with_changes(keyword=cst.Name("by"))
            elif arg.keyword is None and n > 0:
                arg = as_keyword(arg, self.LEGACY[n - 1])
            args.append(arg)
        return updated_node.with_changes(
            func=func.with_changes(attr=cst.Name("sort_values")), args=args
        )


def _cell_access(call: cst.Call, method: str, count: tuple[int, ...]) -> cst.Subscript | None:
    """`df.get_value(i, 'c')` -> `df.at[i, 'c']` (`.iat` with `takeable=True`)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != method:
        return None
    arguments = call_arguments(call)
    if arguments is None or set(arguments[1]) - {"takeable"}:
        return None
    positional, keywords = arguments
    if len(positional) not in count:
        return None
    takeable = literal_bool(keywords["takeable"].value) if "takeable" in keywords else False
    if takeable is None:
        return None
    keys = [arg.value for arg in positional]
    if method == "set_value":
        keys = keys[:-1]
    return subscript_of(func.value, *keys, attr="iat" if takeable else "at")


class GetSetValue(cst.CSTTransformer):
    """`df.get_value(i, 'c')` -> `df.at[i, 'c']`; `df.set_value(i, 'c', v)` -> `df.at[...] = v`."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if isinstance(func, cst.Attribute) and is_module_receiver(func.value, self.context):
            return updated_node
        access = _cell_access(updated_node, "get_value", (1, 2))
        if access is None:
            return updated_node
        return access.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)

    def leave_Expr(self, original_node: cst.Expr, updated_node: cst.Expr) -> cst.BaseSmallStatement:
        call = updated_node.value
        if not isinstance(call, cst.Call):
            return updated_node
        func = call.func
        if isinstance(func, cst.Attribute) and is_module_receiver(func.value, self.context):
            return updated_node
        access = _cell_access(call, "set_value", (2, 3))
        if access is None:
            return updated_node
        value = [arg for arg in call.args if arg.keyword is None][-1].value
        return cst.Assign(targets=[cst.AssignTarget(access)], value=value)


class RenameAttribute(cst.CSTTransformer):
    """`x.old` -> `x.new` for an attribute that is not called (a property) of an object that is
    not a module (`libalgos.is_monotonic(a)` is a function of its own) nor an object's own
    (`self.is_monotonic`, `self._grouper.is_monotonic`: a class's attribute)."""

    def __init__(self, context: RuleContext, renames: dict[str, str]) -> None:
        super().__init__()
        self.context = context
        self.renames = renames
        self.called: set[cst.BaseExpression] = set()

    def visit_Call(self, node: cst.Call) -> None:
        self.called.add(node.func)

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        old = updated_node.attr.value
        if old not in self.renames or original_node in self.called:
            return updated_node
        if is_module_receiver(updated_node.value, self.context) or rooted_in(
            updated_node.value, OWN
        ):
            return updated_node
        return updated_node.with_changes(attr=cst.Name(self.renames[old]))


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
        rewrite=cst_rewrite(SortToSortValues, ("sort",), method_called("sort")),
        symptoms=(missing("DataFrame", "sort"),),
        gone=pandas_lacks("DataFrame", "sort"),
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
        rewrite=cst_rewrite(GetSetValue, ("get_value", "set_value")),
        symptoms=(missing(FRAME_OR_SERIES, "(get|set)_value"),),
        gone=pandas_lacks("DataFrame", "get_value", "set_value"),
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
        gone=all_of(pandas_lacks("", "scatter_matrix"), module_gone("pandas.tools")),
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
            lambda context: RenameAttribute(context, {"is_monotonic": "is_monotonic_increasing"}),
            ("is_monotonic",),
        ),
        symptoms=(missing("(Index|Series|RangeIndex|DatetimeIndex)", "is_monotonic"),),
        gone=all_of(pandas_lacks("Index", "is_monotonic"), pandas_lacks("Series", "is_monotonic")),
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
