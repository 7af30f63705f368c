"""One revision's execution and grading, and the records the store keeps of it.

Shared by both drivers: the local CLI runs all of it; in the cluster the runner pod executes
(`execute_runs`) and the operator grades (`grade_runs`), so answers never enter the pod.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from nbmodernizer.execute import ProgressCallback, execute_notebook, prepare_run_folder
from nbmodernizer.grade import SubmissionError, grade_submission, score_runs
from nbmodernizer.notebook import Notebook, copy_notebook, serialise
from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.status import Diagnosis, ExecutionResult, ExecutionStatus, ScoreResult
from nbmodernizer.store import EXECUTED, RESULT, SUBMISSION, RevisionStore


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


def representative(outputs: list[RunOutput]) -> RunOutput:
    """The run that speaks for the revision: the first that went wrong, else the first."""
    for output in outputs:
        if output.execution.status is not ExecutionStatus.COMPLETED:
            return output
    return outputs[0]


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


def result_document(execution: ExecutionResult, score: ScoreResult, diagnosis: Diagnosis) -> bytes:
    document = {
        "execution": execution.to_wire(),
        "score": score.to_wire(),
        "diagnosis": diagnosis.to_wire(),
    }
    return (json.dumps(document, indent=2, sort_keys=True) + "\n").encode()


def store_run_output(store: RevisionStore, revision: int, output: RunOutput) -> None:
    store.put(revision, EXECUTED, serialise(output.executed))
    if output.submission is not None:
        store.put(revision, SUBMISSION, output.submission)


def store_result(store: RevisionStore, revision: int, document: bytes) -> None:
    store.put(revision, RESULT, document)
