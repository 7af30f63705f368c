"""Keras and TensorFlow probes and transforms shared by their rule modules."""

from __future__ import annotations

import functools
import importlib
import importlib.util
from types import ModuleType


@functools.cache
def import_optional(name: str) -> ModuleType | None:
    """The installed module, or None when it is not installed (probes then say "not gone")."""
    root = name.split(".")[0]
    if importlib.util.find_spec(root) is None:
        return None
    try:
        return importlib.import_module(name)
    except Exception:  # a missing or broken install: the probes then say "not gone"
        return None


TF_QUIET = "import os\nos.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'\n"
