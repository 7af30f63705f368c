"""The differential run (issue #22): `nbmod modernize --oracle-python` runs revision 0 in an era's
interpreter (.eras/2019, made by scripts/era-envs) on a real kernel, records what each cell
binds there and in the best revision's run today, and names the first cell whose values
diverge. Two silent-drift notebooks: `.ix` on positions and on a label in one cell, and a
chained assignment that copy-on-write ignores today. Each is modernized right (the rules) and
wrong (an LLM's off-by-one rewrite from a scripted server; no fixer at all), and the wrong run
is caught at the cell that went wrong, by values both kernels computed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import nbmodernizer
from nbmodernizer.admit import InvalidInputError
from nbmodernizer.bound_cells import mutated_names
from nbmodernizer.bound_values import fingerprint
from nbmodernizer.cli import main
from nbmodernizer.notebook import CodeCell
from nbmodernizer.oracle import BoundRecord, CellPrint, EraRun, Side, compare
from nbmodernizer.status import CellFidelity, ExecutionResult, ExecutionStatus
from testing.factories import scored
from testing.llm_server import Answer, fix_reply, scripted_llm
from testing.notebooks import READ, WRITE, kaggle_folder, notebook

ROOT = Path(__file__).resolve().parents[1]
ERA = ROOT / ".eras" / "2019" / "bin" / "python"

TRAIN = "id,f1,f2,target\n1,0.5,3,1\n2,-1.0,4,0\n3,2.0,5,1\n4,-0.1,6,0\n"
# One cell, `.ix` twice: positions on string-labelled columns (pandas < 1.0 fell back to
# positions: `.iloc`) and a label (`.loc`)
IX = (
    # matplotlib: the era's ipykernel 5 sets its own inline backend (no matplotlib_inline there)
    "%matplotlib inline\nimport matplotlib.pyplot as plt\nimport pandas as pd\n"
    "train = pd.read_csv('../input/train.csv')",
    "X = train.ix[:, 1:-1]\ny = train.ix[:, 'target']",
    "test = pd.read_csv('../input/test.csv')\n"
    "test['y'] = (test['x'] > X['f1'].min() + 1).astype(int)",
    WRITE,
)
IX_OFF_BY_ONE = "X = train.iloc[:, 1:]\ny = train.loc[:, 'target']"  # keeps the target in X
# In pandas 0.25 the chained assignment sets y; under copy-on-write (pandas 3) it does nothing
CHAINED = (READ, "test['y'] = 0\ntest['y'][test['x'] > 0] = 1", WRITE)


def era_python() -> str:
    if not ERA.exists():
        pytest.skip(f"{ERA} is missing: make it with scripts/era-envs 2019 (CI does)")
    return str(ERA)


def run(root: Path, sources: tuple[str, ...], **spec: Any) -> dict[str, Any]:
    spec_path = kaggle_folder(root, *sources, **spec)
    (root / "input" / "train.csv").write_text(TRAIN)
    out = root / "out"
    main(["modernize", str(spec_path), "--out", str(out), "--oracle-python", era_python()])
    report: dict[str, Any] = json.loads((out / "report.json").read_text())
    return report


def by_cell(report: dict[str, Any]) -> dict[int, str]:
    return {cell["index"]: cell["fidelity"] for cell in report["oracle"]["cells"]}


# -- .ix on positions and a label in one cell ----------------------------------------------------


@pytest.fixture(scope="module")
def ix_right(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run(tmp_path_factory.mktemp("ix-right"), IX)


@pytest.mark.kernel
def test_the_rules_rewrite_of_ix_computes_what_the_era_computed(
    ix_right: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> None:
    oracle = ix_right["oracle"]
    assert ix_right["outcome"] == "ErrorFreeReproducible", ix_right
    assert oracle["pythonVersion"].startswith("3.7.") and oracle["packages"]["pandas"] == "0.25.3"
    assert oracle["score"] == 1.0 and oracle["reproduced"] is True  # the era score
    assert oracle["revision"] == ix_right["bestRevision"] > 0
    assert oracle.get("firstDivergence") is None
    assert by_cell(ix_right) == {1: "same", 2: "same", 3: "same", 4: "same"}
    assert [c["detail"] for c in oracle["cells"] if c["index"] == 2] == ["X, y"]


@pytest.mark.kernel
def test_a_wrong_rewrite_of_ix_is_named_at_its_cell(tmp_path: Path) -> None:
    """An LLM rewrites the failing `.ix` cell with an off-by-one slice: it runs today, the
    score still comes back, but X is not the era's X."""
    with (
        scripted_llm(Answer(fix_reply({2: IX_OFF_BY_ONE}))) as llm,
        pytest.MonkeyPatch.context() as env,
    ):
        env.setenv("OPENAI_BASE_URL", llm.url)
        env.setenv("OPENAI_API_KEY", "sk-test")
        report = run(tmp_path, IX, fix={"fixers": ["llm"], "llm": {"model": "test-model"}})
    assert len(llm.requests) == 1
    assert report["outcome"] == "ErrorFreeReproducible"  # the score does not see it
    first = report["oracle"]["firstDivergence"]
    assert first["cell"] == first["eraCell"] == 2 and first["name"] == "X" and first["rewritten"]
    assert first["difference"] == "X: shape [4, 2] != [4, 3]"
    assert by_cell(report)[1] == "same" and by_cell(report)[2] == "diverges"
    html = (tmp_path / "out" / "report.html").read_text()
    assert "First diverging cell: <strong>cell 2</strong>" in html
    assert "X: shape [4, 2] != [4, 3]" in html


