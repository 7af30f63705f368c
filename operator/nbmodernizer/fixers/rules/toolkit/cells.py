"""A cell as rules see it (`nbmodernizer.cells`: IPython lines masked, a Python cell magic's
line kept first), and a rewrite applied to it: a LibCST transform, or a text edit."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import libcst as cst

from nbmodernizer import cells
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Rewrite
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer, add_imports
from nbmodernizer.fixers.rules.toolkit.text import code_mask

TransformerFactory = Callable[[RuleContext], cst.CSTTransformer]


# --- rewriting a cell ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _read(source: str) -> tuple[cells.Parsed, cst.Module | None]:
    """A cell read once for all the rules that see it unchanged (LibCST trees are immutable;
    the rules after one that changed the cell read the new source)."""
    parsed = cells.parse(source)
    if not parsed.is_python:
        return parsed, None
    try:
        return parsed, cst.parse_module(parsed.masked)
    except cst.ParserSyntaxError:
        return parsed, None


def transform_python(source: str, transform: Callable[[cst.Module], cst.Module]) -> str:
    """Apply a LibCST transform to a cell; cells that are not Python or do not parse are
    returned unchanged."""
    parsed, module = _read(source)
    if module is None:
        return source
    changed = transform(module)
    if changed is module or changed.code == parsed.masked:
        return source
    return cells.unmask(changed.code, parsed.originals)


def _watch(transformer: cst.CSTTransformer) -> list[bool]:
    """A list that becomes non-empty once the transformer replaces a node (a `leave_*` that
    returns anything but the node it was given)."""
    replaced: list[bool] = []
    leave = transformer.on_leave

    def on_leave(original: Any, updated: Any) -> Any:
        result = leave(original, updated)
        if result is not updated and not replaced:
            replaced.append(True)
        return result

    transformer.on_leave = on_leave  # type: ignore[method-assign,assignment]
    return replaced


def cst_rewrite(factory: TransformerFactory) -> Rewrite:
    """A Rewrite from a LibCST transformer built for the notebook's context; the imports the
    transformer asked for are added to the cell afterwards (`toolkit.imports`)."""

    def rewrite(source: str, context: RuleContext) -> str:
        def transform(module: cst.Module) -> cst.Module:
            transformer = factory(context)
            replaced = _watch(transformer)
            changed = module.visit(transformer)
            if isinstance(transformer, ImportingTransformer) and transformer.imports:
                changed = add_imports(changed, transformer.imports)
            elif not replaced:
                return module  # no node was replaced: the cell is unchanged (no code to compare)
            return changed

        return transform_python(source, transform)

    return rewrite


def text_rewrite(edit: Callable[[str, str, RuleContext], str]) -> Rewrite:
    """A Rewrite working on text: `edit(source, mask, context)` sees IPython lines masked and,
    in `mask`, string literals and comments blanked (`toolkit.text.code_mask`)."""

    def rewrite(source: str, context: RuleContext) -> str:
        parsed, _ = _read(source)
        if not parsed.is_python:
            return source
        changed = edit(parsed.masked, code_mask(parsed.masked), context)
        if changed == parsed.masked:
            return source
        return cells.unmask(changed, parsed.originals)

    return rewrite


def chain(*rewrites: Rewrite) -> Rewrite:
    """The rewrites, one after the other."""

    def rewrite(source: str, context: RuleContext) -> str:
        for step in rewrites:
            source = step(source, context)
        return source

    return rewrite


def only_if(*needles: str, rewrite: Rewrite) -> Rewrite:
    """Skip parsing cells that cannot match: none of `needles` occurs in the source."""

    def guarded(source: str, context: RuleContext) -> str:
        return rewrite(source, context) if any(n in source for n in needles) else source

    return guarded


def parses(source: str) -> bool:
    """Whether the cell is Python that Python 3 accepts (IPython lines masked)."""
    return cells.parse(source).tree is not None
