"""The corpus's shared generators (corpus/data/) still write the committed bytes: each case whose
make_data.py names one is regenerated in a temporary folder and compared file by file. Cases
that train a model (torch, lightgbm, xgboost) take minutes and are left to `python -m
corpus.data`."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus.data.__main__ import CASES, regenerate

TRAINING = ("import torch", "import lightgbm", "import xgboost")


def shared_cheap_cases() -> list[Path]:
    cases = []
    for script in sorted(CASES.glob("*/make_data.py")):
        text = script.read_text(encoding="utf-8")
        if "from corpus.data." in text and not any(m in text for m in TRAINING):
            cases.append(script.parent)
    return cases


def test_cases_share_generators() -> None:
    assert len(shared_cheap_cases()) >= 20


@pytest.mark.parametrize("case", shared_cheap_cases(), ids=lambda case: case.name)
def test_generator_writes_the_committed_bytes(case: Path, tmp_path: Path) -> None:
    (tmp_path / "make_data.py").write_bytes((case / "make_data.py").read_bytes())
    regenerate(tmp_path)
    written = sorted(
        path.relative_to(tmp_path)
        for path in tmp_path.rglob("*")
        if path.is_file() and path.name != "make_data.py"
    )
    assert Path("answers.csv") in written
    differ = [
        str(path)
        for path in written
        if (tmp_path / path).read_bytes() != (case / path).read_bytes()
    ]
    assert not differ, f"{case.name}: regenerated files differ from the committed ones: {differ}"