# -- a chained assignment ---------------------------------------------------------------------


@pytest.mark.kernel
def test_the_rules_rewrite_of_a_chained_assignment_agrees_with_the_era(tmp_path: Path) -> None:
    report = run(tmp_path, CHAINED)
    assert report["outcome"] == "ErrorFreeReproducible", report
    assert report["oracle"]["score"] == 1.0
    assert report["oracle"].get("firstDivergence") is None
    assert by_cell(report)[2] == "same"
    fix = report["fixes"][0]
    assert [use["rule"] for use in fix["rules"]] == ["pandas.chained-assignment"]


@pytest.mark.kernel
def test_an_unrewritten_chained_assignment_diverges_where_it_stands(tmp_path: Path) -> None:
    """No fixer: the final revision is the original, which raises nothing today; the
    assignment silently does nothing, and the report says where."""
    report = run(tmp_path, CHAINED, fix={"fixers": []})
    oracle = report["oracle"]
    assert oracle["score"] == 1.0 and report["score"]["value"] == 0.5
    assert oracle["revision"] == 0
    assert oracle["firstDivergence"]["cell"] == 2 and oracle["firstDivergence"]["name"] == "test"
    assert oracle["firstDivergence"]["difference"].startswith("test['y']")
    assert oracle["firstDivergence"]["rewritten"] is False  # no fixer touched it
    assert by_cell(report) == {1: "same", 2: "diverges", 3: "diverges"}


# -- what is stored, and a bad interpreter ----------------------------------------------------


