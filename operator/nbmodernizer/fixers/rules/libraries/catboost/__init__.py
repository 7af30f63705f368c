"""CatBoost drift (0.x -> 1.2)."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.catboost import rules
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("catboost", frozenset({"catboost"}), order=120)
RULES: tuple[Rule, ...] = rules.RULES
