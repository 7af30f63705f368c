"""`nbmod modernize` end to end on real notebooks and a real kernel, good input and bad."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from sklearn.metrics import accuracy_score

from nbmodernizer.cli import main
from testing.notebooks import PREDICT, READ, WRITE, kaggle_folder, nbformat3

pytestmark = pytest.mark.kernel
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def modernize(
    spec: Path, out: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, dict[str, Any], str]:
    code = main(["modernize", str(spec), "--out", str(out), "--json"])
    captured = capsys.readouterr()
    report = json.loads((out / "report.json").read_text())
    assert json.loads(captured.out) == report  # --json prints exactly report.json
    return code, report, captured.err


def revision0(out: Path) -> bytes:
    return (out / "revisions" / "0000" / "notebook.ipynb").read_bytes()


def test_run_as_is_example_reproduces_in_one_iteration(tmp_path: Path) -> None:
    example = EXAMPLES / "cancer-rf-2017"
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "nbmodernizer.cli",
            "modernize",
            str(example / "spec.yaml"),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["outcome"] == "ErrorFreeReproducible"
    assert report["iterations"] == 1 and report["fixes"] == []
    # an independent grading of the stored submission
    submission = pd.read_csv(out / "revisions/0000/submission.csv")
    answers = pd.read_csv(example / "answers.csv")
    joined = answers.merge(submission, on="id", suffixes=("", "_pred"))
    assert len(joined) == len(answers)
    assert report["score"]["value"] == accuracy_score(joined["diagnosis"], joined["diagnosis_pred"])
    assert revision0(out) == (example / "notebook.ipynb").read_bytes()
    assert (out / "final.ipynb").is_file() and (out / "report.html").is_file()
    assert "iteration 1/16" in done.stderr


def test_missing_notebook(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = kaggle_folder(tmp_path / "case")
    (tmp_path / "case" / "notebook.ipynb").unlink()
    code, report, err = modernize(spec, tmp_path / "out", capsys)
    assert code == 2
    assert report["outcome"] == "Failed" and report["phase"] == "Failed"
    assert report["lastError"] == "spec.notebook: file not found: notebook.ipynb"
    assert "spec.notebook: file not found" in err


def test_invalid_json_keeps_revision0_byte_identical(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = kaggle_folder(tmp_path / "case")
    broken = b'{"cells": [ {"cell_type": "code",, }'
    (tmp_path / "case" / "notebook.ipynb").write_bytes(broken)
    code, report, _ = modernize(spec, tmp_path / "out", capsys)
    assert code == 2 and report["outcome"] == "Failed"
    assert report["lastError"] == (
        "spec.notebook: not valid JSON: Expecting property name enclosed in double quotes"
        " at line 1 column 34"
    )
    assert revision0(tmp_path / "out") == broken


def test_nbformat3_is_upgraded_and_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = kaggle_folder(tmp_path / "case")
    original = nbformat3(READ, PREDICT, WRITE).encode()
    (tmp_path / "case" / "notebook.ipynb").write_bytes(original)
    code, report, _ = modernize(spec, tmp_path / "out", capsys)
    assert code == 0 and report["outcome"] == "ErrorFreeReproducible"
    assert report["score"]["value"] == 1.0
    assert "upgraded from nbformat 3 to 4" in report["notes"]
    assert revision0(tmp_path / "out") == original
    assert json.loads((tmp_path / "out" / "final.ipynb").read_text())["nbformat"] == 4


def test_spec_without_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = kaggle_folder(tmp_path / "case")
    text = spec.read_text().replace("    target: 1.0\n", "")
    assert "target" not in text
    spec.write_text(text)
    code, report, err = modernize(spec, tmp_path / "out", capsys)
    assert code == 2 and report["outcome"] == "Failed"
    assert "spec.score.target: Field required" in report["lastError"]
    assert "spec.score.target: Field required" in err
    assert revision0(tmp_path / "out") == (tmp_path / "case" / "notebook.ipynb").read_bytes()


def test_answers_without_id_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = kaggle_folder(tmp_path / "case")
    (tmp_path / "case" / "answers.csv").write_text("Id,y\n1,1\n2,0\n")
    code, report, _ = modernize(spec, tmp_path / "out", capsys)
    assert code == 2 and report["outcome"] == "Failed"
    assert (
        "spec.score.answers:" in report["lastError"] and "no id column 'id'" in report["lastError"]
    )
    assert revision0(tmp_path / "out") == (tmp_path / "case" / "notebook.ipynb").read_bytes()
    assert report["iterations"] == 0  # nothing was executed


def test_notebook_that_never_writes_the_submission(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = kaggle_folder(tmp_path / "case", READ, PREDICT)
    code, report, _ = modernize(spec, tmp_path / "out", capsys)
    assert code == 1
    assert report["outcome"] == "ErrorFreeNonReproducible"
    assert report["lastIssue"] == "Error"
    assert report["lastError"] == "the notebook did not write submission.csv"
    assert report["stopReason"].startswith("no fixer changed the notebook")


def test_notebook_that_sleeps_past_its_timeout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = kaggle_folder(
        tmp_path / "case",
        READ,
        "import time\ntime.sleep(120)",
        PREDICT,
        WRITE,
        execution={"timeoutSeconds": 3},
    )
    code, report, _ = modernize(spec, tmp_path / "out", capsys)
    assert code == 1
    assert report["lastIssue"] == "Timeout"
    assert report["outcome"] == "ErrorNonReproducible"
    assert report["revisions"][0]["durationSeconds"] < 30
    executed = json.loads((tmp_path / "out" / "revisions/0000/executed.ipynb").read_text())
    assert executed["cells"][1]["execution_count"] == 1  # the cell before the sleep ran


def test_missing_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = kaggle_folder(tmp_path / "case")
    shutil.rmtree(tmp_path / "case" / "input")
    code, report, _ = modernize(spec, tmp_path / "out", capsys)
    assert code == 2 and report["outcome"] == "Failed"
    assert report["lastError"].startswith("spec.inputs:")


def test_out_folder_is_never_reused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = kaggle_folder(tmp_path / "case")
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    assert main(["modernize", str(spec), "--out", str(out)]) == 2
    assert "is not empty" in capsys.readouterr().err
    assert (out / "keep.txt").read_text() == "mine"
