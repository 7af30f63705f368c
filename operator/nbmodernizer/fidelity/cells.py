"""The code cells fidelity compares: their text and their syntax tree.

Cells are read as `nbmodernizer.cells` reads every cell: IPython syntax masked, Python cell
magics' bodies read as Python, Python 2 cells read as their Python 3 meaning; a cell that still
does not parse has no tree and is compared as text only.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from nbmodernizer.cells import parse
from nbmodernizer.notebook import Notebook


@dataclass(frozen=True)
class Cell:
    index: int  # position in the notebook's `cells` array
    source: str
    tree: ast.Module | None  # None: the cell does not parse


def code_cells(notebook: Notebook) -> list[Cell]:
    cells: list[Cell] = []
    for index, cell in enumerate(notebook.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        text = "".join(map(str, source)) if isinstance(source, list) else str(source)
        parsed = parse(text)
        cells.append(Cell(index, text, parsed.tree or parsed.python2_tree))
    return cells
