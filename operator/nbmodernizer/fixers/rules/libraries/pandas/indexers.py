"""`.ix[...]`: labels (`.loc`) or positions (`.iloc`), decided for each indexer where its key
says which.

`.ix` read its key as labels, and fell back to positions on an axis whose labels are not
integers. Each `.ix[...]` is decided on its own:

- a string label anywhere in the key (`'target'`, `['a', 'b']`, `'a':'c'`) -> `.loc`: `.iloc`
  never takes a label, so `.loc` is the only reading of it (when `.loc` raises there, a
  position on the other axis of a non-integer index, neither indexer alone is right);
- a boolean mask (`df['a'] > 1`, `~m & (x == y)`, `x.isnull()`, `x.isin(v)`) with nothing
  but `:` beside it -> `.loc`: `.ix` read a mask as `.loc` does, and `.iloc` refuses a
  boolean Series;
- integer positions (`0`, `-1`, `[0, 2]`, `1:-1`, `:5`) on the columns only, the rows a full
  `:`, of a frame whose column labels are known to be strings -> `.iloc`: `.ix` read integers
  on a non-integer axis as positions. Known here means a name bound once in the cell, before
  the indexer, at the top level, to `pd.read_csv`/`pd.read_table` with a header row (no
  `header=` other than 0, unless `names=` lists strings; no `squeeze`, `iterator`,
  `chunksize`), to `pd.DataFrame(..., columns=[strings])` or to `pd.DataFrame({'a': ...})`,
  and nothing in the cell that could relabel its columns: no other binding of the name, no
  `name.columns = ...`, no `name.insert(...)` or call with `inplace=True`, no `name[key] = ...`
  with a key that is not a string, no `name` passed to a function the notebook did not import
  (it may relabel it);
- anything else is undecided: an integer on the rows (a label on a RangeIndex, a position on a
  string index), a variable, a mask beside positions, a frame read in another cell. Only a run
  can tell, so an undecided one is rewritten only where a run follows (`run_follows`: the
  loop): the rule writes `.loc` there, and its alternative `.iloc`; where `.loc` raises at
  that line, `amend` takes that line from the alternative and leaves the others as they are.
  `nbmod scan` / `nbmod fix` (nothing runs after them to check a guess) leave it as `.ix`.
  The decided ones are the same in both readings.

The frame inference is local to this rule, the smallest that makes the decision above safe.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.toolkit.nodes import dotted_name, qualified, string_literal
from nbmodernizer.fixers.rules.toolkit.traversal import look

LOC, ILOC = "loc", "iloc"


class Key(Enum):
    LABEL = "label"  # a string, strings, or a slice with a string bound
    POSITION = "position"  # an integer, integers, or a slice of integers
    ALL = "all"  # `:`
    MASK = "mask"  # a comparison, or `~`, `&`, `|` of masks, or `.isnull()`-like calls
    UNKNOWN = "unknown"


def _integer(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, cst.Integer)


def _string(node: cst.BaseExpression) -> bool:
    return string_literal(node) is not None


_ORDER = (cst.Equal, cst.NotEqual, cst.LessThan, cst.LessThanEqual, cst.GreaterThan,
          cst.GreaterThanEqual)  # fmt: skip
_MASK_METHODS = frozenset({"isnull", "notnull", "isna", "notna", "isin", "duplicated"})


def _mask(node: cst.BaseExpression) -> bool:
    """An expression that makes a boolean mask whatever its operands hold."""
    if isinstance(node, cst.Comparison):
        return all(isinstance(t.operator, _ORDER) for t in node.comparisons)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.BitInvert):
        return _mask(node.expression)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitAnd | cst.BitOr):
        return _mask(node.left) and _mask(node.right)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        return node.func.attr.value in _MASK_METHODS
    return False


def key_kind(node: cst.BaseSlice) -> Key:
    """What one axis of an indexer's key is, from its literal form."""
    if isinstance(node, cst.Slice):
        bounds = [b for b in (node.lower, node.upper) if b is not None]
        if node.step is not None and not _integer(node.step):
            return Key.UNKNOWN
        if not bounds:
            return Key.ALL if node.step is None else Key.POSITION
        if any(_string(b) for b in bounds):
            return Key.LABEL
        return Key.POSITION if all(_integer(b) for b in bounds) else Key.UNKNOWN
    assert isinstance(node, cst.Index)
    value = node.value
    if isinstance(value, cst.List):
        items = [e.value for e in value.elements if isinstance(e, cst.Element)]
        if not items or len(items) != len(value.elements):
            return Key.UNKNOWN
        if all(_string(i) for i in items):
            return Key.LABEL
        return Key.POSITION if all(_integer(i) for i in items) else Key.UNKNOWN
    if _string(value):
        return Key.LABEL
    if _mask(value):
        return Key.MASK
    return Key.POSITION if _integer(value) else Key.UNKNOWN


def decide(
    receiver: cst.BaseExpression, key: Sequence[cst.SubscriptElement], frames: set[str]
) -> str | None:
    """`loc` or `iloc` where the key says which (see the module's docstring), else None."""
    kinds = [key_kind(element.slice) for element in key]
    if Key.LABEL in kinds or (Key.MASK in kinds and set(kinds) <= {Key.MASK, Key.ALL}):
        return LOC
    known = isinstance(receiver, cst.Name) and receiver.value in frames
    if known and len(kinds) == 2 and kinds[0] is Key.ALL and kinds[1] is Key.POSITION:
        return ILOC
    return None


# --- frames whose column labels are strings -----------------------------------------------------

