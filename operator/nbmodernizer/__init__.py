"""nbmodernizer: bring legacy machine-learning notebooks back to life.

The Python API (`nbmodernizer.api`), imported on first use so that `import nbmodernizer`
stays cheap: `modernize(spec, out=...) -> Report`, `scan_files(paths)`, `fix_files(paths)` (not
`scan`: that name is the subpackage `nbmodernizer.scan`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["Report", "fix_files", "modernize", "scan_files"]

if TYPE_CHECKING:
    from nbmodernizer.api import Report, fix_files, modernize, scan_files


def __getattr__(name: str) -> Any:
    if name in __all__:
        from nbmodernizer import api

        return getattr(api, name)
    raise AttributeError(f"module 'nbmodernizer' has no attribute {name!r}")
