"""numpy drift."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.numpy import calls, ragged, renames, rules
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("numpy", frozenset({"numpy"}), order=40)
RULES: tuple[Rule, ...] = (*rules.RULES, *renames.RULES, *calls.RULES, *ragged.RULES)
