"""The gate every rewrite passes (`fixer.rewrite_cell`): a rule that breaks a cell that parsed,
or that would change its own output again, is refused for that cell and recorded with its id
(a rule defect), in the loop's rules fixer, in `nbmod scan` and in the metric; the other
rules still apply. And Python 2 rules leave Python 3 cells alone."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nbmodernizer import metrics
from nbmodernizer.fixers.rules import RulesFixer, all_rules
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.fixer import NOT_IDEMPOTENT, REFUSED, rewrite_cell
from nbmodernizer.fixers.rules.model import Example, Kind, Rule
from nbmodernizer.fixers.rules.toolkit.probes import ALWAYS
from nbmodernizer.scan import formats
from nbmodernizer.scan.finding import Scanner
from nbmodernizer.scan.sources import read
from nbmodernizer.scan.summary import render, summarize
from nbmodernizer.status import FixRecord, FixType, Issue
from testing.environment_facts import gone
from testing.notebooks import notebook, write_notebook
from tests.test_rules_fixer import request

CONTEXT = RuleContext()


def toy(rule_id: str, rewrite: re.Pattern[str], replacement: str) -> Rule:
    return Rule(
        id=rule_id,
        library="toy",
        changed_in="0",
        summary=rule_id,
        kind=Kind.API,
        rewrite=lambda source, _context: rewrite.sub(replacement, source),
        examples=(Example(before="", after="", check="True"),),
        gone=ALWAYS,
    )


# a paren it never closes
UNBALANCES = toy("toy.unbalances", re.compile(r"\bshow\("), "show((")
# `+ 0` after every total, again and again
GROWS = toy("toy.grows", re.compile(r"^(total = .*)$", re.M), r"\1 + 0")
# right, and idempotent: old_api(...) -> new_api(...)
RENAMES = toy("toy.renames", re.compile(r"\bold_api\("), "new_api(")
CELL = "total = old_api(1)\nshow(total)\n"
GOOD = "total = new_api(1)\nshow(total)\n"


def refusals(source: str, rules: list[Rule]) -> tuple[str, list[str], dict[str, str]]:
    refused: dict[str, str] = {}

    def refuse(rule: Rule, reason: str) -> None:
        refused[rule.id] = reason

    result, applied = rewrite_cell(source, rules, CONTEXT, on_refuse=refuse)
    return result, applied, refused


def test_a_rule_that_breaks_a_cell_is_refused_and_the_others_apply() -> None:
    result, applied, refused = refusals(CELL, [UNBALANCES, RENAMES])
    assert (result, applied) == (GOOD, ["toy.renames"])
    assert list(refused) == ["toy.unbalances"]
    assert refused["toy.unbalances"].startswith("broke the cell (line 2:")


def test_a_rule_that_is_not_idempotent_is_refused_and_the_others_apply() -> None:
    result, applied, refused = refusals(CELL, [GROWS, RENAMES, UNBALANCES])
    assert (result, applied) == (GOOD, ["toy.renames"])
    assert refused["toy.grows"] == NOT_IDEMPOTENT
    assert set(refused) == {"toy.grows", "toy.unbalances"}
    assert rewrite_cell(result, [GROWS, RENAMES, UNBALANCES], CONTEXT)[0] == result


def test_a_rule_another_rules_output_calls_for_applies_in_the_same_call() -> None:
    # ordered first, but only the rename's output has what it rewrites: one call, the fixpoint
    follows = toy("toy.follows", re.compile(r"new_api\(1\)"), "new_api(2)")
    result, applied, refused = refusals(CELL, [follows, RENAMES])
    assert result == "total = new_api(2)\nshow(total)\n"
    assert applied == ["toy.renames", "toy.follows"] and not refused


def test_a_cell_that_did_not_parse_may_stay_unparsed() -> None:
    # the gate guards cells that parse; a broken cell is the notebook's, not the rule's
    result, applied, refused = refusals("show(old_api(1)\n", [RENAMES])
    assert (result, applied, refused) == ("show(new_api(1)\n", ["toy.renames"], {})


def test_the_rules_fixer_records_the_refusal_and_the_metric_counts_it() -> None:
    nb = notebook("import os", CELL, "total = 2\n")
    toys = gone(UNBALANCES.id, GROWS.id, RENAMES.id)
    attempt = RulesFixer([UNBALANCES, GROWS, RENAMES], []).propose(request(nb, environment=toys))
    assert attempt.proposal is not None
    assert attempt.proposal.notebook.cells[2].source == GOOD
    assert attempt.proposal.notebook.cells[3].source == "total = 2\n"
    uses = {(use.rule, use.action): use.cells for use in attempt.proposal.rules}
    assert uses == {
        ("toy.renames", "applied"): [2],
        ("toy.unbalances", REFUSED): [2],
        ("toy.grows", REFUSED): [2, 3],
    }
    assert "toy.grows refused (a rule defect) in cells 2, 3" in attempt.proposal.summary

    def count(rule: str) -> float:
        value = metrics.REGISTRY.get_sample_value("nbmodernizer_rule_defects_total", {"rule": rule})
        return value or 0.0

    before = count("toy.grows")
    record = FixRecord(
        iteration=1,
        issue=Issue.ERROR,
        type=FixType.ERROR_REPAIR,
        fixer="rules",
        rules=list(attempt.proposal.rules),
    )
    metrics.observe_fix(record, ["rules"], "error_repair")
    assert count("toy.grows") == before + 2
    assert count("toy.renames") == 0.0


def test_nbmod_scan_shows_rule_defects_in_every_format(tmp_path: Path) -> None:
    path = write_notebook(tmp_path / "toy.ipynb", notebook(CELL))
    report = Scanner([UNBALANCES, GROWS, RENAMES], []).scan(read(path))
    assert sorted((d.cell, d.rule) for d in report.defects) == [
        (2, "toy.grows"),
        (2, "toy.unbalances"),
    ]
    assert report.rewritten == {1: GOOD}
    assert [f.rule for f in report.findings] == ["toy.renames"]

    text = formats.text(report.findings, report.defects)
    assert f"{path}:cell 2: rule defect: toy.grows {NOT_IDEMPOTENT};" in text
    assert "2 rule defects" in text
    items = json.loads(formats.as_json(report.findings, report.defects))
    assert sorted((i.get("ruleDefect", False), i["rule"]) for i in items) == [
        (False, "toy.renames"),
        (True, "toy.grows"),
        (True, "toy.unbalances"),
    ]
    log = formats.sarif(report.findings, [UNBALANCES, GROWS, RENAMES], "0", report.defects)
    errors = [r for r in log["runs"][0]["results"] if r["level"] == "error"]
    assert {r["ruleId"] for r in errors} == {"toy.grows", "toy.unbalances"}
    summary = summarize([report])
    assert summary["ruleDefects"] == {"toy.grows": 1, "toy.unbalances": 1}
    assert "rule defects" in render(summary)


# Python 3 cells from real notebooks, each with what a Python 2 rule looks for
PYTHON3 = [
    'print("Mean squared error: %.2f"\n      % np.mean((regr.predict(x_test) - y_test) ** 2))',
    'print("Variance score: %.2f" \\\n      % regr.score(x_test, y_test))',
    "print('%d items' %\n      len(items))",
    "message = ('rows: %d'\n           % len(df))\nprint(message)",
    'text = """\n%s\n"""\nprint(text % name)',
    "raise ValueError('bad: %s'\n                 % value)",
    "x = 0o777\ny = 10\nprint(x, y)",
]


@pytest.mark.parametrize("source", PYTHON3)
def test_python_2_rules_leave_a_python_3_cell_alone(source: str) -> None:
    python2 = [rule for rule in all_rules() if rule.kind is Kind.PYTHON2]
    result, applied = rewrite_cell(source, python2, RuleContext(aliases={"np": "numpy"}))
    assert (result, applied) == (source, [])
