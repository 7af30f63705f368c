"""Facts of an environment for tests: those of this venv (envprobe.py evaluated in-process, on
the libraries installed here), or made up to say which rules' legacy APIs are gone."""

from __future__ import annotations

import functools
import platform
import sys
from collections.abc import Iterable

from nbmodernizer.environment import imported_modules
from nbmodernizer.facts import EnvironmentFacts, here
from nbmodernizer.notebook import Notebook


@functools.cache
def _installed(modules: frozenset[str]) -> EnvironmentFacts:
    from nbmodernizer.fixers.rules.catalog import probe_request

    return here(probe_request(modules))


def installed_facts(modules: Iterable[str]) -> EnvironmentFacts:
    """This venv's facts for a notebook importing `modules` (each module set evaluated once)."""
    return _installed(frozenset(modules))


def facts_of(notebook: Notebook) -> EnvironmentFacts:
    """This venv's facts for the modules the notebook imports."""
    return installed_facts(imported_modules(notebook))


def gone(*rule_ids: str) -> EnvironmentFacts:
    """Facts in which exactly these rules' legacy APIs are gone."""
    return EnvironmentFacts(
        python=platform.python_version(),
        executable=sys.executable,
        probes=dict.fromkeys(rule_ids, True),
    )
