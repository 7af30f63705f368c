"""`kubectl nbm`: the kubectl plugin for NotebookModernizations (the executable `kubectl-nbm`,
installed with the package; kubectl runs it for `kubectl nbm ...` when it is on PATH).

    kubectl nbm summary [-n NS | -A] [-l SEL] [--json]     the paper's table
    kubectl nbm report NAME [-n NS] [--out FILE]           its report.html (default NAME.html)
    kubectl nbm report [-n NS | -A] [-l SEL] [--out DIR]   the fleet's page, DIR/index.html
    kubectl nbm pull NAME [-n NS] [--out DIR]              its run folder
    kubectl nbm pull [-n NS | -A] [-l SEL] [--out DIR]     every run folder, DIR/<ns>/<name>

kubectl hands a plugin the arguments after its name and its own environment, nothing else:
the plugin reads KUBECONFIG and takes --kubeconfig, --context, -n, -A and -l itself, as
kubectl does. The commands are `nbmod`'s (`nbmodernizer.cli_cluster`).
"""

from __future__ import annotations

import argparse
import sys

from nbmodernizer import cli_cluster
from nbmodernizer.cli_cluster import FLEET_DIR, add_cluster_arguments, run


def _report(args: argparse.Namespace) -> int:
    return cli_cluster.report_one(args) if args.name else cli_cluster.fleet_report(args)


def _pull(args: argparse.Namespace) -> int:
    return cli_cluster.pull_one(args) if args.name else cli_cluster.pull_fleet(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kubectl nbm",
        description="NotebookModernizations (nbm): reports, run folders and the fleet's table.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    summary = commands.add_parser("summary", help="the paper's table: outcomes, fixes, cost")
    add_cluster_arguments(summary, many=True)
    summary.add_argument("--json", action="store_true", help="as JSON")
    summary.set_defaults(handler=cli_cluster.summary)
    report = commands.add_parser(
        "report", help="NAME's HTML report; without NAME, the fleet's page"
    )
    report.add_argument("name", nargs="?", help="a NotebookModernization")
    add_cluster_arguments(report, many=True)
    report.add_argument(
        "--out", help=f"with NAME: the file (default NAME.html); else the folder ({FLEET_DIR})"
    )
    report.set_defaults(handler=_report)
    pull = commands.add_parser(
        "pull", help="NAME's run folder (report, final notebook, revisions); without NAME, all"
    )
    pull.add_argument("name", nargs="?", help="a NotebookModernization")
    add_cluster_arguments(pull, many=True)
    pull.add_argument(
        "--out",
        help=f"with NAME: the run folder (default {FLEET_DIR}/<namespace>/NAME); "
        f"else the root of <namespace>/<name> folders ({FLEET_DIR})",
    )
    pull.add_argument("--workers", type=int, default=8, help="parallel downloads (8)")
    pull.set_defaults(handler=_pull)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return run(args.handler, args)


if __name__ == "__main__":
    sys.exit(main())
