"""`nbmod`: the command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from nbmodernizer.commands import scan as scan_commands

if TYPE_CHECKING:
    from nbmodernizer.execute import ProgressCallback
    from nbmodernizer.loop import Attempt
    from nbmodernizer.status import FixRecord, OracleReport

# The loop's, the runner's and the cluster's modules are imported by the commands that use
# them: `nbmod scan` and `nbmod fix` need none of them (a second of start-up saved).
SCAN_COMMANDS = frozenset({"scan", "fix"})


class ConsoleProgress:
    """Progress on stderr: a live line on a terminal, one line per step otherwise."""

    def __init__(self, stream: TextIO = sys.stderr) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self.started = time.monotonic()

    def _say(self, text: str) -> None:
        if self.live:
            self.stream.write("\r\033[K")
        self.stream.write(text + "\n")
        self.stream.flush()

    def iteration(self, revision: int, max_iterations: int) -> None:
        self._say(f"iteration {revision + 1}/{max_iterations}: executing revision {revision}")

    def cells(self, revision: int, run: int) -> ProgressCallback | None:
        if not self.live:
            return None

        def show(done: int, total: int, elapsed: float) -> None:
            prefix = f"  run {run + 1} " if run else "  "
            self.stream.write(f"\r\033[K{prefix}cell {done}/{total} · {elapsed:.1f}s")
            self.stream.flush()

        return show

    def executed(self, attempt: Attempt) -> None:
        score = attempt.score
        value = f"{score.metric.value} {score.value:.6g}" if score.value is not None else "no score"
        self._say(
            f"  revision {attempt.revision}: {attempt.diagnosis.issue.value} · {value}"
            f" · {attempt.execution.duration_seconds:.1f}s"
            + (f" · {attempt.diagnosis.detail}" if attempt.diagnosis.detail else "")
        )

    def fixed(self, record: FixRecord | None, notes: list[str]) -> None:
        if record is None:
            self._say(
                "  no fixer changed the notebook" + (f" ({'; '.join(notes)})" if notes else "")
            )
            return
        self._say(
            f"  {record.type.value} by {record.fixer}: revision {record.iteration}"
            f" changes {len(record.changes)} cell(s) · {record.summary}"
        )


def _parallel_runs(flag: int | None) -> int | None:
    from nbmodernizer.admit import InvalidInputError

    text = str(flag) if flag is not None else os.environ.get("NBMOD_PARALLEL_RUNS")
    if text is None:
        return None
    if not text.isdigit() or int(text) < 1:
        problem = f"not a count >= 1: {text!r}"
        raise InvalidInputError(f"--parallel-runs / NBMOD_PARALLEL_RUNS: {problem}")
    return int(text)


def _modernize(args: argparse.Namespace) -> int:
    from nbmodernizer.admit import InvalidInputError
    from nbmodernizer.execute import hide_this_process
    from nbmodernizer.local import EXIT_INVALID_INPUT, kernel_python, modernize_file

    hide_this_process()  # the notebook's kernel cannot read this process's environment
    progress = ConsoleProgress()
    try:
        out = Path(args.out) if args.out else None
        parallel = _parallel_runs(args.parallel_runs)
        python = kernel_python(args.python, "--python")
        era = kernel_python(args.oracle_python, "--oracle-python") if args.oracle_python else None
        result = modernize_file(Path(args.spec), out, progress, parallel, python, era)
    except InvalidInputError as error:
        print(f"nbmod: {error}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    status = result.status
    if args.json:
        print(json.dumps(status.to_wire(), indent=2))
    else:
        print(f"{status.outcome.value if status.outcome else status.phase.value}: {status.message}")
        if status.oracle is not None:
            print(f"oracle: {oracle_line(status.oracle)}")
        print(f"report: {result.out_dir / 'report.json'}")
        if (result.out_dir / "report.html").exists():
            print(f"html:   {result.out_dir / 'report.html'}")
            print(f"final:  {result.out_dir / 'final.ipynb'}")
    if result.exit_code == EXIT_INVALID_INPUT:
        print(f"nbmod: {status.last_error}", file=sys.stderr)
    return result.exit_code


def oracle_line(oracle: OracleReport) -> str:
    """The differential run in one line: the era score, and the first diverging cell."""
    score = "no score" if oracle.score is None else f"{oracle.score:.6g}"
    first = oracle.first_divergence
    if first is not None:
        where = f"cell {first.cell} diverges first ({first.difference})"
    elif oracle.cells:
        where = "no cell diverges"
    else:
        where = oracle.note or "no cell compared"
    return f"era score {score} (Python {oracle.python_version or '?'}); {where}"


def _rules(args: argparse.Namespace) -> int:
    from nbmodernizer.fixers.rules import all_rules
    from nbmodernizer.fixers.rules.catalog_doc import markdown

    rules = all_rules()
    if args.markdown:
        print(markdown(rules), end="")
        return 0
    for rule in rules:
        print(f"{rule.id:45} {rule.library:12} {rule.changed_in:8} {rule.summary}")
    return 0


def _push(args: argparse.Namespace) -> int:
    from nbmodernizer.local import EXIT_INVALID_INPUT
    from nbmodernizer.push import PushError, push, render
    from nbmodernizer.spec import SpecError
    from nbmodernizer.store import RevisionExistsError, StoreError

    try:
        document = push(Path(args.spec), args.to)
    except (PushError, SpecError, StoreError, RevisionExistsError, ValueError) as error:
        print(f"nbmod push: {error}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    text = render(document)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0


def _fleet_make(args: argparse.Namespace) -> int:
    from nbmodernizer.fleet import FleetError, render_resources, resources_from_index
    from nbmodernizer.local import EXIT_INVALID_INPUT

    try:
        text = Path(args.index).read_text(encoding="utf-8")
        resources = resources_from_index(text, args.namespace)
        if args.scan:
            from nbmodernizer.fleet import annotate_triage

            annotate_triage(resources, Path(args.index).resolve().parent)
    except (OSError, FleetError) as error:
        print(f"nbmod fleet make: {args.index}: {error}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    rendered = render_resources(resources)
    if args.output:
        Path(args.output).write_text(rendered, encoding="utf-8")
        print(f"{len(resources)} resources written to {args.output}", file=sys.stderr)
    else:
        print(rendered, end="")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from nbmodernizer.cli_cluster import add_commands as add_cluster_commands
    from nbmodernizer.commands import memory as memory_commands
    from nbmodernizer.commands import operator as operator_command
    from nbmodernizer.commands import run_iteration as run_iteration_command

    parser = argparse.ArgumentParser(prog="nbmod", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    modernize = commands.add_parser(
        "modernize", help="run the modernization loop locally on a NotebookModernization spec"
    )
    modernize.add_argument("spec", help="the spec YAML (paths in it are relative to it)")
    modernize.add_argument("--out", help="run folder (default ./nbmod-runs/<name>); must be empty")
    modernize.add_argument("--json", action="store_true", help="print report.json on stdout")
    modernize.add_argument(
        "--parallel-runs",
        type=int,
        help="with score.runs > 1: runs executing at once (default: NBMOD_PARALLEL_RUNS, "
        "else one per CPU core)",
    )
    modernize.add_argument(
        "--python",
        metavar="PATH",
        help="the interpreter the notebook's kernel runs in, e.g. a venv's bin/python with "
        "other library versions (it needs only ipykernel); the rules decide by its libraries "
        "(default: this nbmod's own)",
    )
    modernize.add_argument(
        "--oracle-python",
        metavar="PATH",
        help="an era's interpreter (e.g. .eras/2019/bin/python, with ipykernel): revision 0 runs "
        "there first; the report gives its score and the first cell of the best revision whose "
        "values diverge from it",
    )
    modernize.set_defaults(handler=_modernize)
    rules = commands.add_parser("rules", help="list the API-drift rules")
    rules.add_argument("--markdown", action="store_true", help="as docs/rules.md")
    rules.set_defaults(handler=_rules)
    scan_commands.add_parsers(commands)  # nbmod scan, nbmod fix
    run_iteration_command.add_parser(commands)
    memory_commands.add_parser(commands)
    pusher = commands.add_parser(
        "push", help="upload a local spec's files to S3 and print the spec for kubectl apply"
    )
    pusher.add_argument("spec")
    pusher.add_argument("--to", required=True, help="s3://bucket/prefix")
    pusher.add_argument("-o", "--output", help="write the spec here instead of stdout")
    pusher.set_defaults(handler=_push)
    operator_command.add_parser(commands)
    fleet = commands.add_parser(
        "fleet", help="many notebooks: make resources; pull, report and summarize them"
    )
    fleet_commands = fleet.add_subparsers(dest="fleet_command", required=True)
    make = fleet_commands.add_parser("make", help="CSV index -> resources for kubectl apply")
    make.add_argument("index", help="CSV: notebook, inputs, answers, metric, target, ...")
    make.add_argument("-n", "--namespace")
    make.add_argument("-o", "--output")
    make.add_argument(
        "--scan",
        action="store_true",
        help="label each resource nbmodernizer.dev/triage=rules|beyond|clean|unknown "
        "(nbmod scan --summary; local notebooks, relative to the index)",
    )
    make.set_defaults(handler=_fleet_make)
    add_cluster_commands(commands, fleet_commands)
    return parser


def _scan_parser() -> argparse.ArgumentParser:
    """The parser of `nbmod scan` and `nbmod fix` alone (as `build_parser` builds them),
    without importing the other commands' modules."""
    parser = argparse.ArgumentParser(prog="nbmod", description=__doc__)
    scan_commands.add_parsers(parser.add_subparsers(dest="command", required=True))
    return parser


def main(argv: list[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    scanning = given[:1] and given[0] in SCAN_COMMANDS
    args = (_scan_parser() if scanning else build_parser()).parse_args(given)
    args.argv = given
    code: int = args.handler(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
