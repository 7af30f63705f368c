"""matplotlib drift."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

import libcst as cst

from nbmodernizer.fixers.rules.cells import expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import (
    calls_to,
    chain,
    cst_rewrite,
    edit_keywords,
    method_name,
    rename_methods,
    rename_to,
)
from nbmodernizer.fixers.rules.dl_transforms import (
    CallRewriter,
    ImportingTransformer,
    keyword_arg,
    move_names,
    new_arg,
    remove_statements,
    replace_string,
    rewrite_calls,
    string_literal,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom

_AGG = "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"


Applies = Callable[[cst.Call, RuleContext], bool]


def _any_call(*methods: str, functions: tuple[str, ...] = ()) -> Applies:
    """Method calls named `methods` (`ax.hist`, `plt.hist`, `df.hist`) or these functions."""
    named = calls_to(*functions) if functions else None

    def applies(call: cst.Call, context: RuleContext) -> bool:
        if method_name(call) in methods:
            return True
        return named is not None and isinstance(call.func, cst.Name) and named(call, context)

    return applies


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


class _StyleRenamer(cst.CSTTransformer):
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


def _seaborn_styles_gone() -> bool:
    from matplotlib import style

    return "seaborn" not in style.available


# --- cm.get_cmap ---------------------------------------------------------------------------


def _pyplot_get_cmap(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    if not isinstance(call.func, cst.Attribute):
        return None  # `from matplotlib.cm import get_cmap`: the import is moved instead
    return call.with_changes(
        func=expression(f"{rewriter.module_ref('matplotlib.pyplot')}.get_cmap")
    )


def _cm_get_cmap_gone() -> bool:
    import matplotlib.cm

    return not hasattr(matplotlib.cm, "get_cmap")


# --- hist(normed=) ----------------------------------------------------------------------

_GRID_MAPS = frozenset({"map", "map_diag", "map_offdiag", "map_lower", "map_upper"})
_is_hist = _any_call("hist", functions=("matplotlib.pyplot.hist",))


def _hist_call(call: cst.Call, context: RuleContext) -> bool:
    """`plt.hist`, `ax.hist`, `df.hist`, and seaborn grids' `g.map(plt.hist, ..., normed=)`."""
    if _is_hist(call, context):
        return True
    if method_name(call) not in _GRID_MAPS or not call.args:
        return False
    return qualified(call.args[0].value, context.aliases) == "matplotlib.pyplot.hist"


# --- plt.hold --------------------------------------------------------------------------------


def _is_hold_true(node: cst.BaseExpression, context: RuleContext) -> bool:
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


def _hold_gone() -> bool:
    from matplotlib.axes import Axes

    return not hasattr(Axes, "hold")


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


class _ColorCycle(ImportingTransformer):
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


def _color_cycle_gone() -> bool:
    import matplotlib

    return "axes.color_cycle" not in matplotlib.rcParams


# --- mlab.normpdf ------------------------------------------------------------------------


def _normpdf(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    if not isinstance(call.func, cst.Attribute) or len(call.args) != 3:
        return None
    if any(arg.keyword is not None or arg.star for arg in call.args):
        return None
    stats = rewriter.module_ref("scipy.stats")
    return call.with_changes(func=expression(f"{stats}.norm.pdf"))


def _normpdf_gone() -> bool:
    import matplotlib.mlab

    return not hasattr(matplotlib.mlab, "normpdf")


# --- fig.gca(projection=...) ------------------------------------------------------------


class _GcaProjection(cst.CSTTransformer):
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


def _gca_kwargs_gone() -> bool:
    from matplotlib.figure import Figure

    return not any(
        parameter.kind is inspect.Parameter.VAR_KEYWORD
        for parameter in inspect.signature(Figure.gca).parameters.values()
    )


# --- log scale keywords ---------------------------------------------------------------------

_LOG_KEYWORDS = {
    "basex": "base",
    "basey": "base",
    "subsx": "subs",
    "subsy": "subs",
    "nonposx": "nonpositive",
    "nonposy": "nonpositive",
}


@functools.cache
def _log_keywords_gone() -> bool:
    from matplotlib.scale import LogScale

    try:
        LogScale(None, basex=2)  # type: ignore[call-arg]
    except TypeError:
        return True
    return False


def _window_title_applies(call: cst.Call, _context: RuleContext) -> bool:
    func = call.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "set_window_title"
        and isinstance(func.value, cst.Attribute)
        and func.value.attr.value == "canvas"
    )


class _WindowTitle(cst.CSTTransformer):
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


