"""seaborn drift."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.seaborn import removed, rules
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("seaborn", frozenset({"seaborn"}), order=80)
RULES: tuple[Rule, ...] = (*rules.RULES, *removed.RULES)
