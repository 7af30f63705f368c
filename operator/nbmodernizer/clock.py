"""The one clock: timestamps as status, events and the fix memory write them (RFC 3339, UTC)."""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
