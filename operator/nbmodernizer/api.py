"""The Python API: what `nbmod modernize`, `nbmod scan` and `nbmod fix` do, as functions.

    import nbmodernizer
    report = nbmodernizer.modernize("examples/cancer-rf-2017/spec.yaml", out="run")
    report.outcome, report.score, report.fixes  # the object run/report.json holds

Thin over the local driver (`local.modernize_file`, `modernize_document`) and `scan/`;
imported lazily by `nbmodernizer/__init__.py`, so `import nbmodernizer` stays cheap.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nbmodernizer.spec import NotebookModernization
from nbmodernizer.status import ModernizationStatus

if TYPE_CHECKING:
    from nbmodernizer.local import Progress
    from nbmodernizer.scan.finding import FileReport

Report = ModernizationStatus  # what report.json holds, and a cluster's `.status`
PathLike = str | os.PathLike[str]


def modernize(
    spec: PathLike | NotebookModernization | Mapping[str, Any],
    out: PathLike | None = None,
    *,
    base: PathLike | None = None,
    parallel_runs: int | None = None,
    progress: Progress | None = None,
    python: PathLike | None = None,
    oracle_python: PathLike | None = None,
) -> Report:
    """Modernize one notebook on this machine, as `nbmod modernize` does, and return its report
    (the `ModernizationStatus` written to `out/report.json`; `report.outcome.reproducible`
    says whether the score came back).

    `spec` is a spec file, or a spec (a `NotebookModernization` or the mapping a YAML file
    holds) whose relative paths are read from `base` (default: the current folder). `out`
    must be empty or missing; by default `./nbmod-runs/<name>` (suffixed when taken).
    A run that cannot start (invalid spec, missing notebook or answers) still returns a report,
    with outcome Failed and the reason; only a spec file that cannot be read, or an `out` that
    is not empty, raises `InvalidInputError`.

    `python` is the interpreter the notebook's kernel runs in (a venv's `bin/python`: it needs
    only ipykernel), as `--python` says: its libraries' versions are the ones recorded and the
    ones the rules decide by. Default: this one. One that is not an executable, or lacks
    ipykernel, raises `InvalidInputError` before anything runs.

    `oracle_python` is an era's interpreter (`.eras/2019/bin/python`, checked as `python` is):
    revision 0 runs there first, and the report's `oracle` gives its score (the era score) and
    each cell's fidelity to it in the best revision, with the first cell whose values diverge.
    """
    from nbmodernizer.local import kernel_python, modernize_document, modernize_file

    out_dir = Path(out) if out is not None else None
    interpreter = kernel_python(os.fspath(python) if python is not None else None, "python=")
    era = (
        kernel_python(os.fspath(oracle_python), "oracle_python=")
        if oracle_python is not None
        else None
    )
    if isinstance(spec, str | os.PathLike):
        return modernize_file(Path(spec), out_dir, progress, parallel_runs, interpreter, era).status
    if isinstance(spec, NotebookModernization):
        document = spec.model_dump(mode="json", by_alias=True, exclude_unset=True)
    else:
        document = dict(spec)
    folder = Path(base) if base is not None else Path.cwd()
    source = "the spec given to modernize()"
    return modernize_document(
        document, folder, source, out_dir, progress, parallel_runs, interpreter, era
    ).status


def scan_files(
    paths: PathLike | Iterable[PathLike],
    *,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    gpu: bool = False,
    jobs: int | None = None,
) -> list[FileReport]:
    """What `nbmod scan` finds: one `FileReport` per notebook or `.py` file under `paths`
    (folders are walked), each with its `findings` (path, cell, line, column, rule, message).
    Nothing is executed or written. `select`/`ignore` take rule ids or library prefixes, as
    `--select`/`--ignore` do; a missing path raises `SourceError`, an unreadable file is a
    report with its `error`."""
    return _reports(paths, select, ignore, gpu, jobs, with_text=False)


def fix_files(
    paths: PathLike | Iterable[PathLike],
    *,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    gpu: bool = False,
    jobs: int | None = None,
    write: bool = True,
) -> list[FileReport]:
    """What `nbmod fix` does: the rules `scan` finds, applied in place (with `write=False`,
    nothing is written). Returns the reports of the files that changed (or would), each with
    its findings and `text_after`, the file's new text."""
    from nbmodernizer.scan.batch import changed_files

    reports = _reports(paths, select, ignore, gpu, jobs, with_text=True)
    changed = [report for report, _ in changed_files(reports)]
    for report in changed if write else ():
        assert report.text_after is not None
        Path(report.path).write_text(report.text_after, encoding="utf-8")
    return changed


def _reports(
    paths: PathLike | Iterable[PathLike],
    select: Sequence[str],
    ignore: Sequence[str],
    gpu: bool,
    jobs: int | None,
    with_text: bool,
) -> list[FileReport]:
    from nbmodernizer.scan.batch import scan_all
    from nbmodernizer.scan.finding import build_scanner
    from nbmodernizer.scan.sources import find

    listed = [paths] if isinstance(paths, str | os.PathLike) else list(paths)
    files = find(Path(path) for path in listed)
    return scan_all(build_scanner(select, ignore, gpu), files, jobs, with_text)
