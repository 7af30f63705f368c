"""corpus/precision.py: the hand audit of findings on real code is well-formed, and the
intervals it reports are Wilson's."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from corpus import precision


def test_the_audit_rows_are_well_formed_and_the_new_round_is_large_enough() -> None:
    rows = precision.read_audit()  # raises on a wrong column, round, set or verdict
    latest = [row for row in rows if row.round == max(precision.ROUNDS)]
    assert len(latest) >= 150
    assert all(row.set == "notebooks" and row.line for row in latest)


def test_a_bad_row_is_named(tmp_path: Path) -> None:
    path = tmp_path / "audit.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(precision.AUDIT_COLUMNS)
        writer.writerow(["9", "notebooks", "r", "s", "x = 1", "TP", "why"])
    with pytest.raises(ValueError, match=r"audit.csv:2: round '9'"):
        precision.read_audit(path)


def test_wilson_interval_matches_the_issues_figures() -> None:
    # issue #19: 6 of 60 false, 95% CI 4.7-20%
    low, high = precision.wilson(6, 60)
    assert (round(low, 3), round(high, 3)) == (0.047, 0.201)
    assert precision.wilson(0, 160)[0] == pytest.approx(0.0, abs=1e-12)
