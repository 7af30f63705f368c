"""XGBoost drift (0.x/1.x -> 2.x/3.x)."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.xgboost import parameters, training
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("xgboost", frozenset({"xgboost"}), order=100)
RULES: tuple[Rule, ...] = (*training.RULES, *parameters.RULES, *training.REACTIVE)
