"""A cell as rules see it: IPython syntax masked so that `ast` and LibCST can parse it, a
rewrite applied to it (LibCST transform or text edit), the imports the notebook binds."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Rewrite
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer, add_imports
from nbmodernizer.fixers.rules.toolkit.text import code_mask, simple_statements
from nbmodernizer.ipython_lines import is_cell_magic, mask_ipython, unmask_ipython

TransformerFactory = Callable[[RuleContext], cst.CSTTransformer]


# --- rewriting a cell ---------------------------------------------------------------------------


def transform_python(source: str, transform: Callable[[cst.Module], cst.Module]) -> str:
    """Apply a LibCST transform to a cell; cells that do not parse are returned unchanged."""
    if is_cell_magic(source):
        return source
    masked, originals = mask_ipython(source)
    try:
        module = cst.parse_module(masked)
    except cst.ParserSyntaxError:
        return source
    changed = transform(module)
    if changed.deep_equals(module):
        return source
    return unmask_ipython(changed.code, originals)


def cst_rewrite(factory: TransformerFactory) -> Rewrite:
    """A Rewrite from a LibCST transformer built for the notebook's context; the imports the
    transformer asked for are added to the cell afterwards (`toolkit.imports`)."""

    def rewrite(source: str, context: RuleContext) -> str:
        def transform(module: cst.Module) -> cst.Module:
            transformer = factory(context)
            changed = module.visit(transformer)
            if isinstance(transformer, ImportingTransformer) and transformer.imports:
                changed = add_imports(changed, transformer.imports)
            return changed

        return transform_python(source, transform)

    return rewrite


def text_rewrite(edit: Callable[[str, str, RuleContext], str]) -> Rewrite:
    """A Rewrite working on text: `edit(source, mask, context)` sees IPython lines masked and,
    in `mask`, string literals and comments blanked (`toolkit.text.code_mask`)."""

    def rewrite(source: str, context: RuleContext) -> str:
        if is_cell_magic(source):
            return source
        masked, originals = mask_ipython(source)
        changed = edit(masked, code_mask(masked), context)
        if changed == masked:
            return source
        return unmask_ipython(changed, originals)

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
    """Whether Python 3 accepts this code (IPython lines masked)."""
    try:
        ast.parse(mask_ipython(source)[0])
    except (SyntaxError, ValueError):
        return False
    return True


# --- the imports of a notebook ------------------------------------------------------------------


def import_aliases(sources: Iterable[str]) -> dict[str, str]:
    """Local name -> qualified name for every import in these cells."""
    aliases: dict[str, str] = {}
    for source in sources:
        if is_cell_magic(source):
            continue
        try:
            tree = ast.parse(mask_ipython(source)[0])
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        aliases[alias.asname] = alias.name
                    else:
                        top = alias.name.split(".")[0]
                        aliases.setdefault(top, top)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


_IMPORT = re.compile(r"import\s+(?P<names>.+)$", re.S)
_FROM_IMPORT = re.compile(r"from\s+(?P<module>[\w.]+)\s+import\s+\(?(?P<names>[^)]+)\)?$", re.S)
_ALIAS = re.compile(r"^(?P<name>[\w.]+)(?:\s+as\s+(?P<asname>\w+))?$")


def lenient_import_aliases(sources: Iterable[str]) -> dict[str, str]:
    """`import_aliases` for cells that do not parse (Python 2 syntax): the imports found in
    their text. Cells that parse are left to `import_aliases`."""
    aliases: dict[str, str] = {}
    for source in sources:
        if is_cell_magic(source) or parses(source):
            continue
        masked = mask_ipython(source)[0]
        mask = code_mask(masked)
        for start, end in simple_statements(mask):
            text = re.sub(r"\\\n|\s+", " ", masked[start:end]).strip()
            found = _FROM_IMPORT.match(text)
            if found and not found.group("module").startswith("."):
                for part in found.group("names").split(","):
                    alias = _ALIAS.match(part.strip())
                    if alias:
                        local = alias.group("asname") or alias.group("name")
                        aliases[local] = f"{found.group('module')}.{alias.group('name')}"
                continue
            found = _IMPORT.match(text)
            if found:
                for part in found.group("names").split(","):
                    alias = _ALIAS.match(part.strip())
                    if alias is None:
                        continue
                    if alias.group("asname"):
                        aliases[alias.group("asname")] = alias.group("name")
                    else:
                        top = alias.group("name").split(".")[0]
                        aliases.setdefault(top, top)
    return aliases


def notebook_aliases(sources: Iterable[str]) -> dict[str, str]:
    """What every import of a notebook's cells binds (cells in Python 2 syntax included)."""
    cells = list(sources)
    return {**lenient_import_aliases(cells), **import_aliases(cells)}
