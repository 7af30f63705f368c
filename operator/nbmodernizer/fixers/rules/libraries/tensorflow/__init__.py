"""TensorFlow 1.x drift."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.tensorflow import rules
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("tensorflow", frozenset({"tensorflow", "keras"}), order=140)
RULES: tuple[Rule, ...] = rules.RULES
