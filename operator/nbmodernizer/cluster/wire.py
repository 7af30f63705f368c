"""Kubernetes objects as JSON, read without trusting their shape. Pure.

What the API server sends is a `JsonObject`; `child`, `children`, `text` and `number` narrow
one field each to what it must be (a missing or odd one reads as absent), so no code past
them handles an untyped value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

JsonObject = dict[str, object]


def child(obj: Mapping[str, object], key: str) -> JsonObject:
    """`obj[key]` when it is an object, else an empty one."""
    value = obj.get(key)
    return cast(JsonObject, value) if isinstance(value, dict) else {}


def children(obj: Mapping[str, object], key: str) -> list[JsonObject]:
    """The objects in the list `obj[key]` (anything else in it is skipped)."""
    value = obj.get(key)
    items = value if isinstance(value, list) else []
    return [cast(JsonObject, item) for item in items if isinstance(item, dict)]


def strings(obj: Mapping[str, object], key: str) -> list[str]:
    """The strings in the list `obj[key]` (anything else in it is skipped)."""
    value = obj.get(key)
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def text(obj: Mapping[str, object], key: str) -> str | None:
    value = obj.get(key)
    return value if isinstance(value, str) else None


def number(obj: Mapping[str, object], key: str) -> int | None:
    value = obj.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None
