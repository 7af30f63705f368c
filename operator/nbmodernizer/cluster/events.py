"""core/v1 Events about a NotebookModernization: what happened, for `kubectl describe`;
posted by one thread of their own (`EventPoster`)."""

from __future__ import annotations

import logging
import queue
import threading
import uuid
from collections.abc import Mapping
from typing import TypedDict

from nbmodernizer.cluster.kube import Kube, Paths

COMPONENT = "nbmodernizer-operator"
MAX_MESSAGE = 1024
MAX_WAITING = 10_000  # Events not posted yet; past this (an API server that stopped
# answering) new ones are dropped

log = logging.getLogger("nbmodernizer.operator")


class ObjectReference(TypedDict):
    """The object an Event is about (core/v1 ObjectReference, the fields it needs)."""

    apiVersion: str | None
    kind: str | None
    name: str
    namespace: str
    uid: str | None


def event_for(
    involved: ObjectReference, kind: str, reason: str, message: str, stamp: str
) -> dict[str, object]:
    """A new Event (`kind`: Normal or Warning) involving the resource `involved`."""
    return {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {
            "name": f"{involved['name']}.{uuid.uuid4().hex[:16]}",
            "namespace": involved["namespace"],
        },
        "involvedObject": dict(involved),
        "type": kind,
        "reason": reason,
        "message": message[:MAX_MESSAGE],
        "source": {"component": COMPONENT},
        "firstTimestamp": stamp,
        "lastTimestamp": stamp,
        "count": 1,
    }


class EventPoster:
    """Posts Events in the order they are given, from a thread of its own, so no reconcile
    waits for them (as client-go's event recorder does): an Event is best effort, and a
    modernization's reconcile posts up to three, each a round trip to the API server."""

    def __init__(self, kube: Kube) -> None:
        self.kube = kube
        self.waiting: queue.Queue[tuple[str, Mapping[str, object]] | None] = queue.Queue(
            MAX_WAITING
        )
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()

    def post(self, namespace: str, event: Mapping[str, object]) -> None:
        with self.lock:
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="events", daemon=True)
                self.thread.start()
        try:
            self.waiting.put_nowait((namespace, event))
        except queue.Full:
            log.warning("dropping Event %s: %d wait to be posted", event.get("reason"), MAX_WAITING)

    def close(self, timeout: float = 5.0) -> None:
        """Post what waits (for at most `timeout` seconds), then stop."""
        with self.lock:
            thread, self.thread = self.thread, None
        if thread is not None:
            self.waiting.put(None)
            thread.join(timeout)

    def _run(self) -> None:
        while (item := self.waiting.get()) is not None:
            namespace, event = item
            try:
                self.kube.create(Paths.events(namespace), event)
            except Exception as error:  # best effort: never stop posting the next ones
                log.debug("Event %s not posted: %s", event.get("reason"), error)
