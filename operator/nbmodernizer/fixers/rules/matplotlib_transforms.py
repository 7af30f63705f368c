"""Probes and LibCST transforms for the matplotlib rules."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

import libcst as cst

from nbmodernizer.fixers.rules.arguments import keyword_arg, string_literal
from nbmodernizer.fixers.rules.cells import expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_moves import CallRewriter, ImportingTransformer, replace_string
from nbmodernizer.fixers.rules.cst_tools import (
    calls_to,
    method_name,
    new_arg,
)

AGG = "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"


Applies = Callable[[cst.Call, RuleContext], bool]


def any_call(*methods: str, functions: tuple[str, ...] = ()) -> Applies:
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


def seaborn_styles_gone() -> bool:
    from matplotlib import style

    return "seaborn" not in style.available


# --- cm.get_cmap ---------------------------------------------------------------------------


def pyplot_get_cmap(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    if not isinstance(call.func, cst.Attribute):
        return None  # `from matplotlib.cm import get_cmap`: the import is moved instead
    return call.with_changes(
        func=expression(f"{rewriter.module_ref('matplotlib.pyplot')}.get_cmap")
    )


def cm_get_cmap_gone() -> bool:
    import matplotlib.cm

    return not hasattr(matplotlib.cm, "get_cmap")


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


def hold_gone() -> bool:
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


def color_cycle_gone() -> bool:
    import matplotlib

    return "axes.color_cycle" not in matplotlib.rcParams


# --- mlab.normpdf ------------------------------------------------------------------------


def normpdf(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    if not isinstance(call.func, cst.Attribute) or len(call.args) != 3:
        return None
    if any(arg.keyword is not None or arg.star for arg in call.args):
        return None
    stats = rewriter.module_ref("scipy.stats")
    return call.with_changes(func=expression(f"{stats}.norm.pdf"))


def normpdf_gone() -> bool:
    import matplotlib.mlab

    return not hasattr(matplotlib.mlab, "normpdf")


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


def gca_kwargs_gone() -> bool:
    from matplotlib.figure import Figure

    return not any(
        parameter.kind is inspect.Parameter.VAR_KEYWORD
        for parameter in inspect.signature(Figure.gca).parameters.values()
    )


# --- log scale keywords ---------------------------------------------------------------------

LOG_KEYWORDS = {
    "basex": "base",
    "basey": "base",
    "subsx": "subs",
    "subsy": "subs",
    "nonposx": "nonpositive",
    "nonposy": "nonpositive",
}


@functools.cache
def log_keywords_gone() -> bool:
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


def window_title_gone() -> bool:
    from matplotlib.backend_bases import FigureCanvasBase

    return not hasattr(FigureCanvasBase, "set_window_title")


def not_seaborn(methods: tuple[str, ...], functions: tuple[str, ...]) -> Applies:
    inner = any_call(*methods, functions=functions)

    def applies(call: cst.Call, context: RuleContext) -> bool:
        name = qualified(call.func, context.aliases) or ""
        return not name.startswith("seaborn.") and inner(call, context)

    return applies


def axes_has_parameter(method: str, parameter: str) -> bool:
    from matplotlib.axes import Axes

    return parameter in inspect.signature(getattr(Axes, method)).parameters


def axes_lacks(name: str) -> bool:
    from matplotlib.axes import Axes

    return not hasattr(Axes, name)
