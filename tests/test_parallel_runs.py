"""Runs of one revision execute at once, each in its own kernel and folder; with
`runsPolicy: adaptive` the runs that are no longer needed are cancelled."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from nbmodernizer.cli import main
from testing.notebooks import PREDICT, READ, WRITE, kaggle_folder

pytestmark = pytest.mark.kernel

# Each run leaves (start, end) in a folder beside the inputs, so the test sees when it ran.
STAMP = (
    "import os, time, uuid\n"
    "started = time.time()\n"
    "time.sleep({seconds})\n"
    "os.makedirs('../input/stamps', exist_ok=True)\n"
    "with open(f'../input/stamps/{{uuid.uuid4()}}', 'w') as f:\n"
    "    f.write(f'{{started}} {{time.time()}}')"
)


def stamps(root: Path) -> list[tuple[float, float]]:
    found = []
    for path in (root / "input" / "stamps").iterdir():
        start, end = path.read_text().split()
        found.append((float(start), float(end)))
    return found


def modernize(root: Path, *args: str, seconds: float, **score: Any) -> dict[str, Any]:
    spec = kaggle_folder(root, READ, PREDICT, STAMP.format(seconds=seconds), WRITE, score=score)
    code = main(["modernize", str(spec), "--out", str(root / "out"), *args])
    report: dict[str, Any] = json.loads((root / "out" / "report.json").read_text())
    assert code == 0, report["message"]
    return report


def test_four_runs_execute_at_once_and_all_four_are_graded(tmp_path: Path) -> None:
    report = modernize(tmp_path, "--parallel-runs", "4", seconds=4, runs=4)
    revision = report["revisions"][0]
    assert revision["scores"] == [1.0] * 4 and revision["evidence"] == "all 4 run(s)"
    assert report["score"]["reproduced"]
    revision = tmp_path / "out" / "revisions" / "0000"
    assert sorted(p.name for p in revision.glob("submission*.csv")) == [
        "submission-1.csv",
        "submission-2.csv",
        "submission-3.csv",
        "submission.csv",
    ]
    assert len(json.loads((revision / "execution.json").read_text())["runs"]) == 4
    runs = stamps(tmp_path)
    assert len(runs) == 4
    assert max(start for start, _ in runs) < min(end for _, end in runs)  # all four overlapped


def test_one_at_a_time_when_asked(tmp_path: Path) -> None:
    modernize(tmp_path, "--parallel-runs", "1", seconds=0.5, runs=2)
    first, second = sorted(stamps(tmp_path))
    assert first[1] <= second[0]


def test_adaptive_cancels_the_runs_it_no_longer_needs(tmp_path: Path) -> None:
    # runs 0-2 start together; runs 3 and 4 start as 0 and 1 end, and are cancelled when
    # run 2 ends, long before they would stamp
    report = modernize(tmp_path, "--parallel-runs", "3", seconds=3, runs=10, runsPolicy="adaptive")
    revision = report["revisions"][0]
    assert revision["scores"] == [1.0] * 3 and report["score"]["reproduced"]
    assert "inside the band [0.9, 1.1] after 3 of 10 runs" in revision["evidence"]
    execution = json.loads((tmp_path / "out/revisions/0000/execution.json").read_text())
    assert len(execution["runs"]) == 3
    assert len(stamps(tmp_path)) == 3  # the later runs were cancelled before they stamped


def test_a_bad_parallel_runs_setting_names_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = kaggle_folder(tmp_path)
    monkeypatch.setenv("NBMOD_PARALLEL_RUNS", "zero")
    assert main(["modernize", str(spec), "--out", str(tmp_path / "out")]) == 2
    assert "--parallel-runs / NBMOD_PARALLEL_RUNS: not a count >= 1: 'zero'" in (
        capsys.readouterr().err
    )
