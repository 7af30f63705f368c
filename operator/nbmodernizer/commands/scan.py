"""`nbmod scan` and `nbmod fix`: their flags, read into `ScanOptions` and `FixOptions` for
`nbmodernizer.scan.commands`."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from nbmodernizer.scan.commands import fix, scan
from nbmodernizer.scan.options import FixOptions, ScanOptions, Selection

_STATIC = (
    "Finds what the loop's rules would change before anything runs: every rule with a probe "
    "that says the installed library lacks the legacy API, for files that import its library. "
    "Reactive-only rules (applied when a cell's error matches, such as `x.append(...)` on a "
    "DataFrame) and score-calibration rules need a run and are not found here."
)


def _split(values: Sequence[str] | None) -> tuple[str, ...]:
    """`--select a,b --select c` -> (a, b, c)."""
    return tuple(part for value in values or () for part in value.split(",") if part)


def _selection(args: argparse.Namespace) -> Selection:
    return Selection(
        command=args.command,
        paths=tuple(args.paths),
        select=_split(args.select),
        ignore=_split(args.ignore),
        gpu=args.gpu,
        jobs=args.jobs,
    )


def scan_options(args: argparse.Namespace) -> ScanOptions:
    return ScanOptions(_selection(args), format=args.format, summary=args.summary)


def fix_options(args: argparse.Namespace) -> FixOptions:
    return FixOptions(_selection(args), diff=args.diff)


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
    scanner = commands.add_parser(
        "scan",
        help="list legacy API uses in notebooks and .py files, without running anything",
        description=_STATIC + " Exit codes: 0 nothing found, 1 findings, 2 bad input.",
    )
    _common(scanner)
    scanner.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    scanner.add_argument(
        "--summary", action="store_true", help="counts by library and rule, and the triage"
    )
    scanner.set_defaults(handler=lambda args: scan(scan_options(args)))
    fixer = commands.add_parser(
        "fix",
        help="apply the rules `nbmod scan` finds, in place",
        description=_STATIC
        + " Changed cells lose their outputs (as in the loop); other cells are kept."
        " Exit codes: 0 done (with --diff: nothing to change), 1 with --diff: changes shown,"
        " 2 bad input.",
    )
    _common(fixer)
    fixer.add_argument("--diff", action="store_true", help="print a unified diff, write nothing")
    fixer.set_defaults(handler=lambda args: fix(fix_options(args)))
