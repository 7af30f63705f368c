"""Removed or moved matplotlib functions, methods and settings."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.matplotlib.common import (
    any_call,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    CallRewriter,
    edit_keywords,
    method_name,
    new_arg,
    rename_to,
    rewrite_calls,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite, only_if
from nbmodernizer.fixers.rules.toolkit.examples import AGG
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer
from nbmodernizer.fixers.rules.toolkit.moves import move_names, moved
from nbmodernizer.fixers.rules.toolkit.needles import has_string
from nbmodernizer.fixers.rules.toolkit.nodes import (
    expression,
    qualified,
    replace_string,
    string_literal,
)
from nbmodernizer.fixers.rules.toolkit.probes import (
    lacks,
    lacks_attribute,
    lacks_item,
    no_parameter,
)
from nbmodernizer.fixers.rules.toolkit.statements import remove_statements

# --- seaborn style names -----------------------------------------------------------------

_SEABORN_STYLES = frozenset(
    {
        "bright",
        "colorblind",
        "dark",
        "dark-palette",
        "darkgrid",
        "deep",
        "muted",
        "notebook",
        "paper",
        "pastel",
        "poster",
        "talk",
        "ticks",
        "white",
        "whitegrid",
    }
)

_STYLE_CALLS = frozenset(
    {
        "matplotlib.style.use",
        "matplotlib.style.context",
        "matplotlib.pyplot.style.use",
        "matplotlib.pyplot.style.context",
    }
)


def _modern_style(name: str) -> str | None:
    if name == "seaborn":
        return "seaborn-v0_8"
    if name.startswith("seaborn-") and name[len("seaborn-") :] in _SEABORN_STYLES:
        return "seaborn-v0_8-" + name[len("seaborn-") :]
    return None


class StyleRenamer(cst.CSTTransformer):
    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.aliases = context.aliases

    def _renamed(self, node: cst.BaseExpression) -> cst.BaseExpression:
        if isinstance(node, cst.SimpleString):
            value = string_literal(node)
            modern = _modern_style(value) if value is not None else None
            return replace_string(node, modern) if modern else node
        if isinstance(node, cst.List | cst.Tuple):
            elements = [
                element.with_changes(value=self._renamed(element.value))
                for element in node.elements
            ]
            return node.with_changes(elements=elements)
        return node

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if qualified(original_node.func, self.aliases) not in _STYLE_CALLS or not updated_node.args:
            return updated_node
        first = updated_node.args[0]
        renamed = self._renamed(first.value)
        if renamed is first.value:
            return updated_node
        return updated_node.with_changes(
            args=[first.with_changes(value=renamed), *updated_node.args[1:]]
        )


# --- cm.get_cmap ---------------------------------------------------------------------------


def pyplot_get_cmap(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    if not isinstance(call.func, cst.Attribute):
        return None  # `from matplotlib.cm import get_cmap`: the import is moved instead
    return call.with_changes(
        func=expression(f"{rewriter.module_ref('matplotlib.pyplot')}.get_cmap")
    )


# --- hist(normed=) ----------------------------------------------------------------------

_GRID_MAPS = frozenset({"map", "map_diag", "map_offdiag", "map_lower", "map_upper"})

_is_hist = any_call("hist", functions=("matplotlib.pyplot.hist",))


def hist_call(call: cst.Call, context: RuleContext) -> bool:
    """`plt.hist`, `ax.hist`, `df.hist`, and seaborn grids' `g.map(plt.hist, ..., normed=)`."""
    if _is_hist(call, context):
        return True
    if method_name(call) not in _GRID_MAPS or not call.args:
        return False
    return qualified(call.args[0].value, context.aliases) == "matplotlib.pyplot.hist"


def _window_title_applies(call: cst.Call, _context: RuleContext) -> bool:
    func = call.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "set_window_title"
        and isinstance(func.value, cst.Attribute)
        and func.value.attr.value == "canvas"
    )


