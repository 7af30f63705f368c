"""LibCST's visit, without rebuilding the tree.

`node.visit(visitor)` rebuilds (and validates) every node of a tree on the way up, whether or
not anything changed: most of the time of a rule's walk over a cell that it leaves as it is.
`look` and `transform` call the same hooks in the same order (a node's `on_visit`, then for
each field LibCST visits, in its order, `on_visit_attribute`, the field's nodes, and
`on_leave_attribute`, then `on_leave`) with the same sentinel rules, and differ in one thing
only: while no child of a node was replaced, `on_leave` is given the node itself as its
updated node, where LibCST gives an equal copy. `transform` rebuilds only the nodes above a
replacement (`with_changes`, validated as LibCST's constructors validate).

Trivia (whitespace, comments, operators, brackets: LibCST's `op` and `whitespace` node types
and the six brackets, three nodes in five of a cell's tree) hold only trivia; a visitor with no
hook for any of them and no attribute hooks is not walked into them at all (`_Hooks.prunes`):
it would be called for none of their nodes and could replace none.

Which fields a node type visits, in which order and how (required, optional, a
`MaybeSentinel`, a sequence, a block's body) is read once per type from its
`_visit_and_replace_children`, which names each as `field=visit_KIND(self, "field", ...)`; a
type that does not read that way falls back to LibCST's own visit.
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
from collections.abc import Sequence
from typing import Any

import libcst as cst

# one field a node type visits: its name, and how (a kind), or for a field visited one way or
# another by its value (`names` of `from m import *` / `from m import a, b`), both ways, None
# for a way that does not visit it at all
Field = tuple[str, tuple[str | None, ...]]
_KINDS = {
    "visit_required": "required",
    "visit_optional": "optional",
    "visit_sentinel": "sentinel",
    "visit_sequence": "sequence",
    "visit_iterable": "sequence",
    "visit_body_sequence": "body",
    "visit_body_iterable": "body",
}
_NODE_KINDS = frozenset({"required", "optional", "sentinel"})
_SEQUENCE_KINDS = frozenset({"sequence", "body"})


class _ByType(dict[type, Any]):
    """A value per node type, worked out at the first lookup (`read`): the walks look them
    up with `table[type(node)]`, a dictionary's lookup, for every node."""

    def __init__(self, read: Any) -> None:
        super().__init__()
        self.read = read

    def __missing__(self, kind: type) -> Any:
        found = self[kind] = self.read(kind)
        return found


def _kind(value: ast.expr) -> str | None:
    if isinstance(value, ast.Constant) and value.value is None:
        return None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        kind = _KINDS.get(value.func.id)
        if kind is not None:
            return kind
    raise ValueError(ast.unparse(value))


def _field(keyword: ast.keyword) -> Field | None:
    """The field a constructor's keyword argument visits; None for one passed as it is."""
    value = keyword.value
    if isinstance(value, ast.Attribute):
        return None
    assert keyword.arg is not None
    if isinstance(value, ast.IfExp):
        return keyword.arg, (_kind(value.body), _kind(value.orelse))
    if isinstance(value, ast.Call):
        name = value.args[1]
        if not (isinstance(name, ast.Constant) and name.value == keyword.arg):
            raise ValueError(ast.unparse(value))
    return keyword.arg, (_kind(value),)


def _read_fields(kind: type) -> tuple[Field, ...] | None:
    """The fields a node type visits, in order; None when its visit does not read as
    expected (LibCST's own visit is used for it)."""
    try:
        visit = kind._visit_and_replace_children  # type: ignore[attr-defined]
        source = textwrap.dedent(inspect.getsource(visit))
        function = ast.parse(source).body[0]
        constructors = {kind.__name__, "self.__class__"}
        assert isinstance(function, ast.FunctionDef)
        returned = function.body[-1]
        if (
            isinstance(returned, ast.Return)
            and isinstance(returned.value, ast.Name)
            and returned.value.id == "self"
        ):
            return ()
        calls = [
            node
            for node in ast.walk(function)
            if isinstance(node, ast.Call) and ast.unparse(node.func) in constructors
        ]
        if len(calls) != 1 or calls[0].args:
            return None
        fields = [_field(keyword) for keyword in calls[0].keywords]
    except (OSError, TypeError, ValueError, SyntaxError):
        return None
    return tuple(field for field in fields if field is not None)


_FIELDS = _ByType(_read_fields)


def fields(kind: type) -> tuple[Field, ...] | None:
    """The fields a node type visits, in LibCST's order (None: use LibCST's visit)."""
    found: tuple[Field, ...] | None = _FIELDS[kind]
    return found


def _choose(value: Any, ways: tuple[str | None, ...]) -> str | None:
    """How a field visited one way or another is visited, for its value (the walks take a
    field's one way themselves: no call for most fields)."""
    if value is None and None in ways:
        return None
    wanted = _SEQUENCE_KINDS if isinstance(value, tuple | list) else _NODE_KINDS
    return next(way for way in ways if way in wanted)