_READERS = frozenset({"pandas.read_csv", "pandas.read_table"})
_NOT_A_FRAME = frozenset({"squeeze", "iterator", "chunksize"})
_SAFE_BUILTINS = frozenset({"print", "len", "display", "repr", "str", "type", "id", "list"})


def _strings(node: cst.BaseExpression) -> bool:
    """A list or tuple literal of strings only."""
    if not isinstance(node, cst.List | cst.Tuple) or not node.elements:
        return False
    return all(isinstance(e, cst.Element) and _string(e.value) for e in node.elements)


def string_columns(call: cst.BaseExpression, aliases: Mapping[str, str]) -> bool:
    """Whether this expression makes a DataFrame whose column labels are all strings."""
    if not isinstance(call, cst.Call):
        return False
    callee = qualified(call.func, aliases)
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if callee in _READERS:
        if _NOT_A_FRAME & keywords.keys():
            return False
        if "names" in keywords:
            return _strings(keywords["names"])
        header = keywords.get("header")
        return header is None or (isinstance(header, cst.Integer) and header.value == "0")
    if callee != "pandas.DataFrame":
        return False
    if "columns" in keywords:
        return _strings(keywords["columns"])
    data = call.args[0].value if call.args and call.args[0].keyword is None else None
    return (
        isinstance(data, cst.Dict)
        and bool(data.elements)
        and all(isinstance(e, cst.DictElement) and _string(e.key) for e in data.elements)
    )


def _root(node: cst.BaseExpression) -> str | None:
    """`x` for `x`, `x[...]`, `x.loc[...]`, `x.columns`."""
    while isinstance(node, cst.Subscript | cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


class _Relabels(cst.CSTVisitor):
    """The names the cell binds or may relabel the columns of, except at `bindings`."""

    def __init__(self, bindings: Mapping[str, cst.Assign], aliases: Mapping[str, str]) -> None:
        super().__init__()
        self.bindings = bindings
        self.aliases = aliases
        self.spoiled: set[str] = set()

    def _target(self, node: cst.BaseExpression) -> None:
        if isinstance(node, cst.Name):
            self.spoiled.add(node.value)
        elif isinstance(node, cst.Tuple | cst.List):
            for element in node.elements:
                self._target(element.value)
        elif isinstance(node, cst.StarredElement) or (
            isinstance(node, cst.Attribute) and node.attr.value in ("columns", "T")
        ):
            self._target(node.value)
        elif isinstance(node, cst.Subscript) and (name := _root(node)) is not None:
            # a new column with a label that is not a string: `x[0] = ...`, `x.loc[:, k] = ...`
            column = node.slice[-1].slice
            if key_kind(column) is not Key.LABEL and not (
                len(node.slice) == 2 and key_kind(column) is Key.ALL
            ):
                self.spoiled.add(name)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if not (
                isinstance(target.target, cst.Name)
                and self.bindings.get(target.target.value) is node
            ):
                self._target(target.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._target(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._target(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._target(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._target(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._target(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._target(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self._target(node.target)

    def visit_Param(self, node: cst.Param) -> None:
        self.spoiled.add(node.name.value)

    def visit_Global(self, node: cst.Global) -> None:
        self.spoiled.update(n.name.value for n in node.names)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.spoiled.add(node.name.value)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.spoiled.add(node.name.value)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            inplace = any(a.keyword is not None and a.keyword.value == "inplace" for a in node.args)
            if inplace or func.attr.value in ("insert", "set_axis"):
                self.spoiled.add(func.value.value)
        callee = dotted_name(func) or ""
        imported = callee.split(".")[0] in self.aliases or callee in _SAFE_BUILTINS
        if not imported:
            self.spoiled.update(a.value.value for a in node.args if isinstance(a.value, cst.Name))


def string_column_frames(module: cst.Module, aliases: Mapping[str, str]) -> dict[str, cst.Assign]:
    """Name -> the one top-level assignment that binds it to a frame whose column labels are
    strings, for the names nothing else in the cell binds or may relabel."""
    found: dict[str, cst.Assign] = {}
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if not isinstance(small, cst.Assign) or len(small.targets) != 1:
                continue
            target = small.targets[0].target
            fresh = isinstance(target, cst.Name) and target.value not in found
            if fresh and string_columns(small.value, aliases):
                assert isinstance(target, cst.Name)
                found[target.value] = small
    relabels = _Relabels(found, aliases)
    look(module, relabels)
    return {name: node for name, node in found.items() if name not in relabels.spoiled}


class IxTo(cst.CSTTransformer):
    """`.ix[...]` -> `.loc[...]` or `.iloc[...]` where the key decides (`decide`), else
    `undecided` (the rule writes `loc`, its alternative `iloc`) where a run follows, and
    left as it is elsewhere."""

    def __init__(self, context: RuleContext, undecided: str) -> None:
        super().__init__()
        self.aliases = context.aliases
        self.undecided: str | None = undecided if context.run_follows else None
        self.bindings: dict[str, cst.Assign] = {}
        self.frames: set[str] = set()  # bound by the statements already left

    def visit_Module(self, node: cst.Module) -> None:
        self.bindings = string_column_frames(node, self.aliases)

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        self.frames.update(n for n, b in self.bindings.items() if b is original_node)
        return updated_node

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        value = updated_node.value
        if not (isinstance(value, cst.Attribute) and value.attr.value == "ix"):
            return updated_node
        indexer = decide(value.value, updated_node.slice, self.frames) or self.undecided
        if indexer is None:
            return updated_node
        return updated_node.with_changes(value=value.with_changes(attr=cst.Name(indexer)))
