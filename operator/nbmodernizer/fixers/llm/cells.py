"""Which cells an LLM sees and may edit: the cell at issue and the cells it depends on."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from datetime import datetime

from nbmodernizer.cells import parse
from nbmodernizer.notebook import Notebook, code_cells, source_text


def _tree(source: str) -> ast.Module | None:
    return parse(source).tree


def defined_names(source: str) -> set[str]:
    tree = _tree(source)
    names: set[str] = set()
    if tree is None:
        return names
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def used_names(source: str) -> set[str]:
    tree = _tree(source)
    if tree is None:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def dependencies(notebook: Notebook, index: int) -> list[int]:
    """Earlier code cells that define what cell `index` uses, transitively, in order."""
    code = [cell.index for cell in code_cells(notebook) if cell.index < index]
    sources = {i: source_text(notebook.cells[i]) for i in [*code, index]}
    defines = {i: defined_names(sources[i]) for i in code}
    needed: set[int] = set()
    pending = [index]
    while pending:
        current = pending.pop()
        wanted = used_names(sources[current]) - (
            defined_names(sources[current]) if current == index else set()
        )
        for name in wanted:
            for candidate in reversed([i for i in code if i < current]):
                if name in defines[candidate]:
                    if candidate not in needed:
                        needed.add(candidate)
                        pending.append(candidate)
                    break
    return sorted(needed)


def writer_of(notebook: Notebook, filename: str) -> int | None:
    """The last code cell whose source mentions `filename` (where the submission is written)."""
    hits = [cell.index for cell in code_cells(notebook) if filename in cell.source]
    return hits[-1] if hits else None


def _timestamp(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def cell_seconds(executed: Notebook) -> dict[int, float]:
    """Seconds each executed code cell took (from nbclient's timing metadata)."""
    seconds: dict[int, float] = {}
    for cell in code_cells(executed):
        timing = executed.cells[cell.index].metadata.get("execution")
        if not isinstance(timing, Mapping):
            continue
        start = _timestamp(timing.get("iopub.execute_input"))
        end = _timestamp(timing.get("shell.execute_reply"))
        if start is not None and end is not None:
            seconds[cell.index] = round((end - start).total_seconds(), 2)
    return seconds