class WindowTitle(cst.CSTTransformer):
    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not _window_title_applies(updated_node, self.context):
            return updated_node
        func = updated_node.func
        assert isinstance(func, cst.Attribute)
        manager = cst.Attribute(value=func.value, attr=cst.Name("manager"))
        return updated_node.with_changes(func=func.with_changes(value=manager))


# --- plt.hold --------------------------------------------------------------------------------


def is_hold_true(node: cst.BaseExpression, context: RuleContext) -> bool:
    """`plt.hold(True)` / `ax.hold(True)` / `hold(True)` (pylab)."""
    if not isinstance(node, cst.Call):
        return False
    if isinstance(node.func, cst.Name):
        if qualified(node.func, context.aliases) != "matplotlib.pyplot.hold":
            return False
    elif method_name(node) != "hold":
        return False
    args = node.args
    return (
        len(args) == 1
        and args[0].keyword is None
        and isinstance(args[0].value, cst.Name)
        and args[0].value.value == "True"
    )


# --- rcParams['axes.color_cycle'] ----------------------------------------------------------


def _is_color_cycle(node: cst.BaseExpression) -> bool:
    if not isinstance(node, cst.Subscript) or len(node.slice) != 1:
        return False
    index = node.slice[0].slice
    if not isinstance(index, cst.Index) or string_literal(index.value) != "axes.color_cycle":
        return False
    value = node.value
    return (isinstance(value, cst.Attribute) and value.attr.value == "rcParams") or (
        isinstance(value, cst.Name) and value.value == "rcParams"
    )


class ColorCycle(ImportingTransformer):
    def _prop_cycle(self, node: cst.Subscript) -> cst.Subscript:
        element = node.slice[0]
        assert isinstance(element.slice, cst.Index)
        literal = element.slice.value
        assert isinstance(literal, cst.SimpleString)
        index = element.slice.with_changes(value=replace_string(literal, "axes.prop_cycle"))
        return node.with_changes(slice=[element.with_changes(slice=index)])

    def leave_Assign(
        self, original_node: cst.Assign, updated_node: cst.Assign
    ) -> cst.BaseSmallStatement:
        if len(updated_node.targets) != 1 or not _is_color_cycle(updated_node.targets[0].target):
            return updated_node
        target = updated_node.targets[0].target
        assert isinstance(target, cst.Subscript)
        cycler = f"{self.module_ref('matplotlib')}.cycler"
        value = cst.Call(
            func=expression(cycler),
            args=[new_arg("color", updated_node.value)],
        )
        return updated_node.with_changes(
            targets=[updated_node.targets[0].with_changes(target=self._prop_cycle(target))],
            value=value,
        )

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        if not _is_color_cycle(updated_node) or self._assigned(original_node):
            return updated_node
        colors = expression("x.by_key()['color']")
        assert isinstance(colors, cst.Subscript)
        by_key = colors.value
        assert isinstance(by_key, cst.Call) and isinstance(by_key.func, cst.Attribute)
        return colors.with_changes(
            value=by_key.with_changes(
                func=by_key.func.with_changes(value=self._prop_cycle(updated_node))
            )
        )

    def visit_Assign(self, node: cst.Assign) -> None:
        self._targets.update(id(target.target) for target in node.targets)

    def _assigned(self, node: cst.Subscript) -> bool:
        return id(node) in self._targets

    def visit_Module(self, node: cst.Module) -> None:
        self._targets: set[int] = set()


# --- mlab.normpdf ------------------------------------------------------------------------


