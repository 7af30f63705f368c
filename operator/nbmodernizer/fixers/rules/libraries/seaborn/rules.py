"""seaborn drift."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    edit_keywords,
    keyword_arg,
    keywordize,
    new_arg,
    positional_args,
    rename_to,
    renamed_callee,
    with_args,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite
from nbmodernizer.fixers.rules.toolkit.examples import AGG
from nbmodernizer.fixers.rules.toolkit.moves import move_names, moved
from nbmodernizer.fixers.rules.toolkit.nodes import qualified, string_literal
from nbmodernizer.fixers.rules.toolkit.probes import keyword_only, lacks, no_parameter

_CATEGORICAL = (
    "barplot",
    "countplot",
    "boxplot",
    "violinplot",
    "stripplot",
    "swarmplot",
    "pointplot",
    "boxenplot",
    "catplot",
)

# Positional parameters of the seaborn <= 0.11 signatures; 0.12 made them keyword-only
# (the first positional argument is now `data`).
_X_FIRST: dict[str, tuple[str, ...]] = {
    **{name: ("x", "y", "hue", "data") for name in _CATEGORICAL},
    "scatterplot": ("x", "y", "hue", "style", "size", "data"),
    "lineplot": ("x", "y", "hue", "size", "style", "data"),
    "relplot": ("x", "y", "hue", "size", "style", "data"),
    "regplot": ("x", "y", "data"),
    "residplot": ("x", "y", "data"),
    "jointplot": ("x", "y", "data"),
    "lmplot": ("x", "y", "data"),
}

_DATA_FIRST: dict[str, tuple[str, ...]] = {
    "FacetGrid": ("data", "row", "col", "hue"),
    "pairplot": ("data", "hue", "hue_order", "palette", "vars", "x_vars", "y_vars", "kind"),
}


def _seaborn_function(call: cst.Call, context: RuleContext) -> str | None:
    name = qualified(call.func, context.aliases)
    if name is None or not name.startswith("seaborn."):
        return None
    return name.rsplit(".", 1)[-1]


class _PositionalData(cst.CSTTransformer):
    """Legacy positional data arguments -> keywords.

    `single` handles the calls with one positional argument (which seaborn >= 0.12 reads as
    `data`, silently); otherwise calls with two or more (which fail today).
    """

    def __init__(self, context: RuleContext, single: bool) -> None:
        super().__init__()
        self.context, self.single = context, single

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        function = _seaborn_function(original_node, self.context)
        if function is None or any(arg.star for arg in updated_node.args):
            return updated_node
        count = len(positional_args(updated_node))
        if function == "kdeplot":
            return self._kdeplot(updated_node, count)
        names = _X_FIRST.get(function) or _DATA_FIRST.get(function)
        if names is None or count > len(names):
            return updated_node
        if self.single:
            if count != 1 or function not in _X_FIRST:
                return updated_node
            return keywordize(updated_node, names)
        if count < 2:
            return updated_node
        start = 1 if function in _DATA_FIRST else 0
        return keywordize(updated_node, names, start=start)

    def _kdeplot(self, call: cst.Call, count: int) -> cst.Call:
        if self.single:
            return call
        data2 = keyword_arg(call, "data2")
        if count == 2 and data2 is None:
            return keywordize(call, ("x", "y"))
        if count == 1 and data2 is not None:
            renamed = [
                arg.with_changes(keyword=cst.Name("y")) if arg is data2 else arg
                for arg in call.args
            ]
            return keywordize(call.with_changes(args=renamed), ("x",))
        return call


# --- size -> height ------------------------------------------------------------------------

_SIZED = frozenset(
    {
        "lmplot",
        "factorplot",
        "catplot",
        "FacetGrid",
        "pairplot",
        "PairGrid",
        "jointplot",
        "JointGrid",
    }
)


def _sized(call: cst.Call, context: RuleContext) -> bool:
    return _seaborn_function(call, context) in _SIZED and keyword_arg(call, "height") is None


# --- factorplot -> catplot ---------------------------------------------------------------

# seaborn 0.8 `factorplot(x, y, hue, data, row, col, col_wrap, estimator, ci, n_boot, units,
# order, hue_order, row_order, col_order, kind="point", size=4, aspect=1, ...)`
_FACTORPLOT_POSITIONAL = ("x", "y", "hue", "data", "row", "col", "col_wrap")
# factorplot passed `ax=` on to its plot function: the plot landed on those axes (an empty grid
# figure beside them), while catplot drops `ax`; the axes-level function keeps the meaning
_AXES_LEVEL_KINDS = frozenset({"point", "bar", "count", "box", "violin", "strip", "swarm"})
_GRID_ONLY = frozenset(
    {"row", "col", "col_wrap", "row_order", "col_order", "facet_kws", "sharex", "sharey",
     "margin_titles", "legend", "legend_out"}
)  # fmt: skip
_FIGURE_SIZE = frozenset({"kind", "size", "aspect"})


def _on_given_axes(call: cst.Call) -> cst.Call | None:
    """`sns.factorplot(..., kind='bar', ax=a)` -> `sns.barplot(..., ax=a)` (keywords only);
    None when the call draws a grid or its kind is not a literal."""
    if keyword_arg(call, "ax") is None or not isinstance(call.func, cst.Attribute):
        return None
    keywords = {arg.keyword.value for arg in call.args if arg.keyword is not None}
    if keywords & _GRID_ONLY or len(keywords) != len(call.args):
        return None
    kind_arg = keyword_arg(call, "kind")
    kind = "point" if kind_arg is None else string_literal(kind_arg.value)
    if kind not in _AXES_LEVEL_KINDS:
        return None
    args = [
        arg for arg in call.args if arg.keyword is None or arg.keyword.value not in _FIGURE_SIZE
    ]
    call = with_args(call, args)
    return call.with_changes(func=renamed_callee(call.func, "factorplot", f"{kind}plot"))


class _Factorplot(cst.CSTTransformer):
    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if _seaborn_function(original_node, self.context) != "factorplot":
            return updated_node
        if any(arg.star for arg in updated_node.args):
            return updated_node
        if len(positional_args(updated_node)) > len(_FACTORPLOT_POSITIONAL):
            return updated_node
        call = keywordize(updated_node, _FACTORPLOT_POSITIONAL)
        on_axes = _on_given_axes(call)
        if on_axes is not None:
            return on_axes
        args = [
            arg.with_changes(keyword=cst.Name("height"))
            if arg.keyword is not None and arg.keyword.value == "size"
            else arg
            for arg in call.args
        ]
        if keyword_arg(call, "kind") is None:
            args.append(new_arg("kind", "'point'"))
        if keyword_arg(call, "size") is None and keyword_arg(call, "height") is None:
            args.append(new_arg("height", "4"))
        call = with_args(call, args)
        return call.with_changes(func=renamed_callee(call.func, "factorplot", "catplot"))


_SNS = (
    AGG + "import pandas as pd\nimport seaborn as sns\n"
    "df = pd.DataFrame({'a': [1.0, 2, 3, 4, 5, 6], 'b': [2.0, 1, 4, 3, 6, 5], "
    "'c': list('xyxyxy')})\n"
)

RULES = (
    Rule(
        id="seaborn.positional-data-arguments",
        library="seaborn",
        changed_in="0.12",
        summary="`sns.barplot(x_col, y_col)`, `sns.jointplot('a', 'b', data=df)`, "
        "`sns.lmplot('a', 'b', df)`, `sns.kdeplot(x, y)`, `sns.pairplot(df, 'species')` -> "
        "keywords `x=`, `y=`, `hue=`, `data=` (by the legacy signature of each function)",
        kind=Kind.API,
        rewrite=cst_rewrite(
            lambda context: _PositionalData(context, single=False),
            (*_X_FIRST, *_DATA_FIRST, "kdeplot"),
        ),
        symptoms=(
            Symptom("TypeError", r"\w+\(\) takes (from 0 to 1|\d) positional arguments? but \d+"),
            Symptom("TypeError", r"\w+\(\) got multiple values for argument 'data'"),
            Symptom("TypeError", r"`data2` has been removed"),
        ),
        gone=keyword_only("seaborn.barplot", "x"),
        examples=(
            Example(
                before=_SNS
                + "ax = sns.barplot(df.c, df.a)\n"
                + "g = sns.jointplot('a', 'b', data=df, kind='reg')\n"
                + "labels = (ax.get_xlabel(), ax.get_ylabel(), g.ax_joint.get_xlabel())\n"
                + "plt.close('all')\n",
                after=_SNS
                + "ax = sns.barplot(x=df.c, y=df.a)\n"
                + "g = sns.jointplot(x='a', y='b', data=df, kind='reg')\n"
                + "labels = (ax.get_xlabel(), ax.get_ylabel(), g.ax_joint.get_xlabel())\n"
                + "plt.close('all')\n",
                error="TypeError",
                check="labels == ('c', 'a', 'a') "
                "and [round(p.get_height(), 6) for p in ax.patches] == [3.0, 4.0]",
            ),
            Example(
                before=_SNS
                + "g = sns.lmplot('a', 'b', df, fit_reg=False)\n"
                + "ax = sns.kdeplot(df.a, data2=df.b)\n"
                + "ax2 = sns.scatterplot(df.a, df.b, df.c)\n"
                + "grid = sns.pairplot(df, 'c', vars=['a', 'b'])\n"
                + "found = (g.ax.get_xlabel(), ax.get_ylabel(), ax2.get_legend() is not None, "
                + "list(grid.hue_names))\n"
                + "plt.close('all')\n",
                after=_SNS
                + "g = sns.lmplot(x='a', y='b', data=df, fit_reg=False)\n"
                + "ax = sns.kdeplot(x=df.a, y=df.b)\n"
                + "ax2 = sns.scatterplot(x=df.a, y=df.b, hue=df.c)\n"
                + "grid = sns.pairplot(df, hue='c', vars=['a', 'b'])\n"
                + "found = (g.ax.get_xlabel(), ax.get_ylabel(), ax2.get_legend() is not None, "
                + "list(grid.hue_names))\n"
                + "plt.close('all')\n",
                error="TypeError",
                check="found == ('a', 'b', True, ['x', 'y'])",
            ),
        ),
    ),
    Rule(
        id="seaborn.single-positional-vector",
        library="seaborn",
        changed_in="0.12",
        summary="`sns.countplot(df.col)` (one positional vector, legacy `x`) -> "
        "`sns.countplot(x=df.col)`: today a lone positional argument is `data`, which "
        "silently turns the plot sideways",
        kind=Kind.SILENT,
        rewrite=cst_rewrite(
            lambda context: _PositionalData(context, single=True),
            (*_X_FIRST, *_DATA_FIRST, "kdeplot"),
        ),
        gone=keyword_only("seaborn.barplot", "x"),
        examples=(
            Example(
                before=_SNS
                + "ax = sns.countplot(df.c)\n"
                + "heights = [p.get_height() for p in ax.patches]\n"
                + "plt.figure()\nax2 = sns.boxplot(df['a'], color='gray')\n"
                + "label = ax2.get_xlabel()\nplt.close('all')\n",
                after=_SNS
                + "ax = sns.countplot(x=df.c)\n"
                + "heights = [p.get_height() for p in ax.patches]\n"
                + "plt.figure()\nax2 = sns.boxplot(x=df['a'], color='gray')\n"
                + "label = ax2.get_xlabel()\nplt.close('all')\n",
                check="heights == [3.0, 3.0] and label == 'a'",
            ),
        ),
    ),
    Rule(
        id="seaborn.size-to-height",
        library="seaborn",
        changed_in="0.9",
        summary="`size=` of `lmplot`, `factorplot`/`catplot`, `FacetGrid`, `pairplot`, "
        "`jointplot` -> `height=` (an error in `lmplot`/`FacetGrid`; silently ignored by "
        "`jointplot`/`catplot`)",
        kind=Kind.API,
        rewrite=edit_keywords(_sized, {"size": rename_to("height")}, called=sorted(_SIZED)),
        symptoms=(Symptom("TypeError", r"unexpected keyword argument 'size'"),),
        gone=no_parameter("seaborn.lmplot", "size"),
        examples=(
            Example(
                before=_SNS
                + "g = sns.lmplot(x='a', y='b', data=df, size=3)\n"
                + "grid = sns.FacetGrid(df, col='c', size=2, aspect=1)\n"
                + "sizes = [tuple(g.fig.get_size_inches()), tuple(grid.fig.get_size_inches())]\n"
                + "plt.close('all')\n",
                after=_SNS
                + "g = sns.lmplot(x='a', y='b', data=df, height=3)\n"
                + "grid = sns.FacetGrid(df, col='c', height=2, aspect=1)\n"
                + "sizes = [tuple(g.fig.get_size_inches()), tuple(grid.fig.get_size_inches())]\n"
                + "plt.close('all')\n",
                error="TypeError",
                check="sizes == [(3.0, 3.0), (4.0, 2.0)]",
            ),
            Example(
                before=_SNS
                + "g = sns.jointplot(x='a', y='b', data=df, size=3)\n"
                + "size = tuple(g.fig.get_size_inches())\nplt.close('all')\n",
                after=_SNS
                + "g = sns.jointplot(x='a', y='b', data=df, height=3)\n"
                + "size = tuple(g.fig.get_size_inches())\nplt.close('all')\n",
                check="size == (3.0, 3.0)",
            ),
        ),
    ),
    Rule(
        id="seaborn.factorplot",
        library="seaborn",
        changed_in="0.12",
        summary="`sns.factorplot(...)` -> `sns.catplot(..., kind='point', height=4)`: "
        "factorplot's own defaults (`kind='point'`, `size=4`) are spelled out",
        kind=Kind.API,
        rewrite=chain(
            cst_rewrite(_Factorplot, ("factorplot",)),
            move_names(moved("seaborn", "seaborn", {"factorplot": "catplot"}), reference="module"),
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'seaborn' has no attribute 'factorplot'"),
            Symptom("ImportError", r"cannot import name 'factorplot' from 'seaborn'"),
        ),
        gone=lacks("seaborn", "factorplot"),
        examples=(
            Example(
                before=_SNS
                + "g = sns.factorplot('c', 'a', data=df)\n"
                + "g2 = sns.factorplot(x='c', y='b', data=df, kind='bar', size=3)\n"
                + "kinds = (len(g.ax.patches), len(g.ax.lines) > 0, len(g2.ax.patches))\n"
                + "heights = (g.fig.get_size_inches()[1], g2.fig.get_size_inches()[1])\n"
                + "plt.close('all')\n",
                after=_SNS
                + "g = sns.catplot(x='c', y='a', data=df, kind='point', height=4)\n"
                + "g2 = sns.catplot(x='c', y='b', data=df, kind='bar', height=3)\n"
                + "kinds = (len(g.ax.patches), len(g.ax.lines) > 0, len(g2.ax.patches))\n"
                + "heights = (g.fig.get_size_inches()[1], g2.fig.get_size_inches()[1])\n"
                + "plt.close('all')\n",
                error="AttributeError",
                check="kinds == (0, True, 2) and heights == (4.0, 3.0)",
                era_differences={
                    "heights": "factorplot's own default size was 4 (seaborn 0.8.1 and before, "
                    "when factorplot was current); the eras have seaborn 0.9 (0.8 has no wheel), "
                    "where factorplot is already a deprecated alias of catplot(kind='point'), "
                    "whose default height is 5; the rewrite keeps factorplot's own 4"
                },
            ),
        ),
    ),
)
