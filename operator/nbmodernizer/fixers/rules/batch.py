"""Which of many LibCST rules would change a cell, in one walk of its tree.

A rule built with `toolkit.cells.cst_rewrite` changes a cell only if its transformer replaces
a node (a `leave_*` returns something other than the node it was given) or asks for an
import. Until its first replacement, a transformer sees exactly what it would see walking the
tree alone (the same nodes, in the same order, children not yet replaced), so one walk can
serve all of them: each transformer is called only for the node types it handles, and is
dropped from the walk at its first replacement (it will change the cell). `fixer.rewrite_cell`
asks this once per state of a cell and runs alone only the rules it names; a transformer that
raises is named too (alone, it raises as before).

The walk only looks (`toolkit.traversal.look`: LibCST's hooks, in LibCST's order, without
rebuilding the tree).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.toolkit.cells import CstRewrite, read_cell
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer
from nbmodernizer.fixers.rules.toolkit.needles import NeedleIndex
from nbmodernizer.fixers.rules.toolkit.traversal import look, overrides


def _handles(transformer: cst.CSTTransformer, name: str) -> bool:
    return name in overrides(type(transformer))


class _Walk(cst.CSTTransformer):
    def __init__(self, transformers: list[cst.CSTTransformer]) -> None:
        super().__init__()
        self.transformers = transformers
        self.changes: set[int] = set()  # positions of transformers that would change the cell
        self.skipping: dict[int, cst.CSTNode] = {}  # position -> node whose children it skips

        self._by_name: dict[str, list[int]] = {}
        self._by_kind: dict[type, tuple[list[int], list[int]]] = {}  # node type -> visit, leave
        # LibCST calls the attribute hooks for every field of every node: skip them unless
        # a transformer here has one (`visit_Call_func`; node class names have no `_`)
        self.attributes = any(
            name.count("_") > 1 for t in transformers for name in overrides(type(t))
        )
        # the hooks `on_visit` / `on_leave` call (`traversal.look` skips trivia none acts on)
        self.declared_hooks = frozenset(name for t in transformers for name in overrides(type(t)))

    def _handling(self, name: str) -> list[int]:
        """The positions of the transformers with a method `name` (cached for the walk)."""
        found = self._by_name.get(name)
        if found is None:
            found = self._by_name[name] = [
                n for n, t in enumerate(self.transformers) if _handles(t, name)
            ]
        return found

    def _kind(self, kind: type) -> tuple[list[int], list[int]]:
        """The positions of the transformers with a `visit_` / `leave_` method for a node type
        (cached for the walk: most node types have none, and every node asks)."""
        found = self._by_kind.get(kind)
        if found is None:
            name = kind.__name__
            found = self._by_kind[kind] = (
                self._handling(f"visit_{name}"),
                self._handling(f"leave_{name}"),
            )
        return found

    def _active(self, name: str) -> list[int]:
        return self._still(self._handling(name))

    def _still(self, handling: list[int]) -> list[int]:
        if not handling or (not self.changes and not self.skipping):
            return handling
        return [n for n in handling if n not in self.changes and n not in self.skipping]

    def on_visit(self, node: cst.CSTNode) -> bool:
        for n in self._still(self._kind(type(node))[0]):
            try:
                if not self.transformers[n].on_visit(node):
                    self.skipping[n] = node
            except Exception:
                self.changes.add(n)
        return True

    def on_leave(self, original_node: Any, updated_node: Any) -> Any:
        if self.skipping:
            for n in [n for n, node in self.skipping.items() if node is original_node]:
                del self.skipping[n]
        for n in self._still(self._kind(type(original_node))[1]):
            try:
                if self.transformers[n].on_leave(original_node, updated_node) is not updated_node:
                    self.changes.add(n)
            except Exception:
                self.changes.add(n)
        return updated_node

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        if not self.attributes:
            return
        for n in self._active(f"visit_{type(node).__name__}_{attribute}"):
            try:
                self.transformers[n].on_visit_attribute(node, attribute)
            except Exception:
                self.changes.add(n)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        if not self.attributes:
            return
        for n in self._active(f"leave_{type(original_node).__name__}_{attribute}"):
            try:
                self.transformers[n].on_leave_attribute(original_node, attribute)
            except Exception:
                self.changes.add(n)


def would_change(
    source: str,
    rewrites: Sequence[CstRewrite],
    context: RuleContext,
    owners: Sequence[int] | None = None,
    needles: NeedleIndex | None = None,
) -> set[int]:
    """The positions in `rewrites` of those that would change this cell (a superset: a
    replacement that prints the same code is named too). `owners`: the rule each rewrite
    belongs to; when those that may apply (`CstRewrite.may_apply`) all belong to one rule,
    they are named without a walk (running that rule decides, at the cost of a walk).
    `needles`: the rewrites' needles, indexed once for many cells (indexed here without)."""
    if needles is None:
        needles = NeedleIndex([rewrite.needles for rewrite in rewrites])
    mentioned = needles.mentioned(source, context.aliases)
    chosen = [n for n in mentioned if rewrites[n].triggered(source, context)]
    if not chosen:
        return set()  # the cell is not parsed
    _, module = read_cell(source)
    if module is None:
        return set()
    if owners is not None and len({owners[n] for n in chosen}) == 1:
        return set(chosen)
    transformers = [rewrites[n].factory(context) for n in chosen]
    walk = _Walk(transformers)
    look(module, walk)
    for n, transformer in enumerate(transformers):
        if isinstance(transformer, ImportingTransformer) and transformer.imports:
            walk.changes.add(n)
    return {chosen[n] for n in walk.changes}
