"""Cells as rules see them: IPython syntax masked so LibCST can parse, aliases resolved."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

import libcst as cst

from nbmodernizer.ipython_lines import is_cell_magic as is_cell_magic  # re-exported
from nbmodernizer.ipython_lines import mask_ipython as mask_ipython
from nbmodernizer.ipython_lines import unmask_ipython as unmask_ipython


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


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for Name/Attribute chains, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted_name(node.value)
        return f"{head}.{node.attr.value}" if head is not None else None
    return None


def qualified(node: cst.BaseExpression, aliases: dict[str, str]) -> str | None:
    """The fully qualified name of a Name/Attribute chain, resolving import aliases."""
    name = dotted_name(node)
    if name is None:
        return None
    head, _, rest = name.partition(".")
    resolved = aliases.get(head, head)
    return f"{resolved}.{rest}" if rest else resolved


def expression(code: str) -> cst.BaseExpression:
    return cst.parse_expression(code)
