"""core/v1 Events about a NotebookModernization: what happened, for `kubectl describe`."""

from __future__ import annotations

import uuid
from typing import TypedDict

COMPONENT = "nbmodernizer-operator"
MAX_MESSAGE = 1024


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
