"""Renamed or removed matplotlib keyword arguments."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.matplotlib.common import (
    any_call,
    not_seaborn,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    edit_keywords,
    keyword_arg,
    method_name,
    rename_to,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite
from nbmodernizer.fixers.rules.toolkit.examples import AGG
from nbmodernizer.fixers.rules.toolkit.moves import rename_methods
from nbmodernizer.fixers.rules.toolkit.nodes import qualified
from nbmodernizer.fixers.rules.toolkit.probes import lacks_attribute, no_parameter, rejects

# --- fig.gca(projection=...) ------------------------------------------------------------


class GcaProjection(cst.CSTTransformer):
    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.aliases = context.aliases

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if method_name(updated_node) != "gca" or keyword_arg(updated_node, "projection") is None:
            return updated_node
        assert isinstance(func, cst.Attribute)
        if qualified(func.value, self.aliases) == "matplotlib.pyplot":
            gcf = cst.Call(func=func.with_changes(attr=cst.Name("gcf")))
            return updated_node.with_changes(
                func=cst.Attribute(value=gcf, attr=cst.Name("add_subplot"))
            )
        return updated_node.with_changes(func=func.with_changes(attr=cst.Name("add_subplot")))


# --- log scale keywords ---------------------------------------------------------------------

LOG_KEYWORDS = {
    "basex": "base",
    "basey": "base",
    "subsx": "subs",
    "subsy": "subs",
    "nonposx": "nonpositive",
    "nonposy": "nonpositive",
}


RULES = (
    Rule(
        id="matplotlib.axisbg",
        library="matplotlib",
        changed_in="2.2",
        summary="`ax.set_axis_bgcolor(c)` -> `ax.set_facecolor(c)`; "
        "`plt.subplot(..., axisbg=c)` -> `facecolor=c`",
        kind=Kind.API,
        rewrite=chain(
            rename_methods(
                {"set_axis_bgcolor": "set_facecolor", "get_axis_bgcolor": "get_facecolor"}
            ),
            edit_keywords(
                any_call(
                    "axes",
                    "subplot",
                    "add_subplot",
                    "add_axes",
                    functions=("matplotlib.pyplot.axes", "matplotlib.pyplot.subplot"),
                ),
                {"axisbg": rename_to("facecolor")},
            ),
        ),
        symptoms=(
            Symptom("AttributeError", r"object has no attribute '(set|get)_axis_bgcolor'"),
            Symptom("AttributeError", r"unexpected keyword argument 'axisbg'"),
        ),
        gone=lacks_attribute("matplotlib.axes.Axes", "set_axis_bgcolor"),
        examples=(
            Example(
                before=AGG
                + "fig = plt.figure()\nax = fig.add_subplot(121, axisbg='red')\n"
                + "ax2 = plt.subplot(122)\nax2.set_axis_bgcolor('blue')\nplt.close('all')\n",
                after=AGG
                + "fig = plt.figure()\nax = fig.add_subplot(121, facecolor='red')\n"
                + "ax2 = plt.subplot(122)\nax2.set_facecolor('blue')\nplt.close('all')\n",
                error="AttributeError",
                check="ax.get_facecolor() == (1.0, 0.0, 0.0, 1.0) "
                "and ax2.get_facecolor() == (0.0, 0.0, 1.0, 1.0)",
            ),
        ),
    ),
    Rule(
        id="matplotlib.grid-b",
        library="matplotlib",
        changed_in="3.7",
        summary="`grid(b=True)` -> `grid(visible=True)`",
        kind=Kind.API,
        rewrite=edit_keywords(
            any_call("grid", functions=("matplotlib.pyplot.grid",)),
            {"b": rename_to("visible")},
        ),
        symptoms=(Symptom("ValueError", r"keyword grid_b is not recognized"),),
        gone=no_parameter("matplotlib.axes.Axes.grid", "b"),
        examples=(
            Example(
                before=AGG
                + "fig, (ax, ax2) = plt.subplots(1, 2)\nax.grid(b=True)\n"
                + "plt.sca(ax2)\nplt.grid(b=True, which='major', axis='y')\nfig.canvas.draw()\n"
                + "shown = [ax.get_xgridlines()[0].get_visible(), "
                + "ax2.get_ygridlines()[0].get_visible(), ax2.get_xgridlines()[0].get_visible()]\n"
                + "plt.close('all')\n",
                after=AGG
                + "fig, (ax, ax2) = plt.subplots(1, 2)\nax.grid(visible=True)\n"
                + "plt.sca(ax2)\nplt.grid(visible=True, which='major', axis='y')\n"
                + "fig.canvas.draw()\n"
                + "shown = [ax.get_xgridlines()[0].get_visible(), "
                + "ax2.get_ygridlines()[0].get_visible(), ax2.get_xgridlines()[0].get_visible()]\n"
                + "plt.close('all')\n",
                error="ValueError",
                check="shown == [True, True, False]",
            ),
        ),
    ),
    Rule(
        id="matplotlib.gca-projection",
        library="matplotlib",
        changed_in="3.6",
        summary="`fig.gca(projection='3d')` -> `fig.add_subplot(projection='3d')` "
        "(`plt.gca(...)` -> `plt.gcf().add_subplot(...)`); same result on a figure "
        "without that axes yet",
        kind=Kind.API,
        rewrite=cst_rewrite(GcaProjection, ("projection",)),
        symptoms=(Symptom("TypeError", r"gca\(\) got an unexpected keyword argument"),),
        gone=no_parameter("matplotlib.figure.Figure.gca", "**"),
        examples=(
            Example(
                before=AGG
                + "fig = plt.figure()\nax = fig.gca(projection='3d')\n"
                + "plt.figure()\nax2 = plt.gca(projection='polar')\n"
                + "names = [ax.name, ax2.name, len(fig.axes)]\nplt.close('all')\n",
                after=AGG
                + "fig = plt.figure()\nax = fig.add_subplot(projection='3d')\n"
                + "plt.figure()\nax2 = plt.gcf().add_subplot(projection='polar')\n"
                + "names = [ax.name, ax2.name, len(fig.axes)]\nplt.close('all')\n",
                error="TypeError",
                check="names == ['3d', 'polar', 1]",
            ),
        ),
    ),
    Rule(
        id="matplotlib.log-scale-keywords",
        library="matplotlib",
        changed_in="3.5",
        summary="`set_xscale('log', basex=2, nonposx='clip')` -> `base=2, nonpositive='clip'` "
        "(also `basey`/`subsx`/`subsy`/`nonposy`, in `semilogx`/`semilogy`/`xscale`/`yscale`)",
        kind=Kind.API,
        rewrite=edit_keywords(
            any_call(
                "set_xscale",
                "set_yscale",
                "xscale",
                "yscale",
                "semilogx",
                "semilogy",
                functions=(
                    "matplotlib.pyplot.xscale",
                    "matplotlib.pyplot.yscale",
                    "matplotlib.pyplot.semilogx",
                    "matplotlib.pyplot.semilogy",
                ),
            ),
            {old: rename_to(new) for old, new in LOG_KEYWORDS.items()},
        ),
        symptoms=(Symptom("TypeError", r"unexpected keyword argument '(base|subs|nonpos)[xy]'"),),
        gone=rejects("from matplotlib.scale import LogScale\nLogScale(None, basex=2)"),
        examples=(
            Example(
                before=AGG
                + "fig, ax = plt.subplots()\n"
                + "ax.set_xscale('log', basex=2)\n"
                + "ax.set_yscale('log', nonposy='mask', basey=10)\n"
                + "bases = (ax.xaxis.get_transform().base, ax.yaxis.get_transform().base)\n"
                + "plt.close('all')\n",
                after=AGG
                + "fig, ax = plt.subplots()\n"
                + "ax.set_xscale('log', base=2)\n"
                + "ax.set_yscale('log', nonpositive='mask', base=10)\n"
                + "bases = (ax.xaxis.get_transform().base, ax.yaxis.get_transform().base)\n"
                + "plt.close('all')\n",
                error="TypeError",
                check="bases == (2, 10)",
            ),
        ),
    ),
    Rule(
        id="matplotlib.boxplot-labels",
        library="matplotlib",
        changed_in="3.11",
        summary="`boxplot(data, labels=names)` -> `boxplot(data, tick_labels=names)`",
        kind=Kind.API,
        rewrite=edit_keywords(
            not_seaborn(("boxplot",), ("matplotlib.pyplot.boxplot",)),
            {"labels": rename_to("tick_labels")},
        ),
        symptoms=(
            Symptom("TypeError", r"boxplot\(\) got an unexpected keyword argument 'labels'"),
        ),
        gone=no_parameter("matplotlib.axes.Axes.boxplot", "labels"),
        examples=(
            Example(
                before=AGG
                + "fig, ax = plt.subplots()\n"
                + "ax.boxplot([[1, 2, 3], [2, 3, 4]], labels=['a', 'b'])\n"
                # drawn first: before matplotlib 3.5, tick labels have their text once drawn
                + "fig.canvas.draw()\n"
                + "names = [t.get_text() for t in ax.get_xticklabels()]\nplt.close('all')\n",
                after=AGG
                + "fig, ax = plt.subplots()\n"
                + "ax.boxplot([[1, 2, 3], [2, 3, 4]], tick_labels=['a', 'b'])\n"
                # drawn first: before matplotlib 3.5, tick labels have their text once drawn
                + "fig.canvas.draw()\n"
                + "names = [t.get_text() for t in ax.get_xticklabels()]\nplt.close('all')\n",
                error="TypeError",
                check="names == ['a', 'b']",
            ),
        ),
    ),
)
