"""Scanning many files: probes warmed once in this process, files shared out to processes
(forked, so they inherit the warmed probes)."""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import re
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from nbmodernizer.scan.finding import FileReport, Scanner
from nbmodernizer.scan.sources import SourceError, read

# `import x` / `from x`, each a literal first (found at a scan's speed through the megabytes
# of a notebook's outputs), at the start of a line or after a space, a quote or `;`
_IMPORTS = (re.compile(r"import[ \t]+([A-Za-z_]\w*)"), re.compile(r"from[ \t]+([A-Za-z_]\w*)"))
_BEFORE_IMPORT = "\"';"
_SCANNER: Scanner | None = None
_WITH_TEXT = False
# a scan allocates millions of short-lived tree nodes; at Python's default (a collection every
# 700 net allocations, a full one every 100 of those) the collector took a fifth of the time
_SCAN_GC_THRESHOLD = 20_000


def scan_file(scanner: Scanner, path: Path, with_text: bool = False) -> FileReport:
    """One file's report; whatever goes wrong with this file is its report's `error`, so
    one bad file never stops a batch."""
    try:
        source = read(path)
        report = scanner.scan(source)
        if with_text:
            report.text_after = source.rewritten(report.rewritten)
    except SourceError as error:
        return FileReport(str(path), error=str(error))
    except Exception as error:  # a defect of ours on this file: reported, the batch goes on
        return FileReport(str(path), error=f"{path}: {type(error).__name__}: {error}")
    return report


def _worker(path: Path) -> FileReport:
    assert _SCANNER is not None
    return scan_file(_SCANNER, path, _WITH_TEXT)


def imported_names(paths: Sequence[Path]) -> set[str]:
    """A cheap, generous reading of the modules these files import (for warming probes)."""
    names: set[str] = set()
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for pattern in _IMPORTS:
            for found in pattern.finditer(text):
                before = text[found.start() - 1] if found.start() else " "
                if before.isspace() or before in _BEFORE_IMPORT:
                    names.add(found.group(1))
    return names


def scan_all(
    scanner: Scanner, paths: Sequence[Path], jobs: int | None = None, with_text: bool = False
) -> list[FileReport]:
    """Every file's report, in the order of `paths`."""
    global _SCANNER, _WITH_TEXT
    jobs = jobs or os.cpu_count() or 1
    scanner.warm(imported_names(paths))  # the environment's facts, once for the batch
    with _fewer_collections():
        if jobs <= 1 or len(paths) < 4 or "fork" not in multiprocessing.get_all_start_methods():
            return [scan_file(scanner, path, with_text) for path in paths]
        _SCANNER, _WITH_TEXT = scanner, with_text
        try:
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(min(jobs, len(paths)), mp_context=context) as pool:
                # small chunks: the last one a worker takes decides how long the other waits
                chunk = max(1, len(paths) // (jobs * 32))
                return list(pool.map(_worker, paths, chunksize=chunk))
        finally:
            _SCANNER = None


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """The cyclic collector run less often while scanning (forked workers inherit it), as
    before afterwards; the trees are freed by reference counting either way."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], _SCAN_GC_THRESHOLD), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def triage_notebooks(scanner: Scanner, paths: Sequence[Path], jobs: int | None = None) -> list[str]:
    """Each notebook's triage class (`summary.Triage`), or "unknown" for one that cannot be
    read here (an s3:// notebook, a missing file)."""
    from nbmodernizer.scan.summary import triage

    readable = [path for path in paths if path.is_file()]
    reports = {
        path: report
        for path, report in zip(readable, scan_all(scanner, readable, jobs), strict=True)
    }
    return [triage(reports[path]).value if path in reports else "unknown" for path in paths]


def changed_files(reports: Sequence[FileReport]) -> Iterator[tuple[FileReport, str]]:
    """Each report (scanned `with_text`) whose rewritten text differs from the file as it is
    now, with that text before."""
    for report in reports:
        if report.text_after is None or not report.rewritten:
            continue
        before = Path(report.path).read_text(encoding="utf-8")
        if report.text_after != before:
            yield report, before
