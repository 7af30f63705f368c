"""`nbmod memory`: look into the fix memory, and turn what it proved into rule proposals.

nbmod memory [--memory FOLDER|s3://…] list [--json]
nbmod memory show ENTRY [--json]
nbmod memory export [--min-uses N] [--min-success F] [-o rules.py]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from nbmodernizer.fixers.memory.entries import Entry, FixMemory
from nbmodernizer.fixers.memory.export import export
from nbmodernizer.fixers.memory.location import open_memory
from nbmodernizer.store import StoreError

EXIT_NOT_FOUND, EXIT_UNREACHABLE = 1, 2


def summary(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "signature": str(entry.signature),
        "issue": entry.signature.issue,
        "pattern": entry.pattern.shown(),
        "uses": entry.uses,
        "fixed": entry.fixed,
        "successRate": entry.success_rate,
        "retired": entry.retired,
        "costUsd": entry.cost_usd,
        "origins": len(entry.origins),
    }


def _list(memory: FixMemory, args: argparse.Namespace) -> int:
    entries = memory.entries()
    if args.json:
        print(json.dumps([summary(e) for e in entries], indent=2))
        return 0
    print(f"{'entry':16}  {'uses':>4} {'fixed':>5} {'cost':>8}  {'state':7}  signature / pattern")
    for entry in entries:
        rate = f"{entry.success_rate:.0%}" if entry.success_rate is not None else "-"
        state = "retired" if entry.retired else "active"
        print(
            f"{entry.id:16}  {entry.uses:4d} {rate:>5} ${entry.cost_usd:7.4f}  {state:7}  "
            f"{entry.signature}\n{'':47}{entry.pattern.shown()}"
        )
    print(f"{len(entries)} entries in {memory.uri}")
    return 0


def _show(memory: FixMemory, args: argparse.Namespace) -> int:
    entry = memory.find(args.entry)
    if entry is None:
        print(f"nbmod memory: no single entry starts with {args.entry!r}", file=sys.stderr)
        return EXIT_NOT_FOUND
    uses = memory.uses_of(entry)
    document = {
        **summary(entry),
        "signature": entry.signature.to_wire(),
        "rawPattern": entry.pattern.to_wire(),
        "learntFrom": [origin.to_wire() for origin in entry.origins],
        "usedBy": [use.to_wire() for use in uses],
    }
    if args.json:
        print(json.dumps(document, indent=2))
        return 0
    state = "retired" if entry.retired else "active"
    print(f"entry {entry.id} ({state}): {entry.signature}")
    print(f"  {entry.pattern.shown()}")
    for statement in entry.pattern.imports:
        print(f"  adds: {statement}")
    print(f"  used {entry.uses} times, fixed {entry.fixed}; a paid fix cost ${entry.cost_usd:.4f}")
    for origin in entry.origins:
        print(f"  learnt from {origin.run} revision {origin.revision} ({origin.learnt_at}):")
        print(_indented(f"{origin.example.before}\n->\n{origin.example.after}"))
    for use in uses:
        verdict = "fixed" if use.fixed else "did not fix"
        print(f"  {verdict}: {use.run} revision {use.revision} ({use.used_at})")
    return 0


def _export(memory: FixMemory, args: argparse.Namespace) -> int:
    args.output.write(export(memory, args.min_uses, args.min_success))
    return 0


def _indented(text: str) -> str:
    return "\n".join(f"      {line}" for line in text.split("\n"))


def _run(args: argparse.Namespace) -> int:
    memory = open_memory(args.memory)
    if memory is None:
        print("nbmod memory: the fix memory is off (NBMOD_FIX_MEMORY=off)", file=sys.stderr)
        return EXIT_NOT_FOUND
    try:
        code: int = args.memory_handler(memory, args)
    except (StoreError, OSError, ValueError) as error:
        print(f"nbmod memory: {memory.uri}: {error}", file=sys.stderr)
        return EXIT_UNREACHABLE
    return code


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "memory", help="the fix memory: fixes the LLM made once, applied again for free"
    )
    parser.add_argument(
        "--memory",
        help="folder or s3:// prefix (default: NBMOD_FIX_MEMORY, else "
        "~/.cache/nbmodernizer/fix-memory)",
    )
    parser.set_defaults(handler=_run)
    actions = parser.add_subparsers(dest="memory_command", required=True)
    listing = actions.add_parser("list", help="every entry: uses, success, cost, pattern")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(memory_handler=_list)
    show = actions.add_parser("show", help="one entry: where it was learnt and used")
    show.add_argument("entry", help="the entry's id (or a unique prefix)")
    show.add_argument("--json", action="store_true")
    show.set_defaults(memory_handler=_show)
    exporter = actions.add_parser("export", help="proven entries as rule proposals (Python)")
    exporter.add_argument("--min-uses", type=int, default=3, help="uses at least (default 3)")
    exporter.add_argument(
        "--min-success", type=float, default=0.8, help="share of uses that fixed (default 0.8)"
    )
    exporter.add_argument(
        "-o", "--output", type=argparse.FileType("w"), default=sys.stdout, help="default: stdout"
    )
    exporter.set_defaults(memory_handler=_export)
