"""An iteration's runs as one Indexed Job (`score.runs` N > 1): which runs have arrived, and
whether they decide the revision yet. Pure: the Job's status in, a decision out.

Each index of the Job executes the revision once as run N and stores run N's own files
(`layout.run_output_names`). The operator reads the Job's `status.completedIndexes` and
`status.failedIndexes` at every Job event and takes the runs that have ended in index order:
runs 0..k-1, where run k has not ended yet. A completed index's files are graded; a failed
index (its pod died `backoffLimitPerIndex + 1` times) or one the ended Job never completed is an
Error run, whatever it may have stored (a pod that failed is not trusted). The runs so far
decide when (`evidence.decide`, which the local driver's `revision.adaptive_stop` asks too)

* all N have ended;
* one of them did not complete (an Error run, a timeout) or its submission cannot be graded;
* `runsPolicy: adaptive` and `evidence.weigh` says they are enough.

Runs still going are then no longer needed: the Job is deleted (propagation Background, its
pods go with it). The score says how many runs it used (`ScoreResult.runs`) and why it
stopped (`evidence`, or `reason` for a failure). Taking runs in index order, not in finishing
order, keeps the graded set a function of `runs` alone, so grading a stored revision again
(`Reconciler._verify_unrecorded`) gives the same result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from nbmodernizer.cluster.jobstate import infrastructure_result, job_state
from nbmodernizer.cluster.wire import child, number, text
from nbmodernizer.evidence import decide
from nbmodernizer.loop import Graded
from nbmodernizer.spec import ScoreSpec
from nbmodernizer.status import ExecutionResult, ExecutionStatus, ScoreResult

# Grade runs 0..count-1, those in the mapping being Error runs.
Grade = Callable[[int, Mapping[int, ExecutionResult]], Graded]


def parse_indexes(text: str | None) -> set[int]:
    """Kubernetes' interval list of indexes, `"0-2,5"` -> {0, 1, 2, 5}; "" or None -> {}."""
    found: set[int] = set()
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        low, _, high = part.partition("-")
        try:
            found.update(range(int(low), int(high or low) + 1))
        except ValueError:
            raise ValueError(f"not a list of indexes: {text!r}") from None
    return found


def is_indexed(job: Mapping[str, object]) -> bool:
    return child(job, "spec").get("completionMode") == "Indexed"


def has_arrivals(job: Mapping[str, object]) -> bool:
    """Whether a running Indexed Job has runs that ended: worth a reconcile."""
    status = child(job, "status")
    return is_indexed(job) and bool(status.get("completedIndexes") or status.get("failedIndexes"))


@dataclass(frozen=True)
class Arrived:
    count: int  # runs 0..count-1 have ended
    failed: dict[int, ExecutionResult] = field(default_factory=dict)  # of them, the Error runs
    ended: bool = False  # the Job has ended (or is gone)


def index_failure(run: int, retries: int) -> ExecutionResult:
    tries = f"{retries + 1} time{'s' if retries else ''}"
    failure = f"run {run}'s pod failed {tries} (backoffLimitPerIndex {retries}); see its log"
    return ExecutionResult(status=ExecutionStatus.FAILED, duration_seconds=0.0, failure=failure)


def arrived(job: Mapping[str, object] | None, runs: int) -> Arrived:
    """The runs of the Job that have ended, in index order. A Job that is gone (its TTL,
    after it ended): every run has; a run that stored nothing is then an Error run."""
    if job is None:
        return Arrived(runs, {}, True)
    status, spec = child(job, "status"), child(job, "spec")
    completed = parse_indexes(text(status, "completedIndexes"))
    failed_indexes = parse_indexes(text(status, "failedIndexes"))
    phase, reason = job_state(job)
    ended = phase in ("succeeded", "failed")
    deadline = float(number(spec, "activeDeadlineSeconds") or 0)
    failed: dict[int, ExecutionResult] = {}
    count = 0
    for run in range(runs):
        if run in failed_indexes:
            failed[run] = index_failure(run, number(spec, "backoffLimitPerIndex") or 0)
        elif run not in completed:
            if not ended:
                break
            failed[run] = infrastructure_result("failed", reason or phase, deadline)
        count += 1
    return Arrived(count, failed, ended)


@dataclass(frozen=True)
class Judged:
    graded: Graded
    stop: bool  # runs are still going that are no longer needed: delete the Job

    @property
    def execution(self) -> ExecutionResult:
        return self.graded.execution

    @property
    def score(self) -> ScoreResult:
        return self.graded.score


def judge(runs_so_far: Arrived, spec: ScoreSpec, grade: Grade) -> Judged | None:
    """Grade the runs that have arrived; a Judged once they decide the revision, else None."""
    count = runs_so_far.count
    if count == 0:
        return None
    graded = grade(count, runs_so_far.failed)
    execution, score = graded.execution, graded.score
    failed = execution.status is not ExecutionStatus.COMPLETED or score.reason is not None
    if not decide(count, failed, score.values, spec):
        return None
    return Judged(graded, stop=not runs_so_far.ended and count < spec.runs)


def stop_message(job: str, judged: Judged) -> str:
    """The Event saying why the Job was stopped before all its runs ended."""
    why = judged.score.evidence or judged.execution.failure or judged.score.reason or ""
    return f"Job {job} stopped after {judged.score.runs} run(s): {why}"
