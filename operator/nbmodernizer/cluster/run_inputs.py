"""What a running modernization reads once: the spec it started with and its answers.

The spec is frozen when a modernization starts (kept as revision 0's `spec.json`, written once
the spec is admitted: revision 0 kept, the answers usable, before any Job runs); a later
change of the resource is not applied to the running loop. The answers are read once per
URI: pushed files are never changed.
"""

from __future__ import annotations

import threading

from nbmodernizer.admit import admit, read_answers
from nbmodernizer.grade import Answers
from nbmodernizer.spec import ModernizationSpec, NotebookModernization
from nbmodernizer.store.revisions import RevisionStore, read_spec, write_spec

ANSWERS_CACHED = 256


class RunInputs:
    def __init__(self) -> None:
        self.frozen: dict[str, ModernizationSpec] = {}  # key -> the spec the run started with
        self.cached: dict[str, Answers] = {}  # answers URI -> answers (oldest dropped first)
        self.lock = threading.Lock()

    def frozen_spec(
        self,
        store: RevisionStore,
        key: str,
        resource: NotebookModernization,
        generation: int | None,
    ) -> ModernizationSpec:
        """The spec the run started with (admitting and freezing it at the start); raises
        admit's InvalidInputError when the resource's files are not admitted."""
        if key not in self.frozen:
            self.frozen[key] = self._read_or_freeze(store, resource, generation)
        return self.frozen[key]

    def _read_or_freeze(
        self, store: RevisionStore, resource: NotebookModernization, generation: int | None
    ) -> ModernizationSpec:
        frozen = read_spec(store)
        if frozen is not None:
            return frozen
        spec = resource.spec
        admitted = admit(spec, None, store)
        self._keep(spec.score.answers, admitted.answers)
        write_spec(store, spec, generation)
        return spec

    def answers(self, spec: ModernizationSpec) -> Answers:
        cached = self.cached.get(spec.score.answers)
        if cached is None:
            cached = read_answers(spec.score, None)
            self._keep(spec.score.answers, cached)
        return cached

    def forget(self, key: str) -> None:
        with self.lock:
            self.frozen.pop(key, None)

    def _keep(self, uri: str, answers: Answers) -> None:
        with self.lock:
            if len(self.cached) >= ANSWERS_CACHED:
                self.cached.pop(next(iter(self.cached)))
            self.cached[uri] = answers
