"""The cluster user's commands: a modernization's report and run folder, the fleet's page.

    nbmod pull NAME [-n NS] [--out DIR]                    the run folder of one modernization
    nbmod fleet pull [-n NS | -A] [-l SEL] [--out DIR]     ... of many, in parallel
    nbmod fleet report [-n NS | -A] [-l SEL] [--out DIR]   DIR/index.html: the fleet's page
    nbmod fleet summary [-n NS | -A] [-l SEL] [--json]     the paper's table
    nbmod render RUN_DIR [-o FILE]                         a run folder's report, rendered again

Each cluster command takes kubectl's --kubeconfig and --context; the kubectl plugin
(`kubectl nbm`, `nbmodernizer.kubectl_plugin`) runs the same functions. A fleet pull puts
each run in `DIR/<namespace>/<name>` (the default of `nbmod pull` too), where the fleet's page
in the same DIR links to it. Exit codes: 0 done, 1 not done (a missing resource, a run with
no report yet, a failed download, an unreachable cluster), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from nbmodernizer.pull import Pulled, PullError, pull_many, pull_run, run_folder
from nbmodernizer.runfolder import RunFolderError, render_folder
from nbmodernizer.store import StoreError
from nbmodernizer.store.layout import REPORT_HTML

if TYPE_CHECKING:
    from nbmodernizer.cluster.lookup import Cluster

EXIT_OK, EXIT_FAILED = 0, 1
FLEET_DIR = "nbmod-fleet"
INDEX = "index.html"


def add_cluster_arguments(parser: argparse.ArgumentParser, many: bool) -> None:
    """kubectl's flags: which cluster, which namespace (and, for many, which resources)."""
    parser.add_argument("--kubeconfig", help="kubeconfig file (default: $KUBECONFIG)")
    parser.add_argument("--context", help="kubeconfig context (default: the current one)")
    parser.add_argument("-n", "--namespace", help="namespace (default: the context's)")
    if many:
        parser.add_argument("-A", "--all-namespaces", action="store_true", help="every namespace")
        parser.add_argument("-l", "--selector", help="label selector, e.g. team=vision")


class CommandError(Exception):
    """What to tell the user before exiting with EXIT_FAILED."""


def _connect(args: argparse.Namespace) -> Cluster:
    from nbmodernizer.cluster.lookup import Cluster, ClusterError, Where

    where = Where(
        kubeconfig=args.kubeconfig,
        context=args.context,
        namespace=args.namespace,
        all_namespaces=bool(getattr(args, "all_namespaces", False)),
        selector=getattr(args, "selector", None),
    )
    try:
        return Cluster.connect(where)
    except ClusterError as error:
        raise CommandError(str(error)) from None


def _get(args: argparse.Namespace) -> tuple[Cluster, dict[str, Any]]:
    from nbmodernizer.cluster.lookup import ClusterError

    if getattr(args, "all_namespaces", False):
        raise CommandError("a resource cannot be retrieved by name across all namespaces")
    cluster = _connect(args)
    try:
        resource = cluster.get(args.name)
    except ClusterError as error:
        raise CommandError(str(error)) from None
    if resource is None:
        raise CommandError(cluster.not_found(args.name))
    return cluster, resource


def _list(args: argparse.Namespace) -> tuple[Cluster, list[dict[str, Any]]]:
    from nbmodernizer.cluster.lookup import ClusterError

    cluster = _connect(args)
    try:
        return cluster, cluster.list()
    except ClusterError as error:
        raise CommandError(str(error)) from None


def _key(resource: dict[str, Any]) -> str:
    meta = resource["metadata"]
    return f"{meta['namespace']}/{meta['name']}"


def _state(resource: dict[str, Any]) -> str:
    status = resource.get("status") or {}
    return str(status.get("outcome") or status.get("phase") or "Pending")


def _pulled(resource: dict[str, Any], pulled: Pulled) -> str:
    line = (
        f"{_key(resource)}: {_state(resource)} -> {pulled.folder} "
        f"({pulled.downloaded} downloaded, {pulled.kept} already there)"
    )
    return line if pulled.report else f"{line}; no report yet"


# -- the commands -----------------------------------------------------------------------------


def pull_one(args: argparse.Namespace) -> int:
    _, resource = _get(args)
    folder = Path(args.out) if args.out else run_folder(Path(FLEET_DIR), resource)
    try:
        pulled = pull_run(resource.get("status") or {}, folder)
    except PullError as error:
        raise CommandError(f"{_key(resource)}: {error}") from None
    print(_pulled(resource, pulled))
    return EXIT_OK


