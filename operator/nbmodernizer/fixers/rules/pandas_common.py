"""pandas probes shared by its rule modules."""

from __future__ import annotations

from typing import Any

from nbmodernizer.fixers.rules.model import Symptom


def _pandas() -> Any:
    import pandas

    return pandas


def lacks(owner: str, *names: str) -> bool:
    """Whether `pandas.<owner>` (or pandas itself for "") has none of `names`."""
    pd = _pandas()
    target = pd if not owner else getattr(pd, owner)
    return not any(hasattr(target, name) for name in names)


def missing(kind: str, attribute: str) -> Symptom:
    return Symptom("AttributeError", rf"'{kind}' object has no attribute '{attribute}'")


FRAME_OR_SERIES = "(DataFrame|Series)"
