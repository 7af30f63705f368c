"""Reconcile one NotebookModernization: read the resource, its revision store and the Job of
the current iteration, take every step the loop allows now, and write the status.

Nothing is remembered between calls but what the store and the cluster hold, so a call can
be repeated, or made by a restarted operator, at any point: Job names are deterministic
(creation is idempotent), revision files are written once, and `engine.replay` rebuilds the
loop from the store. Grading and fixing happen here, in the operator: the runner pod never
sees the answers or the LLM key, and no GPU waits on an LLM.

The spec is frozen when a modernization starts (kept as revision 0's `spec.json`): a later
change is not applied to the running loop; the `SpecAccepted` condition turns False with
reason `SpecChangedAfterStart` and a Warning event says so. Delete and re-create the resource
to run the changed spec.
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from nbmodernizer import metrics
from nbmodernizer.admit import InvalidInputError
from nbmodernizer.clock import now
from nbmodernizer.cluster.budget import BudgetHold, BudgetLimits, FleetBudget, budgeted
from nbmodernizer.cluster.events import EventPoster, event_for
from nbmodernizer.cluster.grants import GrantsRefused, JobGrants
from nbmodernizer.cluster.indexed import arrived, is_indexed, judge, stop_message
from nbmodernizer.cluster.jobs import build_job, fit_name, job_name
from nbmodernizer.cluster.jobstate import Capacity, infrastructure_result, job_key, job_state
from nbmodernizer.cluster.kube import Kube, KubeError, Paths
from nbmodernizer.cluster.outputs import published
from nbmodernizer.cluster.run_inputs import Frozen, RunInputs
from nbmodernizer.cluster.settings import OperatorSettings
from nbmodernizer.cluster.status_writer import Progress, RunContext, StatusWriter
from nbmodernizer.cluster.subject import Subject
from nbmodernizer.cluster.wire import JsonObject, child, number, text
from nbmodernizer.engine import FixOutcome, advance, fix_step, grade_revision, replay
from nbmodernizer.fixers import FixerChain, build_chain
from nbmodernizer.fixers.base import Learner
from nbmodernizer.fixers.registry import FixerEnvironment, build_learner
from nbmodernizer.grade import score_runs
from nbmodernizer.loop import (
    Attempt,
    Finish,
    Graded,
    LoopState,
    RequestFix,
    start,
    unrunnable,
)
from nbmodernizer.spec import (
    ModernizationSpec,
    NotebookModernization,
    SpecError,
    parse_modernization,
)
from nbmodernizer.status import ExecutionResult, FixRecord, Phase
from nbmodernizer.store import StoreError
from nbmodernizer.store.cache import CachedStore, ObjectCache
from nbmodernizer.store.revisions import RevisionStore, S3Store, has_execution
from nbmodernizer.store.s3 import delete_prefix
from nbmodernizer.summary import phase_of

FINALIZER = "nbmodernizer.dev/cleanup"
QUEUED_RETRY_SECONDS = 5.0


@dataclass(frozen=True)
class Requeue:
    """When to reconcile again without an event (None: wait for one)."""

    after: float | None = None


class InvalidResourceError(Exception):
    """The resource cannot start: an invalid spec, or inputs that are not admitted; the message
    names the field."""


class TamperedStoreError(Exception):
    """A revision's result.json that the operator did not write."""

    def __init__(self, revision: int, why: str) -> None:
        super().__init__(
            f"revision {revision}'s result.json was not written by the operator ({why}): "
            "refusing a tampered revision store"
        )


StoreFactory = Callable[[str], RevisionStore]
ChainFactory = Callable[[ModernizationSpec, FixerEnvironment], FixerChain]


