"""scikit-image drift (0.16 -> 0.26)."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.skimage import rules
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("scikit-image", frozenset({"skimage"}), order=160)
RULES: tuple[Rule, ...] = rules.RULES
