"""The NotebookModernization a reconcile is about, read once from the API object: who it is,
where its revisions and its status live, and what its status already says. Everything after
the read works on these typed fields; only `Subject.body` (the object as the API server sent
it) is parsed again, by `spec.parse_modernization`, into the spec."""

from __future__ import annotations

from dataclasses import dataclass, field

from nbmodernizer.cluster.conditions import Condition
from nbmodernizer.cluster.events import ObjectReference
from nbmodernizer.cluster.jobs import JobSettings, revision_prefix
from nbmodernizer.cluster.jobstate import job_key
from nbmodernizer.cluster.kube import Paths
from nbmodernizer.cluster.wire import JsonObject, child, children, number, text
from nbmodernizer.status import Phase

FINAL_PHASES = (Phase.SUCCEEDED, Phase.FAILED)


class SubjectError(Exception):
    """The API object lacks what every resource has (metadata.namespace, metadata.name)."""


@dataclass(frozen=True)
class RecordedStatus:
    """The resource's `.status` as it stands (the operator's last write, or empty)."""

    wire: JsonObject = field(default_factory=dict)  # as stored: the base of a merge patch

    @property
    def phase(self) -> Phase | None:
        value = text(self.wire, "phase")
        return Phase(value) if value in {phase.value for phase in Phase} else None

    @property
    def finished(self) -> bool:
        return self.phase in FINAL_PHASES

    @property
    def notes(self) -> list[str]:
        notes = self.wire.get("notes")
        return [note for note in notes if isinstance(note, str)] if isinstance(notes, list) else []

    @property
    def iterations(self) -> int:
        """How many revisions the status has counted (etcd: out of any notebook's reach)."""
        return number(self.wire, "iterations") or 0

    @property
    def started_at(self) -> str | None:
        return text(self.wire, "startedAt")

    @property
    def observed_generation(self) -> int | None:
        return number(self.wire, "observedGeneration")

    @property
    def conditions(self) -> list[Condition]:
        return children(self.wire, "conditions")

    @property
    def spent_usd(self) -> float:
        usd = child(self.wire, "cost").get("usd")
        return float(usd) if isinstance(usd, int | float) and not isinstance(usd, bool) else 0.0


@dataclass(frozen=True)
class Subject:
    namespace: str
    name: str
    generation: int | None
    uid: str | None
    api_version: str | None
    kind: str | None
    deleting: bool
    finalizers: tuple[str, ...]
    retention: str  # spec.revisions.retention: Keep or Delete
    store_prefix: str  # where its revisions live (`jobs.revision_prefix`)
    status: RecordedStatus
    body: JsonObject  # the object as read, for the spec's own parse

    @staticmethod
    def of(obj: JsonObject, jobs: JobSettings) -> Subject:
        meta = child(obj, "metadata")
        namespace, name = text(meta, "namespace"), text(meta, "name")
        if not namespace or not name:
            raise SubjectError("the resource has no metadata.namespace or metadata.name")
        finalizers = meta.get("finalizers")
        revisions = child(child(obj, "spec"), "revisions")
        return Subject(
            namespace=namespace,
            name=name,
            generation=number(meta, "generation"),
            uid=text(meta, "uid"),
            api_version=text(obj, "apiVersion"),
            kind=text(obj, "kind"),
            deleting=bool(meta.get("deletionTimestamp")),
            finalizers=tuple(f for f in finalizers if isinstance(f, str))
            if isinstance(finalizers, list)
            else (),
            retention=text(revisions, "retention") or "Keep",
            store_prefix=revision_prefix(jobs, namespace, name),
            status=RecordedStatus(child(obj, "status")),
            body=obj,
        )

    @property
    def key(self) -> str:
        return job_key(self.namespace, self.name)

    @property
    def path(self) -> str:
        return Paths.resource(self.namespace, self.name)

    @property
    def status_path(self) -> str:
        return self.path + "/status"

    def reference(self) -> ObjectReference:
        return ObjectReference(
            apiVersion=self.api_version,
            kind=self.kind,
            name=self.name,
            namespace=self.namespace,
            uid=self.uid,
        )
