"""The precision suite (benchmarks/precision.py) on a seeded sample of the installed libraries'
own code: no rule may break a cell, need a second pass, or crash on code nobody here wrote."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from benchmarks import precision

from nbmodernizer.scan.finding import FileReport
from nbmodernizer.scan.sources import SourceFile

SEED = 19
FILES = 10
SMALL = 12_000  # bytes: a sample that runs in well under a minute on a busy 2-core machine


def _sample() -> list[Path]:
    small = [p for p in precision.library_files() if p.stat().st_size < SMALL]
    # seaborn's compatibility shim calls a matplotlib function gone today: the rules do fire
    fires = precision.SITE_PACKAGES / "seaborn" / "_compat.py"
    return [fires, *random.Random(SEED).sample(small, FILES)]


def test_a_seeded_sample_of_library_code_is_never_broken() -> None:
    paths = _sample()
    summary = precision.totals(precision.run(paths, jobs=2))
    assert summary["files"] == len(paths) and summary["lines"] > 1_000
    assert summary["findings"] >= 1, summary["rules"]
    assert (summary["cells_broken"], summary["non_idempotent_files"], summary["crashes"]) == (
        0,
        0,
        0,
    ), (summary["broken"], summary["non_idempotent"], summary["crashed"])


class _Defective:
    """A scanner whose one rule has the defect asked for (the gate in the fixer refuses such
    rewrites; the suite must count them on its own)."""

    def __init__(self, rewrite: Callable[[str], str]) -> None:
        self.rewrite = rewrite

    def scan(self, source: SourceFile) -> FileReport:
        report = FileReport(str(source.path))
        for cell in source.cells:
            after = self.rewrite(cell.source)
            if after != cell.source:
                report.rewritten[cell.index] = after
        return report


def _explode(source: str) -> str:
    raise RecursionError("maximum recursion depth exceeded")


def test_the_suite_counts_what_a_rule_must_never_do(tmp_path: Path) -> None:
    code = tmp_path / "code.py"
    code.write_text("x = 1\nprint(x)\n")
    cases: dict[str, Callable[[str], str]] = {
        "broken": lambda s: s if s.endswith("(\n") else s + "f(\n",
        "unstable": lambda s: s + "x = 2\n",
        "crash": _explode,
        "fine": lambda s: s.replace("x", "y"),
    }
    for what, rewrite in cases.items():
        outcome = precision.check(_Defective(rewrite), code)
        assert bool(outcome.broken) == (what == "broken"), what
        assert bool(outcome.unstable) == (what == "unstable"), what
        assert (outcome.crash is not None) == (what == "crash"), what
        assert outcome.changed_cells == (what != "crash"), what
    # an IPython line is not a break: the cell is read as IPython reads it
    assert precision.parses("%matplotlib inline\nx = (1 +\n     2)\n")
    assert not precision.parses("print((1\n")
