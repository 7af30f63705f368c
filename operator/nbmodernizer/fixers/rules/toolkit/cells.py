"""A cell as rules see it (`nbmodernizer.cells`: IPython lines masked, a Python cell magic's
line kept first), and a rewrite applied to it: a LibCST transform, or a text edit."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from nbmodernizer import cells
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Rewrite
from nbmodernizer.fixers.rules.toolkit import traversal
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer, add_imports
from nbmodernizer.fixers.rules.toolkit.needles import AstTrigger, mentions, triggered
from nbmodernizer.fixers.rules.toolkit.parsing import parse_module, reparsed
from nbmodernizer.fixers.rules.toolkit.text import code_mask

TransformerFactory = Callable[[RuleContext], cst.CSTTransformer]


# --- rewriting a cell ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def read_text(source: str) -> cells.Parsed:
    """A cell as IPython reads it (`cells.parse`: IPython lines masked, Python's `ast`), read
    once for the notebook's imports and frames, the rules that see it unchanged, the gate and
    the scan (the trees are only read, never changed): text rules need no LibCST tree."""
    return cells.parse(source)


# the cells a transform just wrote, with the trees they came from: `read_cell` reads such a
# cell again statement by statement (`parsing.reparsed`) instead of parsing it whole, and only
# if a rule after it asks (most written cells are never parsed again)
_WRITTEN: dict[str, tuple[cst.Module, cst.Module, str]] = {}
_WRITTEN_KEPT = 64
_WRITTEN_LOCK = threading.Lock()


@functools.lru_cache(maxsize=64)
def read_cell(source: str) -> tuple[cells.Parsed, cst.Module | None]:
    """A cell read once for all the rules that see it unchanged (LibCST trees are immutable;
    the rules after one that changed the cell read the new source). The tree is None for a
    cell that is not Python or does not parse."""
    parsed = read_text(source)
    if not parsed.is_python:
        return parsed, None
    with _WRITTEN_LOCK:
        written = _WRITTEN.pop(source, None)
    tree = None if written is None else _reparsed(*written)
    if tree is not None:
        return parsed, tree
    try:
        return parsed, parse_module(parsed.masked)
    except cst.ParserSyntaxError:
        return parsed, None


def _reparsed(original: cst.Module, changed: cst.Module, code: str) -> cst.Module | None:
    try:
        return reparsed(original, changed, code)
    except cst.ParserSyntaxError:
        return None  # `read_cell` parses the cell whole and says whether it parses


def transform_python(source: str, transform: Callable[[cst.Module], cst.Module]) -> str:
    """Apply a LibCST transform to a cell; cells that are not Python or do not parse are
    returned unchanged."""
    parsed, module = read_cell(source)
    if module is None:
        return source
    changed = transform(module)
    if changed is module:
        return source
    code = changed.code  # LibCST prints the whole tree each time it is asked
    if code == parsed.masked:
        return source
    written = cells.unmask(code, parsed.originals)
    if read_text(written).masked == code:  # the new cell masks to what was printed
        with _WRITTEN_LOCK:
            if len(_WRITTEN) >= _WRITTEN_KEPT:
                _WRITTEN.clear()
            _WRITTEN[written] = (module, changed, code)
    return written


@dataclass(frozen=True)
class CstRewrite:
    """A Rewrite from a LibCST transformer built for the notebook's context; the imports the
    transformer asked for are added to the cell afterwards (`toolkit.imports`). `needles`:
    skip cells that mention none; `trigger`: skip cells whose `ast` tree fails it
    (`toolkit.needles`; none: never skip). `rules.batch` walks many of these at once."""

    factory: TransformerFactory
    needles: tuple[str, ...] = ()
    trigger: AstTrigger | None = None

    def may_apply(self, source: str, context: RuleContext) -> bool:
        return mentions(source, self.needles, context.aliases) and self.triggered(source, context)

    def triggered(self, source: str, context: RuleContext) -> bool:
        """Whether the cell's `ast` tree passes the trigger (`toolkit.needles.triggered`)."""
        return triggered(read_text(source).tree, self.trigger, context)

    def __call__(self, source: str, context: RuleContext) -> str:
        if not self.may_apply(source, context):
            return source
        return transform_python(source, lambda module: self.transform(module, context))

    def transform(self, module: cst.Module, context: RuleContext) -> cst.Module:
        """The module after the transformer (the module itself when it replaced nothing and
        asked for no import)."""
        transformer = self.factory(context)
        changed = traversal.transform(module, transformer)
        if isinstance(transformer, ImportingTransformer) and transformer.imports:
            changed = add_imports(changed, transformer.imports)
        return changed


def cst_rewrite(
    factory: TransformerFactory, needles: tuple[str, ...] = (), trigger: AstTrigger | None = None
) -> Rewrite:
    """A Rewrite from a LibCST transformer built for the notebook's context (`CstRewrite`),
    for cells that mention one of `needles` (every cell when there are none) and whose tree
    passes `trigger`."""
    return CstRewrite(factory, needles, trigger)


def text_rewrite(
    edit: Callable[[str, str, RuleContext], str], *, python2_only: bool = False
) -> Rewrite:
    """A Rewrite working on text: `edit(source, mask, context)` sees IPython lines masked and,
    in `mask`, string literals and comments blanked (`toolkit.text.code_mask`).
    `python2_only`: the edit is for cells that do not parse as Python 3 (Python 2 syntax);
    the others are left as they are without being read."""

    def rewrite(source: str, context: RuleContext) -> str:
        parsed = read_text(source)
        if not parsed.is_python or (python2_only and parsed.tree is not None):
            return source
        changed = edit(parsed.masked, code_mask(parsed.masked), context)
        if changed == parsed.masked:
            return source
        return cells.unmask(changed, parsed.originals)

    return rewrite


@dataclass(frozen=True)
class Chain:
    """Rewrites, one after the other. When every step is a `CstRewrite`, the chain changes a
    cell only if one of its steps would change it as it is (the steps before the first that
    changes it see it unchanged), so `rules.batch` can ask its steps in one walk."""

    steps: tuple[Rewrite, ...]

    def __call__(self, source: str, context: RuleContext) -> str:
        for step in self.steps:
            source = step(source, context)
        return source

    def walkable(self) -> tuple[CstRewrite, ...] | None:
        """Its steps, when all of them are LibCST rewrites (chains flattened); else None."""
        found: list[CstRewrite] = []
        for step in self.steps:
            if isinstance(step, CstRewrite):
                found.append(step)
            elif isinstance(step, Chain) and (inner := step.walkable()) is not None:
                found += inner
            else:
                return None
        return tuple(found)


def chain(*rewrites: Rewrite) -> Rewrite:
    """The rewrites, one after the other (`Chain`)."""
    return Chain(rewrites)


def walkable(rewrite: Rewrite) -> tuple[CstRewrite, ...] | None:
    """The LibCST rewrites whose walk decides whether `rewrite` changes a cell (`rules.batch`);
    None for a rewrite that must simply be run."""
    if isinstance(rewrite, CstRewrite):
        return (rewrite,)
    if isinstance(rewrite, Chain):
        return rewrite.walkable()
    return None


@dataclass(frozen=True)
class Guarded:
    """A rewrite run only on cells that mention one of `needles` and whose `ast` tree passes
    `trigger` (`toolkit.needles`; a cell that does not parse as Python 3 is not filtered by
    the trigger)."""

    needles: tuple[str, ...]
    rewrite: Rewrite
    trigger: AstTrigger | None = None

    def __call__(self, source: str, context: RuleContext) -> str:
        if not mentions(source, self.needles, context.aliases):
            return source
        if self.trigger is not None and not triggered(
            read_text(source).tree, self.trigger, context
        ):
            return source
        return self.rewrite(source, context)


def only_if(*needles: str, rewrite: Rewrite, trigger: AstTrigger | None = None) -> Rewrite:
    """Skip parsing cells that cannot match: they mention none of `needles`
    (`toolkit.needles`: names as whole words, other needles as text), or their tree fails
    `trigger` (a LibCST rewrite keeps its own trigger when none is given)."""
    if isinstance(rewrite, CstRewrite):
        return CstRewrite(rewrite.factory, needles, trigger or rewrite.trigger)
    return Guarded(needles, rewrite, trigger)


def needles(rewrite: Rewrite) -> tuple[str, ...] | None:
    """The names one of which a cell must mention for `rewrite` to change it; None when any
    cell may change (a rewrite without needles, or a chain with a step without)."""
    if isinstance(rewrite, Guarded):
        return rewrite.needles
    steps = walkable(rewrite)
    if steps is None or any(not step.needles for step in steps):
        return None
    return tuple(dict.fromkeys(needle for step in steps for needle in step.needles))


def parses(source: str) -> bool:
    """Whether the cell is Python that Python 3 accepts (IPython lines masked)."""
    return read_text(source).tree is not None
