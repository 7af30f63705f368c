"""The files `nbmod scan` and `nbmod fix` read: notebooks and `.py` files, found under the
paths given; each read as its code cells, and written back with only the changed cells changed.

A notebook is read with nbformat and written back as nbformat writes it (1-space indent,
sorted keys, a trailing newline). A `.py` file is one cell, rewritten as text. Cell numbers
count every cell of the notebook, markdown included, from 1 (as Jupyter shows them).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import nbformat

from nbmodernizer.notebook import CodeCell, Notebook, code_cells

SUFFIXES = (".ipynb", ".py")
# folders a walk never enters
_SKIPPED = {".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".tox"}
_SKIPPED_PREFIX = (".ipynb_checkpoints",)


class SourceError(Exception):
    """A path that is not there, or a file that cannot be read as a notebook."""


@dataclass(frozen=True)
class SourceFile:
    path: Path
    text: str  # the file as read
    cells: tuple[CodeCell, ...]  # its code cells (a .py file: one, index 0)
    notebook: Notebook | None  # None for a .py file

    def number(self, cell: CodeCell) -> int | None:
        """The cell's number as Jupyter shows it (1-based over all of a notebook's cells);
        None for a .py file."""
        return None if self.notebook is None else cell.index + 1

    problems: tuple[str, ...] = ()  # code cells that could not be read, and why (skipped)

    def rewritten(self, sources: dict[int, str], clear_outputs: bool = True) -> str:
        """The file's text with these cells (by index) replaced; unchanged text when empty.
        A changed notebook cell loses its outputs and execution count, as in the loop."""
        if not sources:
            return self.text
        if self.notebook is None:
            return sources[0]
        notebook = nbformat.from_dict(self.notebook)
        for index, source in sources.items():
            cell = notebook.cells[index]
            cell.source = source
            if clear_outputs:
                cell.outputs, cell.execution_count = [], None
        text: str = nbformat.writes(notebook)
        return text if text.endswith("\n") else text + "\n"


def find(paths: Iterable[str | Path]) -> list[Path]:
    """Every notebook and .py file under these paths (a file given by name is taken whatever
    its suffix), in a stable order; SourceError names a path that does not exist."""
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if not path.exists():
            raise SourceError(f"{given}: no such file or directory")
        if path.is_dir():
            found += sorted(_walk(path))
        else:
            found.append(path)
    seen: set[Path] = set()
    return [p for p in found if not (p in seen or seen.add(p))]  # type: ignore[func-returns-value]


def _walk(folder: Path) -> Iterator[Path]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d not in _SKIPPED and not d.startswith(_SKIPPED_PREFIX)]
        for name in files:
            if name.endswith(SUFFIXES):
                yield Path(root) / name


def read(path: Path) -> SourceFile:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SourceError(f"{path}: {error}") from None
    if path.suffix != ".ipynb":
        return SourceFile(path, text, (CodeCell(0, text),), None)
    try:
        notebook = nbformat.reads(text, as_version=4)
    except Exception as error:  # nbformat raises JSON, validation and version errors
        raise SourceError(f"{path}: not a notebook: {error}") from None
    unreadable: dict[int, str] = {}  # code cells whose source is not text: index -> its type
    for index, cell in enumerate(notebook.cells):
        source = cell.get("source") if cell.get("cell_type") == "code" else ""
        if not isinstance(source, str):
            unreadable[index] = "null" if source is None else type(source).__name__
    problems = [
        f"cell {index + 1}: its source is {kind}, not text; skipped"
        for index, kind in unreadable.items()
    ]
    cells = tuple(cell for cell in code_cells(notebook) if cell.index not in unreadable)
    return SourceFile(path, text, cells, notebook, tuple(problems))
