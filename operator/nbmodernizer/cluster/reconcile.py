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
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from nbmodernizer import metrics
from nbmodernizer.admit import InvalidInputError
from nbmodernizer.cluster.budget import BudgetHold, BudgetLimits, FleetBudget, budgeted
from nbmodernizer.cluster.conditions import conditions_for
from nbmodernizer.cluster.events import event_for
from nbmodernizer.cluster.grants import GrantsRefused, JobGrants
from nbmodernizer.cluster.indexed import arrived, is_indexed, judge, stop_message
from nbmodernizer.cluster.jobs import build_job, fit_name, job_name, revision_prefix
from nbmodernizer.cluster.jobstate import Capacity, infrastructure_result, job_key, job_state
from nbmodernizer.cluster.kube import Kube, KubeError, Paths
from nbmodernizer.cluster.outputs import publish, published
from nbmodernizer.cluster.run_inputs import RunInputs
from nbmodernizer.cluster.settings import OperatorSettings
from nbmodernizer.engine import fix_step, grade_revision, record_result, replay
from nbmodernizer.fixers import FixerChain, build_chain
from nbmodernizer.fixers.registry import FixerEnvironment, build_learner
from nbmodernizer.grade import score_runs
from nbmodernizer.loop import Action, Execute, Finish, LoopState, Unrunnable, start, step
from nbmodernizer.spec import (
    ModernizationSpec,
    NotebookModernization,
    SpecError,
    parse_modernization,
)
from nbmodernizer.status import ExecutionResult, ModernizationStatus, Outcome, Phase, ScoreResult
from nbmodernizer.store import StoreError
from nbmodernizer.store.cache import CachedStore, ObjectCache
from nbmodernizer.store.revisions import RevisionStore, S3Store, has_execution
from nbmodernizer.store.s3 import delete_prefix
from nbmodernizer.summary import build_status

FINALIZER = "nbmodernizer.dev/cleanup"
QUEUED_RETRY_SECONDS = 5.0
FINAL_PHASES = (Phase.SUCCEEDED.value, Phase.FAILED.value)


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


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


