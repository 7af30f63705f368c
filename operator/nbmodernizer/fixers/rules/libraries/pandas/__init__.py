"""pandas drift."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.pandas import (
    arguments,
    cow,
    legacy,
    methods,
    namespace,
    readers,
    removed,
    renamed,
    str_dtype,
    windows,
)
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("pandas", frozenset({"pandas"}), order=30)
RULES: tuple[Rule, ...] = (
    *removed.RULES,
    *readers.RULES,
    *namespace.RULES,
    *arguments.RULES,
    *methods.RULES,
    *cow.RULES,
    *str_dtype.RULES,
    *renamed.RULES,
    *legacy.RULES,
    *windows.RULES,
)
