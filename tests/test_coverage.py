"""docs/coverage.md is generated from the census and the removal lists, and they are well-formed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "corpus_coverage", ROOT / "corpus" / "coverage.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["corpus_coverage"] = module
    spec.loader.exec_module(module)
    return module


coverage = _load()


def test_committed_coverage_document_is_current() -> None:
    committed = (ROOT / "docs" / "coverage.md").read_text(encoding="utf-8")
    assert committed == coverage.generate(), (
        "stale: run PYTHONPATH=operator:. python corpus/coverage.py"
    )


def test_census_is_well_formed() -> None:
    rows = coverage.read_census()  # raises on wrong columns
    assert rows
    rule_ids = {rule.id for rule in coverage.load_rules()}
    for row in rows:
        where = f"{row.source} / {row.notebook or row.competition}"
        assert row.source and row.competition and row.exception and row.message, where
        assert row.klass in coverage.CLASSES, where
        assert row.competition not in coverage.EXCLUDED_COMPETITIONS, where
        assert not row.notebook or row.notebook.startswith(row.competition + "_"), where
        assert "\n" not in row.message and len(row.message) <= 300, where
        assert row.signature.startswith(row.exception), where
        assert row.rule in rule_ids or row.rule in ("", coverage.NO_RULE), where
        if row.klass == "api-drift":
            assert row.library and row.old_api, where


def test_removal_lists_are_well_formed() -> None:
    removals = coverage.read_removals()  # raises on wrong columns
    rule_ids = {rule.id for rule in coverage.load_rules()}
    assert {r.library for r in removals} >= {
        "numpy",
        "pandas",
        "scikit-learn",
        "scipy",
        "matplotlib",
        "seaborn",
        "xgboost",
        "lightgbm",
        "pillow",
        "keras",
        "tensorflow",
        "torch",
    }
    for r in removals:
        where = f"{r.library}: {r.api}"
        assert r.api and r.replacement and r.removed_in and r.source, where
        assert r.relevance in coverage.RELEVANCE, where
        assert not r.rule or r.rule in rule_ids, where
        # an uncovered API a notebook plausibly calls says why it is uncovered
        assert r.rule or r.relevance == "low" or r.reason, where


def test_every_api_the_fixers_issue_named_has_a_rule_that_rewrites_it() -> None:
    audit = coverage.audit_rewrites(coverage.read_audit())
    assert len(audit) >= 40
    assert [row.api for row, rewrites in audit if not rewrites] == []


def test_a_removal_without_a_rule_is_explained_only_by_a_reason_why_none_is_safe() -> None:
    def removal(reason: str) -> object:
        return coverage.Removal("numpy", "numpy.x", "y", "2.0", "-", "high", "", reason)

    assert coverage.explained(removal("its meaning depends on the dtype at run time"))
    assert not coverage.explained(removal("no rule yet: a plain rename"))
    assert not coverage.explained(removal("no notebook in the census hits it"))
    assert not coverage.explained(removal(""))


@pytest.mark.parametrize(
    ("exception", "message", "expected"),
    [
        (
            "AttributeError",
            "module 'numpy' has no attribute 'float'.",
            "AttributeError: module 'numpy' has no attribute 'float'.",
        ),
        (
            "AttributeError",
            "'DataFrame' object has no attribute 'ix'",
            "AttributeError: 'DataFrame' object has no attribute 'ix'",
        ),
        (
            "FileNotFoundError",
            "[Errno 2] No such file or directory: '../input/train.csv'",
            "FileNotFoundError: [Errno <n>] No such file or directory: <path>",
        ),
        ("NameError", "name 'train_df' is not defined", "NameError: name <name> is not defined"),
        ("NameError", "name 'xrange' is not defined", "NameError: name 'xrange' is not defined"),
        ("KeyError", "'c_x'", "KeyError: <key>"),
        (
            "TypeError",
            "fit() got an unexpected keyword argument 'early_stopping_rounds'",
            "TypeError: fit() got an unexpected keyword argument 'early_stopping_rounds'",
        ),
        (
            "ImportError",
            "cannot import name 'Imputer' from 'sklearn.preprocessing' (/usr/lib/x.py)",
            "ImportError: cannot import name 'Imputer' from 'sklearn.preprocessing'",
        ),
    ],
)
def test_signature_keeps_the_drifted_name_only(exception: str, message: str, expected: str) -> None:
    assert coverage.signature(exception, message) == expected
