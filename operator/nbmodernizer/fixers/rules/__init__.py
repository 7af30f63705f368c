"""The API-drift rulebook: every rule, by library, and the fixer that applies them."""

from __future__ import annotations

from nbmodernizer.fixers.rules.fixer import RulesFixer
from nbmodernizer.fixers.rules.model import Example, Kind, Library, Rule, Symptom


def all_rules() -> tuple[Rule, ...]:
    from nbmodernizer.fixers.rules.catalog import RULES

    return RULES


def all_libraries() -> tuple[Library, ...]:
    from nbmodernizer.fixers.rules.catalog import LIBRARIES

    return LIBRARIES


__all__ = [
    "Example",
    "Kind",
    "Library",
    "Rule",
    "RulesFixer",
    "Symptom",
    "all_libraries",
    "all_rules",
]
