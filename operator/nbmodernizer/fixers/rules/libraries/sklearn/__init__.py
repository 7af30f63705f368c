"""scikit-learn drift."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.sklearn import (
    defaults,
    keyword_only,
    modules,
    removed_parameters,
    renamed_apis,
    renamed_parameters,
    replaced,
    values,
)
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("scikit-learn", frozenset({"sklearn"}), order=50)
RULES: tuple[Rule, ...] = (
    *modules.RULES,
    *renamed_apis.RULES,
    *values.RULES,
    *removed_parameters.RULES,
    *renamed_parameters.RULES,
    *defaults.RULES,
    *replaced.RULES,
    *keyword_only.RULES,
)
