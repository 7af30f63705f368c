"""pydicom drift: imported as `dicom` before 1.0."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.pydicom import modules
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("pydicom", frozenset({"dicom", "pydicom"}), order=170)
RULES: tuple[Rule, ...] = modules.RULES