class Reconciler:
    def __init__(
        self,
        kube: Kube,
        settings: OperatorSettings,
        capacity: Capacity | None = None,
        store_factory: StoreFactory = S3Store,
        chain_factory: ChainFactory = build_chain,
    ) -> None:
        self.kube = kube
        self.settings = settings
        self.jobs = settings.jobs()
        self.capacity = capacity or Capacity(settings.max_concurrent_jobs)
        limits = BudgetLimits(settings.llm_budget_usd_per_hour, settings.llm_budget_usd)
        self.budget = FleetBudget(limits) if limits.any else None
        self.accounted: set[str] = set()  # modernizations whose earlier spending is counted
        self.store_factory = store_factory
        self.chain_factory = chain_factory
        self.store_failures: dict[str, int] = {}
        self.phases: dict[str, Phase] = {}
        self.status = StatusWriter(kube)
        self.inputs = RunInputs()  # the frozen specs and the answers, read once
        self.grants = JobGrants(kube, settings)
        self.events = EventPoster(kube)
        # revision files read or written (write-once: never stale); None: off
        cache_bytes = settings.store_cache_mib * 2**20
        self.stored = ObjectCache(max_bytes=cache_bytes) if cache_bytes else None
        self.lock = threading.Lock()

    # -- entry point ------------------------------------------------------------------------

    def reconcile(self, namespace: str, name: str) -> Requeue:
        obj = self.kube.get(Paths.resource(namespace, name))
        if obj is None:
            self._forget(namespace, name)
            return Requeue()
        subject = Subject.of(obj, self.jobs)
        if subject.deleting:
            self.finalize(subject)
            return Requeue()
        self._account(subject)
        if subject.status.finished:
            self._note_spec_change(subject)
            self._remember(subject, subject.status.phase or Phase.FAILED)
            return Requeue()
        try:
            resource = self._parse(subject)
        except InvalidResourceError as error:
            self._finish_unrunnable(subject, str(error), spec_error=str(error))
            return Requeue()
        subject = self._note_spec_change(self._ensure_finalizer(subject))
        try:
            requeue = self._advance(subject, resource)
        except (InvalidResourceError, GrantsRefused) as error:  # not admitted, not grantable
            self._finish_unrunnable(subject, str(error), spec_error=str(error))
            return Requeue()
        except InvalidInputError as error:  # e.g. the answers vanished mid-run
            self._finish_unrunnable(subject, str(error))
            return Requeue()
        except TamperedStoreError as error:
            self._stop_jobs(subject.namespace, subject.name)  # whatever runs is not trusted
            self._finish_unrunnable(subject, str(error))
            return Requeue()
        except StoreError as error:
            return self._store_unavailable(subject, str(error))
        self.store_failures.pop(subject.key, None)
        return requeue

    # -- the loop ---------------------------------------------------------------------------

    def _advance(self, subject: Subject, resource: NotebookModernization) -> Requeue:
        store = self._open_store(subject.store_prefix)
        frozen = self._frozen_spec(store, subject, resource)
        spec = frozen.spec
        if frozen.started:  # the store holds revision 0 and the spec, nothing graded yet
            state, action = start(spec.fix.max_iterations)
        else:
            state, action = replay(store, spec.fix.max_iterations)
        self._verify_unrecorded(subject, store, spec, state)
        run = RunContext(spec, store, subject.status.notes)
        driver = _InCluster(self, subject, resource, run, fresh={0} if frozen.started else set())
        state, action = advance(store, state, action, driver)
        if isinstance(action, Finish):
            self._finish(driver.subject, driver.run, state)
        return driver.requeue

    def _verify_unrecorded(
        self, subject: Subject, store: RevisionStore, spec: ModernizationSpec, state: LoopState
    ) -> None:
        """A result.json the status has not counted yet (`status.iterations`: etcd, out of
        any notebook's reach) is trusted only if grading the revision again gives the same
        execution and score (grading is deterministic: that is how the operator's own write,
        made just before a crash, is told from one somebody else put there first), or if it
        records a failure (which gains a forger nothing). Else: TamperedStoreError."""
        for attempt in state.attempts[subject.status.iterations :]:
            if attempt.score.value is None and attempt.execution.has_errors:
                continue
            revision = attempt.revision
            if not has_execution(store, revision):
                raise TamperedStoreError(revision, "no execution.json")
            graded = self.grade(store, revision, spec, attempt.score.runs)
            if graded.execution != attempt.execution or graded.score != attempt.score:
                raise TamperedStoreError(revision, "grading it again gives another result")

    def grade(
        self,
        store: RevisionStore,
        revision: int,
        spec: ModernizationSpec,
        count: int | None = None,
        failed: dict[int, ExecutionResult] | None = None,
    ) -> Graded:
        """Grade what a revision's Job stored, reading only the names it was granted (`count`,
        `failed`: an Indexed Job's runs, as `engine.stored_runs` takes them)."""
        limits = self.settings.submission_limits()
        answers = self.inputs.answers(spec)
        return grade_revision(store, revision, answers, spec, limits, count, failed)

    # -- inputs of a run ----------------------------------------------------------------------

    def _parse(self, subject: Subject) -> NotebookModernization:
        try:
            return parse_modernization(subject.body, "resource")
        except SpecError as error:
            raise InvalidResourceError("; ".join(error.problems)) from None

    def _frozen_spec(
        self, store: RevisionStore, subject: Subject, resource: NotebookModernization
    ) -> Frozen:
        try:
            return self.inputs.frozen_spec(store, subject.key, resource, subject.generation)
        except InvalidInputError as error:
            raise InvalidResourceError(str(error)) from None

    def chain(self, subject: Subject, spec: ModernizationSpec) -> FixerChain:
        key: str | None = None
        secret_ref = spec.fix.llm.api_key_secret
        if secret_ref is not None:
            secret = self.kube.get(Paths.secret(subject.namespace, secret_ref.name))
            value = text(child(secret or {}, "data"), secret_ref.key)
            if value is not None:
                key = base64.b64decode(value).decode().strip()
        environment = FixerEnvironment(key, metrics.observe_llm_request, self.settings.fix_memory)
        chain = self.chain_factory(spec, environment)
        return budgeted(chain, self.budget) if self.budget is not None else chain

    # -- status -----------------------------------------------------------------------------

    def write(
        self, subject: Subject, state: LoopState, progress: Progress, run: RunContext | None
    ) -> Subject:
        written = self.status.write(subject, state, progress, run)
        if written is None:  # the resource is gone
            return subject
        self._remember(written, progress.phase)
        return written

    def wrote(self, namespace: str, name: str, resource_version: str | None) -> bool:
        """Whether this version of the resource is the one our own status write made."""
        return self.status.wrote(job_key(namespace, name), resource_version)

    def _finish(self, subject: Subject, run: RunContext, state: LoopState) -> None:
        assert state.finish is not None
        outcome = state.finish.outcome
        subject = self.write(subject, state, Progress(phase_of(state)), run)
        metrics.observe_finish(state)
        kind = "Normal" if outcome.reproducible else "Warning"
        self.event(subject, kind, "Finished", f"{outcome.value}: {state.finish.reason}")
        where = published(subject.status.wire)
        if where:
            self.event(subject, "Normal", "ReportStored", where)
        self._forget_stored(run.store.uri)  # a finished run is not replayed again

    def _finish_unrunnable(
        self, subject: Subject, reason: str, spec_error: str | None = None
    ) -> None:
        state = unrunnable(reason)
        self.write(subject, state, Progress(phase_of(state), spec_error=spec_error), None)
        metrics.observe_finish(state)
        self.event(subject, "Warning", "Failed", reason)

    def _store_unavailable(self, subject: Subject, error: str) -> Requeue:
        failures = self.store_failures.get(subject.key, 0) + 1
        self.store_failures[subject.key] = failures
        message = f"S3 unreachable ({failures}/{self.settings.store_retries}): {error}"
        if failures >= self.settings.store_retries:
            self.store_failures.pop(subject.key, None)
            self._finish_unrunnable(subject, f"the revision store stayed unreachable: {error}")
            return Requeue()
        self.status.store_unavailable(subject, message)
        self.event(subject, "Warning", "StoreUnavailable", message)
        return Requeue(self.settings.retry_seconds)

    def _note_spec_change(self, subject: Subject) -> Subject:
        """Finished or running resources whose spec changed: say so once, change nothing."""
        observed, generation = subject.status.observed_generation, subject.generation
        if observed is None or generation is None or observed == generation:
            return subject
        if any(c.get("reason") == "SpecChangedAfterStart" for c in subject.status.conditions):
            return subject
        message = (
            f"the spec changed (generation {generation}) after the modernization started with "
            f"generation {observed}; the change is not applied: delete and re-create to run it"
        )
        subject = self.status.spec_changed(subject, message)
        self.event(subject, "Warning", "SpecChangedAfterStart", message)
        return subject

    # -- finalizer and deletion ---------------------------------------------------------------

    def _ensure_finalizer(self, subject: Subject) -> Subject:
        if FINALIZER in subject.finalizers:
            return subject
        finalizers = [*subject.finalizers, FINALIZER]
        updated = self.kube.merge_patch(subject.path, {"metadata": {"finalizers": finalizers}})
        self.status.own(subject.key, updated)
        return replace(subject, finalizers=tuple(finalizers))

    def _stop_jobs(self, namespace: str, name: str) -> None:
        """Delete the resource's Jobs and their grants."""
        selector = f"nbmodernizer.dev/modernization={fit_name(name)}"
        for job in self.kube.list(Paths.jobs(namespace), selector):
            job_name_ = text(child(job, "metadata"), "name")
            if job_name_ is None:
                continue
            self.kube.delete(Paths.jobs(namespace, job_name_))
            self.capacity.mark(job_key(namespace, job_name_), running=False)
            self.grants.revoke(namespace, job_name_)

    def finalize(self, subject: Subject) -> None:
        """Stop the resource's Jobs; delete its revisions if its retention says so."""
        self._stop_jobs(subject.namespace, subject.name)
        if subject.retention == "Delete":
            delete_prefix(subject.store_prefix)
        self._forget_stored(subject.store_prefix)
        if FINALIZER in subject.finalizers:
            finalizers = [f for f in subject.finalizers if f != FINALIZER]
            try:
                self.kube.merge_patch(
                    subject.path, {"metadata": {"finalizers": finalizers or None}}
                )
            except KubeError as error:
                if error.status != 404:
                    raise
        self._forget(subject.namespace, subject.name)

    # -- events and bookkeeping -------------------------------------------------------------

    def event(self, subject: Subject, kind: str, reason: str, message: str) -> None:
        event = event_for(subject.reference(), kind, reason, message, now())
        self.events.post(subject.namespace, event)  # best effort: never blocks the loop

    def _account(self, subject: Subject) -> None:
        """Count what a modernization had spent before this operator saw it, once."""
        if self.budget is None or subject.key in self.accounted:
            return
        self.accounted.add(subject.key)
        self.budget.add_earlier(subject.status.spent_usd)

    def _remember(self, subject: Subject, phase: Phase) -> None:
        with self.lock:
            self.phases[subject.key] = phase
        self._publish_phases()

    def _open_store(self, prefix: str) -> RevisionStore:
        store = self.store_factory(prefix)
        return store if self.stored is None else CachedStore(store, self.stored)

    def _forget_stored(self, prefix: str) -> None:
        if self.stored is not None:
            self.stored.forget_prefix(prefix)

    def _forget(self, namespace: str, name: str) -> None:
        with self.lock:
            self.phases.pop(job_key(namespace, name), None)
            self.inputs.forget(job_key(namespace, name))
            self.status.forget(job_key(namespace, name))
        self._publish_phases()

    def _publish_phases(self) -> None:
        with self.lock:
            counts: dict[Phase, int] = {}
            for known in self.phases.values():
                counts[known] = counts.get(known, 0) + 1
        metrics.set_phases(counts)


