"""On a real kernel: a rule bound to the line that raised (`numpy.ragged-array`) is given the
innermost notebook frame of the traceback — here a function defined in another cell than the
one whose call raised — and rewrites that call only, not its neighbours."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from nbmodernizer.cli import main
from nbmodernizer.status import CellError
from testing.notebooks import kaggle_folder

pytestmark = pytest.mark.kernel

HELPERS = (
    "import numpy as np\nimport pandas as pd\n"
    "def signs(frame):\n"
    "    grid = np.array([[1, 2], [3, 4]])\n"
    "    pairs = [(np.array([v, -v]), int(v > 0)) for v in frame['x']]\n"
    "    return np.transpose(pairs)[1] * grid[0, 0]\n"
)
PREDICT = (
    "test = pd.read_csv('../input/test.csv')\n"
    "test['y'] = signs(test).astype(int)\n"
    "test[['id', 'y']].to_csv('submission.csv', index=False)"
)


def test_the_call_that_met_ragged_data_gets_dtype_object_in_its_own_cell(tmp_path: Path) -> None:
    path = kaggle_folder(tmp_path, HELPERS, PREDICT)
    code = main(["modernize", str(path), "--out", str(tmp_path / "out")])
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert code == 0, report["message"]
    assert report["outcome"] == "ErrorFreeReproducible"
    assert [fix["fixer"] for fix in report["fixes"]] == ["rules"]
    final = nbformat.read(tmp_path / "out" / "final.ipynb", as_version=4)
    assert final.cells[1].source == HELPERS.replace(
        "np.transpose(pairs)", "np.transpose(np.array(pairs, dtype=object))"
    )
    assert final.cells[2].source == PREDICT


def test_the_innermost_notebook_frame_is_the_raising_one() -> None:
    traceback = [
        "\x1b[31mValueError\x1b[39m Traceback (most recent call last)",
        "Cell \x1b[32mIn[3]\x1b[39m, line 2\n----> 2 test['y'] = signs(test)",
        "Cell In[2], line 6, in signs(frame)\n----> 6 return np.transpose(pairs)[1]",
        "File .../numpy/_core/fromnumeric.py:639, in transpose(a, axes)",
    ]
    error = CellError(cell_index=2, ename="ValueError", evalue="x", traceback=traceback)
    assert error.raising_frame() == (2, 6)
    assert error.failing_line() == 2  # the line of the cell that ran
    assert CellError(cell_index=0, ename="E", evalue="x").raising_frame() is None
