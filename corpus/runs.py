"""Run a corpus case: execute one of its notebooks in a fresh folder and grade what it wrote,
or modernize it with the rules loop (what `nbmod modernize` does).

Both reuse nbmodernizer's own parts (the executor, the grader, the local driver), so the
corpus measures the product as a user runs it; the grade here is independent of the loop's
own report.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from corpus.cases import Case
from nbmodernizer.engine import MAX_EXECUTION_BYTES
from nbmodernizer.execute import execute_notebook, prepare_run_folder
from nbmodernizer.fidelity import BLOCKING
from nbmodernizer.grade import (
    SubmissionError,
    SubmissionLimits,
    grade_submission,
    load_answers,
    read_submission_file,
    reproducibility,
)
from nbmodernizer.local import modernize_file
from nbmodernizer.notebook import Notebook, code_cells, parse_notebook
from nbmodernizer.status import CellError, ExecutionStatus, ModernizationStatus
from nbmodernizer.store.layout import EXECUTION
from nbmodernizer.store.revisions import LocalStore, read_execution


@dataclass(frozen=True)
class Graded:
    """One execution of a case's notebook, graded against the case's answers."""

    error: CellError | None  # the first cell error
    failure: str | None  # why it did not complete (a timeout, a dead kernel), else None
    score: float | None
    reason: str | None  # why there is no score
    reproduced: bool  # error-free and within the spec's tolerance of the target
    seconds: float

    @property
    def error_free(self) -> bool:
        return self.error is None and self.failure is None


def reference_inputs(case: Case, scratch: Path) -> Path:
    """The inputs the reference reads: the case's, plus (environment-stop) what the
    environment lacks, merged into a copy under `scratch`."""
    extra = case.reference_inputs
    if extra is None:
        return case.inputs
    merged = scratch / "reference-inputs"
    shutil.copytree(case.inputs, merged)
    shutil.copytree(extra, merged, dirs_exist_ok=True)
    return merged


def execute_and_grade(
    case: Case, notebook: Path, scratch: Path, inputs: Path | None = None
) -> Graded:
    """Execute `notebook` against `inputs` (default: the case's) in a fresh folder under
    `scratch` (which must not exist yet), then grade its submission with nbmodernizer's
    grader."""
    spec = case.resource.spec
    loaded = parse_notebook(notebook.read_bytes()).notebook
    folder = prepare_run_folder(scratch, inputs or case.inputs)
    result = execute_notebook(loaded, folder, spec.execution.timeout_seconds)
    error = result.cell_errors[0] if result.cell_errors else None
    failure = None
    if result.status is ExecutionStatus.TIMEOUT:
        failure = f"timed out in cell {result.timed_out_cell}"
    elif result.status is not ExecutionStatus.COMPLETED and error is None:
        failure = result.failure or result.status.value
    score: float | None = None
    reason: str | None = None
    try:
        answers = load_answers(case.answers, spec.score.id_column)
        written = read_submission_file(folder.working / spec.score.submission, SubmissionLimits())
        score = grade_submission(written, answers, spec.score)
    except SubmissionError as problem:
        reason = str(problem)
    reproduced = (
        score is not None
        and error is None
        and failure is None
        and reproducibility([score], spec.score).reproduced
    )
    return Graded(error, failure, score, reason, reproduced, result.duration_seconds)


def modernize(case: Case, out: Path, oracle_python: str | None = None) -> ModernizationStatus:
    """`nbmod modernize <case>/spec.yaml --out <out> [--oracle-python PATH]` (the spec says
    fixers: [rules])."""
    return modernize_file(case.spec_path, out, parallel_runs=1, oracle_python=oracle_python).status


# Which era a legacy notebook can run in: the newest whose venv has every module it imports
ERA_NAMES = ("2019", "2017")
_MISSING = """
import importlib.util, sys
def found(name):
    try:
        return importlib.util.find_spec(name) is not None
    except Exception:  # a parent package that is missing or does not import
        return False
print(' '.join(m for m in sys.argv[1:] if not found(m)))
"""


def imported_names(notebook: Notebook) -> list[str]:
    """Every module the notebook imports by its full name (`sklearn.cross_validation`), beyond
    the standard library."""
    names: set[str] = set()
    for cell in code_cells(notebook):
        for node in ast.walk(cell.tree) if cell.tree is not None else ():
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
    return sorted(n for n in names if n.split(".")[0] not in sys.stdlib_module_names)


def missing_modules(python: Path, modules: list[str]) -> list[str]:
    """The modules among `modules` that the interpreter `python` cannot import."""
    done = subprocess.run(
        [str(python), "-c", _MISSING, *modules],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return done.stdout.split()


def era_of(case: Case, eras: Path) -> tuple[str | None, str]:
    """The era (`eras/<era>/bin/python`) the case's legacy notebook can run in, or None and
    why none: what each era lacks of what it imports."""
    modules = imported_names(parse_notebook(case.notebook.read_bytes()).notebook)
    reasons = []
    for era in ERA_NAMES:
        python = eras / era / "bin" / "python"
        if not python.exists():
            reasons.append(f"{era} is not made")
            continue
        missing = missing_modules(python, modules)
        if not missing:
            return era, ""
        shown = [m for m in missing if not any(m.startswith(f"{p}.") for p in missing)]
        reasons.append(f"{era} lacks {', '.join(shown)}")
    return None, "; ".join(reasons)


# How the diagnosis names an environment problem (nbmodernizer.diagnose.environment_problem).
ENVIRONMENT_DETAILS = (
    "missing input:",
    "runs have no network",
    "protobuf in the image",
    "missing package:",
)


def stopped_for_environment(status: ModernizationStatus) -> bool:
    """The run ended after its first execution, its last error naming what the environment
    lacks (a missing input, a download, a broken package, a missing package)."""
    said = f"{status.last_error or ''} {status.stop_reason or ''}"
    return status.iterations == 1 and any(d in said for d in ENVIRONMENT_DETAILS)


def blocking_flags(status: ModernizationStatus) -> list[str]:
    """The blocking fidelity flags of the run's revisions and fixes (`kind: detail`)."""
    fidelities = [r.fidelity for r in status.revisions] + [f.fidelity for f in status.fixes]
    return sorted(
        {
            f"{flag.kind}: {flag.detail}"
            for fidelity in fidelities
            if fidelity is not None
            for flag in fidelity.flags
            if flag.kind in BLOCKING
        }
    )


def fidelity_flags(status: ModernizationStatus) -> list[str]:
    """Every fidelity flag of the final revision (a changed model or hyperparameter shows)."""
    if not status.revisions or status.revisions[-1].fidelity is None:
        return []
    return [f"{flag.kind}: {flag.detail}" for flag in status.revisions[-1].fidelity.flags]


def first_error_of_revision(out: Path, revision: int = 0) -> CellError | None:
    """The first cell error of a revision of a finished run (revision 0: the legacy notebook
    as the loop executed it), read from the run's folder."""
    runs = read_execution(LocalStore(out), revision, EXECUTION, MAX_EXECUTION_BYTES) or []
    errors = [e for run in runs for e in run.cell_errors]
    return errors[0] if errors else None