EventSink = Callable[[dict[str, Any], str, str, str], None]  # (object, type, reason, message)
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
        self.written: dict[str, str] = {}  # key -> resourceVersion of our last status write
        self.inputs = RunInputs()  # the frozen specs and the answers, read once
        self.grants = JobGrants(kube, settings)
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
        if obj["metadata"].get("deletionTimestamp"):
            self.finalize(obj)
            return Requeue()
        status = obj.get("status") or {}
        self._account(namespace, name, status)
        if status.get("phase") in FINAL_PHASES:
            self._note_spec_change(obj)
            self._remember(obj, Phase(status["phase"]))
            return Requeue()
        try:
            resource = self._parse(obj)
        except InvalidResourceError as error:
            self._finish_unrunnable(obj, str(error), spec_error=str(error))
            return Requeue()
        self._ensure_finalizer(obj)
        self._note_spec_change(obj)
        key = job_key(namespace, name)
        try:
            requeue = self._advance(obj, resource)
        except (InvalidResourceError, GrantsRefused) as error:  # not admitted, not grantable
            self._finish_unrunnable(obj, str(error), spec_error=str(error))
            return Requeue()
        except InvalidInputError as error:  # e.g. the answers vanished mid-run
            self._finish_unrunnable(obj, str(error))
            return Requeue()
        except TamperedStoreError as error:
            self._stop_jobs(namespace, name)  # whatever runs for it is not to be trusted
            self._finish_unrunnable(obj, str(error))
            return Requeue()
        except StoreError as error:
            return self._store_unavailable(obj, key, str(error))
        self.store_failures.pop(key, None)
        return requeue

    # -- the loop ---------------------------------------------------------------------------

    def _advance(self, obj: dict[str, Any], resource: NotebookModernization) -> Requeue:
        meta = obj["metadata"]
        namespace, name = meta["namespace"], meta["name"]
        store = self._open_store(revision_prefix(self.jobs, namespace, name))
        spec = self._frozen_spec(store, obj, resource)
        state, action = replay(store, spec.fix.max_iterations)
        self._verify_unrecorded(obj, store, spec, state)
        notes: list[str] = list((obj.get("status") or {}).get("notes") or [])
        while True:
            if isinstance(action, Finish):
                self._finish(obj, spec, store, state, notes)
                return Requeue()
            if isinstance(action, Execute):
                advanced = self._execute(obj, resource, spec, store, state, action.revision, notes)
                if isinstance(advanced, Requeue):
                    return advanced
                state, action = advanced
                continue
            self._write(obj, spec, store, state, Phase.FIXING, notes)
            try:
                outcome = fix_step(store, state, action, self._chain(obj, spec), spec, None)
            except BudgetHold as hold:  # nothing was stored: the same step runs again later
                self._write(obj, spec, store, state, Phase.QUEUED, notes, budget_hold=hold.reason)
                return Requeue(hold.seconds)
            metrics.observe_fix(outcome.record, spec.fix.fixers, action.fix_type.value)
            if spec.fix.llm.model and outcome.state.spent != state.spent:
                spent = outcome.state.spent
                before = state.spent
                metrics.observe_llm_usage(
                    spec.fix.llm.model,
                    spent.input_tokens - before.input_tokens,
                    spent.output_tokens - before.output_tokens,
                    spent.usd - before.usd,
                )
            notes.extend(n for n in outcome.notes if n not in notes)
            self._fix_event(obj, action.revision, outcome.record, outcome.notes)
            state, action = outcome.state, outcome.action

    def _execute(
        self,
        obj: dict[str, Any],
        resource: NotebookModernization,
        spec: ModernizationSpec,
        store: RevisionStore,
        state: LoopState,
        revision: int,
        notes: list[str],
    ) -> tuple[LoopState, Action] | Requeue:
        meta = obj["metadata"]
        namespace = meta["namespace"]
        job = job_name(meta["name"], revision)
        key = job_key(namespace, job)
        found = self.kube.get(Paths.jobs(namespace, job))
        phase, reason = job_state(found) if found is not None else ("absent", "")
        graded: tuple[ExecutionResult, ScoreResult] | None = None
        if spec.score.runs > 1 and (is_indexed(found) if found else has_execution(store, revision)):
            # One Indexed Job: grade the runs that arrived; stop it once they decide.
            grade = partial(self._grade, store, revision, spec)
            judged = judge(arrived(found, spec.score.runs), spec.score, grade)
            if judged is not None and judged.stop:  # Background: its pods go too
                self.kube.delete(Paths.jobs(namespace, job))
                self._event(obj, "Normal", "RunsStopped", stop_message(job, judged))
            graded = (judged.execution, judged.score) if judged is not None else None
        elif phase in ("succeeded", "absent") and has_execution(store, revision):
            # A Job that ended well, or one gone (its TTL) after storing its outputs: grade
            # what it stored, reading only the names it was granted (`grade_revision`).
            graded = self._grade(store, revision, spec)
        if graded is not None:
            self.capacity.mark(key, running=False)
            self.grants.revoke(namespace, job)
            return self._record(obj, spec, store, state, revision, *graded)
        if found is None:
            if not self.capacity.reserve(key):
                self._write(obj, spec, store, state, Phase.QUEUED, notes, iteration=revision)
                return Requeue(QUEUED_RETRY_SECONDS)
            manifest = build_job(resource, revision, self.jobs)
            made, created = self.kube.create(Paths.jobs(namespace), manifest)
            granted_job = made if created else self.kube.get(Paths.jobs(namespace, job))
            self.grants.grant(granted_job, spec, meta["name"], revision)
            if created:
                self._event(
                    obj, "Normal", "IterationStarted", f"Job {job} executes revision {revision}"
                )
            self._write(obj, spec, store, state, Phase.RUNNING, notes, iteration=revision)
            return Requeue()
        if phase in ("running", "suspended"):
            self.grants.grant(found, spec, meta["name"], revision)  # made after a restart?
            self.capacity.mark(key, running=True)
            current = Phase.QUEUED if phase == "suspended" else Phase.RUNNING
            self._write(obj, spec, store, state, current, notes, iteration=revision)
            return Requeue()
        if phase == "succeeded":  # ended well, but stored no execution facts
            reason = reason or "Complete"
            phase = "failed"
        # A failed Job: whatever it stored is not trusted (a notebook that read its grants
        # could have written the Job's outputs before the runner did, then failed it).
        self.capacity.mark(key, running=False)
        self.grants.revoke(namespace, job)
        deadline = float((found.get("spec") or {}).get("activeDeadlineSeconds") or 0)
        execution = infrastructure_result(phase, reason, deadline)
        score = score_runs([], execution.failure, spec.score)
        return self._record(obj, spec, store, state, revision, execution, score)

    def _verify_unrecorded(
        self, obj: dict[str, Any], store: RevisionStore, spec: ModernizationSpec, state: LoopState
    ) -> None:
        """A result.json the status has not counted yet (`status.iterations`: etcd, out of
        any notebook's reach) is trusted only if grading the revision again gives the same
        execution and score (grading is deterministic: that is how the operator's own write,
        made just before a crash, is told from one somebody else put there first), or if it
        records a failure (which gains a forger nothing). Else: TamperedStoreError."""
        recorded = int((obj.get("status") or {}).get("iterations") or 0)
        for attempt in state.attempts[recorded:]:
            if attempt.score.value is None and attempt.execution.has_errors:
                continue
            revision = attempt.revision
            try:
                if not has_execution(store, revision):
                    raise FileNotFoundError("no execution.json")
                execution, score = self._grade(store, revision, spec, attempt.score.runs)
            except FileNotFoundError as error:
                raise TamperedStoreError(revision, str(error)) from None
            if execution != attempt.execution or score != attempt.score:
                raise TamperedStoreError(revision, "grading it again gives another result")

    def _grade(
        self, store: RevisionStore, revision: int, spec: ModernizationSpec, *runs: Any
    ) -> tuple[ExecutionResult, ScoreResult]:
        """Grade what a revision's Job stored, reading only the names it was granted (`runs`:
        an Indexed Job's count and Error runs, `grade_revision`'s last arguments)."""
        limits = self.settings.submission_limits()
        return grade_revision(store, revision, self.inputs.answers(spec), spec, limits, *runs)

    def _record(
        self,
        obj: dict[str, Any],
        spec: ModernizationSpec,
        store: RevisionStore,
        state: LoopState,
        revision: int,
        execution: ExecutionResult,
        score: ScoreResult,
    ) -> tuple[LoopState, Action]:
        learner = build_learner(spec, FixerEnvironment(fix_memory=self.settings.fix_memory))
        state, action = record_result(store, state, revision, execution, score, learner)
        attempt = state.attempts[-1]
        metrics.observe_attempt(attempt)
        value = f"{score.value:.6g}" if score.value is not None else "no score"
        message = (
            f"revision {revision}: {attempt.diagnosis.issue.value} ({value}) "
            f"{attempt.diagnosis.detail}"
        ).strip()
        kind = "Normal" if attempt.diagnosis.outcome.reproducible else "Warning"
        self._event(obj, kind, "IterationFinished", message)
        return state, action

    # -- inputs of a run ----------------------------------------------------------------------

    def _parse(self, obj: dict[str, Any]) -> NotebookModernization:
        try:
            return parse_modernization(obj, "resource")
        except SpecError as error:
            raise InvalidResourceError("; ".join(error.problems)) from None

    def _frozen_spec(
        self, store: RevisionStore, obj: dict[str, Any], resource: NotebookModernization
    ) -> ModernizationSpec:
        meta = obj["metadata"]
        try:
            return self.inputs.frozen_spec(
                store, job_key(meta["namespace"], meta["name"]), resource, meta.get("generation")
            )
        except InvalidInputError as error:
            raise InvalidResourceError(str(error)) from None

    def _chain(self, obj: dict[str, Any], spec: ModernizationSpec) -> FixerChain:
        key: str | None = None
        secret_ref = spec.fix.llm.api_key_secret
        if secret_ref is not None:
            secret = self.kube.get(Paths.secret(obj["metadata"]["namespace"], secret_ref.name))
            data = (secret or {}).get("data") or {}
            if secret_ref.key in data:
                key = base64.b64decode(data[secret_ref.key]).decode().strip()
        environment = FixerEnvironment(key, metrics.observe_llm_request, self.settings.fix_memory)
        chain = self.chain_factory(spec, environment)
        return budgeted(chain, self.budget) if self.budget is not None else chain

    # -- status -----------------------------------------------------------------------------

    def _write(
        self,
        obj: dict[str, Any],
        spec: ModernizationSpec | None,
        store: RevisionStore | None,
        state: LoopState,
        phase: Phase,
        notes: list[str],
        iteration: int | None = None,
        spec_error: str | None = None,
        budget_hold: str | None = None,
    ) -> None:
        previous = obj.get("status") or {}
        finished = phase.value in FINAL_PHASES
        status: ModernizationStatus = build_status(
            state,
            spec.score if spec else None,
            (lambda revision: store.uri_of(revision)) if store else (lambda _r: ""),
            phase,
            started_at=previous.get("startedAt") or now(),
            completed_at=now() if finished else None,
            notes=notes,
        )
        if finished and spec is not None and store is not None:  # report.html, final.ipynb
            status = publish(store, status, obj["metadata"]["name"], spec.score.tolerance)
        wire = status.merge_patch(previous)  # what no longer holds (a fixed lastError) goes
        if iteration is not None:
            wire["iteration"] = iteration
        generation = obj["metadata"].get("generation")
        wire["observedGeneration"] = previous.get("observedGeneration", generation)
        wire["conditions"] = conditions_for(
            phase,
            status.outcome,
            status.message,
            previous.get("conditions") or [],
            generation,
            now(),
            spec_error=spec_error,
            budget_hold=budget_hold,
        )
        meta = obj["metadata"]
        try:
            updated = self.kube.merge_patch(
                Paths.resource(meta["namespace"], meta["name"]) + "/status", {"status": wire}
            )
        except KubeError as error:
            if error.status == 404:
                return
            raise
        obj["status"] = updated.get("status", wire)
        version = (updated.get("metadata") or {}).get("resourceVersion")
        if version:
            self.written[job_key(meta["namespace"], meta["name"])] = version
        self._remember(obj, phase)

    def wrote(self, namespace: str, name: str, resource_version: str | None) -> bool:
        """Whether this version of the resource is the one our own status write made (its
        watch event needs no reconcile: nothing changed that we did not know)."""
        return (
            resource_version is not None
            and self.written.get(job_key(namespace, name)) == resource_version
        )

    def _finish(
        self,
        obj: dict[str, Any],
        spec: ModernizationSpec,
        store: RevisionStore,
        state: LoopState,
        notes: list[str],
    ) -> None:
        assert state.finish is not None
        outcome = state.finish.outcome
        phase = Phase.FAILED if outcome is Outcome.FAILED else Phase.SUCCEEDED
        self._write(obj, spec, store, state, phase, notes)
        metrics.observe_finish(state)
        kind = "Normal" if outcome.reproducible else "Warning"
        self._event(obj, kind, "Finished", f"{outcome.value}: {state.finish.reason}")
        where = published(obj.get("status") or {})
        if where:
            self._event(obj, "Normal", "ReportStored", where)
        self._forget_stored(store.uri)  # a finished run is not replayed again

    def _finish_unrunnable(
        self, obj: dict[str, Any], reason: str, spec_error: str | None = None
    ) -> None:
        state, _ = start(1)
        state, _ = step(state, Unrunnable(reason))
        self._write(obj, None, None, state, Phase.FAILED, [], spec_error=spec_error)
        metrics.observe_finish(state)
        self._event(obj, "Warning", "Failed", reason)

    def _store_unavailable(self, obj: dict[str, Any], key: str, error: str) -> Requeue:
        failures = self.store_failures.get(key, 0) + 1
        self.store_failures[key] = failures
        message = f"S3 unreachable ({failures}/{self.settings.store_retries}): {error}"
        if failures >= self.settings.store_retries:
            self.store_failures.pop(key, None)
            self._finish_unrunnable(obj, f"the revision store stayed unreachable: {error}")
            return Requeue()
        meta = obj["metadata"]
        previous = obj.get("status") or {}
        patch = {
            "status": {
                "phase": previous.get("phase") or Phase.PENDING.value,
                "lastError": message,
                "conditions": conditions_for(
                    Phase(previous.get("phase") or Phase.PENDING.value),
                    None,
                    message,
                    previous.get("conditions") or [],
                    meta.get("generation"),
                    now(),
                    store_error=message,
                ),
            }
        }
        self.kube.merge_patch(Paths.resource(meta["namespace"], meta["name"]) + "/status", patch)
        self._event(obj, "Warning", "StoreUnavailable", message)
        return Requeue(self.settings.retry_seconds)

    def _note_spec_change(self, obj: dict[str, Any]) -> None:
        """Finished or running resources whose spec changed: say so once, change nothing."""
        meta = obj["metadata"]
        status = obj.get("status") or {}
        observed, generation = status.get("observedGeneration"), meta.get("generation")
        if observed is None or generation is None or observed == generation:
            return
        conditions = status.get("conditions") or []
        if any(c.get("reason") == "SpecChangedAfterStart" for c in conditions):
            return
        message = (
            f"the spec changed (generation {generation}) after the modernization started with "
            f"generation {observed}; the change is not applied: delete and re-create to run it"
        )
        changed = [c for c in conditions if c.get("type") != "SpecAccepted"] + [
            {
                "type": "SpecAccepted",
                "status": "False",
                "reason": "SpecChangedAfterStart",
                "message": message,
                "lastTransitionTime": now(),
                "observedGeneration": generation,
            }
        ]
        path = Paths.resource(meta["namespace"], meta["name"]) + "/status"
        updated = self.kube.merge_patch(path, {"status": {"conditions": changed}})
        obj["status"] = updated.get("status", status)
        self._event(obj, "Warning", "SpecChangedAfterStart", message)

    # -- finalizer and deletion ---------------------------------------------------------------

    def _ensure_finalizer(self, obj: dict[str, Any]) -> None:
        meta = obj["metadata"]
        finalizers = list(meta.get("finalizers") or [])
        if FINALIZER in finalizers:
            return
        path = Paths.resource(meta["namespace"], meta["name"])
        updated = self.kube.merge_patch(
            path, {"metadata": {"finalizers": [*finalizers, FINALIZER]}}
        )
        obj["metadata"] = updated.get("metadata", meta)

    def _stop_jobs(self, namespace: str, name: str) -> None:
        """Delete the resource's Jobs and their grants."""
        selector = f"nbmodernizer.dev/modernization={fit_name(name)}"
        for job in self.kube.list(Paths.jobs(namespace), selector):
            self.kube.delete(Paths.jobs(namespace, job["metadata"]["name"]))
            self.capacity.mark(job_key(namespace, job["metadata"]["name"]), running=False)
            self.grants.revoke(namespace, job["metadata"]["name"])

    def finalize(self, obj: dict[str, Any]) -> None:
        """Stop the resource's Jobs; delete its revisions if its retention says so."""
        meta = obj["metadata"]
        namespace, name = meta["namespace"], meta["name"]
        self._stop_jobs(namespace, name)
        retention = ((obj.get("spec") or {}).get("revisions") or {}).get("retention", "Keep")
        revisions = revision_prefix(self.jobs, namespace, name)
        if retention == "Delete":
            delete_prefix(revisions)
        self._forget_stored(revisions)
        finalizers = [f for f in meta.get("finalizers") or [] if f != FINALIZER]
        if len(finalizers) != len(meta.get("finalizers") or []):
            try:
                self.kube.merge_patch(
                    Paths.resource(namespace, name),
                    {"metadata": {"finalizers": finalizers or None}},
                )
            except KubeError as error:
                if error.status != 404:
                    raise
        self._forget(namespace, name)

    # -- events and bookkeeping -------------------------------------------------------------

    def _event(self, obj: dict[str, Any], kind: str, reason: str, message: str) -> None:
        event = event_for(obj, kind, reason, message, now())
        with contextlib.suppress(KubeError):  # events are best effort: never block the loop
            self.kube.create(Paths.events(obj["metadata"]["namespace"]), event)

    def _fix_event(self, obj: dict[str, Any], revision: int, record: Any, notes: list[str]) -> None:
        if record is None:
            self._event(obj, "Warning", "NotFixed", f"revision {revision}: {'; '.join(notes)}")
        else:
            self._event(
                obj,
                "Normal",
                "Fixed",
                f"revision {record.iteration}: {record.type.value} by {record.fixer}: "
                f"{record.summary}",
            )

    def _account(self, namespace: str, name: str, status: dict[str, Any]) -> None:
        """Count what a modernization had spent before this operator saw it, once."""
        key = job_key(namespace, name)
        if self.budget is None or key in self.accounted:
            return
        self.accounted.add(key)
        self.budget.add_earlier(float((status.get("cost") or {}).get("usd") or 0.0))

    def _remember(self, obj: dict[str, Any], phase: Phase) -> None:
        meta = obj["metadata"]
        with self.lock:
            self.phases[job_key(meta["namespace"], meta["name"])] = phase
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
        self._publish_phases()

    def _publish_phases(self) -> None:
        with self.lock:
            counts: dict[Phase, int] = {}
            for known in self.phases.values():
                counts[known] = counts.get(known, 0) + 1
        metrics.set_phases(counts)
