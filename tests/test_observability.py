"""The chart's observability files: the alert rules pass `promtool check rules` and their
unit tests (tests/promtool/), and the Grafana dashboard is well-formed and only queries the
operator's metrics. (A real Prometheus scraping a real fleet run with every panel's query:
tests/k8s/test_observability.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from nbmodernizer import metrics
from testing.prometheus import (
    RULES,
    dashboard,
    panel_queries,
    panels,
    promtool,
    runnable,
)

ALERT_TESTS = Path(__file__).resolve().parent / "promtool" / "alerts_test.yaml"


def test_promtool_checks_the_rules() -> None:
    checked = promtool("check", "rules", RULES)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "SUCCESS" in checked.stdout


def test_promtool_unit_tests_fire_every_alert() -> None:
    tested = promtool("test", "rules", ALERT_TESTS)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    alerts = {
        rule["alert"]
        for group in yaml.safe_load(RULES.read_text())["groups"]
        for rule in group["rules"]
        if "alert" in rule
    }
    fired = {
        case["alertname"]
        for test in yaml.safe_load(ALERT_TESTS.read_text())["tests"]
        for case in test.get("alert_rule_test", [])
        if case.get("exp_alerts")
    }
    assert alerts == fired, f"alerts without a firing unit test: {sorted(alerts - fired)}"


def test_every_alert_has_for_severity_and_annotations() -> None:
    for group in yaml.safe_load(RULES.read_text())["groups"]:
        for rule in group["rules"]:
            assert rule.get("for"), rule["alert"]
            assert rule["labels"]["severity"] in ("info", "warning", "critical"), rule["alert"]
            assert {"summary", "description"} <= set(rule["annotations"]), rule["alert"]


def test_the_dashboard_is_a_grafana_dashboard_on_a_datasource_variable() -> None:
    board = dashboard()
    assert board["uid"] == "nbmodernizer-fleet" and board["title"] == "nbmodernizer — fleet"
    assert board["schemaVersion"] >= 39
    [variable] = [v for v in board["templating"]["list"] if v["name"] == "datasource"]
    assert variable["type"] == "datasource" and variable["query"] == "prometheus"
    ids = [panel["id"] for panel in panels(board)]
    assert len(ids) == len(set(ids)), "panel ids must be unique"
    for panel in panels(board):
        assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
        for target in panel.get("targets", []):
            assert target["datasource"]["uid"] == "${datasource}", panel["title"]
            assert target.get("expr"), f"{panel['title']}: a target without a query"


def test_the_dashboard_queries_only_metrics_the_operator_exports() -> None:
    exported = {
        f"{family.name}{suffix}"  # counters' families drop `_total`; histograms add suffixes
        for family in metrics.REGISTRY.collect()
        for suffix in ("", "_total", "_bucket", "_sum", "_count")
    }
    for query in panel_queries(dashboard()):
        used = set(re.findall(r"\bnbmodernizer_\w+", query.expr))
        assert used, f"{query}: no nbmodernizer metric"
        assert used <= exported, f"{query}: unknown metrics {sorted(used - exported)}"
        assert (
            "[$__rate_interval]" in query.expr
            or "[$__range]" in query.expr
            or ("rate(" not in query.expr and "increase(" not in query.expr)
        ), f"{query}: use $__rate_interval (or $__range) as the range of rate()/increase()"
        runnable(query.expr)  # no unknown Grafana variable


def test_the_dashboard_shows_what_the_fix_memory_saved() -> None:
    saved = [q for q in panel_queries(dashboard()) if "nbmodernizer_llm_saved_usd_total" in q.expr]
    assert {q.panel for q in saved} == {
        "LLM cost saved by the fix memory (time range)",
        "LLM cost and savings per hour",
    }
    by_fixer = [q for q in panel_queries(dashboard()) if "nbmodernizer_fixes_total" in q.expr]
    assert by_fixer and all("fixer" in q.expr for q in by_fixer)  # memory fixes show up


def test_exception_labels_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A notebook chooses its exceptions' names: odd ones and too many become `other`."""
    monkeypatch.setattr(metrics, "_exception_labels", set())
    monkeypatch.setattr(metrics, "MAX_EXCEPTION_LABELS", 2)
    assert metrics.exception_label("ValueError") == "ValueError"
    assert metrics.exception_label("x" * 500) == "other"
    assert metrics.exception_label("bad name {label}") == "other"
    assert metrics.exception_label("") == "unknown"
    assert metrics.exception_label("KeyError") == "KeyError"
    assert metrics.exception_label("TypeError") == "other"  # past the bound
    assert metrics.exception_label("ValueError") == "ValueError"  # seen before
