"""Keras drift (Keras 1/2 -> Keras 3)."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.keras import layers, modules, optimizers, renamed, training
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("keras", frozenset({"keras", "tensorflow"}), order=130)
RULES: tuple[Rule, ...] = (
    *modules.RULES,
    *optimizers.RULES,
    *training.RULES,
    *layers.RULES,
    *renamed.RULES,
)
