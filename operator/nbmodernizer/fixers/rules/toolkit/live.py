"""What a few rewrites still read from the library installed in *this* process (not yet from
the environment's facts, issue #20): every user of this module is a rewrite that needs it
replaced by facts gathered where the notebook runs."""

from __future__ import annotations

import functools
import importlib
import importlib.util
from types import ModuleType


@functools.cache
def import_optional(name: str) -> ModuleType | None:
    """The installed module, or None when it is not installed (or does not import)."""
    root = name.split(".")[0]
    if importlib.util.find_spec(root) is None:
        return None
    try:
        return importlib.import_module(name)
    except Exception:  # a missing or broken install
        return None
