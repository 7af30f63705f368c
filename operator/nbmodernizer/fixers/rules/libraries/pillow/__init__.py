"""Pillow drift."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.pillow import rules
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("pillow", frozenset({"PIL"}), order=90)
RULES: tuple[Rule, ...] = rules.RULES
