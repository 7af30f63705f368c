"""DataFrame/Series methods pandas removed, by name, on anything that is not a module or
`.str`: the table of their successors and the transformer that applies it (issue #19: a name
another pandas class keeps is decided per name, from the facts)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.pandas.common import (
    is_module_receiver,
)
from nbmodernizer.fixers.rules.toolkit.bindings import OWN, known_frames, rooted_in
from nbmodernizer.fixers.rules.toolkit.calls import (
    as_keyword,
    call_arguments,
    keyword_arg,
    new_arg,
    with_args,
)
from nbmodernizer.fixers.rules.toolkit.nodes import atom, code, expression
from nbmodernizer.fixers.rules.toolkit.probes import (
    all_of,
    lacks_attribute,
)

MethodBuilder = Callable[[cst.Call, cst.Attribute], cst.BaseExpression | None]


def _renamed(new: str, *, positional: bool = True) -> MethodBuilder:
    def build(call: cst.Call, func: cst.Attribute) -> cst.BaseExpression | None:
        if not positional and any(arg.keyword is None for arg in call.args):
            return None
        return call.with_changes(func=func.with_changes(attr=cst.Name(new)))

    return build


def _clip(side: str) -> MethodBuilder:
    """`s.clip_upper(t)` -> `s.clip(upper=t)` (its other parameters were keywords too)."""

    def build(call: cst.Call, func: cst.Attribute) -> cst.BaseExpression | None:
        arguments = call_arguments(call)
        if arguments is None or len(arguments[0]) > 1:
            return None
        args = [
            as_keyword(arg, side)
            if arg.keyword is None or arg.keyword.value == "threshold"
            else arg
            for arg in call.args
        ]
        return call.with_changes(func=func.with_changes(attr=cst.Name("clip")), args=args)

    return build


def _sortlevel(call: cst.Call, func: cst.Attribute) -> cst.BaseExpression | None:
    """`df.sortlevel(l)` -> `df.sort_index(level=l)`; sortlevel's level defaulted to 0."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) > 1:
        return None
    args = [as_keyword(arg, "level") if arg.keyword is None else arg for arg in call.args]
    if keyword_arg(call, "level") is None and not arguments[0]:
        args = [new_arg("level", "0"), *args]
    return call.with_changes(
        func=func.with_changes(attr=cst.Name("sort_index")), args=with_args(call, args).args
    )


def _reindex_axis(call: cst.Call, func: cst.Attribute) -> cst.BaseExpression | None:
    """`df.reindex_axis(labels, axis)` -> `df.reindex(labels, axis=axis)`."""
    arguments = call_arguments(call)
    if arguments is None or not 1 <= len(arguments[0]) <= 2:
        return None
    args = [
        as_keyword(arg, "axis") if arg.keyword is None and n == 1 else arg
        for n, arg in enumerate(call.args)
    ]
    return call.with_changes(func=func.with_changes(attr=cst.Name("reindex")), args=args)


def _sort_index_by(call: cst.Call, func: cst.Attribute) -> cst.BaseExpression | None:
    """`df.sort_index(by=c)` -> `df.sort_values(by=c)` (only calls that pass `by`)."""
    if keyword_arg(call, "by") is None:
        return None
    return call.with_changes(func=func.with_changes(attr=cst.Name("sort_values")))


def _dtype_counts(call: cst.Call, func: cst.Attribute) -> cst.BaseExpression | None:
    if call.args:
        return None
    return expression(f"{code(atom(func.value))}.dtypes.value_counts()")


def _mad(call: cst.Call, func: cst.Attribute) -> cst.BaseExpression | None:
    """`x.mad()` -> `(x - x.mean()).abs().mean()` (mean absolute deviation, NaN skipped),
    for a receiver that is a name; calls with arguments (axis=1, level=) are left alone."""
    receiver = func.value
    if call.args or not isinstance(receiver, cst.Name | cst.Attribute | cst.Subscript):
        return None
    text = code(receiver)
    return expression(f"({text} - {text}.mean()).abs().mean()")