@dataclass
class _InCluster:
    """One reconcile's `engine.Driver`: a revision executes as a Job (none yet: create it;
    running: wait; ended: grade what it stored); a fix runs here, unless the LLM budget holds
    it. Where it waits, the status says so and `requeue` says when to look again."""

    reconciler: Reconciler
    subject: Subject
    resource: NotebookModernization
    run: RunContext
    # revisions this reconcile made (revision 0: the spec was frozen now): no Job has run them
    fresh: set[int] = field(default_factory=set)
    requeue: Requeue = field(default_factory=Requeue)
    chain: FixerChain | None = None

    def execute(self, state: LoopState, revision: int) -> Graded | None:
        r, spec = self.reconciler, self.run.spec
        namespace = self.subject.namespace
        job = job_name(self.subject.name, revision)
        key = job_key(namespace, job)
        if revision in self.fresh:  # nothing to look up: no Job, no execution facts yet
            found, phase, reason = None, "absent", ""
        else:
            found = r.kube.get(Paths.jobs(namespace, job))
            phase, reason = job_state(found) if found is not None else ("absent", "")
            graded = self._graded(found, phase, revision)
            if graded is not None:
                r.capacity.mark(key, running=False)
                r.grants.revoke(namespace, job)
                return graded
        if found is None:
            if not r.capacity.reserve(key):
                self._wait(state, Progress(Phase.QUEUED, revision), QUEUED_RETRY_SECONDS)
                return None
            manifest = build_job(self.resource, revision, r.jobs)
            made, created = r.kube.create(Paths.jobs(namespace), manifest)
            granted_job = made if created else r.kube.get(Paths.jobs(namespace, job))
            r.grants.grant(granted_job, spec, self.subject.name, revision, created)
            if created:
                message = f"Job {job} executes revision {revision}"
                r.event(self.subject, "Normal", "IterationStarted", message)
            self._wait(state, Progress(Phase.RUNNING, revision))
            return None
        if phase in ("running", "suspended"):
            r.grants.grant(found, spec, self.subject.name, revision)  # made after a restart?
            r.capacity.mark(key, running=True)
            current = Phase.QUEUED if phase == "suspended" else Phase.RUNNING
            self._wait(state, Progress(current, revision))
            return None
        if phase == "succeeded":  # ended well, but stored no execution facts
            reason = reason or "Complete"
            phase = "failed"
        # A failed Job: whatever it stored is not trusted (a notebook that read its grants
        # could have written the Job's outputs before the runner did, then failed it).
        r.capacity.mark(key, running=False)
        r.grants.revoke(namespace, job)
        deadline = float(number(child(found, "spec"), "activeDeadlineSeconds") or 0)
        execution = infrastructure_result(phase, reason, deadline)
        return Graded(execution, score_runs([], execution.failure, spec.score))

    def _graded(self, found: JsonObject | None, phase: str, revision: int) -> Graded | None:
        """What the revision's Job stored, graded, where it can be: an Indexed Job's runs as
        they arrive (the Job stopped once they decide), another Job's once it ended well or
        is gone (its TTL) after storing its outputs."""
        r, spec, store = self.reconciler, self.run.spec, self.run.store
        namespace, job = self.subject.namespace, job_name(self.subject.name, revision)
        if spec.score.runs > 1 and (is_indexed(found) if found else has_execution(store, revision)):
            judged = judge(
                arrived(found, spec.score.runs),
                spec.score,
                lambda count, failed: r.grade(store, revision, spec, count, dict(failed)),
            )
            if judged is not None and judged.stop:  # Background: its pods go too
                r.kube.delete(Paths.jobs(namespace, job))
                r.event(self.subject, "Normal", "RunsStopped", stop_message(job, judged))
            return judged.graded if judged is not None else None
        if phase in ("succeeded", "absent") and has_execution(store, revision):
            # grade only the names it was granted (`grade_revision`)
            return r.grade(store, revision, spec)
        return None

    def learner(self) -> Learner | None:
        environment = FixerEnvironment(fix_memory=self.reconciler.settings.fix_memory)
        return build_learner(self.run.spec, environment)

    def recorded(self, attempt: Attempt) -> None:
        metrics.observe_attempt(attempt)
        score, diagnosis = attempt.score, attempt.diagnosis
        value = f"{score.value:.6g}" if score.value is not None else "no score"
        message = f"revision {attempt.revision}: {diagnosis.issue.value} ({value}) "
        kind = "Normal" if diagnosis.outcome.reproducible else "Warning"
        self.reconciler.event(
            self.subject, kind, "IterationFinished", (message + diagnosis.detail).strip()
        )

    def fix(self, state: LoopState, request: RequestFix) -> FixOutcome | None:
        r, spec = self.reconciler, self.run.spec
        if "llm" in spec.fix.fixers:  # a fix that may take minutes; the others take less
            # than the status write would (the next one, Running or the outcome, follows)
            self.subject = r.write(self.subject, state, Progress(Phase.FIXING), self.run)
        self.chain = self.chain or r.chain(self.subject, spec)
        try:
            outcome = fix_step(self.run.store, state, request, self.chain, spec, None)
        except BudgetHold as hold:  # nothing was stored: the same step runs again later
            progress = Progress(Phase.QUEUED, budget_hold=hold.reason)
            self._wait(state, progress, hold.seconds)
            return None
        if outcome.record is not None:
            self.fresh.add(outcome.record.iteration)
        metrics.observe_fix(outcome.record, spec.fix.fixers, request.fix_type.value)
        spent, before = outcome.state.spent, state.spent
        if spec.fix.llm.model and spent != before:
            metrics.observe_llm_usage(
                spec.fix.llm.model,
                spent.input_tokens - before.input_tokens,
                spent.output_tokens - before.output_tokens,
                spent.usd - before.usd,
            )
        notes = self.run.notes
        notes.extend(n for n in outcome.notes if n not in notes)
        self._fix_event(request.revision, outcome.record, outcome.notes)
        return outcome

    def _wait(self, state: LoopState, progress: Progress, after: float | None = None) -> None:
        """Say in the status what the loop waits for; `requeue`: when to look again."""
        self.subject = self.reconciler.write(self.subject, state, progress, self.run)
        self.requeue = Requeue(after)

    def _fix_event(self, revision: int, record: FixRecord | None, notes: list[str]) -> None:
        if record is None:
            message = f"revision {revision}: {'; '.join(notes)}"
            self.reconciler.event(self.subject, "Warning", "NotFixed", message)
        else:
            message = (
                f"revision {record.iteration}: {record.type.value} by {record.fixer}: "
                f"{record.summary}"
            )
            self.reconciler.event(self.subject, "Normal", "Fixed", message)
