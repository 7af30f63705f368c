"""matplotlib helpers removed (`mlab.bivariate_normal`, `cbook.iterable`, `axes_grid`) and
`Axes3D(fig)`, which no longer adds itself to the figure."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import CallRewriter, bound_arguments, rewrite_calls
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite
from nbmodernizer.fixers.rules.toolkit.moves import move_modules, move_names, moved
from nbmodernizer.fixers.rules.toolkit.needles import call_to, parts
from nbmodernizer.fixers.rules.toolkit.nodes import atom, code, expression
from nbmodernizer.fixers.rules.toolkit.probes import all_of, lacks, module_gone, no_parameter

# --- mlab.bivariate_normal ----------------------------------------------------------------------

_BIVARIATE = ("X", "Y", "sigmax", "sigmay", "mux", "muy", "sigmaxy")
_BIVARIATE_DEFAULTS = {"sigmax": "1.0", "sigmay": "1.0", "mux": "0.0", "muy": "0.0"}


def _bivariate_normal(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`bivariate_normal(X, Y, sx, sy, mx, my, sxy)` -> the same density from scipy:
    `multivariate_normal([mx, my], [[sx**2, sxy], [sxy, sy**2]]).pdf(np.dstack([X, Y]))`
    (`sigmaxy` was the covariance)."""
    found = bound_arguments(call, _BIVARIATE, {**_BIVARIATE_DEFAULTS, "sigmaxy": "0.0"})
    if found is None or "X" not in found or "Y" not in found:
        return None
    v = {name: code(atom(node)) for name, node in found.items()}
    stats = rewriter.module_ref("scipy.stats")
    np = rewriter.module_ref("numpy")
    return expression(
        f"{stats}.multivariate_normal([{v['mux']}, {v['muy']}], "
        f"[[{v['sigmax']} ** 2, {v['sigmaxy']}], [{v['sigmaxy']}, {v['sigmay']} ** 2]])"
        f".pdf({np}.dstack([{code(found['X'])}, {code(found['Y'])}]))"
    )


# --- Axes3D(fig) ----------------------------------------------------------------------------------


def _axes3d(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`Axes3D(fig)` -> `fig.add_subplot(projection='3d')`: since 3.6 the constructor no
    longer adds the axes to the figure, so nothing was drawn. Other arguments: left alone."""
    if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return None
    figure = code(atom(call.args[0].value))
    return expression(f"{figure}.add_subplot(projection='3d')")


class _Axes3D(CallRewriter):
    """`_axes3d`, except for an `Axes3D(fig)` the code adds itself (`fig.add_axes(Axes3D(fig))`,
    today's spelling: the rewrite would add a second axes)."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context, {_AXES3D: _axes3d})
        self.added: set[int] = set()  # ids of the Axes3D calls passed to add_axes

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "add_axes":
            self.added.update(id(arg.value) for arg in node.args)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if id(original_node) in self.added:
            return updated_node
        return super().leave_Call(original_node, updated_node)


_AXES3D = "mpl_toolkits.mplot3d.Axes3D"


AGG = "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"

RULES = (
    Rule(
        id="matplotlib.removed-helpers",
        library="matplotlib",
        changed_in="3.6",
        summary="`mlab.bivariate_normal(X, Y, ...)` -> `scipy.stats.multivariate_normal(...)"
        ".pdf(np.dstack([X, Y]))`, `cbook.iterable` -> `numpy.iterable`, "
        "`mpl_toolkits.axes_grid` -> `mpl_toolkits.axes_grid1`",
        kind=Kind.API,
        rewrite=chain(
            rewrite_calls({"matplotlib.mlab.bivariate_normal": _bivariate_normal}),
            move_names(
                moved("matplotlib.cbook", "numpy", ["iterable"]),
                keep_local=True,
                reference="module",
            ),
            move_modules({"mpl_toolkits.axes_grid": "mpl_toolkits.axes_grid1"}),
        ),
        symptoms=(
            Symptom(
                "AttributeError",
                r"module 'matplotlib\.(mlab|cbook)' has no attribute '(bivariate_normal|iterable)'",
            ),
            Symptom("ImportError", r"cannot import name 'iterable' from 'matplotlib\.cbook'"),
            Symptom("ModuleNotFoundError", r"No module named 'mpl_toolkits\.axes_grid'"),
        ),
        gone=all_of(
            lacks("matplotlib.mlab", "bivariate_normal"), module_gone("mpl_toolkits.axes_grid")
        ),
        examples=(
            Example(
                before="import numpy as np\nimport matplotlib.mlab as mlab\n"
                "from matplotlib import cbook\n"
                "from mpl_toolkits.axes_grid.inset_locator import inset_axes\n"
                "X, Y = np.meshgrid(np.linspace(-1, 1, 3), np.linspace(-1, 1, 3))\n"
                "Z = mlab.bivariate_normal(X, Y, 1.0, 2.0, 0.0, 1.0, 0.5)\n"
                "flag = cbook.iterable([1])\n",
                after="import scipy.stats\nimport numpy as np\nimport matplotlib.mlab as mlab\n"
                "from matplotlib import cbook\n"
                "from mpl_toolkits.axes_grid1.inset_locator import inset_axes\n"
                "X, Y = np.meshgrid(np.linspace(-1, 1, 3), np.linspace(-1, 1, 3))\n"
                "Z = scipy.stats.multivariate_normal([0.0, 1.0], [[1.0 ** 2, 0.5], "
                "[0.5, 2.0 ** 2]]).pdf(np.dstack([X, Y]))\n"
                "flag = np.iterable([1])\n",
                error="ModuleNotFoundError",
                # mlab's formula: rho = sxy / (sx sy), z = x'^2/sx^2 - 2 rho x' y'/(sx sy) + ...
                check="Z.shape == (3, 3) and flag is True and abs(Z[1, 1] - np.exp(-(1 / 4) / "
                "(2 * (1 - 0.25 ** 2))) / (2 * np.pi * 2.0 * np.sqrt(1 - 0.25 ** 2))) < 1e-12",
            ),
        ),
    ),
    Rule(
        id="matplotlib.axes3d-figure",
        library="matplotlib",
        changed_in="3.6",
        summary="`Axes3D(fig)` -> `fig.add_subplot(projection='3d')` (the constructor no "
        "longer adds the axes to the figure: the plot came out empty)",
        kind=Kind.SILENT,
        rewrite=cst_rewrite(_Axes3D, parts(_AXES3D), call_to({_AXES3D: _axes3d})),
        gone=no_parameter("mpl_toolkits.mplot3d.Axes3D", "auto_add_to_figure"),
        examples=(
            Example(
                before=AGG + "from mpl_toolkits.mplot3d import Axes3D\n"
                "fig = plt.figure()\nax = Axes3D(fig)\nax.scatter([1, 2], [3, 4], [5, 6])\n"
                "shown = len(fig.axes)\nplt.close('all')\n",
                after=AGG + "from mpl_toolkits.mplot3d import Axes3D\n"
                "fig = plt.figure()\nax = fig.add_subplot(projection='3d')\n"
                "ax.scatter([1, 2], [3, 4], [5, 6])\n"
                "shown = len(fig.axes)\nplt.close('all')\n",
                check="shown == 1 and ax.name == '3d'",
            ),
        ),
    ),
)
