"""Notebooks as data: parse, upgrade, validate, serialise, compare cells; the code cells.

A notebook is nbformat's NotebookNode (a dict whose keys are also attributes), kept as nbformat
reads it so that writing it back gives the same bytes. Its fields are untyped: `Notebook` and
`NotebookCell` say which of its fields this package reads and writes.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import json
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

import nbformat

from nbmodernizer.cells import Parsed, parse
from nbmodernizer.status import CellChange

TARGET_MAJOR = 4


class NotebookCell(Protocol):
    """A cell: markdown, raw or code (code cells also have `outputs` and `execution_count`).
    `source` is text in a notebook nbformat has read; one read without validation may hold
    null, which `source_text` reads as ""."""

    cell_type: str
    source: str
    metadata: MutableMapping[str, object]
    outputs: list[MutableMapping[str, object]]
    execution_count: int | None

    def get(self, key: str, default: object = None, /) -> object: ...


class Notebook(Protocol):
    """An nbformat-4 notebook (nbformat's NotebookNode)."""

    cells: list[NotebookCell]
    metadata: MutableMapping[str, object]


@dataclass(frozen=True)
class CodeCell:
    """A code cell, read as `nbmodernizer.cells` reads every cell."""

    index: int  # position in the notebook's `cells` array
    source: str

    @cached_property
    def parsed(self) -> Parsed:
        return parse(self.source)

    @property
    def tree(self) -> ast.Module | None:
        """What the cell means as Python 3 (a Python 2 cell: its Python 3 reading); None when
        it is not Python or does not parse."""
        return self.parsed.tree or self.parsed.python2_tree


def source_text(cell: NotebookCell) -> str:
    """A cell's source as one string: "" for a missing or null source, a list of lines joined."""
    source = cell.get("source")
    if source is None:
        return ""
    if isinstance(source, list):
        return "".join(map(str, source))
    return str(source)


def code_cells(notebook: Notebook) -> list[CodeCell]:
    """The notebook's code cells, in order."""
    return [
        CodeCell(index, source_text(cell))
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code"
    ]


class NotebookError(Exception):
    """The notebook cannot be used as it is (not JSON, not a notebook, invalid)."""


@dataclass(frozen=True)
class LoadedNotebook:
    notebook: Notebook
    notes: list[str] = field(default_factory=list)  # e.g. "upgraded from nbformat 3"


def parse_notebook(data: bytes) -> LoadedNotebook:
    """Parse notebook bytes into an nbformat-4 notebook, upgrading older formats."""
    try:
        raw = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise NotebookError(f"not UTF-8 text: {error}") from None
    except json.JSONDecodeError as error:
        raise NotebookError(
            f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    if not isinstance(raw, dict) or "nbformat" not in raw:
        raise NotebookError("not a Jupyter notebook: no top-level 'nbformat' field")
    major = raw.get("nbformat")
    if not isinstance(major, int) or major < 3 or major > TARGET_MAJOR:
        raise NotebookError(f"unsupported nbformat version {major!r} (3 and 4 are supported)")
    notes = [] if major == TARGET_MAJOR else [f"upgraded from nbformat {major} to {TARGET_MAJOR}"]
    try:
        notebook = nbformat.reads(data.decode("utf-8"), as_version=TARGET_MAJOR)
        nbformat.validate(notebook)
    except nbformat.ValidationError as error:
        raise NotebookError(f"invalid nbformat {TARGET_MAJOR} notebook: {error.message}") from None
    except Exception as error:  # nbformat raises assorted errors for broken documents
        raise NotebookError(f"not a readable notebook: {error}") from None
    return LoadedNotebook(notebook, notes)


def serialise(notebook: Notebook) -> bytes:
    text: str = nbformat.writes(notebook)
    return (text + "\n").encode("utf-8")


def copy_notebook(notebook: Notebook) -> Notebook:
    copied: Notebook = nbformat.from_dict(json.loads(json.dumps(notebook)))
    return copied


def as_node(part: Notebook | NotebookCell) -> nbformat.NotebookNode:
    """A notebook or cell as nbformat's own class, for a library that asks for it (nbclient)."""
    if not isinstance(part, nbformat.NotebookNode):
        raise TypeError(f"not an nbformat NotebookNode: {type(part).__name__}")
    return part


def cell_sources(notebook: Notebook) -> list[str]:
    return [source_text(cell) for cell in notebook.cells]


def fingerprint(notebook: Notebook) -> str:
    """What makes two revisions the same notebook: their cells' types and sources."""
    digest = hashlib.sha256()
    for cell in notebook.cells:
        digest.update(f"{cell.cell_type}\0{len(cell.source)}\0{cell.source}".encode())
    return digest.hexdigest()


def cell_changes(before: Notebook, after: Notebook) -> list[CellChange]:
    """Cells that differ between two notebooks, aligned by content, indexed as in `after`."""
    old, new = cell_sources(before), cell_sources(after)
    changes: list[CellChange] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        paired = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        for k in range(paired):
            changes.append(
                CellChange(index=j1 + k, kind="modified", before=old[i1 + k], after=new[j1 + k])
            )
        for k in range(j1 + paired, j2):
            changes.append(CellChange(index=k, kind="added", after=new[k]))
        for k in range(i1 + paired, i2):
            changes.append(CellChange(index=j2, kind="removed", before=old[k]))
    return changes
