"""Prophet drift: published as `fbprophet` before 1.0."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.prophet import modules
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("prophet", frozenset({"fbprophet", "prophet"}), order=180)
RULES: tuple[Rule, ...] = modules.RULES
