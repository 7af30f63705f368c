"""Probes: does the installed library still have the legacy API? (A rule whose probe says
"gone" is applied to every cell of a notebook that imports its library.) A library that is
not installed never has anything "gone"."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
from collections.abc import Callable
from types import ModuleType


@functools.cache
def import_optional(name: str) -> ModuleType | None:
    """The installed module, or None when it is not installed (probes then say "not gone")."""
    root = name.split(".")[0]
    if importlib.util.find_spec(root) is None:
        return None
    try:
        return importlib.import_module(name)
    except Exception:  # a missing or broken install: the probes then say "not gone"
        return None


@functools.cache
def module_gone(name: str) -> bool:
    """Whether the (sub)module `name` is absent."""
    try:
        return importlib.util.find_spec(name) is None
    except (ImportError, ValueError):  # a parent is missing, or not a package any more
        return True


@functools.cache
def lacks(module: str, *names: str) -> bool:
    """Whether the installed `module` has none of `names` (False when it is not installed)."""
    found = import_optional(module)
    return found is not None and not any(hasattr(found, name) for name in names)


@functools.cache
def no_parameter(function: str | Callable[..., object], parameter: str) -> bool:
    """Whether a function (or a dotted path to one, `sklearn.svm.SVC`) takes no `parameter`
    (False when its library is not installed)."""
    target = function
    if isinstance(target, str):
        module, _, name = target.rpartition(".")
        found = import_optional(module)
        if found is None:
            return False
        target = getattr(found, name)
    assert callable(target)
    return parameter not in inspect.signature(target).parameters


def rejects(attempt: Callable[[], object]) -> bool:
    """Whether today's library refuses the legacy call (scikit-learn's InvalidParameterError
    is both a ValueError and a TypeError)."""
    try:
        attempt()
    except (ValueError, TypeError):
        return True
    return False
