"""Fixers by the names a spec uses in `fix.fixers`, and the chain a spec asks for."""

from __future__ import annotations

from collections.abc import Callable

from nbmodernizer.fixers.base import Fixer, FixerChain
from nbmodernizer.spec import ModernizationSpec

FixerFactory = Callable[[ModernizationSpec], Fixer | str]  # a fixer, or why it is unavailable


def _rules(_spec: ModernizationSpec) -> Fixer:
    from nbmodernizer.fixers.rules import RulesFixer, all_rules

    return RulesFixer(all_rules())


def _llm(_spec: ModernizationSpec) -> str:
    return "llm: not available in this build"


FACTORIES: dict[str, FixerFactory] = {"rules": _rules, "llm": _llm}


def build_chain(spec: ModernizationSpec) -> FixerChain:
    fixers: list[Fixer] = []
    notes: list[str] = []
    for name in spec.fix.fixers:
        made = FACTORIES[name](spec)
        if isinstance(made, str):
            notes.append(made)
        else:
            fixers.append(made)
    return FixerChain(fixers, notes)
