"""`nbmod run-iteration`: what a Job's pod runs: execute one stored revision, store what came
of it. No answers, no LLM: the operator grades and fixes.

    nbmod run-iteration --revision s3://bucket/prefix/ns/name/revisions/0003/
        [--inputs s3://bucket/inputs/] [--input-dir /kaggle/input]
        [--working-dir /kaggle/working] --timeout-seconds 600 [--runs 1]
        [--submission submission.csv]

Inputs come from `--inputs` (an s3:// prefix, downloaded into `--input-dir`) or are already
mounted at `--input-dir` (a PVC). The working directory is emptied before each run. Exit 0
when the revision was executed and its results stored, whatever the notebook did; non-zero
only when that could not happen (S3 unreachable, revision missing).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from nbmodernizer.engine import load_notebook, store_execution
from nbmodernizer.execute import RunFolder
from nbmodernizer.notebook import NotebookError
from nbmodernizer.revision import FolderFactory, RunPlan, execute_runs
from nbmodernizer.store import StoreError
from nbmodernizer.store.layout import parse_revision_folder_uri
from nbmodernizer.store.revisions import RevisionStore, open_store
from nbmodernizer.store.s3 import fetch_dir

EXIT_INFRASTRUCTURE = 3


@dataclass(frozen=True)
class RevisionRef:
    store: RevisionStore
    revision: int


def parse_revision(uri: str) -> RevisionRef:
    """`<store root>/revisions/0003/` -> the store and revision 3."""
    parsed = parse_revision_folder_uri(uri)
    if parsed is None:
        raise ValueError(f"--revision must end in /revisions/<number>/: {uri!r}")
    root, revision = parsed
    return RevisionRef(open_store(root), revision)


def fixed_folders(working: Path, inputs: Path) -> FolderFactory:
    """The pod's own `/kaggle/working` (emptied before each run) and `/kaggle/input`."""

    @contextmanager
    def folder() -> Iterator[RunFolder]:
        working.mkdir(parents=True, exist_ok=True)
        for entry in working.iterdir():
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        yield RunFolder(root=working.parent, working=working, input=inputs)

    return folder


def run_iteration(args: argparse.Namespace) -> int:
    try:
        ref = parse_revision(args.revision)
        notebook = load_notebook(ref.store, ref.revision)
        input_dir = Path(args.input_dir)
        if args.inputs:  # an s3:// prefix is downloaded into --input-dir; a path is used as is
            input_dir = fetch_dir(args.inputs, Path.cwd(), input_dir)
        plan = RunPlan(args.timeout_seconds, args.runs, args.submission)
        outputs = execute_runs(notebook, plan, fixed_folders(Path(args.working_dir), input_dir))
        store_execution(ref.store, ref.revision, outputs)
    except (StoreError, FileNotFoundError, NotebookError, ValueError) as error:
        print(f"nbmod run-iteration: {error}", file=sys.stderr)
        return EXIT_INFRASTRUCTURE
    execution = outputs[-1].execution
    print(
        f"revision {ref.revision}: {execution.status.value}, "
        f"{len(execution.cell_errors)} cell error(s), {execution.duration_seconds:.1f}s"
    )
    return 0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("run-iteration", help="execute one stored revision (in a Job)")
    parser.add_argument("--revision", required=True, help="the revision's folder URI")
    parser.add_argument("--inputs", help="s3:// prefix to download into --input-dir")
    parser.add_argument("--input-dir", default="/kaggle/input")
    parser.add_argument("--working-dir", default="/kaggle/working")
    parser.add_argument("--timeout-seconds", type=float, required=True)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--submission", default="submission.csv")
    parser.set_defaults(handler=run_iteration)
