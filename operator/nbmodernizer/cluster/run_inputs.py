"""What a running modernization reads once: the spec it started with and its answers.

The spec is frozen when a modernization starts (kept as revision 0's `spec.json`, written once
the spec is admitted: revision 0 kept, the answers usable, before any Job runs); a later
change of the resource is not applied to the running loop. The answers are read once per
URI (admitting the next modernization that names them reads them no more): pushed files are
never changed.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from nbmodernizer.admit import admit, read_answers
from nbmodernizer.grade import Answers
from nbmodernizer.spec import ModernizationSpec, NotebookModernization
from nbmodernizer.store.revisions import RevisionStore, read_spec, write_spec

ANSWERS_CACHED = 256


@dataclass(frozen=True)
class Frozen:
    """The spec a run started with; `started`: frozen by this call, so the run starts now and
    no Job has run its revision 0 yet."""

    spec: ModernizationSpec
    started: bool = False


class RunInputs:
    def __init__(self) -> None:
        self.frozen: dict[str, ModernizationSpec] = {}  # key -> the spec the run started with
        # (answers URI, id column) -> answers (the oldest dropped first)
        self.cached: dict[tuple[str, str], Answers] = {}
        self.lock = threading.Lock()

    def frozen_spec(
        self,
        store: RevisionStore,
        key: str,
        resource: NotebookModernization,
        generation: int | None,
    ) -> Frozen:
        """The spec the run started with (admitting and freezing it at the start); raises
        admit's InvalidInputError when the resource's files are not admitted."""
        if key in self.frozen:
            return Frozen(self.frozen[key])
        frozen = read_spec(store)
        if frozen is not None:
            self.frozen[key] = frozen
            return Frozen(frozen)
        spec = resource.spec
        admitted = admit(spec, None, store, answers=self.cached.get(_answers_key(spec)))
        self._keep(spec, admitted.answers)
        write_spec(store, spec, generation)
        self.frozen[key] = spec
        return Frozen(spec, started=True)

    def answers(self, spec: ModernizationSpec) -> Answers:
        cached = self.cached.get(_answers_key(spec))
        if cached is None:
            cached = read_answers(spec.score, None)
            self._keep(spec, cached)
        return cached

    def forget(self, key: str) -> None:
        with self.lock:
            self.frozen.pop(key, None)

    def _keep(self, spec: ModernizationSpec, answers: Answers) -> None:
        with self.lock:
            if len(self.cached) >= ANSWERS_CACHED:
                self.cached.pop(next(iter(self.cached)))
            self.cached[_answers_key(spec)] = answers


def _answers_key(spec: ModernizationSpec) -> tuple[str, str]:
    """Answers are read per file and id column (two specs may name one file's columns
    differently)."""
    return spec.score.answers, spec.score.id_column
