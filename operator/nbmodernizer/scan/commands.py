"""`nbmod scan` and `nbmod fix`: the rulebook without running anything."""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import nbformat

from nbmodernizer.scan import formats
from nbmodernizer.scan.batch import changed_files, scan_all
from nbmodernizer.scan.finding import FileReport, Scanner, build_scanner
from nbmodernizer.scan.sources import SourceError, find
from nbmodernizer.scan.summary import render, summarize

EXIT_CLEAN, EXIT_FOUND, EXIT_BAD_INPUT = 0, 1, 2

_STATIC = (
    "Finds what the loop's rules would change before anything runs: every rule with a probe "
    "that says the installed library lacks the legacy API, for files that import its library. "
    "Reactive-only rules (applied when a cell's error matches, such as `x.append(...)` on a "
    "DataFrame) and score-calibration rules need a run and are not found here."
)


def _version() -> str:
    try:
        return version("nbmodernizer")
    except PackageNotFoundError:
        return "0"


def _scanner(args: argparse.Namespace) -> Scanner:
    return build_scanner(_split(args.select), _split(args.ignore), args.gpu)


def _split(values: Sequence[str] | None) -> list[str]:
    return [part for value in values or () for part in value.split(",") if part]


def _reports(args: argparse.Namespace, with_text: bool = False) -> list[FileReport] | None:
    try:
        paths = find(args.paths)
    except SourceError as error:
        print(f"nbmod {args.command}: {error}", file=sys.stderr)
        return None
    reports = scan_all(_scanner(args), paths, args.jobs, with_text)
    for report in reports:
        if report.error:
            print(f"nbmod {args.command}: {report.error}", file=sys.stderr)
        for problem in report.cell_errors:
            print(f"nbmod {args.command}: {report.path}: {problem}", file=sys.stderr)
    return reports


def _bad_input(reports: Sequence[FileReport]) -> bool:
    """A file or a cell of one that could not be read or rewritten (exit code 2)."""
    return any(report.error or report.cell_errors for report in reports)


def _scan(args: argparse.Namespace) -> int:
    reports = _reports(args)
    if reports is None:
        return EXIT_BAD_INPUT
    findings = [f for report in reports for f in report.findings]
    defects = [d for report in reports for d in report.defects]
    if args.summary:
        summary = summarize(reports)
        print(json.dumps(summary, indent=2) if args.format == "json" else render(summary), end="")
    elif args.format == "json":
        print(formats.as_json(findings, defects), end="")
    elif args.format == "sarif":
        log = formats.sarif(findings, _scanner(args).rules, _version(), defects)
        print(json.dumps(log, indent=2))
    else:
        print(formats.text(findings, defects), end="")
    if _bad_input(reports):
        return EXIT_BAD_INPUT
    return EXIT_FOUND if findings else EXIT_CLEAN


def _diff(report: FileReport, before: str) -> str:
    """A unified diff: of the file for a .py file, of each changed cell's source for a
    notebook (`a/PATH:cell N`; the JSON around it follows nbformat)."""
    assert report.text_after is not None
    if not report.path.endswith(".ipynb"):
        pairs = [(report.path, before, report.text_after)]
    else:
        notebook = nbformat.reads(before, as_version=4)
        pairs = [
            (f"{report.path}:cell {index + 1}", notebook.cells[index].source, source)
            for index, source in sorted(report.rewritten.items())
        ]
    return "".join(
        "".join(
            difflib.unified_diff(_lines(old), _lines(new), f"a/{name}", f"b/{name}", lineterm="\n")
        )
        for name, old, new in pairs
    )


def _lines(text: str) -> list[str]:
    return [line + "\n" for line in text.split("\n")] if text else []


def _fix(args: argparse.Namespace) -> int:
    reports = _reports(args, with_text=True)
    if reports is None:
        return EXIT_BAD_INPUT
    changed = 0
    for report, before in changed_files(reports):
        assert report.text_after is not None
        changed += 1
        if args.diff:
            sys.stdout.write(_diff(report, before))
            continue
        Path(report.path).write_text(report.text_after, encoding="utf-8")
        rules = sorted({f.rule for f in report.findings})
        print(f"fixed {report.path}: {', '.join(rules)}", file=sys.stderr)
    for defect in (d for report in reports for d in report.defects):
        print(formats.describe_defect(defect), file=sys.stderr)
    verb = "would fix" if args.diff else "fixed"
    print(f"{verb} {changed} file{'s' if changed != 1 else ''}", file=sys.stderr)
    if _bad_input(reports):
        return EXIT_BAD_INPUT
    return EXIT_FOUND if args.diff and changed else EXIT_CLEAN


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="notebooks, .py files, folders")
    parser.add_argument(
        "--select",
        action="append",
        help="only these rules: rule ids or libraries, prefixes as in ruff (pandas, "
        "sklearn.cross-validation-module); comma-separated or repeated",
    )
    parser.add_argument("--ignore", action="append", help="not these rules (as --select)")
    parser.add_argument(
        "--gpu", action="store_true", help="the notebooks will run with a GPU (keep GPU settings)"
    )
    parser.add_argument("-j", "--jobs", type=int, help="processes (default: one per CPU core)")


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    scan = commands.add_parser(
        "scan",
        help="list legacy API uses in notebooks and .py files, without running anything",
        description=_STATIC + " Exit codes: 0 nothing found, 1 findings, 2 bad input.",
    )
    _common(scan)
    scan.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    scan.add_argument(
        "--summary", action="store_true", help="counts by library and rule, and the triage"
    )
    scan.set_defaults(handler=_scan)
    fix = commands.add_parser(
        "fix",
        help="apply the rules `nbmod scan` finds, in place",
        description=_STATIC
        + " Changed cells lose their outputs (as in the loop); other cells are kept."
        " Exit codes: 0 done (with --diff: nothing to change), 1 with --diff: changes shown,"
        " 2 bad input.",
    )
    _common(fix)
    fix.add_argument("--diff", action="store_true", help="print a unified diff, write nothing")
    fix.set_defaults(handler=_fix)
