"""The rulebook's catalog: library packages discovered, in their order, independent."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from nbmodernizer.fixers.rules import all_libraries, all_rules, catalog, libraries

RULES_DIR = Path(catalog.__file__).parent


def test_every_library_package_is_discovered_in_its_order() -> None:
    packages = [info.name for info in pkgutil.iter_modules(libraries.__path__) if info.ispkg]
    assert sorted(package.__name__.rsplit(".", 1)[1] for package in catalog.PACKAGES) == sorted(
        packages
    )
    orders = [library.order for library in all_libraries()]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)
    assert all_rules() == tuple(rule for p in catalog.PACKAGES for rule in p.RULES)


def test_the_catalog_has_no_problems() -> None:
    assert catalog.problems() == []


def test_rule_ids_start_with_their_package() -> None:
    for package in catalog.PACKAGES:
        name = package.__name__.rsplit(".", 1)[1]
        assert all(rule.id.startswith(f"{name}.") for rule in package.RULES), name


def test_problems_are_found() -> None:
    pandas = importlib.import_module("nbmodernizer.fixers.rules.libraries.pandas")
    found = catalog.problems((pandas, pandas))
    assert "two libraries named 'pandas'" in found
    assert any("used twice" in problem for problem in found)


def test_no_rule_module_is_over_600_lines() -> None:
    long = {
        str(path.relative_to(RULES_DIR)): n
        for path in RULES_DIR.rglob("*.py")
        if (n := len(path.read_text().splitlines())) > 600
    }
    assert long == {}
