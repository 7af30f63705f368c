"""Every library's rules, in one tuple: the packages under `rules/libraries/` are discovered,
each with its `LIBRARY` (name, relevant modules, order) and its `RULES`."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Sequence
from types import ModuleType

from nbmodernizer.facts import ProbeRequest
from nbmodernizer.fixers.rules import libraries
from nbmodernizer.fixers.rules.model import Library, Rule, relevant


def _packages() -> tuple[ModuleType, ...]:
    found = [
        importlib.import_module(f"{libraries.__name__}.{info.name}")
        for info in pkgutil.iter_modules(libraries.__path__)
        if info.ispkg
    ]
    return tuple(sorted(found, key=lambda package: (package.LIBRARY.order, package.LIBRARY.name)))


PACKAGES = _packages()
LIBRARIES: tuple[Library, ...] = tuple(package.LIBRARY for package in PACKAGES)
RULES: tuple[Rule, ...] = tuple(rule for package in PACKAGES for rule in package.RULES)


def problems(packages: tuple[ModuleType, ...] = PACKAGES) -> list[str]:
    """What is wrong with the catalog: duplicate rule ids, rules of an unknown library,
    libraries sharing a name."""
    found: list[str] = []
    names = [package.LIBRARY.name for package in packages]
    twice = sorted({name for name in names if names.count(name) > 1})
    found += [f"two libraries named {name!r}" for name in twice]
    seen: set[str] = set()
    for package in packages:
        for rule in package.RULES:
            if rule.id in seen:
                found.append(f"rule id {rule.id!r} used twice")
            seen.add(rule.id)
            if rule.library not in names:
                found.append(f"{rule.id}: no library named {rule.library!r}")
    return found


def probe_request(
    modules: Iterable[str],
    rules: Sequence[Rule] = RULES,
    libraries: Sequence[Library] = LIBRARIES,
) -> ProbeRequest:
    """What envprobe.py is asked for a notebook that imports `modules` (top-level names): the
    probes of the rules relevant to them (a library that is not imported is never probed, so
    its import costs nothing), the probes their rewrites read, and the signatures."""
    imported = {module.split(".")[0] for module in modules}
    by_library = {library.name: library.modules for library in libraries}
    probes: dict[str, dict[str, object]] = {}
    signatures: set[str] = set()
    names: set[str] = set()
    for rule in rules:
        if not relevant(rule, imported, by_library):
            continue
        probes.update(rule.probes())
        signatures.update(rule.signatures)
        names.update(rule.names)
    return ProbeRequest(
        modules=tuple(sorted(imported)),
        probes=probes,
        signatures=tuple(sorted(signatures)),
        names=tuple(sorted(names)),
    )
