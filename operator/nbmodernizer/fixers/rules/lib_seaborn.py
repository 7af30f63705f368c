"""seaborn drift."""

from __future__ import annotations

from nbmodernizer.fixers.rules.model import Rule

RULES: tuple[Rule, ...] = ()
