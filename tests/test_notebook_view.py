"""The typed view of a notebook's code cells (`notebook.code_cells`): which cells, their text,
and how `nbmodernizer.cells` reads them."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat

from nbmodernizer.notebook import CodeCell, cell_sources, code_cells, copy_notebook, serialise
from testing.notebooks import new_markdown_cell, new_notebook, new_raw_cell, notebook

# A notebook as a real one was found (issue #19): a code cell whose source is null, which
# nbformat reads (it only logs that the notebook is invalid) but does not turn into text.
NULL_SOURCE = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": "# Title"},
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": None,
        },
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": ["import numpy as np\n", "x = np.zeros(3)"],
        },
    ],
    "metadata": {},
    "nbformat": 4,
    "nbformat_minor": 2,
}


def test_only_code_cells_with_their_positions_among_all_cells() -> None:
    nb = notebook("a = 1", "%%bash\nls")
    nb.cells.insert(2, new_markdown_cell("between"))
    nb.cells.append(new_raw_cell("raw text"))
    assert code_cells(nb) == [CodeCell(1, "a = 1"), CodeCell(3, "%%bash\nls")]
    assert code_cells(new_notebook()) == []


def test_each_cell_is_read_as_cells_reads_it() -> None:
    python3, magic, python2, broken = code_cells(
        notebook("%matplotlib inline\nx = 1", "%%bash\nls", 'print "hi"', "def f(:")
    )
    assert python3.parsed.originals == ["%matplotlib inline"] and python3.tree is not None
    assert magic.parsed.cell_magic == "bash" and not magic.parsed.is_python and magic.tree is None
    assert python2.parsed.tree is None and python2.tree is not None  # its Python 3 reading
    assert broken.tree is None and broken.parsed.error is not None


def test_a_null_source_is_an_empty_cell_and_a_list_source_is_joined(tmp_path: Path) -> None:
    path = tmp_path / "null.ipynb"
    path.write_text(json.dumps(NULL_SOURCE))
    nb = nbformat.reads(path.read_text(), as_version=4)
    assert nb.cells[1].source is None  # nbformat keeps it
    assert code_cells(nb) == [CodeCell(1, ""), CodeCell(2, "import numpy as np\nx = np.zeros(3)")]
    assert code_cells(nb)[0].tree is not None
    assert cell_sources(nb) == ["# Title", "", "import numpy as np\nx = np.zeros(3)"]


def test_viewing_a_notebook_leaves_its_bytes_as_they_were() -> None:
    nb = notebook("import pandas as pd", "print 'x'")
    before = serialise(nb)
    copied = copy_notebook(nb)
    for cell in code_cells(copied):
        assert cell.parsed is cell.parsed  # read once
    assert serialise(copied) == before == serialise(nb)
