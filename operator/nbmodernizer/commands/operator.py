"""`nbmod operator`: run the Kubernetes operator; its flags become `OperatorFlags`, which
`cluster.settings.from_flags` resolves against the NBMOD_* variables (the table there)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields
from typing import get_args, get_type_hints

from nbmodernizer.cluster.settings import OperatorFlags
from nbmodernizer.local import EXIT_INVALID_INPUT

_SPECIAL = ("namespaces", "all_namespaces", "leader_election")  # not plain `--name VALUE`
_HELP = {"fix_memory": "folder or s3:// prefix of the fix memory, or off"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """A flag for each field of `OperatorFlags`: `--max-input-files N` for `max_input_files`,
    of the field's type."""
    parser.add_argument("-n", "--namespace", action="append", dest="namespaces", default=None)
    parser.add_argument("-A", "--all-namespaces", action="store_true")
    parser.add_argument("--leader-election", action="store_true", default=None)
    hints = get_type_hints(OperatorFlags)
    for field in fields(OperatorFlags):
        if field.name in _SPECIAL:
            continue
        (kind,) = (t for t in get_args(hints[field.name]) if t is not type(None))
        flag = "--" + field.name.replace("_", "-")
        parser.add_argument(flag, type=kind, help=_HELP.get(field.name))


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