_BRACKETS = (
    cst.LeftParen,
    cst.RightParen,
    cst.LeftSquareBracket,
    cst.RightSquareBracket,
    cst.LeftCurlyBrace,
    cst.RightCurlyBrace,
)
_TRIVIA_MODULES = ("libcst._nodes.op", "libcst._nodes.whitespace")


def _is_trivia(kind: type) -> bool:
    return kind.__module__ in _TRIVIA_MODULES or kind in _BRACKETS


_TRIVIA = _ByType(_is_trivia)


def trivia(kind: type) -> bool:
    """Whether a node type is trivia: an operator, whitespace, a comment or a bracket, whose
    nodes hold only trivia (`tests/rules_toolkit/test_traversal.py` checks that on real code)."""
    found: bool = _TRIVIA[kind]
    return found


@functools.lru_cache(maxsize=256)
def _names_trivia(hook_names: frozenset[str]) -> bool:
    return any(trivia(kind) for kind in _hooked_kinds(hook_names))


def _hooked_kinds(hook_names: frozenset[str]) -> list[type]:
    kinds = []
    for name in hook_names:
        kind = getattr(cst, name.split("_", 2)[1], None)
        if isinstance(kind, type):
            kinds.append(kind)
    return kinds


# --- which hooks a visitor has -------------------------------------------------------------

_BASES = (cst.CSTTransformer, cst.CSTVisitor)
_GENERIC = ("on_visit", "on_leave", "on_visit_attribute", "on_leave_attribute")


# bounded: a visitor class defined in a function is a new class at each call
@functools.lru_cache(maxsize=256)
def overrides(kind: type) -> frozenset[str]:
    """The `visit_*` / `leave_*` methods a visitor class defines beyond LibCST's own (its
    base classes declare one of each, doing nothing, for every node type): read from the
    classes above LibCST's in its MRO, not from `dir` (hundreds of names)."""
    base = cst.CSTTransformer if issubclass(kind, cst.CSTTransformer) else cst.CSTVisitor
    libcsts = set(base.__mro__)
    return frozenset(
        name
        for cls in kind.__mro__
        if cls not in libcsts
        for name in vars(cls)
        if name.startswith(("visit_", "leave_"))
        and getattr(kind, name) is not getattr(base, name, None)
    )


@functools.lru_cache(maxsize=256)
def _dispatched(kind: type) -> bool:
    """Whether a visitor class dispatches as LibCST's bases do (`on_visit` calls `visit_X`,
    `on_leave` calls `leave_X`, the attribute hooks `visit_X_attribute` ...), so that a hook
    it does not define can be skipped."""
    return all(getattr(kind, name) in [getattr(b, name) for b in _BASES] for name in _GENERIC)


# a node type's hook names (made once: a new string a node would be hashed again each time)
_VISIT = _ByType(lambda kind: "visit_" + kind.__name__)
_LEAVE = _ByType(lambda kind: "leave_" + kind.__name__)


class _Hooks:
    """What to call for a visitor: its own `on_*` methods, or, where it dispatches as LibCST's
    bases do, only the `visit_X` / `leave_X` methods it defines."""

    def __init__(self, visitor: cst.CSTVisitor | cst.CSTTransformer) -> None:
        self.visitor = visitor
        kind = type(visitor)
        own = vars(visitor)
        self.generic = not _dispatched(kind) or any(
            name.startswith(("on_", "visit_", "leave_")) for name in own
        )
        defined = overrides(kind)
        self.defined = defined
        self.attributes = self.generic or any(name.count("_") > 1 for name in defined)
        self.transformer = isinstance(visitor, cst.CSTTransformer)
        # a generic visitor may say which `visit_X` / `leave_X` hooks its `on_*` methods act on
        declared: frozenset[str] | None = getattr(visitor, "declared_hooks", None)
        hooked = defined if not self.generic else declared
        self.prunes = (
            hooked is not None
            and not any(name.count("_") > 1 for name in hooked)
            and (self.generic or not self.attributes)
            and not _names_trivia(hooked)
        )

    def visit(self, node: cst.CSTNode) -> bool:
        if self.generic:
            return self.visitor.on_visit(node)
        name = _VISIT[type(node)]
        if name not in self.defined:
            return True
        return getattr(self.visitor, name)(node) is not False

    def leave(self, original: cst.CSTNode, updated: cst.CSTNode) -> Any:
        visitor = self.visitor
        if self.generic:
            if isinstance(visitor, cst.CSTTransformer):
                return visitor.on_leave(original, updated)
            visitor.on_leave(original)
            return original
        name = _LEAVE[type(original)]
        if name not in self.defined:
            return updated
        if self.transformer:
            return getattr(self.visitor, name)(original, updated)
        getattr(self.visitor, name)(original)
        return original


# --- looking ----------------------------------------------------------------------------------


def look(node: cst.CSTNode, visitor: cst.CSTVisitor | cst.CSTTransformer) -> None:
    """`node.visit(visitor)` for a visitor that replaces nothing (a transformer's `on_leave`
    results are ignored)."""
    _look(node, _Hooks(visitor))


