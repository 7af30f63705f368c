"""The API-drift rulebook: every rule, by library, and the fixer that applies them."""

from __future__ import annotations

from nbmodernizer.fixers.rules.fixer import RulesFixer
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom


def all_rules() -> tuple[Rule, ...]:
    from nbmodernizer.fixers.rules.catalog import RULES

    return RULES


__all__ = ["Example", "Kind", "Rule", "RulesFixer", "Symptom", "all_rules"]
