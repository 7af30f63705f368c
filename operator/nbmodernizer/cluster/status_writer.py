"""Writing a NotebookModernization's `.status`: the loop's state as the status object
(`summary.build_status`, the schema of report.json), merged over what the status held, with
`observedGeneration` and the conditions of the Kubernetes API conventions. A finished run's
report and final notebook are published first (`outputs.publish`), so the status names them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from nbmodernizer.clock import now
from nbmodernizer.cluster.conditions import conditions_for
from nbmodernizer.cluster.kube import Kube, KubeError
from nbmodernizer.cluster.outputs import publish
from nbmodernizer.cluster.subject import FINAL_PHASES, RecordedStatus, Subject
from nbmodernizer.cluster.wire import JsonObject, child, text
from nbmodernizer.loop import LoopState
from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.status import ModernizationStatus, Phase
from nbmodernizer.store.revisions import RevisionStore
from nbmodernizer.summary import build_status

OWN_VERSIONS_KEPT = 8  # per resource: our writes whose watch events may still be on their way


def merged(target: Mapping[str, object], patch: Mapping[str, object]) -> dict[str, object]:
    """`patch` applied to `target` as a JSON merge patch (RFC 7386): null removes a field,
    objects merge, anything else replaces."""
    result = dict(target)
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        elif isinstance(value, Mapping):
            before = result.get(key)
            result[key] = merged(before if isinstance(before, Mapping) else {}, value)
        else:
            result[key] = value
    return result


@dataclass(frozen=True)
class RunContext:
    """What a status says of a run that started: its frozen spec, its store, its notes."""

    spec: ModernizationSpec
    store: RevisionStore
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Progress:
    """Where the loop stands beside its state: the phase, the iteration it waits for, and why
    the spec or the LLM budget holds it."""

    phase: Phase
    iteration: int | None = None
    spec_error: str | None = None
    budget_hold: str | None = None


class StatusWriter:
    def __init__(self, kube: Kube) -> None:
        self.kube = kube
        # key -> resourceVersions our own writes made (their watch events need no reconcile)
        self.written: dict[str, deque[str]] = {}

    def write(
        self, subject: Subject, state: LoopState, progress: Progress, run: RunContext | None
    ) -> Subject | None:
        """Write the status; the subject as it stands after, None when it is gone."""
        previous = subject.status
        finished = progress.phase in FINAL_PHASES
        status: ModernizationStatus = build_status(
            state,
            run.spec.score if run else None,
            (lambda revision: run.store.uri_of(revision)) if run else (lambda _r: ""),
            progress.phase,
            started_at=previous.started_at or now(),
            completed_at=now() if finished else None,
            notes=run.notes if run else [],
        )
        if finished and run is not None:  # report.html, final.ipynb
            status = publish(run.store, status, subject.name, run.spec.score.tolerance)
        wire = status.merge_patch(previous.wire)  # what no longer holds (a fixed lastError) goes
        if progress.iteration is not None:
            wire["iteration"] = progress.iteration
        # the generation the run started with stays the observed one: a later spec is not run
        wire["observedGeneration"] = previous.wire.get("observedGeneration", subject.generation)
        wire["conditions"] = conditions_for(
            progress.phase,
            status.outcome,
            status.message,
            previous.conditions,
            subject.generation,
            now(),
            spec_error=progress.spec_error,
            budget_hold=progress.budget_hold,
        )
        if merged(previous.wire, wire) == previous.wire:
            return subject  # the status says this already: a write would only wake watchers
        try:
            updated = self.kube.merge_patch(subject.status_path, {"status": wire})
        except KubeError as error:
            if error.status == 404:
                return None
            raise
        self.own(subject.key, updated)
        return replace(subject, status=RecordedStatus(child(updated, "status") or wire))

    def own(self, key: str, updated: JsonObject) -> None:
        """Remember the version a write of ours made (a status, the finalizer)."""
        version = text(child(updated, "metadata"), "resourceVersion")
        if version:
            kept = self.written.setdefault(key, deque(maxlen=OWN_VERSIONS_KEPT))
            kept.append(version)

    def forget(self, key: str) -> None:
        self.written.pop(key, None)

    def store_unavailable(self, subject: Subject, message: str) -> None:
        """Say the revision store did not answer; the phase stays what it was."""
        previous = subject.status
        phase = previous.phase or Phase.PENDING
        conditions = conditions_for(
            phase,
            None,
            message,
            previous.conditions,
            subject.generation,
            now(),
            store_error=message,
        )
        patch = {"phase": phase.value, "lastError": message, "conditions": conditions}
        self.kube.merge_patch(subject.status_path, {"status": patch})

    def spec_changed(self, subject: Subject, message: str) -> Subject:
        """Turn SpecAccepted False: the spec changed after the run started (not applied)."""
        conditions = [c for c in subject.status.conditions if c.get("type") != "SpecAccepted"]
        conditions.append(
            {
                "type": "SpecAccepted",
                "status": "False",
                "reason": "SpecChangedAfterStart",
                "message": message,
                "lastTransitionTime": now(),
                "observedGeneration": subject.generation,
            }
        )
        updated = self.kube.merge_patch(subject.status_path, {"status": {"conditions": conditions}})
        self.own(subject.key, updated)
        return replace(
            subject, status=RecordedStatus(child(updated, "status") or subject.status.wire)
        )

    def wrote(self, key: str, resource_version: str | None) -> bool:
        """Whether this version of the resource is the one our own status write made (its
        watch event needs no reconcile: nothing changed that we did not know)."""
        return resource_version is not None and resource_version in self.written.get(key, ())
