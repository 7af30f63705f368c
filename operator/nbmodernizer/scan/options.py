"""What `nbmod scan` and `nbmod fix` were told, typed (`nbmodernizer.commands.scan` reads
them off the command line)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Selection:
    """The files and rules of a scan or a fix."""

    command: str  # "scan" or "fix", for messages (`nbmod scan: ...`)
    paths: tuple[str, ...]
    select: tuple[str, ...] = ()  # rule ids or library prefixes; empty: every rule
    ignore: tuple[str, ...] = ()
    gpu: bool = False
    jobs: int | None = None  # processes; None: one per CPU core


@dataclass(frozen=True)
class ScanOptions:
    selection: Selection
    format: str = "text"  # text, json or sarif
    summary: bool = False


@dataclass(frozen=True)
class FixOptions:
    selection: Selection
    diff: bool = False  # print a unified diff, write nothing
