"""PyTorch drift."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.torch import rules
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("torch", frozenset({"torch", "torchvision"}), order=150)
RULES: tuple[Rule, ...] = rules.RULES