def normpdf(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    if not isinstance(call.func, cst.Attribute) or len(call.args) != 3:
        return None
    if any(arg.keyword is not None or arg.star for arg in call.args):
        return None
    stats = rewriter.module_ref("scipy.stats")
    return call.with_changes(func=expression(f"{stats}.norm.pdf"))


RULES = (
    Rule(
        id="matplotlib.seaborn-style-names",
        library="matplotlib",
        changed_in="3.8",
        summary="`plt.style.use('seaborn-whitegrid')` -> `'seaborn-v0_8-whitegrid'` "
        "(the seaborn styles shipped with matplotlib were renamed)",
        kind=Kind.API,
        rewrite=cst_rewrite(
            StyleRenamer, ("style",), has_string(lambda name: _modern_style(name) is not None)
        ),
        symptoms=(Symptom("OSError", r"'seaborn[\w-]*' is not a valid package style"),),
        gone=lacks_item("matplotlib.style.available", "seaborn"),
        examples=(
            Example(
                before=AGG
                + "plt.style.use('seaborn-whitegrid')\n"
                + "grid, face = plt.rcParams['axes.grid'], plt.rcParams['axes.facecolor']\n"
                + "plt.style.use(['default', \"seaborn\"])  # the classic look\n"
                + "face2 = plt.rcParams['axes.facecolor']\n"
                + "plt.rcdefaults()\n",
                after=AGG
                + "plt.style.use('seaborn-v0_8-whitegrid')\n"
                + "grid, face = plt.rcParams['axes.grid'], plt.rcParams['axes.facecolor']\n"
                + "plt.style.use(['default', \"seaborn-v0_8\"])  # the classic look\n"
                + "face2 = plt.rcParams['axes.facecolor']\n"
                + "plt.rcdefaults()\n",
                error="OSError",
                check="grid and face == 'white' and face2.upper() == '#EAEAF2'",
            ),
        ),
    ),
    Rule(
        id="matplotlib.cm-get-cmap",
        library="matplotlib",
        changed_in="3.9",
        summary="`matplotlib.cm.get_cmap(name, lut)` / `plt.cm.get_cmap` -> "
        "`plt.get_cmap(name, lut)` (same function, kept in pyplot)",
        kind=Kind.API,
        rewrite=chain(
            move_names(
                moved("matplotlib.cm", "matplotlib.pyplot", ["get_cmap"]),
                keep_local=True,
                reference="module",
            ),
            rewrite_calls(
                {
                    "matplotlib.cm.get_cmap": pyplot_get_cmap,
                    "matplotlib.pyplot.cm.get_cmap": pyplot_get_cmap,
                }
            ),
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'matplotlib\.cm' has no attribute 'get_cmap'"),
            Symptom("ImportError", r"cannot import name 'get_cmap' from 'matplotlib\.cm'"),
        ),
        gone=lacks("matplotlib.cm", "get_cmap"),
        examples=(
            Example(
                before=AGG
                + "import matplotlib.cm as cm\n"
                + "jet = cm.get_cmap('jet', 5)\n"
                + "colors = [plt.cm.get_cmap('viridis')(0.5), jet(0)]\n",
                after=AGG
                + "import matplotlib.cm as cm\n"
                + "jet = plt.get_cmap('jet', 5)\n"
                + "colors = [plt.get_cmap('viridis')(0.5), jet(0)]\n",
                error="AttributeError",
                check="jet.N == 5 and colors == [matplotlib.colormaps['viridis'](0.5), "
                "matplotlib.colormaps['jet'].resampled(5)(0)]",
            ),
            Example(
                before="import matplotlib\nmatplotlib.use('Agg')\nfrom matplotlib import cm\n"
                "reds = cm.get_cmap('Reds')\n",
                after="import matplotlib.pyplot\nimport matplotlib\nmatplotlib.use('Agg')\n"
                "from matplotlib import cm\nreds = matplotlib.pyplot.get_cmap('Reds')\n",
                error="AttributeError",
                check="reds(1.0) == matplotlib.colormaps['Reds'](1.0)",
            ),
        ),
    ),
    Rule(
        id="matplotlib.hist-normed",
        library="matplotlib",
        changed_in="3.1",
        summary="`hist(..., normed=True)` -> `hist(..., density=True)`",
        kind=Kind.API,
        rewrite=edit_keywords(hist_call, {"normed": rename_to("density")}),
        symptoms=(Symptom("AttributeError", r"unexpected keyword argument 'normed'"),),
        gone=no_parameter("matplotlib.axes.Axes.hist", "normed"),
        examples=(
            Example(
                before=AGG
                + "import numpy as np\n"
                + "x = np.arange(10.0)\n"
                + "n, bins, _ = plt.hist(x, bins=4, normed=True)\n"
                + "fig, ax = plt.subplots()\n"
                + "n2, bins2, _ = ax.hist(x, bins=5, normed=1, alpha=0.5)\n"
                + "plt.close('all')\n",
                after=AGG
                + "import numpy as np\n"
                + "x = np.arange(10.0)\n"
                + "n, bins, _ = plt.hist(x, bins=4, density=True)\n"
                + "fig, ax = plt.subplots()\n"
                + "n2, bins2, _ = ax.hist(x, bins=5, density=1, alpha=0.5)\n"
                + "plt.close('all')\n",
                error="AttributeError",
                check="abs((n * np.diff(bins)).sum() - 1) < 1e-9 "
                "and abs((n2 * np.diff(bins2)).sum() - 1) < 1e-9",
            ),
            Example(
                before=AGG
                + "import pandas as pd\nimport seaborn as sns\n"
                + "df = pd.DataFrame({'a': [1.0, 2, 2, 3], 'c': list('xxyy')})\n"
                + "g = sns.FacetGrid(df, col='c')\ng.map(plt.hist, 'a', bins=2, normed=True)\n"
                + "heights = [p.get_height() for ax in g.axes.flat for p in ax.patches]\n"
                + "plt.close('all')\n",
                after=AGG
                + "import pandas as pd\nimport seaborn as sns\n"
                + "df = pd.DataFrame({'a': [1.0, 2, 2, 3], 'c': list('xxyy')})\n"
                + "g = sns.FacetGrid(df, col='c')\ng.map(plt.hist, 'a', bins=2, density=True)\n"
                + "heights = [p.get_height() for ax in g.axes.flat for p in ax.patches]\n"
                + "plt.close('all')\n",
                error="AttributeError",
                # two bins of width 0.5 holding one value each, in both facets
                check="heights == [1.0, 1.0, 1.0, 1.0]",
            ),
        ),
    ),
    Rule(
        id="matplotlib.canvas-set-window-title",
        library="matplotlib",
        changed_in="3.6",
        summary="`fig.canvas.set_window_title(t)` -> `fig.canvas.manager.set_window_title(t)`",
        kind=Kind.API,
        rewrite=cst_rewrite(WindowTitle, ("set_window_title",)),
        symptoms=(Symptom("AttributeError", r"object has no attribute 'set_window_title'"),),
        gone=lacks_attribute("matplotlib.backend_bases.FigureCanvasBase", "set_window_title"),
        examples=(
            Example(
                before=AGG
                + "fig = plt.figure()\nfig.canvas.set_window_title('Training curves')\n"
                + "title = fig.canvas.manager.get_window_title()\nplt.close('all')\n",
                after=AGG
                + "fig = plt.figure()\nfig.canvas.manager.set_window_title('Training curves')\n"
                + "title = fig.canvas.manager.get_window_title()\nplt.close('all')\n",
                error="AttributeError",
                check="title == 'Training curves'",
            ),
        ),
    ),
    Rule(
        id="matplotlib.hold-true",
        library="matplotlib",
        changed_in="3.0",
        summary="`plt.hold(True)` / `ax.hold(True)` -> removed (holding is always on now); "
        "`hold(False)` is left alone: it needs an explicit `cla()`",
        kind=Kind.API,
        rewrite=only_if("hold", rewrite=remove_statements(is_hold_true)),
        symptoms=(
            Symptom("AttributeError", r"module 'matplotlib\.pyplot' has no attribute 'hold'"),
            Symptom("AttributeError", r"'Axes' object has no attribute 'hold'"),
        ),
        gone=lacks_attribute("matplotlib.axes.Axes", "hold"),
        examples=(
            Example(
                before=AGG
                + "fig, ax = plt.subplots()\n"
                + "plt.hold(True)\n"
                + "for k in range(3):\n"
                + "    ax.hold(True)\n"
                + "    ax.plot([0, k])\n"
                + "lines = len(ax.lines)\nplt.close('all')\n",
                after=AGG
                + "fig, ax = plt.subplots()\n"
                + "for k in range(3):\n"
                + "    ax.plot([0, k])\n"
                + "lines = len(ax.lines)\nplt.close('all')\n",
                error="AttributeError",
                check="lines == 3",
            ),
        ),
    ),
    Rule(
        id="matplotlib.axes-color-cycle",
        library="matplotlib",
        changed_in="2.0",
        summary="`rcParams['axes.color_cycle'] = colors` -> "
        "`rcParams['axes.prop_cycle'] = matplotlib.cycler(color=colors)` (reads: "
        "`rcParams['axes.prop_cycle'].by_key()['color']`)",
        kind=Kind.API,
        rewrite=cst_rewrite(ColorCycle, ("color_cycle",)),
        symptoms=(Symptom("KeyError", r"axes\.color_cycle"),),
        gone=lacks_item("matplotlib.rcParams", "axes.color_cycle"),
        examples=(
            Example(
                before="import matplotlib as mpl\n"
                + AGG
                + "plt.rcParams['axes.color_cycle'] = ['r', 'g', 'b']\n"
                + "fig, ax = plt.subplots()\n"
                + "first = ax.plot([1, 2])[0].get_color()\n"
                + "colors = mpl.rcParams['axes.color_cycle']\n"
                + "plt.rcdefaults()\nplt.close('all')\n",
                after="import matplotlib as mpl\n"
                + AGG
                + "plt.rcParams['axes.prop_cycle'] = mpl.cycler(color=['r', 'g', 'b'])\n"
                + "fig, ax = plt.subplots()\n"
                + "first = ax.plot([1, 2])[0].get_color()\n"
                + "colors = mpl.rcParams['axes.prop_cycle'].by_key()['color']\n"
                + "plt.rcdefaults()\nplt.close('all')\n",
                error="KeyError",
                check="first == 'r' and colors == ['r', 'g', 'b']",
            ),
        ),
    ),
    Rule(
        id="matplotlib.mlab-normpdf",
        library="matplotlib",
        changed_in="3.1",
        summary="`mlab.normpdf(x, mu, sigma)` -> `scipy.stats.norm.pdf(x, mu, sigma)`",
        kind=Kind.API,
        rewrite=rewrite_calls({"matplotlib.mlab.normpdf": normpdf}),
        symptoms=(
            Symptom("AttributeError", r"module 'matplotlib\.mlab' has no attribute 'normpdf'"),
        ),
        gone=lacks("matplotlib.mlab", "normpdf"),
        examples=(
            Example(
                before="import numpy as np\nimport matplotlib.mlab as mlab\n"
                "x = np.linspace(-2, 4, 7)\ny = mlab.normpdf(x, 1.0, 2.0)\n"
                "peak = mlab.normpdf(0, 0, 1)\n",
                after="import scipy.stats\nimport numpy as np\nimport matplotlib.mlab as mlab\n"
                "x = np.linspace(-2, 4, 7)\ny = scipy.stats.norm.pdf(x, 1.0, 2.0)\n"
                "peak = scipy.stats.norm.pdf(0, 0, 1)\n",
                error="AttributeError",
                check="np.allclose(y, np.exp(-0.5 * ((x - 1.0) / 2.0) ** 2) "
                "/ (np.sqrt(2 * np.pi) * 2.0)) and abs(peak - 1 / np.sqrt(2 * np.pi)) < 1e-12",
            ),
        ),
    ),
)