@pytest.mark.kernel
def test_the_era_run_is_stored_beside_an_unchanged_revision_0(
    ix_right: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> None:
    uri = ix_right["revisions"][0]["uri"]
    folder = Path(uri.removeprefix("file://")).parent  # the uri names revision 0's notebook
    root = folder.parents[2]
    assert (folder / "notebook.ipynb").read_bytes() == (root / "notebook.ipynb").read_bytes()
    era = EraRun.parse(json.loads((folder / "oracle.json").read_text()))
    assert len(era.runs) == 2 and era.score.value == 1.0
    assert sorted(era.bound.cells[2].values) == ["X", "y"]
    best = root / "out" / "revisions" / f"{ix_right['bestRevision']:04d}"
    assert (best / "bound.json").is_file()


def test_a_bad_oracle_python_is_refused_as_python_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, out = kaggle_folder(tmp_path / "case"), tmp_path / "out"
    nope = tmp_path / "nope"
    assert main(["modernize", str(spec), "--out", str(out), "--oracle-python", str(nope)]) == 2
    assert f"nbmod: --oracle-python: {nope}: no such file or command" in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(InvalidInputError, match=r"^oracle_python=: /bin/false: not a Python 3"):
        nbmodernizer.modernize(spec, out, oracle_python="/bin/false")
    assert not out.exists()


# -- the comparison on its own ------------------------------------------------------------------


def ran(*errors: int) -> ExecutionResult:
    from nbmodernizer.status import CellError

    return ExecutionResult(
        status=ExecutionStatus.COMPLETED,
        duration_seconds=1.0,
        cell_errors=[CellError(cell_index=i, ename="KeyError", evalue="'a'") for i in errors],
    )


def record(
    cells: dict[int, dict[str, Any]], unstable: dict[int, list[str]] | None = None
) -> BoundRecord:
    prints = {
        i: CellPrint({k: fingerprint(v) for k, v in values.items()}) for i, values in cells.items()
    }
    return BoundRecord(prints, unstable or {})


def test_cells_are_matched_across_an_added_cell_and_random_values_are_not_compared() -> None:
    original = notebook("a = 1", "b = [1, 2]", "c = 3")
    final = notebook("a = 1", "import numpy as np", "b = [1, 2]", "c = 3")
    era = EraRun(
        "py",
        "3.7.16",
        {},
        [ran()],
        scored(1.0),
        record({1: {"a": 1}, 2: {"b": [1, 2]}, 3: {"c": 3}}, {3: ["c"]}),
    )
    today = Side(final, ran(), record({1: {"a": 1}, 2: {}, 3: {"b": [1, 3]}, 4: {"c": 4}}), "today")
    report = compare(era, original, today, 1)
    assert [(c.index, c.era_index, c.fidelity) for c in report.cells] == [
        (1, 1, CellFidelity.SAME),
        (2, None, CellFidelity.NOT_COMPARABLE),
        (3, 2, CellFidelity.DIVERGES),
        (4, 3, CellFidelity.NOT_COMPARABLE),
    ]
    assert report.first_divergence is not None
    assert (report.first_divergence.cell, report.first_divergence.era_cell) == (3, 2)
    assert report.first_divergence.difference == "b[1]: 2 != 3"
    assert not report.first_divergence.rewritten  # moved, not changed
    assert report.cells[3].detail == "random: c"


def test_a_cell_that_raised_or_was_not_reached_is_not_run_and_malformed_data_is_no_crash() -> None:
    original = notebook("a = 1", "b = 2", "c = 3")
    era = EraRun(
        "py", None, {}, [ran(2)], scored(None, "no submission"), record({1: {"a": 1}, 2: {}})
    )
    broken = BoundRecord({1: CellPrint({"a": {"kind": "int"}})})  # no value: not readable
    report = compare(era, original, Side(original, ran(), broken, "today"), 0)
    assert [(c.fidelity, c.detail) for c in report.cells] == [
        (CellFidelity.NOT_COMPARABLE, "a: a fingerprint that cannot be read ('value')"),
        (CellFidelity.NOT_RUN, "raised in the era: KeyError: 'a'"),
        (CellFidelity.NOT_RUN, "not reached in the era"),
    ]
    assert report.first_divergence is None and report.score is None


def test_the_names_a_cell_may_change_are_read_from_its_syntax() -> None:
    cell = CodeCell(
        1,
        "%matplotlib inline\n"
        "df['a'][df['b'] > 0] = 1\n"
        "x, (y, z) = 1, (2, 3)\n"
        "model.fit(X, y)\n"
        "total += 1\n"
        "for row in rows:\n    seen.add(row)\n"
        "def f(a):\n    local = a\n    return local\n"
        "obj.attr.inner = 2\n"
        "print(df.shape)\n",
    )
    assert mutated_names(cell) == [
        "df", "model", "obj", "row", "seen", "total", "x", "y", "z"
    ]  # fmt: skip
    assert mutated_names(CodeCell(1, "%%bash\necho hi")) == []
