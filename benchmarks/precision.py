"""Precision of the rulebook on real code nobody here wrote: `nbmod scan` / `nbmod fix` over
every `.py` file of the installed ML libraries (or over real notebooks), counting what a
rewrite must never do.

    python benchmarks/precision.py [--jobs 2] [--json out.json] [--findings out.jsonl]
    python benchmarks/precision.py --notebooks DIR ...   # real notebooks instead
    python benchmarks/precision.py --audit FINDINGS.jsonl --sample 100   # findings to judge

Each library file is wrapped as a notebook of one code cell (the whole file: the rules see
its imports as a notebook's cell would), and goes through the scanner `nbmod scan` and
`nbmod fix` use (`scan.finding.Scanner`, the proactive rules of the installed versions).
Counted per file: the findings per rule, whether it changed, and the defects, each checked
here on its own (not by any gate in the fixer, so this shows what such a gate must refuse):

* broken cells: a cell that parses before the rewrite (as IPython reads it: its own input
  transformer, then `ast.parse`) and not after;
* non-idempotent files: a second `nbmod fix` of the fixed file changes it again;
* crashes: the scanner raised.

All three must be 0. Prints a markdown table; `--json` writes the totals, `--findings` every
finding with its line (for auditing a sample by hand). Not a test (tests/test_precision_sample.py
runs a seeded sample).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import functools
import json
import multiprocessing
import random
import sys
import time
import warnings
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import nbformat

from nbmodernizer.fixers.rules import all_libraries, all_rules
from nbmodernizer.notebook import CodeCell, code_cells
from nbmodernizer.scan.batch import imported_names
from nbmodernizer.scan.finding import FileReport, Scanner
from nbmodernizer.scan.sources import SourceError, SourceFile, read

SITE_PACKAGES = Path(sys.prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
SITE_PACKAGES = SITE_PACKAGES / "site-packages"
# the runner lock's tabular ML stack (statsmodels is not in it)
LIBRARIES = (
    "numpy",
    "pandas",
    "sklearn",
    "scipy",
    "matplotlib",
    "seaborn",
    "xgboost",
    "lightgbm",
    "skimage",
)


@dataclass
class Outcome:
    path: str
    cells: int
    lines: int
    findings: list[dict[str, Any]] = field(default_factory=list)
    changed_cells: int = 0
    broken: list[int] = field(default_factory=list)  # cell numbers that parsed and no longer do
    unstable: list[int] = field(default_factory=list)  # cells a second fix changes again
    crash: str | None = None


@functools.cache
def _transformer() -> Any:
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager()


def parses(source: str) -> bool:
    """Whether a cell parses as IPython reads it (its input transformer, then Python 3)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(_transformer().transform_cell(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def as_notebook(path: Path) -> SourceFile:
    """A library file as a notebook of one code cell; a notebook as it is."""
    if path.suffix == ".ipynb":
        return read(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SourceError(f"{path}: {error}") from None
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(text)])
    return SourceFile(path, text, tuple(code_cells(notebook)), notebook)


def _fixed(source: SourceFile, rewritten: dict[int, str]) -> SourceFile:
    cells = tuple(
        CodeCell(cell.index, rewritten.get(cell.index, cell.source)) for cell in source.cells
    )
    return SourceFile(source.path, source.text, cells, source.notebook)


class Scans(Protocol):
    def scan(self, source: SourceFile) -> FileReport: ...


def check(scanner: Scans, path: Path) -> Outcome:
    """One file through scan and fix, twice."""
    try:
        source = as_notebook(path)
    except SourceError as error:
        return Outcome(str(path), 0, 0, crash=f"unreadable: {error}")
    lines = sum(cell.source.count("\n") + 1 for cell in source.cells)
    outcome = Outcome(str(path), len(source.cells), lines)
    try:
        report = scanner.scan(source)
        again = scanner.scan(_fixed(source, report.rewritten)) if report.rewritten else None
    except (Exception, RecursionError) as error:
        outcome.crash = f"{type(error).__name__}: {error}"[:300]
        return outcome
    by_index = {cell.index: cell for cell in source.cells}
    outcome.findings = [
        {
            "rule": f.rule,
            "cell": f.cell,
            "line": f.line,
            "text": _line(by_index, f.cell, f.line),
        }
        for f in report.findings
    ]
    outcome.changed_cells = len(report.rewritten)
    for index, after in report.rewritten.items():
        before = by_index[index].source
        if parses(before) and not parses(after):
            outcome.broken.append(index + 1)
    if again is not None:
        outcome.unstable = sorted(index + 1 for index in again.rewritten)
    return outcome


def _line(by_index: dict[int, CodeCell], number: int | None, line: int) -> str:
    cell = by_index.get((number or 1) - 1)
    if cell is None:
        return ""
    lines = cell.source.split("\n")
    return lines[line - 1].strip()[:160] if 0 < line <= len(lines) else ""


_SCANNER: Scanner | None = None


def _worker(path: Path) -> Outcome:
    assert _SCANNER is not None
    return check(_SCANNER, path)


def scanner() -> Scanner:
    return Scanner(all_rules(), all_libraries())


def run(paths: Sequence[Path], jobs: int) -> list[Outcome]:
    """Every file's outcome, in the order of `paths`."""
    return sorted(outcomes(paths, jobs), key=lambda o: paths.index(Path(o.path)))


def outcomes(paths: Sequence[Path], jobs: int) -> Iterator[Outcome]:
    """Each file's outcome as it is ready; forked workers share the warmed probes."""
    global _SCANNER
    _SCANNER = scanner()
    _SCANNER.warm(imported_names(paths))
    if jobs <= 1:
        yield from map(_worker, paths)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield from pool.imap_unordered(_worker, paths)


def library_files(libraries: Iterable[str] = LIBRARIES, root: Path = SITE_PACKAGES) -> list[Path]:
    return [
        path for library in libraries if (root / library).is_dir()
        for path in sorted((root / library).rglob("*.py"))
    ]  # fmt: skip


def sample(paths: Sequence[Path], count: int, seed: int) -> list[Path]:
    return sorted(random.Random(seed).sample(list(paths), min(count, len(paths))))


def totals(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    rules = Counter(f["rule"] for o in outcomes for f in o.findings)
    return {
        "files": len(outcomes),
        "cells": sum(o.cells for o in outcomes),
        "lines": sum(o.lines for o in outcomes),
        "files_changed": sum(1 for o in outcomes if o.changed_cells),
        "cells_changed": sum(o.changed_cells for o in outcomes),
        "findings": sum(rules.values()),
        "cells_broken": sum(len(o.broken) for o in outcomes),
        "non_idempotent_files": sum(1 for o in outcomes if o.unstable),
        "crashes": sum(1 for o in outcomes if o.crash),
        "rules": dict(rules.most_common()),
        "broken": {o.path: o.broken for o in outcomes if o.broken},
        "non_idempotent": {o.path: o.unstable for o in outcomes if o.unstable},
        "crashed": {o.path: o.crash for o in outcomes if o.crash},
    }


def markdown(summary: dict[str, Any]) -> str:
    rows = [
        "| files | cells | lines | files changed | findings | cells broken | non-idempotent "
        "files | crashes |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        "| {files} | {cells} | {lines} | {files_changed} | {findings} | {cells_broken} | "
        "{non_idempotent_files} | {crashes} |".format(**summary),
        "",
        "| rule | findings |",
        "|---|---:|",
    ]
    rows += [f"| `{rule}` | {count} |" for rule, count in summary["rules"].items()]
    for key in ("broken", "non_idempotent", "crashed"):
        rows += [f"- {key}: {path}: {what}" for path, what in summary[key].items()]
    return "\n".join(rows) + "\n"


def audit_sample(findings: Path, count: int, seed: int) -> list[dict[str, Any]]:
    """A seeded sample of the findings `--findings` wrote, in file order (to judge by hand)."""
    rows = [json.loads(line) for line in findings.read_text().splitlines() if line]
    chosen = random.Random(seed).sample(range(len(rows)), min(count, len(rows)))
    return [rows[n] for n in sorted(chosen)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notebooks", type=Path, help="a folder of real notebooks instead")
    parser.add_argument("--libraries", default=",".join(LIBRARIES))
    parser.add_argument("--sample", type=int, help="only this many files, seeded")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write the totals here")
    parser.add_argument("--findings", type=Path, help="write every finding here (JSON lines)")
    parser.add_argument(
        "--audit", type=Path, help="print a seeded sample (--sample, default 100) of these findings"
    )
    args = parser.parse_args(argv)
    if args.audit:
        for row in audit_sample(args.audit, args.sample or 100, args.seed):
            print(json.dumps(row))
        return
    if args.notebooks:
        paths = sorted(args.notebooks.rglob("*.ipynb"))
    else:
        paths = library_files(args.libraries.split(","))
    if args.sample:
        paths = sample(paths, args.sample, args.seed)
    started = time.perf_counter()
    root = args.notebooks or SITE_PACKAGES
    done: list[Outcome] = []
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(args.findings.open("w")) if args.findings else None
        for outcome in outcomes(paths, args.jobs):  # written as they come: a long run shows
            outcome.path = str(Path(outcome.path).relative_to(root))
            done.append(outcome)
            if outcome.broken or outcome.unstable or outcome.crash:  # seen before the end
                what = f"broken {outcome.broken} non-idempotent {outcome.unstable}"
                print(f"defect: {outcome.path}: {what} crash {outcome.crash}", file=sys.stderr)
            if out is not None:
                for finding in outcome.findings:
                    out.write(json.dumps({"path": outcome.path, **finding}) + "\n")
                out.flush()
    done.sort(key=lambda o: o.path)
    summary = {"command": " ".join(sys.argv[1:]), **totals(done)}
    summary["seconds"] = round(time.perf_counter() - started, 1)
    sys.stdout.write(markdown(summary))
    print(f"{summary['seconds']} s, {args.jobs} processes", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
