"""Python 2 leftovers: syntax (cells that do not parse as Python 3), then names and modules."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.python2 import builtins, dicts, lists, modules, syntax
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("python", frozenset(), order=10)
RULES: tuple[Rule, ...] = (
    *syntax.RULES,
    *builtins.RULES,
    *dicts.RULES,
    *modules.RULES,
    *lists.RULES,
)
