"""End to end on a real kernel: the rules read a cell as the kernel does (issue: `%%time` cells got
no rule at all; an import put above `from __future__` made a SyntaxError the loop could not fix)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest

from nbmodernizer.cli import main
from testing.notebooks import kaggle_folder

pytestmark = pytest.mark.kernel

# numpy 2 removed np.int, pandas 1.0 removed .ix: both fail today, and the installed libraries
# show that both are gone, so their rules apply to every cell of a notebook that imports them.
LEGACY = (
    "import numpy as np\nimport pandas as pd\ntest = pd.read_csv('../input/test.csv')",
    "test['y'] = (test['x'] > 0).astype(np.int)",
    "sub = test.ix[:, ['id', 'y']]\nsub.to_csv('submission.csv', index=False)",
)


def modernize(root: Path, *sources: str, **spec: Any) -> tuple[int, dict[str, Any], Any]:
    path = kaggle_folder(root, *sources, **spec)
    out = root / "out"
    code = main(["modernize", str(path), "--out", str(out)])
    report = json.loads((out / "report.json").read_text())
    return code, report, nbformat.read(out / "final.ipynb", as_version=4)


def test_a_time_cell_is_repaired_in_one_rules_round_as_if_it_were_plain(tmp_path: Path) -> None:
    first, *rest = LEGACY
    plain_code, plain, _ = modernize(tmp_path / "plain", first, *rest)
    timed_code, timed, final = modernize(tmp_path / "timed", "%%time\n" + first, *rest)
    for code, report in ((plain_code, plain), (timed_code, timed)):
        assert code == 0, report["message"]
        assert report["outcome"] == "ErrorFreeReproducible"
        assert [r["issue"] for r in report["revisions"]] == ["Error", "Reproducible"]
    assert timed["fixes"][0]["fixer"] == "rules"
    assert timed["fixes"][0]["summary"] == plain["fixes"][0]["summary"]
    assert final.cells[1].source.startswith("%%time\nimport numpy as np\n")


def test_an_import_a_rule_adds_goes_below_from_future(tmp_path: Path) -> None:
    cell = (
        "from __future__ import division\n"
        "import pandas as pd\n"
        "test = pd.read_csv('../input/test.csv')\n"
        "test['y'] = (test['x'] > 0).astype(pd.np.int64)\n"
        "test[['id', 'y']].to_csv('submission.csv', index=False)"
    )
    code, report, final = modernize(tmp_path / "future", cell)
    assert code == 0, report["message"]
    assert report["outcome"] == "ErrorFreeReproducible"
    assert [r["issue"] for r in report["revisions"]] == ["Error", "Reproducible"]
    source = final.cells[1].source
    compile(source, "cell 1", "exec")  # IPython compiles statement by statement; Python does not
    lines = source.split("\n")
    assert lines[0] == "from __future__ import division"
    assert "import numpy as np" in lines
    assert ".astype(np.int64)" in source


def _run(root: Path, path: Path) -> Any:
    from nbmodernizer.execute import execute_notebook, prepare_run_folder

    nb = nbformat.read(path, as_version=4)
    execute_notebook(nb, prepare_run_folder(root, None), 120)
    return nb


def _streams(cell: Any) -> list[tuple[str, str]]:
    return [(o.output_type, o.get("text", o.get("ename", ""))) for o in cell.outputs]


def test_print_continuations_run_identically_after_nbmod_fix(tmp_path: Path) -> None:
    """Real code (issue #19): a continuation line that starts with `%` was read as a line
    magic, and python2.print-statement turned the call into `print(("...` (never closed)."""
    from testing.notebooks import notebook, write_notebook

    prints = (
        "import numpy as np\n"
        "x = np.arange(5.0)\n"
        'print("Mean squared error: %.2f"\n'
        "      % np.mean((x - 2 * x) ** 2))",
        'print("Variance: %.2f" \\\n      % np.var(x))\nprint("%d rows" %\n      len(x))',
        "values = np.zeros(3, dtype=np.float)\nprint(values.dtype)",
    )
    path = write_notebook(tmp_path / "prints.ipynb", notebook(*prints))
    before = _run(tmp_path / "before", path)
    assert main(["fix", str(path)]) == 0
    fixed = nbformat.read(path, as_version=4)
    assert [c.source for c in fixed.cells[1:3]] == list(prints[:2])
    assert fixed.cells[3].source == prints[2].replace("np.float", "float")
    after = _run(tmp_path / "after", path)
    assert (
        _streams(before.cells[1])
        == _streams(after.cells[1])
        == [("stream", "Mean squared error: 6.00\n")]
    )
    assert (
        _streams(before.cells[2])
        == _streams(after.cells[2])
        == [("stream", "Variance: 2.00\n5 rows\n")]
    )
    assert _streams(before.cells[3]) == [("error", "AttributeError")]
    assert _streams(after.cells[3]) == [("stream", "float64\n")]
    once = path.read_text()
    assert main(["fix", str(path)]) == 0
    assert path.read_text() == once


def test_a_dict_of_data_frames_is_left_alone_and_a_frame_fixed(tmp_path: Path) -> None:
    """Real code (issue #19): `data['tra']['dow'] = ...` on a dict of DataFrames was rewritten
    into `data.loc['dow', 'tra'] = ...` (AttributeError: 'dict' object has no attribute 'loc').
    A chained assignment on a DataFrame beside it is still rewritten."""
    from testing.notebooks import notebook, write_notebook

    sources = (
        "import pandas as pd\n"
        "data = {'tra': pd.DataFrame({'x': [1, 2]}), 'tes': pd.DataFrame({'x': [3]})}\n"
        "df = pd.DataFrame({'a': [1, 2], 'b': [0, 0]})",
        "data['tra']['dow'] = data['tra']['x'] * 2\nprint(data['tra']['dow'].tolist())",
        "df['b'][df['a'] > 1] = 5\nprint(df['b'].tolist())",
    )
    path = write_notebook(tmp_path / "frames.ipynb", notebook(*sources))
    before = _run(tmp_path / "before", path)
    assert main(["fix", str(path)]) == 0
    fixed = nbformat.read(path, as_version=4)
    assert fixed.cells[2].source == sources[1]
    assert fixed.cells[3].source != sources[2] and ".loc[" in fixed.cells[3].source
    after = _run(tmp_path / "after", path)
    assert _streams(before.cells[2]) == _streams(after.cells[2]) == [("stream", "[2, 4]\n")]
    assert _streams(after.cells[3]) == [("stream", "[0, 5]\n")]
    assert _streams(before.cells[3]) != _streams(after.cells[3])  # pandas 3 ignored it before
    once = path.read_text()
    assert main(["fix", str(path)]) == 0
    assert path.read_text() == once