def _look(node: cst.CSTNode, hooks: _Hooks) -> None:
    found: tuple[Field, ...] | None = _FIELDS[type(node)]
    if found is None:
        node.visit(hooks.visitor)
        return
    if hooks.visit(node):
        attributes, visitor, prunes = hooks.attributes, hooks.visitor, hooks.prunes
        for name, ways in found:
            value = getattr(node, name)
            way = ways[0] if len(ways) == 1 else _choose(value, ways)
            if way is None or (prunes and _TRIVIA[type(value)]):
                continue
            if attributes:
                visitor.on_visit_attribute(node, name)
            if isinstance(value, tuple | list):
                for child in value:
                    if not (prunes and _TRIVIA[type(child)]):
                        _look(child, hooks)
            elif value is not None and not isinstance(value, cst.MaybeSentinel):
                _look(value, hooks)  # a node (`isinstance` of LibCST's abstract base is slow)
            if attributes:
                visitor.on_leave_attribute(node, name)
    hooks.leave(node, node)


# --- transforming -----------------------------------------------------------------------------


def _not_allowed(node: cst.CSTNode, what: str, where: str) -> TypeError:
    return TypeError(
        f"We got a {what} while visiting a {type(node).__name__}. This node's parent does "
        f"not allow {where}."
    )


def _visit_field(parent: cst.CSTNode, name: str, way: str, value: Any, hooks: _Hooks) -> Any:
    """A field's value after the transformer, as LibCST's `visit_KIND` helpers make it (the
    value itself when nothing in it was replaced)."""
    if hooks.attributes:
        hooks.visitor.on_visit_attribute(parent, name)
    result: Any
    if way in _SEQUENCE_KINDS:
        result = _visit_children(value, hooks, body=way == "body")
    elif value is None or isinstance(value, cst.MaybeSentinel):
        result = cst.MaybeSentinel.DEFAULT if way == "sentinel" else None
    else:
        result = _visit_node(value, hooks)
        # kept as it was, most of the time: no checks (`FlattenSentinel`'s is of an abstract
        # class, slow)
        if result is not value:
            if isinstance(result, cst.FlattenSentinel):
                raise _not_allowed(
                    value, "FlattenSentinel", "for it to be replaced with a sequence"
                )
            if isinstance(result, cst.RemovalSentinel):
                if way == "required":
                    raise _not_allowed(value, "RemovalSentinel", "it to be removed")
                result = cst.MaybeSentinel.DEFAULT if way == "sentinel" else None
    if hooks.attributes:
        hooks.visitor.on_leave_attribute(parent, name)
    return result


def _visit_children(
    children: Sequence[cst.CSTNode], hooks: _Hooks, body: bool
) -> Sequence[cst.CSTNode]:
    kept: list[cst.CSTNode] = []
    for child in children:
        if hooks.prunes and _TRIVIA[type(child)]:
            kept.append(child)
            continue
        result = _visit_node(child, hooks)
        if result is child:  # most of the time: no checks (of abstract classes, slow)
            kept.append(child)
            continue
        if isinstance(result, cst.RemovalSentinel):
            continue
        replacements = result.nodes if isinstance(result, cst.FlattenSentinel) else (result,)
        for new in replacements:
            # a block's statement emptied by a removal is dropped (LibCST's body helpers)
            if body and not child._is_removable() and new._is_removable():
                continue
            kept.append(new)
    if len(kept) == len(children) and all(a is b for a, b in zip(kept, children, strict=True)):
        return children
    return tuple(kept)


def _visit_node(node: cst.CSTNode, hooks: _Hooks) -> Any:
    found: tuple[Field, ...] | None = _FIELDS[type(node)]
    if found is None:
        return node.visit(hooks.visitor)
    updated = node
    if hooks.visit(node):
        changes: dict[str, Any] = {}
        for name, ways in found:
            value = getattr(node, name)
            way = ways[0] if len(ways) == 1 else _choose(value, ways)
            if way is None or (hooks.prunes and _TRIVIA[type(value)]):
                continue
            result = _visit_field(node, name, way, value, hooks)
            if result is not value:
                changes[name] = result
        if changes:
            updated = node.with_changes(**changes)
    result = hooks.leave(node, updated)
    if result is not updated and not isinstance(
        result, cst.CSTNode | cst.RemovalSentinel | cst.FlattenSentinel
    ):
        raise cst.CSTValidationError(
            "Expected a node of type CSTNode or a RemovalSentinel, "
            f"but got a return value of {type(result).__name__}"
        )
    return result


def transform(module: cst.Module, transformer: cst.CSTTransformer) -> cst.Module:
    """`module.visit(transformer)`, rebuilding only the nodes above a replacement: the module
    itself when nothing was replaced."""
    result = _visit_node(module, _Hooks(transformer))
    if isinstance(result, cst.RemovalSentinel):
        return module.with_changes(body=(), header=(), footer=())
    assert isinstance(result, cst.Module)
    return result
