"""Regenerate the cases' data: `python -m corpus.data [CASE ...]` (from the repository root) runs
each case's `make_data.py` in its case folder, every case when none is named. Each script writes
its `input/`, `answers.csv` and, for an environment-stop case, `reference/input/`; run it and
`git status` shows nothing when the generators still write the committed bytes."""

from __future__ import annotations

import argparse
import os
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path

CASES = Path(__file__).resolve().parent.parent / "cases"


def regenerate(case: Path) -> None:
    script = case / "make_data.py"
    if not script.is_file():
        raise SystemExit(f"{case.name}: no make_data.py in {case}")
    here = Path.cwd()
    os.chdir(case)  # the scripts write input/ and answers.csv beside themselves
    try:
        runpy.run_path(str(script), run_name="__main__")
    finally:
        os.chdir(here)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m corpus.data", description=__doc__)
    parser.add_argument("cases", nargs="*", help="case names (default: every case)")
    args = parser.parse_args(argv)
    names = args.cases or sorted(p.parent.name for p in CASES.glob("*/make_data.py"))
    for name in names:
        case = CASES / name
        if not case.is_dir():
            print(f"python -m corpus.data: no case {name!r} under {CASES}", file=sys.stderr)
            return 2
        print(name, file=sys.stderr)
        regenerate(case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
