"""The local driver: runs the loop on this machine, revisions in a local folder.

`modernize_file` is what `nbmod modernize spec.yaml` does. Bad input never raises: it ends
in a report with outcome Failed, the reason, and revision 0 stored when there is one.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import yaml

from nbmodernizer.admit import InvalidInputError, admit, keep_original
from nbmodernizer.bound_cells import CellRecorder, read_record, write_record
from nbmodernizer.clock import now
from nbmodernizer.engine import (
    FixOutcome,
    advance,
    environment_request,
    fix_step,
    grade_revision,
    load_notebook,
    store_environment,
    store_execution,
)
from nbmodernizer.environment import kernel_interpreter
from nbmodernizer.execute import Kernel, ProgressCallback
from nbmodernizer.facts import EnvironmentFacts, FactsError, ProbeRequest, gather
from nbmodernizer.fixers import FixerChain, build_chain
from nbmodernizer.fixers.base import Learner
from nbmodernizer.fixers.registry import build_learner
from nbmodernizer.grade import Answers, grade_runs
from nbmodernizer.loop import Attempt, Finish, Graded, LoopState, RequestFix, start, unrunnable
from nbmodernizer.notebook import Notebook
from nbmodernizer.oracle import BoundRecord, EraRun, Side, compare
from nbmodernizer.revision import (
    RunOutput,
    RunPlan,
    adaptive_stop,
    execute_runs,
    representative,
    scratch_folders,
)
from nbmodernizer.runfolder import report_files, status_json
from nbmodernizer.spec import (
    ModernizationSpec,
    NotebookModernization,
    SpecError,
    parse_modernization,
)
from nbmodernizer.status import FixRecord, ModernizationStatus, OracleReport
from nbmodernizer.store import StoreError
from nbmodernizer.store.layout import BOUND, ORACLE, REPORT_JSON
from nbmodernizer.store.revisions import LocalStore, read_result
from nbmodernizer.summary import build_status, phase_of

EXIT_REPRODUCED, EXIT_NOT_REPRODUCED, EXIT_INVALID_INPUT = 0, 1, 2
# Runs of revision 0 in the era (--oracle-python): a value that differs between them is random
# and not compared with today's
ORACLE_RUNS = 2


class Progress(Protocol):
    def iteration(self, revision: int, max_iterations: int) -> None: ...

    def cells(self, revision: int, run: int) -> ProgressCallback | None: ...

    def executed(self, attempt: Attempt) -> None: ...

    def fixed(self, record: FixRecord | None, notes: list[str]) -> None: ...


class QuietProgress:
    def iteration(self, revision: int, max_iterations: int) -> None:
        pass

    def cells(self, revision: int, run: int) -> ProgressCallback | None:
        return None

    def executed(self, attempt: Attempt) -> None:
        pass

    def fixed(self, record: FixRecord | None, notes: list[str]) -> None:
        pass


@dataclass(frozen=True)
class LocalResult:
    status: ModernizationStatus
    out_dir: Path
    exit_code: int


def read_document(spec_path: Path) -> dict[str, Any]:
    try:
        document = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InvalidInputError(f"spec file not found: {spec_path}") from None
    except yaml.YAMLError as error:
        raise InvalidInputError(f"{spec_path}: not valid YAML: {error}") from None
    if not isinstance(document, dict):
        raise InvalidInputError(f"{spec_path}: expected a NotebookModernization mapping")
    return document


def kernel_python(path: str | None, flag: str) -> str:
    """The interpreter the notebook's kernel and the environment's probes run in: `path`, once
    checked (`environment.kernel_interpreter`), else this one. InvalidInputError naming `flag`
    (`--python`, or the API's `python=`) when `path` cannot run a kernel."""
    if path is None:
        return sys.executable
    try:
        return kernel_interpreter(path)
    except ValueError as error:
        raise InvalidInputError(f"{flag}: {error}") from None


def run_name(document: dict[str, Any], base: Path) -> str:
    metadata = document.get("metadata")
    name = metadata.get("name") if isinstance(metadata, dict) else None
    return name if isinstance(name, str) and name else base.resolve().name


def choose_out_dir(out: Path | None, name: str) -> Path:
    """The run's folder: `--out` must be empty; the default never reuses a folder."""
    if out is not None:
        if out.exists() and any(out.iterdir()):
            raise InvalidInputError(f"--out {out} is not empty: revisions are never overwritten")
        return out
    candidate, n = Path("nbmod-runs") / name, 1
    while candidate.exists() and any(candidate.iterdir()):
        n += 1
        candidate = Path("nbmod-runs") / f"{name}.{n}"
    return candidate


@dataclass
class LocalRun:
    """One modernization on this machine; `run` drives the loop to its end."""

    resource: NotebookModernization | None
    base: Path
    store: LocalStore
    progress: Progress
    parallel_runs: int = 1  # runs of one revision executing at once (score.runs > 1)
    python: str = sys.executable  # where the kernel and the probes run (`kernel_python`)
    oracle_python: str | None = None  # the era's interpreter of the differential run
    notes: list[str] = field(default_factory=list)
    started_at: str = field(default_factory=now)

    def unrunnable(self, reason: str) -> ModernizationStatus:
        return self.status(unrunnable(reason))

    def status(self, state: LoopState) -> ModernizationStatus:
        spec = self.resource.spec.score if self.resource else None
        return build_status(
            state,
            spec,
            lambda revision: self.store.uri_of(revision),
            phase_of(state),
            started_at=self.started_at,
            completed_at=now() if state.finish is not None else None,
            notes=self.notes,
        )

    def run(self, scratch: Path) -> ModernizationStatus:
        assert self.resource is not None
        spec = self.resource.spec
        try:
            admitted = admit(spec, self.base, self.store, scratch)
        except StoreError as error:  # S3 unreachable: here, nothing to wait for
            raise InvalidInputError(str(error)) from None
        self.notes.extend(admitted.notes)
        driver = _InProcess(self, spec, admitted.answers, admitted.inputs)
        era = driver.era_run(self.oracle_python) if self.oracle_python is not None else None
        state, action = advance(self.store, *start(spec.fix.max_iterations), driver)
        assert isinstance(action, Finish)  # this driver never waits: it executes in process
        status = self.status(state)
        if era is None:
            return status
        return status.model_copy(update={"oracle": self.oracle_report(era, status)})

    def oracle_report(self, era: EraRun, status: ModernizationStatus) -> OracleReport:
        """The era run against the best revision's run today (the last one run without a
        best), as the cells each recorded."""
        executed = [r.iteration for r in status.revisions]
        revision = status.best_revision if status.best_revision is not None else max(executed)
        original = load_notebook(self.store, 0)
        result = read_result(self.store, revision)
        try:
            recorded = read_record(self.store, revision, BOUND)
            bound = BoundRecord.parse(recorded) if recorded is not None else None
        except (ValueError, TypeError):
            bound = None
        if result is None or bound is None:
            return compare(era, original, None, revision)
        today = Side(load_notebook(self.store, revision), result.execution, bound, "today")
        return compare(era, original, today, revision)


@dataclass
class _InProcess:
    """The loop's execute and fix, in this process (`engine.Driver`)."""

    run: LocalRun
    spec: ModernizationSpec
    answers: Answers
    inputs: Path | None
    chain: FixerChain | None = None  # built at the first fix: most imports are the rules'
    probed: tuple[str, ProbeRequest, EnvironmentFacts] | None = None  # the last `gather`

    def execute(self, state: LoopState, revision: int) -> Graded:
        progress, store = self.run.progress, self.run.store
        progress.iteration(revision, self.spec.fix.max_iterations)
        notebook = load_notebook(store, revision)
        facts = self.environment(revision, notebook)
        kernel = Kernel(self.run.python, facts.packages)
        recorders: dict[int, CellRecorder] = {}
        outputs = execute_runs(
            notebook,
            RunPlan.of(self.spec, self.run.parallel_runs, kernel),
            scratch_folders(self.inputs),
            lambda run: progress.cells(revision, run),
            adaptive_stop(self.answers, self.spec),
            _recording(notebook, recorders) if self.run.oracle_python is not None else None,
        )
        store_execution(store, revision, outputs)
        if recorders:  # the representative run's cells first: its errors are the result's
            first = representative(outputs)
            ordered = [first, *(o for o in outputs if o is not first)]
            write_record(store, revision, BOUND, _bound(ordered, recorders).to_json())
        return grade_revision(store, revision, self.answers, self.spec)

    def era_run(self, python: str) -> EraRun:
        """Revision 0 executed ORACLE_RUNS times in the era's interpreter `python`, graded,
        with what each cell bound; stored as revision 0's oracle.json before the loop."""
        store = self.run.store
        notebook = load_notebook(store, 0)
        facts = self.probe(python, notebook)
        recorders: dict[int, CellRecorder] = {}
        plan = RunPlan.of(self.spec, self.run.parallel_runs, Kernel(python, facts.packages))
        outputs = execute_runs(
            notebook,
            replace(plan, runs=ORACLE_RUNS),
            scratch_folders(self.inputs),
            None,
            None,
            _recording(notebook, recorders),
        )
        outputs.sort(key=lambda output: output.run)
        score = grade_runs([o.submission for o in outputs], self.answers, self.spec.score)
        era = EraRun(
            python=python,
            python_version=facts.python,
            packages=facts.packages,
            runs=[output.execution for output in outputs],
            score=score,
            bound=_bound(outputs, recorders),
        )
        write_record(store, 0, ORACLE, era.to_json())
        return era

    def probe(self, python: str, notebook: Notebook) -> EnvironmentFacts:
        """The facts of `python` for the notebook's imports (`environment_request`)."""
        try:
            return gather(python, environment_request(notebook))
        except FactsError as error:
            raise InvalidInputError(
                f"the environment of {python} cannot be probed: {error}"
            ) from None

    def environment(self, revision: int, notebook: Notebook) -> EnvironmentFacts:
        """The facts of the kernel's interpreter for this revision's imports, stored as its
        environment.json before it runs (the fixers read them from there). The probe runs
        again only when the interpreter or the request (the imports) changed: between
        revisions the environment does not (a kernel's pip installs nothing from an index),
        so the previous revision's facts are this one's too, stored again under its name."""
        python, request = self.run.python, environment_request(notebook)
        if self.probed is None or self.probed[:2] != (python, request):
            self.probed = (python, request, self.probe(python, notebook))
        facts = self.probed[2]
        store_environment(self.run.store, revision, facts)
        return facts

    def learner(self) -> Learner | None:
        return build_learner(self.spec)

    def recorded(self, attempt: Attempt) -> None:
        self.run.progress.executed(attempt)

    def fix(self, state: LoopState, request: RequestFix) -> FixOutcome:
        self.chain = self.chain or build_chain(self.spec)
        outcome = fix_step(self.run.store, state, request, self.chain, self.spec, self.inputs)
        notes = self.run.notes
        notes.extend(n for n in outcome.notes if n not in notes)
        self.run.progress.fixed(outcome.record, outcome.notes)
        return outcome


def _recording(
    notebook: Notebook, recorders: dict[int, CellRecorder]
) -> Callable[[int], CellRecorder]:
    """`execute_runs`' observe: a CellRecorder per run, kept in `recorders` by run."""

    def observe(run: int) -> CellRecorder:
        recorders[run] = CellRecorder.of(notebook)
        return recorders[run]

    return observe


def _bound(outputs: list[RunOutput], recorders: dict[int, CellRecorder]) -> BoundRecord:
    return BoundRecord.of([recorders[o.run].cells for o in outputs if o.run in recorders])


def write_outputs(run: LocalRun, status: ModernizationStatus, out_dir: Path) -> None:
    (out_dir / REPORT_JSON).write_text(status_json(status.to_wire()), encoding="utf-8")
    if run.resource is None:
        return
    resource = run.resource
    name, tolerance = resource.metadata.name, resource.spec.score.tolerance
    for file, data in report_files(run.store, status, name, tolerance).items():
        (out_dir / file).write_bytes(data)


def default_parallel_runs() -> int:
    """Runs of one revision at once: one per CPU core (each run is a kernel of its own)."""
    return max(1, os.cpu_count() or 1)


def modernize_file(
    spec_path: Path,
    out: Path | None = None,
    progress: Progress | None = None,
    parallel_runs: int | None = None,
    python: str | None = None,
    oracle_python: str | None = None,
) -> LocalResult:
    """`python`, `oracle_python`: interpreters `kernel_python` checked (default: this one; no
    differential run)."""
    document = read_document(spec_path)  # InvalidInputError here: no folder to report into
    return modernize_document(
        document,
        spec_path.resolve().parent,
        str(spec_path),
        out,
        progress,
        parallel_runs,
        python,
        oracle_python,
    )


def modernize_document(
    document: dict[str, Any],
    base: Path,
    source: str,
    out: Path | None = None,
    progress: Progress | None = None,
    parallel_runs: int | None = None,
    python: str | None = None,
    oracle_python: str | None = None,
) -> LocalResult:
    """Modernize the spec `document` (read from `source`), its relative paths read from `base`;
    the notebook's kernel runs in `python` (an interpreter `kernel_python` checked; default:
    this one). With `oracle_python` (an era's interpreter, checked the same way), revision 0
    runs there first and the report compares each cell of the best revision with it."""
    out_dir = choose_out_dir(out, run_name(document, base))
    out_dir.mkdir(parents=True, exist_ok=True)
    run = LocalRun(
        None,
        base,
        LocalStore(out_dir),
        progress or QuietProgress(),
        parallel_runs or default_parallel_runs(),
        python or sys.executable,
        oracle_python,
    )
    try:
        try:
            run.resource = parse_modernization(document, source)
        except SpecError as error:
            _keep_original_of_invalid_spec(run, document)
            raise InvalidInputError(str(error)) from None
        with tempfile.TemporaryDirectory(prefix="nbmod-") as scratch:
            status = run.run(Path(scratch))
    except InvalidInputError as error:
        status = run.unrunnable(str(error))
        write_outputs(run, status, out_dir)
        return LocalResult(status, out_dir, EXIT_INVALID_INPUT)
    write_outputs(run, status, out_dir)
    reproduced = status.outcome is not None and status.outcome.reproducible
    return LocalResult(status, out_dir, EXIT_REPRODUCED if reproduced else EXIT_NOT_REPRODUCED)


def _keep_original_of_invalid_spec(run: LocalRun, document: dict[str, Any]) -> None:
    """Even when the spec is invalid, keep the notebook it names as revision 0 if it exists."""
    spec = document.get("spec")
    ref = spec.get("notebook") if isinstance(spec, dict) else None
    if isinstance(ref, str) and ref:
        with contextlib.suppress(InvalidInputError, StoreError):
            keep_original(ref, run.base, run.store)
