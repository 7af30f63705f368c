"""seaborn functions and keywords removed in 0.12: `lvplot`, `axlabel`, `jointplot(stat_func=)`."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    CallRewriter,
    call_arguments,
    calls_to,
    drop,
    edit_keywords,
    rewrite_calls,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain
from nbmodernizer.fixers.rules.toolkit.examples import AGG
from nbmodernizer.fixers.rules.toolkit.moves import move_names, moved
from nbmodernizer.fixers.rules.toolkit.nodes import code, expression
from nbmodernizer.fixers.rules.toolkit.probes import all_of, lacks, no_parameter
from nbmodernizer.fixers.rules.toolkit.statements import drop_imported_names


def _axlabel(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`sns.axlabel(x, y)` -> `plt.gca().set(xlabel=x, ylabel=y)` (what it did); calls with
    text keywords (fontsize=...) are left alone."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) != 2 or arguments[1]:
        return None
    xlabel, ylabel = (code(arg.value) for arg in arguments[0])
    pyplot = rewriter.module_ref("matplotlib.pyplot", "plt")
    return expression(f"{pyplot}.gca().set(xlabel={xlabel}, ylabel={ylabel})")


RULES = (
    Rule(
        id="seaborn.removed-functions",
        library="seaborn",
        changed_in="0.12",
        summary="`sns.lvplot` -> `sns.boxenplot` (its name since 0.9), `sns.axlabel(x, y)` -> "
        "`plt.gca().set(xlabel=x, ylabel=y)`, `jointplot(stat_func=...)` dropped (it only "
        "wrote the statistic on the plot)",
        kind=Kind.API,
        rewrite=chain(
            move_names(moved("seaborn", "seaborn", {"lvplot": "boxenplot"}), reference="module"),
            rewrite_calls({"seaborn.axlabel": _axlabel}),
            drop_imported_names("seaborn", ["axlabel"]),
            edit_keywords(calls_to("seaborn.jointplot"), {"stat_func": drop()}),
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'seaborn' has no attribute '(lvplot|axlabel)'"),
            Symptom("ImportError", r"cannot import name '(lvplot|axlabel)' from 'seaborn'"),
            Symptom(
                "AttributeError",
                r"(PathCollection|Line2D)\.set\(\) got an unexpected keyword argument 'stat_func'",
            ),
        ),
        gone=all_of(
            lacks("seaborn", "lvplot", "axlabel"), no_parameter("seaborn.jointplot", "stat_func")
        ),
        examples=(
            Example(
                before=AGG + "import seaborn as sns\nfrom scipy import stats\n"
                "ax = sns.lvplot(x=[1.0, 2.0, 3.0, 4.0])\nsns.axlabel('value', 'count')\n"
                "labels = (ax.get_xlabel(), ax.get_ylabel())\n"
                "g = sns.jointplot(x=[1, 2, 3], y=[2, 4, 7], stat_func=stats.pearsonr)\n"
                "plt.close('all')\n",
                after=AGG + "import seaborn as sns\nfrom scipy import stats\n"
                "ax = sns.boxenplot(x=[1.0, 2.0, 3.0, 4.0])\n"
                "plt.gca().set(xlabel='value', ylabel='count')\n"
                "labels = (ax.get_xlabel(), ax.get_ylabel())\n"
                "g = sns.jointplot(x=[1, 2, 3], y=[2, 4, 7])\n"
                "plt.close('all')\n",
                error="AttributeError",
                check="labels == ('value', 'count') and g.ax_joint is not None",
            ),
        ),
    ),
)
