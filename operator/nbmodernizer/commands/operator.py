"""`nbmod operator`: run the Kubernetes operator; its flags become `OperatorFlags`, which
`cluster.settings.from_flags` resolves against the NBMOD_* variables (the table there)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields

from nbmodernizer.cluster.settings import OperatorFlags
from nbmodernizer.local import EXIT_INVALID_INPUT


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-n", "--namespace", action="append", dest="namespaces", default=None)
    parser.add_argument("-A", "--all-namespaces", action="store_true")
    parser.add_argument("--s3-bucket")
    parser.add_argument("--s3-prefix")
    parser.add_argument("--s3-endpoint")
    parser.add_argument("--runner-s3-endpoint")
    parser.add_argument("--s3-secret")
    parser.add_argument("--max-input-files", type=int)
    parser.add_argument("--max-input-bytes", type=int)
    parser.add_argument("--max-submission-bytes", type=int)
    parser.add_argument("--max-submission-rows", type=int)
    parser.add_argument("--runner-image")
    parser.add_argument("--runner-defaults")
    parser.add_argument("--max-concurrent-jobs", type=int)
    parser.add_argument("--max-parallel-runs", type=int)
    parser.add_argument("--metrics-port", type=int)
    parser.add_argument("--health-port", type=int)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--store-retries", type=int)
    parser.add_argument("--store-cache-mib", type=int)
    parser.add_argument("--retry-seconds", type=float)
    parser.add_argument("--deadline-margin-seconds", type=int)
    parser.add_argument("--fix-memory", help="folder or s3:// prefix of the fix memory, or off")
    parser.add_argument("--llm-budget-usd-per-hour", type=float)
    parser.add_argument("--llm-budget-usd", type=float)
    parser.add_argument("--leader-election", action="store_true", default=None)
    parser.add_argument("--lease-namespace")
    parser.add_argument("--lease-seconds", type=float)


def flags_of(args: argparse.Namespace) -> OperatorFlags:
    given = {field.name: getattr(args, field.name) for field in fields(OperatorFlags)}
    if given["namespaces"] is not None:
        given["namespaces"] = tuple(given["namespaces"])
    return OperatorFlags(**given)


def _run(args: argparse.Namespace) -> int:
    from nbmodernizer.cluster.controller import run
    from nbmodernizer.cluster.settings import SettingsError, from_flags

    try:
        settings = from_flags(flags_of(args))
    except SettingsError as error:
        print(f"nbmod operator: {error}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    run(settings)
    return 0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "operator", help="run the Kubernetes operator (kopf) for NotebookModernization resources"
    )
    add_arguments(parser)
    parser.set_defaults(handler=_run)