def pull_fleet(args: argparse.Namespace) -> int:
    cluster, resources = _list(args)
    root = Path(args.out or FLEET_DIR)
    failures = 0
    for resource, result in pull_many(resources, root, args.workers):
        if isinstance(result, PullError):
            failures += 1
            print(f"{_key(resource)}: {result}", file=sys.stderr)
        else:
            print(_pulled(resource, result))
    print(f"{len(resources) - failures} of {len(resources)} pulled ({cluster.scope}) into {root}")
    return EXIT_FAILED if failures else EXIT_OK


def fleet_report(args: argparse.Namespace) -> int:
    from nbmodernizer.fleet_page import render_fleet

    cluster, resources = _list(args)
    root = Path(args.out or FLEET_DIR)

    def link(resource: dict[str, Any]) -> str | None:
        pulled = run_folder(root, resource) / REPORT_HTML
        if pulled.is_file():
            return quote(pulled.relative_to(root).as_posix())
        report = (resource.get("status") or {}).get("report")
        return str(report) if report else None

    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    root.mkdir(parents=True, exist_ok=True)
    (root / INDEX).write_text(
        render_fleet(resources, cluster.scope, link, generated), encoding="utf-8"
    )
    print(f"{root / INDEX}: {len(resources)} modernizations ({cluster.scope})")
    return EXIT_OK


def report_one(args: argparse.Namespace) -> int:
    """The HTML report of one modernization, downloaded to a file."""
    from nbmodernizer.store.s3 import read_bytes

    _, resource = _get(args)
    status = resource.get("status") or {}
    uri = status.get("report")
    if not uri:
        raise CommandError(f"{_key(resource)} has no report yet ({_state(resource)})")
    target = Path(args.out or f"{args.name}.html")
    try:
        target.write_bytes(read_bytes(str(uri), Path.cwd()))
    except (StoreError, FileNotFoundError, OSError) as error:
        raise CommandError(f"cannot download {uri}: {error}") from None
    print(f"{_key(resource)}: {_state(resource)}; report {target} (from {uri})")
    return EXIT_OK


def summary(args: argparse.Namespace) -> int:
    from nbmodernizer.fleet import render_summary, summarize

    _, resources = _list(args)
    table = summarize(resources)
    if args.json:
        print(json.dumps(table.to_dict(), indent=2))
    else:
        print(render_summary(table), end="")
    return EXIT_OK


def render(args: argparse.Namespace) -> int:
    try:
        html = render_folder(Path(args.run), args.name)
    except RunFolderError as error:
        raise CommandError(str(error)) from None
    if args.output:
        Path(args.output).write_text(html, encoding="utf-8")
    else:
        sys.stdout.write(html)
    return EXIT_OK


def run(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Call a command; a Failed becomes `error: ...` on stderr and exit code 1."""
    try:
        code: int = handler(args)
    except CommandError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_FAILED
    return code


# -- nbmod's parsers --------------------------------------------------------------------------


def add_pull_options(parser: argparse.ArgumentParser, fleet: bool) -> None:
    if fleet:
        parser.add_argument(
            "--out", help=f"root folder: runs go to OUT/<namespace>/<name> (default {FLEET_DIR})"
        )
        parser.add_argument("--workers", type=int, default=8, help="parallel downloads (8)")
    else:
        parser.add_argument(
            "--out", help=f"the run folder (default {FLEET_DIR}/<namespace>/<name>)"
        )


def add_commands(commands: Any, fleet_commands: Any) -> None:
    """`nbmod pull`, `nbmod render`, `nbmod fleet pull|report|summary`."""
    pull = commands.add_parser(
        "pull", help="download a modernization's report, final notebook and revisions"
    )
    pull.add_argument("name", help="the NotebookModernization")
    add_cluster_arguments(pull, many=False)
    add_pull_options(pull, fleet=False)
    pull.set_defaults(handler=partial(run, pull_one))
    again = commands.add_parser("render", help="render a run folder's HTML report again")
    again.add_argument("run", help="a run folder (nbmod modernize --out, or nbmod pull)")
    again.add_argument("-o", "--output", help="write the HTML here (default: stdout)")
    again.add_argument("--name", help="the title (default: the folder's name)")
    again.set_defaults(handler=partial(run, render))
    many = fleet_commands.add_parser("pull", help="nbmod pull, for many modernizations")
    add_cluster_arguments(many, many=True)
    add_pull_options(many, fleet=True)
    many.set_defaults(handler=partial(run, pull_fleet))
    page = fleet_commands.add_parser("report", help="the fleet's page: OUT/index.html")
    add_cluster_arguments(page, many=True)
    page.add_argument("--out", help=f"folder for index.html (default {FLEET_DIR})")
    page.set_defaults(handler=partial(run, fleet_report))
    table = fleet_commands.add_parser("summary", help="outcomes, fixes and cost of a fleet")
    add_cluster_arguments(table, many=True)
    table.add_argument("--json", action="store_true")
    table.set_defaults(handler=partial(run, summary))
