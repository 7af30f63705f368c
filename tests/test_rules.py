"""Every rule proves itself on the installed libraries (see fixers/rules/proof.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from nbmodernizer.fixers.rules import Rule, all_rules
from nbmodernizer.fixers.rules.model import Example
from nbmodernizer.fixers.rules.proof import failures

CASES = [
    pytest.param(rule, example, id=f"{rule.id}[{n}]")
    for rule in all_rules()
    for n, example in enumerate(rule.examples)
]


@pytest.mark.parametrize(("rule", "example"), CASES)
def test_rule_example_is_proven(rule: Rule, example: Example) -> None:
    assert failures(rule, example) == []


def test_rule_ids_are_unique_and_every_rule_has_an_example() -> None:
    ids = [rule.id for rule in all_rules()]
    assert len(ids) == len(set(ids))
    assert all(rule.examples for rule in all_rules())


def test_published_rule_list_is_current(capsys: pytest.CaptureFixture[str]) -> None:

    from nbmodernizer.cli import main

    assert main(["rules", "--markdown"]) == 0
    published = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
    assert published.read_text() == capsys.readouterr().out, (
        "run: nbmod rules --markdown > docs/rules.md"
    )
