"""matplotlib drift."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.matplotlib import functions, keywords, removed
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("matplotlib", frozenset({"matplotlib", "pylab"}), order=70)
RULES: tuple[Rule, ...] = (*functions.RULES, *keywords.RULES, *removed.RULES)
