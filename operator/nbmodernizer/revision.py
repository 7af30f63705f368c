"""One revision's execution (every run of it) and grading.

Shared by both drivers: the local CLI runs all of it; in the cluster the runner pod executes
(`execute_runs`) and the operator grades (`grade_runs`), so answers never enter the pod.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from nbmodernizer.execute import ProgressCallback, execute_notebook, prepare_run_folder
from nbmodernizer.grade import SubmissionError, grade_submission, score_runs
from nbmodernizer.notebook import Notebook, copy_notebook
from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.status import ExecutionResult, ExecutionStatus, ScoreResult


@dataclass(frozen=True)
class RunOutput:
    executed: Notebook
    execution: ExecutionResult
    submission: bytes | None


def execute_runs(
    notebook: Notebook,
    spec: ModernizationSpec,
    inputs: Path | None,
    progress: Callable[[int], ProgressCallback | None] | None = None,
) -> list[RunOutput]:
    """Execute the revision `spec.score.runs` times, each in a fresh folder; stop at a bad run."""
    outputs: list[RunOutput] = []
    for run in range(spec.score.runs):
        with tempfile.TemporaryDirectory(prefix="nbmod-run-") as scratch:
            folder = prepare_run_folder(Path(scratch) / "run", inputs)
            executed = copy_notebook(notebook)
            on_cell = progress(run) if progress is not None else None
            execution = execute_notebook(executed, folder, spec.execution.timeout_seconds, on_cell)
            written = folder.working / spec.score.submission
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
