"""Where the fix memory is: `NBMOD_FIX_MEMORY`, a flag, or the default of the driver.

The CLI's default is the user's cache folder (`$XDG_CACHE_HOME/nbmodernizer/fix-memory`,
else `~/.cache/nbmodernizer/fix-memory`); the operator's is `fix-memory/` under its S3
prefix (see `cluster/settings.py`). `off` turns the memory off.
"""

from __future__ import annotations

import os
from pathlib import Path

from nbmodernizer.fixers.memory.entries import FixMemory

VARIABLE = "NBMOD_FIX_MEMORY"
OFF = "off"


def default_location() -> str:
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return str(Path(cache) / "nbmodernizer" / "fix-memory")


def resolve(configured: str | None = None) -> str | None:
    """The memory's folder or s3:// prefix: `configured`, else NBMOD_FIX_MEMORY, else the
    default; None when it is `off`."""
    location = configured or os.environ.get(VARIABLE) or default_location()
    return None if location.strip().lower() == OFF else location.strip()


def open_memory(configured: str | None = None) -> FixMemory | None:
    location = resolve(configured)
    return FixMemory.at(location) if location is not None else None
