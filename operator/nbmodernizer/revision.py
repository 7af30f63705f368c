"""One revision's execution (every run of it) and grading.

Shared by both drivers: the local CLI runs all of it; in the cluster the runner pod executes
(`execute_runs`) and the operator grades (`grade_runs`), so answers never enter the pod.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from nbmodernizer.execute import (
    ProgressCallback,
    RunFolder,
    execute_notebook,
    prepare_run_folder,
)
from nbmodernizer.grade import SubmissionError, grade_submission, score_runs
from nbmodernizer.notebook import Notebook, copy_notebook
from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.status import ExecutionResult, ExecutionStatus, ScoreResult


@dataclass(frozen=True)
class RunOutput:
    executed: Notebook
    execution: ExecutionResult
    submission: bytes | None


# Each run gets a folder with an empty working directory; the context cleans up after it.
FolderFactory = Callable[[], AbstractContextManager[RunFolder]]


def scratch_folders(inputs: Path | None) -> FolderFactory:
    """A fresh temporary `RUN/working` + `RUN/input` link per run (the local CLI)."""

    @contextmanager
    def folder() -> Iterator[RunFolder]:
        with tempfile.TemporaryDirectory(prefix="nbmod-run-") as scratch:
            yield prepare_run_folder(Path(scratch) / "run", inputs)

    return folder


@dataclass(frozen=True)
class RunPlan:
    timeout_seconds: float
    runs: int
    submission: str

    @staticmethod
    def of(spec: ModernizationSpec) -> RunPlan:
        return RunPlan(spec.execution.timeout_seconds, spec.score.runs, spec.score.submission)


def execute_runs(
    notebook: Notebook,
    plan: RunPlan,
    folders: FolderFactory,
    progress: Callable[[int], ProgressCallback | None] | None = None,
) -> list[RunOutput]:
    """Execute the revision `plan.runs` times, each in a fresh folder; stop at a bad run."""
    outputs: list[RunOutput] = []
    for run in range(plan.runs):
        with folders() as folder:
            executed = copy_notebook(notebook)
            on_cell = progress(run) if progress is not None else None
            execution = execute_notebook(executed, folder, plan.timeout_seconds, on_cell)
            written = folder.working / plan.submission
            submission = written.read_bytes() if written.is_file() else None
        outputs.append(RunOutput(executed, execution, submission))
        if execution.status is not ExecutionStatus.COMPLETED:
            break
    return outputs


def representative_index(executions: list[ExecutionResult]) -> int:
    """The run that speaks for the revision: the first that went wrong, else the first."""
    for index, execution in enumerate(executions):
        if execution.status is not ExecutionStatus.COMPLETED:
            return index
    return 0


def representative(outputs: list[RunOutput]) -> RunOutput:
    return outputs[representative_index([o.execution for o in outputs])]


def grade_runs(
    submissions: list[bytes | None], answers: pd.DataFrame, spec: ModernizationSpec
) -> ScoreResult:
    values: list[float] = []
    failure: str | None = None
    with tempfile.TemporaryDirectory(prefix="nbmod-grade-") as scratch:
        for run, submission in enumerate(submissions):
            path = Path(scratch) / f"{run}-{Path(spec.score.submission).name}"
            if submission is not None:
                path.write_bytes(submission)
            try:
                values.append(grade_submission(path, answers, spec.score))
            except SubmissionError as error:
                failure = str(error)
                break
    return score_runs(values, failure, spec.score)
