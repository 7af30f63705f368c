"""scipy drift."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.scipy import removed, rules, vendored
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("scipy", frozenset({"scipy"}), order=60)
RULES: tuple[Rule, ...] = (*rules.RULES, *removed.RULES, *vendored.RULES)