def _window_title_gone() -> bool:
    from matplotlib.backend_bases import FigureCanvasBase

    return not hasattr(FigureCanvasBase, "set_window_title")


def _not_seaborn(methods: tuple[str, ...], functions: tuple[str, ...]) -> Applies:
    inner = _any_call(*methods, functions=functions)

    def applies(call: cst.Call, context: RuleContext) -> bool:
        name = qualified(call.func, context.aliases) or ""
        return not name.startswith("seaborn.") and inner(call, context)

    return applies


def _axes_has_parameter(method: str, parameter: str) -> bool:
    from matplotlib.axes import Axes

    return parameter in inspect.signature(getattr(Axes, method)).parameters


RULES = (
    Rule(
        id="matplotlib.seaborn-style-names",
        library="matplotlib",
        changed_in="3.8",
        summary="`plt.style.use('seaborn-whitegrid')` -> `'seaborn-v0_8-whitegrid'` "
        "(the seaborn styles shipped with matplotlib were renamed)",
        kind=Kind.API,
        rewrite=cst_rewrite(_StyleRenamer),
        symptoms=(Symptom("OSError", r"'seaborn[\w-]*' is not a valid package style"),),
        gone=_seaborn_styles_gone,
        examples=(
            Example(
                before=_AGG
                + "plt.style.use('seaborn-whitegrid')\n"
                + "grid, face = plt.rcParams['axes.grid'], plt.rcParams['axes.facecolor']\n"
                + "plt.style.use(['default', \"seaborn\"])  # the classic look\n"
                + "face2 = plt.rcParams['axes.facecolor']\n"
                + "plt.rcdefaults()\n",
                after=_AGG
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
            move_names("matplotlib.cm", "matplotlib.pyplot", ["get_cmap"]),
            rewrite_calls(
                {
                    "matplotlib.cm.get_cmap": _pyplot_get_cmap,
                    "matplotlib.pyplot.cm.get_cmap": _pyplot_get_cmap,
                }
            ),
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'matplotlib\.cm' has no attribute 'get_cmap'"),
            Symptom("ImportError", r"cannot import name 'get_cmap' from 'matplotlib\.cm'"),
        ),
        gone=_cm_get_cmap_gone,
        examples=(
            Example(
                before=_AGG
                + "import matplotlib.cm as cm\n"
                + "jet = cm.get_cmap('jet', 5)\n"
                + "colors = [plt.cm.get_cmap('viridis')(0.5), jet(0)]\n",
                after=_AGG
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
        rewrite=edit_keywords(_hist_call, {"normed": rename_to("density")}),
        symptoms=(Symptom("AttributeError", r"unexpected keyword argument 'normed'"),),
        gone=lambda: not _axes_has_parameter("hist", "normed"),
        examples=(
            Example(
                before=_AGG
                + "import numpy as np\n"
                + "x = np.arange(10.0)\n"
                + "n, bins, _ = plt.hist(x, bins=4, normed=True)\n"
                + "fig, ax = plt.subplots()\n"
                + "n2, bins2, _ = ax.hist(x, bins=5, normed=1, alpha=0.5)\n"
                + "plt.close('all')\n",
                after=_AGG
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
                before=_AGG
                + "import pandas as pd\nimport seaborn as sns\n"
                + "df = pd.DataFrame({'a': [1.0, 2, 2, 3], 'c': list('xxyy')})\n"
                + "g = sns.FacetGrid(df, col='c')\ng.map(plt.hist, 'a', bins=2, normed=True)\n"
                + "heights = [p.get_height() for ax in g.axes.flat for p in ax.patches]\n"
                + "plt.close('all')\n",
                after=_AGG
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
        rewrite=cst_rewrite(_WindowTitle),
        symptoms=(Symptom("AttributeError", r"object has no attribute 'set_window_title'"),),
        gone=_window_title_gone,
        examples=(
            Example(
                before=_AGG
                + "fig = plt.figure()\nfig.canvas.set_window_title('Training curves')\n"
                + "title = fig.canvas.manager.get_window_title()\nplt.close('all')\n",
                after=_AGG
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
        rewrite=remove_statements(_is_hold_true),
        symptoms=(
            Symptom("AttributeError", r"module 'matplotlib\.pyplot' has no attribute 'hold'"),
            Symptom("AttributeError", r"'Axes' object has no attribute 'hold'"),
        ),
        gone=_hold_gone,
        examples=(
            Example(
                before=_AGG
                + "fig, ax = plt.subplots()\n"
                + "plt.hold(True)\n"
                + "for k in range(3):\n"
                + "    ax.hold(True)\n"
                + "    ax.plot([0, k])\n"
                + "lines = len(ax.lines)\nplt.close('all')\n",
                after=_AGG
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
        rewrite=cst_rewrite(_ColorCycle),
        symptoms=(Symptom("KeyError", r"axes\.color_cycle"),),
        gone=_color_cycle_gone,
        examples=(
            Example(
                before="import matplotlib as mpl\n"
                + _AGG
                + "plt.rcParams['axes.color_cycle'] = ['r', 'g', 'b']\n"
                + "fig, ax = plt.subplots()\n"
                + "first = ax.plot([1, 2])[0].get_color()\n"
                + "colors = mpl.rcParams['axes.color_cycle']\n"
                + "plt.rcdefaults()\nplt.close('all')\n",
                after="import matplotlib as mpl\n"
                + _AGG
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
        rewrite=rewrite_calls({"matplotlib.mlab.normpdf": _normpdf}),
        symptoms=(
            Symptom("AttributeError", r"module 'matplotlib\.mlab' has no attribute 'normpdf'"),
        ),
        gone=_normpdf_gone,
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
                _any_call(
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
        gone=lambda: _axes_lacks("set_axis_bgcolor"),
        examples=(
            Example(
                before=_AGG
                + "fig = plt.figure()\nax = fig.add_subplot(121, axisbg='red')\n"
                + "ax2 = plt.subplot(122)\nax2.set_axis_bgcolor('blue')\nplt.close('all')\n",
                after=_AGG
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
            _any_call("grid", functions=("matplotlib.pyplot.grid",)),
            {"b": rename_to("visible")},
        ),
        symptoms=(Symptom("ValueError", r"keyword grid_b is not recognized"),),
        gone=lambda: not _axes_has_parameter("grid", "b"),
        examples=(
            Example(
                before=_AGG
                + "fig, (ax, ax2) = plt.subplots(1, 2)\nax.grid(b=True)\n"
                + "plt.sca(ax2)\nplt.grid(b=True, which='major', axis='y')\nfig.canvas.draw()\n"
                + "shown = [ax.get_xgridlines()[0].get_visible(), "
                + "ax2.get_ygridlines()[0].get_visible(), ax2.get_xgridlines()[0].get_visible()]\n"
                + "plt.close('all')\n",
                after=_AGG
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
        rewrite=cst_rewrite(_GcaProjection),
        symptoms=(Symptom("TypeError", r"gca\(\) got an unexpected keyword argument"),),
        gone=_gca_kwargs_gone,
        examples=(
            Example(
                before=_AGG
                + "fig = plt.figure()\nax = fig.gca(projection='3d')\n"
                + "plt.figure()\nax2 = plt.gca(projection='polar')\n"
                + "names = [ax.name, ax2.name, len(fig.axes)]\nplt.close('all')\n",
                after=_AGG
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
            _any_call(
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
            {old: rename_to(new) for old, new in _LOG_KEYWORDS.items()},
        ),
        symptoms=(Symptom("TypeError", r"unexpected keyword argument '(base|subs|nonpos)[xy]'"),),
        gone=_log_keywords_gone,
        examples=(
            Example(
                before=_AGG
                + "fig, ax = plt.subplots()\n"
                + "ax.set_xscale('log', basex=2)\n"
                + "ax.set_yscale('log', nonposy='mask', basey=10)\n"
                + "bases = (ax.xaxis.get_transform().base, ax.yaxis.get_transform().base)\n"
                + "plt.close('all')\n",
                after=_AGG
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
            _not_seaborn(("boxplot",), ("matplotlib.pyplot.boxplot",)),
            {"labels": rename_to("tick_labels")},
        ),
        symptoms=(
            Symptom("TypeError", r"boxplot\(\) got an unexpected keyword argument 'labels'"),
        ),
        gone=lambda: not _axes_has_parameter("boxplot", "labels"),
        examples=(
            Example(
                before=_AGG
                + "fig, ax = plt.subplots()\n"
                + "ax.boxplot([[1, 2, 3], [2, 3, 4]], labels=['a', 'b'])\n"
                + "names = [t.get_text() for t in ax.get_xticklabels()]\nplt.close('all')\n",
                after=_AGG
                + "fig, ax = plt.subplots()\n"
                + "ax.boxplot([[1, 2, 3], [2, 3, 4]], tick_labels=['a', 'b'])\n"
                + "names = [t.get_text() for t in ax.get_xticklabels()]\nplt.close('all')\n",
                error="TypeError",
                check="names == ['a', 'b']",
            ),
        ),
    ),
)


def _axes_lacks(name: str) -> bool:
    from matplotlib.axes import Axes

    return not hasattr(Axes, name)
