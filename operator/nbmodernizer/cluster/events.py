"""core/v1 Events about a NotebookModernization: what happened, for `kubectl describe`."""

from __future__ import annotations

import uuid
from typing import Any

COMPONENT = "nbmodernizer-operator"
MAX_MESSAGE = 1024


def event_for(
    obj: dict[str, Any], kind: str, reason: str, message: str, stamp: str
) -> dict[str, Any]:
    """A new Event (`kind`: Normal or Warning) involving the resource `obj`."""
    meta = obj["metadata"]
    return {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {
            "name": f"{meta['name']}.{uuid.uuid4().hex[:16]}",
            "namespace": meta["namespace"],
        },
        "involvedObject": {
            "apiVersion": obj.get("apiVersion"),
            "kind": obj.get("kind"),
            "name": meta["name"],
            "namespace": meta["namespace"],
            "uid": meta.get("uid"),
        },
        "type": kind,
        "reason": reason,
        "message": message[:MAX_MESSAGE],
        "source": {"component": COMPONENT},
        "firstTimestamp": stamp,
        "lastTimestamp": stamp,
        "count": 1,
    }