AXES = {"0": 0, "1": 1, "'index'": 0, "'rows'": 0, "'columns'": 1, '"index"': 0, '"columns"': 1}


def _swapaxes(call: cst.Call, func: cst.Attribute) -> cst.BaseExpression | None:
    """`df.swapaxes(0, 1)` -> `df.transpose()`; other axes are left alone."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) != 2 or arguments[1]:
        return None
    axes = {AXES.get(code(arg.value)) for arg in arguments[0]}
    if axes != {0, 1}:
        return None
    return call.with_changes(func=func.with_changes(attr=cst.Name("transpose")), args=[])


def _bool(call: cst.Call, func: cst.Attribute) -> cst.BaseExpression | None:
    """`x.bool()` -> `bool(x.squeeze())`: the one element's truth (bool() refused more)."""
    if call.args:
        return None
    return expression(f"bool({code(atom(func.value))}.squeeze())")


METHODS: dict[str, MethodBuilder] = {
    "order": _renamed("sort_values"),
    "valid": _renamed("dropna"),
    "backfill": _renamed("bfill", positional=False),
    "pad": _renamed("ffill", positional=False),
    "clip_upper": _clip("upper"),
    "clip_lower": _clip("lower"),
    "sortlevel": _sortlevel,
    "reindex_axis": _reindex_axis,
    "sort_index": _sort_index_by,
    "get_dtype_counts": _dtype_counts,
    "mad": _mad,
}
REMOVED = "|".join(name for name in METHODS if name != "sort_index")
# probed per name where the notebook runs: a name another pandas class still has
# (`Index.sortlevel`, the internal BlockManager's `reindex_axis`, which `mgr.reindex_axis(...)`
# in pandas' own code calls) is rewritten only on a receiver known to be a DataFrame / Series,
# or in a cell that failed on it
_KEPT_ELSEWHERE = ("pandas.Index", "pandas.core.internals.BlockManager")
KEPT_PROBES = tuple(
    (
        f"pandas.removed-methods:{name}",
        all_of(*(lacks_attribute(owner, name) for owner in _KEPT_ELSEWHERE)),
    )
    for name in METHODS
    if name != "sort_index"
)
# names other libraries still use (ndarray.swapaxes, torch's Tensor.bool): only reactive
SHARED: dict[str, MethodBuilder] = {"swapaxes": _swapaxes, "bool": _bool}


class Methods(cst.CSTTransformer):
    def __init__(self, context: RuleContext, methods: Mapping[str, MethodBuilder]) -> None:
        self.context = context
        self.methods = methods
        self.frames: frozenset[str] = frozenset()

    def visit_Module(self, node: cst.Module) -> None:
        self.frames = known_frames(self.context, node)

    def _kept_elsewhere(self, name: str) -> bool:
        """Whether another class of the environment's pandas still has the method `name`."""
        probe = f"pandas.removed-methods:{name}"
        return (
            self.methods is METHODS
            and self.context.environment is not None
            and probe in self.context.environment.probes
            and not self.context.gone(probe)
        )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in self.methods:
            return updated_node
        receiver = func.value
        if is_module_receiver(receiver, self.context) or (
            isinstance(receiver, cst.Attribute) and receiver.attr.value == "str"
        ):
            return updated_node  # `np.pad(...)`, `s.str.pad(5)`
        if rooted_in(receiver, OWN):
            return updated_node  # `self._mgr.reindex_axis(...)`: an object's own, not a frame
        if (
            self._kept_elsewhere(func.attr.value)
            and not rooted_in(receiver, self.frames)
            and not self.context.raising_lines
        ):
            return updated_node  # `index.sortlevel(0)`: an Index's, not gone
        result = self.methods[func.attr.value](updated_node, func)
        return updated_node if result is None else result

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if (
            updated_node.attr.value == "ftypes" and "order" in self.methods
        ):  # 'float64:dense' -> float64
            return updated_node.with_changes(attr=cst.Name("dtypes"))
        return updated_node
