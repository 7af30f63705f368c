"""One revision's execution (every run of it) and grading.

Shared by both drivers: the local CLI runs all of it; in the cluster the runner pod executes
(`execute_runs`) and the operator grades (`engine.grade_revision`), so answers never enter the
pod.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from nbmodernizer.evidence import decide
from nbmodernizer.execute import (
    CellHook,
    Kernel,
    ProgressCallback,
    RunFolder,
    prepare_run_folder,
    run_notebook,
)
from nbmodernizer.grade import (
    Answers,
    Submission,
    SubmissionLimits,
    grade_runs,
    read_submission_file,
)
from nbmodernizer.notebook import Notebook, copy_notebook
from nbmodernizer.spec import ModernizationSpec, RunsPolicy
from nbmodernizer.status import ExecutionResult, ExecutionStatus


@dataclass(frozen=True)
class RunOutput:
    executed: Notebook
    execution: ExecutionResult
    submission: Submission
    run: int = 0  # which run it was (runs finish in any order)


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
    parallel: int = 1  # runs executing at once (each its own kernel and folder)
    limits: SubmissionLimits = field(default_factory=SubmissionLimits)  # larger: not kept whole
    kernel: Kernel = field(default_factory=Kernel)  # where the kernel runs (default: here)

    @staticmethod
    def of(spec: ModernizationSpec, parallel: int = 1, kernel: Kernel | None = None) -> RunPlan:
        score = spec.score
        return RunPlan(
            spec.execution.timeout_seconds,
            score.runs,
            score.submission,
            parallel,
            kernel=kernel or Kernel(),
        )


# Given the runs finished so far (in the order they finished): are they enough?
Enough = Callable[[list[RunOutput]], bool]


def execute_runs(
    notebook: Notebook,
    plan: RunPlan,
    folders: FolderFactory,
    progress: Callable[[int], ProgressCallback | None] | None = None,
    enough: Enough | None = None,
    observe: Callable[[int], CellHook | None] | None = None,
) -> list[RunOutput]:
    """Execute the revision up to `plan.runs` times, `plan.parallel` at once, each in a fresh
    folder. Stops at a run that did not complete, or once `enough` says the runs so far
    decide; runs still going are then cancelled (their kernels shut down) and not kept.
    `observe(run)`: what watches that run's kernel after each cell (`execute.CellHook`)."""
    return asyncio.run(_execute_runs(notebook, plan, folders, progress, enough, observe))


async def _execute_runs(
    notebook: Notebook,
    plan: RunPlan,
    folders: FolderFactory,
    progress: Callable[[int], ProgressCallback | None] | None,
    enough: Enough | None,
    observe: Callable[[int], CellHook | None] | None,
) -> list[RunOutput]:
    async def one(run: int) -> RunOutput:
        with folders() as folder:
            executed = copy_notebook(notebook)
            on_cell = progress(run) if progress is not None else None
            hook = observe(run) if observe is not None else None
            execution = await run_notebook(
                executed, folder, plan.timeout_seconds, on_cell, plan.kernel, hook
            )
            submission = read_submission_file(folder.working / plan.submission, plan.limits)
        return RunOutput(executed, execution, submission, run)

    outputs: list[RunOutput] = []
    running: dict[asyncio.Task[RunOutput], int] = {}
    started = 0
    try:
        while started < plan.runs or running:
            while started < plan.runs and len(running) < max(1, plan.parallel):
                running[asyncio.create_task(one(started))] = started
                started += 1
            done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in sorted(done, key=running.__getitem__):
                del running[task]
                outputs.append(task.result())
            failed = any(o.execution.status is not ExecutionStatus.COMPLETED for o in outputs)
            if failed or (enough is not None and enough(outputs)):
                break
    finally:
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
    return outputs


def adaptive_stop(answers: Answers, spec: ModernizationSpec) -> Enough | None:
    """For `runsPolicy: adaptive` where the answers are at hand (the local CLI): grade the
    runs as they finish and stop once `evidence.decide` says they decide. None for `fixed`."""
    if spec.score.runs_policy is RunsPolicy.FIXED:
        return None

    values: list[float] = []  # the scores of the runs graded so far, in finishing order

    def enough(outputs: list[RunOutput]) -> bool:
        new = outputs[len(values) :]  # outputs only grow: grade each run once
        score = grade_runs([output.submission for output in new], answers, spec.score)
        values.extend(score.values)
        return decide(len(outputs), score.reason is not None, values, spec.score)

    return enough


def representative_index(executions: list[ExecutionResult]) -> int:
    """The run that speaks for the revision: the first that went wrong, else the first."""
    for index, execution in enumerate(executions):
        if execution.status is not ExecutionStatus.COMPLETED:
            return index
    return 0


def representative(outputs: list[RunOutput]) -> RunOutput:
    return outputs[representative_index([o.execution for o in outputs])]
