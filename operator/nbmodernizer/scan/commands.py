"""`nbmod scan` and `nbmod fix`: the rulebook without running anything."""

from __future__ import annotations

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
from nbmodernizer.scan.options import FixOptions, ScanOptions, Selection
from nbmodernizer.scan.sources import SourceError, find
from nbmodernizer.scan.summary import render, summarize

EXIT_CLEAN, EXIT_FOUND, EXIT_BAD_INPUT = 0, 1, 2


def _version() -> str:
    try:
        return version("nbmodernizer")
    except PackageNotFoundError:
        return "0"


def _scanner(args: Selection) -> Scanner:
    return build_scanner(args.select, args.ignore, args.gpu)


def _reports(args: Selection, with_text: bool = False) -> list[FileReport] | None:
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


def scan(args: ScanOptions) -> int:
    reports = _reports(args.selection)
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
        log = formats.sarif(findings, _scanner(args.selection).rules, _version(), defects)
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


def fix(args: FixOptions) -> int:
    reports = _reports(args.selection, with_text=True)
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
