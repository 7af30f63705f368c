"""LightGBM drift."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.lightgbm import results, rules
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("lightgbm", frozenset({"lightgbm"}), order=110)
RULES: tuple[Rule, ...] = (*rules.RULES, *results.RULES)
