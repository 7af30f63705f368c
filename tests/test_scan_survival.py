"""`nbmod scan` / `nbmod fix` on real-world inputs: one bad notebook never stops a batch, and
continuation lines that start with `%` are read as IPython reads them (issue #19)."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from nbmodernizer.cli import main
from testing.notebooks import notebook, write_notebook

LEGACY = "import numpy as np\nvalues = np.zeros(3, dtype=np.float)\n"
FIXED = "import numpy as np\nvalues = np.zeros(3, dtype=float)\n"
# thousands of `+` in one expression (a real Kaggle cell): deeper than LibCST can walk
DEEP = (
    "import numpy as np\nx = np.array([0]*44+" + "+".join(f"[{n % 30}]" for n in range(3000)) + ")"
)
# deep for LibCST, not for Python's parser
DEEPISH = "import numpy as np\ny = np.array([0]+" + "+".join(["[1]"] * 400) + ")"
# real code (issue #19): `%` and backslash continuations of a print call
PRINTS = (
    "import numpy as np\n"
    "x_train = np.arange(5.0)\n"
    "y_train = x_train * 2\n"
    'print("Mean squared error: %.2f"\n'
    "      % np.mean((x_train - y_train) ** 2))\n"
    'print("Variance: %.2f" \\\n'
    "      % np.var(x_train))"
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def batch(folder: Path) -> dict[str, Path]:
    folder.mkdir()
    null = notebook("x = 1", LEGACY)
    paths = {
        "good": write_notebook(folder / "a_good.ipynb", notebook(LEGACY)),
        "null": folder / "b_null.ipynb",
        "deep": write_notebook(folder / "c_deep.ipynb", notebook(DEEP, LEGACY)),
        "deepish": write_notebook(folder / "d_deepish.ipynb", notebook(LEGACY, DEEPISH)),
        "broken": folder / "e_broken.ipynb",
        "script": folder / "f_script.py",
    }
    raw = json.loads(nbformat.writes(null))
    raw["cells"][1]["source"] = None
    paths["null"].write_text(json.dumps(raw))
    paths["broken"].write_text("{not json")
    paths["script"].write_text(LEGACY)
    return paths


def code_cells(path: Path) -> list[str | None]:
    nb = json.loads(path.read_text())
    return [
        None if c["source"] is None else "".join(c["source"])
        for c in nb["cells"]
        if c["cell_type"] == "code"
    ]


def test_bad_notebooks_are_reported_and_every_other_file_is_scanned_and_fixed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = batch(tmp_path / "batch")
    code, out, err = run(capsys, "scan", str(tmp_path / "batch"), "--format", "json")
    assert code == 2
    found = {(Path(f["path"]).name, f["cell"]) for f in json.loads(out)}
    assert found == {
        ("a_good.ipynb", 2),
        ("b_null.ipynb", 3),
        ("c_deep.ipynb", 3),
        ("d_deepish.ipynb", 2),
        ("f_script.py", None),
    }
    problems = [line for line in err.splitlines() if line.startswith("nbmod scan: ")]
    assert len(problems) == 4, err
    assert f"nbmod scan: {paths['null']}: cell 2: its source is null, not text; skipped" in err
    assert f"nbmod scan: {paths['deep']}: cell 2: too deeply nested for the parser" in err
    assert f"nbmod scan: {paths['deepish']}: cell 3: too deeply nested for the parser" in err
    assert f"nbmod scan: {paths['broken']}: not a notebook" in err

    code, _, err = run(capsys, "fix", str(tmp_path / "batch"))
    assert code == 2
    assert "fixed 5 files" in err
    assert code_cells(paths["good"]) == [FIXED]
    assert code_cells(paths["null"]) == [None, FIXED]
    assert code_cells(paths["deep"]) == [DEEP, FIXED]
    assert code_cells(paths["deepish"]) == [FIXED, DEEPISH]
    assert paths["script"].read_text() == FIXED
    assert paths["broken"].read_text() == "{not json"


@pytest.mark.parametrize("suffix", [".ipynb", ".py"])
def test_continuation_lines_are_untouched_and_a_second_fix_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    path = tmp_path / f"prints{suffix}"
    if suffix == ".py":
        path.write_text(PRINTS + "\n" + LEGACY)
    else:
        write_notebook(path, notebook(PRINTS, LEGACY))
    code, _, err = run(capsys, "fix", str(path))
    assert code == 0 and "fixed 1 file" in err, err
    if suffix == ".py":
        assert path.read_text() == PRINTS + "\n" + FIXED
    else:
        assert code_cells(path) == [PRINTS, FIXED]
    once = path.read_text()
    code, _, err = run(capsys, "fix", str(path))
    assert code == 0 and "fixed 0 files" in err, err
    assert path.read_text() == once
    code, out, _ = run(capsys, "scan", str(path))
    assert code == 0 and "rule defect" not in out
