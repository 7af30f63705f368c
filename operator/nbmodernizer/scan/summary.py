"""`nbmod scan --summary`: counts by library and rule, and the triage of files.

Every finding is a rule's rewrite, so every finding has a rule fix. What rules cannot promise
is a cell they cannot read: a Python cell that still does not parse after the rules (Python 2
no rule covers, a syntax error) hides whatever is in it. So a file is

* `rules`   — findings, and every Python cell parses after the rules: expected to be
  repaired by the rules alone, at $0 of LLM (as far as reading can tell: an error that only
  running reveals, or a score that drifts, still needs the loop);
* `beyond`  — some Python cell does not parse even after the rules: rules alone will not do;
* `clean`   — no findings, every Python cell parses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from nbmodernizer.scan.finding import FileReport


class Triage(StrEnum):
    RULES = "rules"
    BEYOND = "beyond"
    CLEAN = "clean"


def triage(report: FileReport) -> Triage:
    if report.unreadable or report.error or report.cell_errors:
        return Triage.BEYOND
    return Triage.RULES if report.findings else Triage.CLEAN


def summarize(reports: Sequence[FileReport]) -> dict[str, Any]:
    classes = Counter(triage(report) for report in reports)
    total = len(reports)
    libraries = Counter(f.library for report in reports for f in report.findings)
    rules = Counter(f.rule for report in reports for f in report.findings)
    defects = Counter(d.rule for report in reports for d in report.defects)
    return {
        "files": total,
        "findings": sum(rules.values()),
        "triage": {
            kind.value: {"files": classes[kind], "share": classes[kind] / total if total else 0.0}
            for kind in Triage
        },
        "byLibrary": dict(libraries.most_common()),
        "byRule": dict(rules.most_common()),
        "ruleDefects": dict(defects.most_common()),
    }


def render(summary: dict[str, Any]) -> str:
    lines = [f"{summary['files']} files, {summary['findings']} findings", "", "triage:"]
    labels = {
        "rules": "every finding has a rule fix (repaired by rules, $0 of LLM)",
        "beyond": "cells rules cannot read (need more than rules)",
        "clean": "nothing legacy found",
    }
    for kind, counts in summary["triage"].items():
        lines.append(
            f"  {kind:7} {counts['files']:6}  {100 * counts['share']:5.1f}%  {labels[kind]}"
        )
    sections = [("by library:", "byLibrary"), ("by rule:", "byRule")]
    if summary["ruleDefects"]:
        sections.append(
            ("rule defects (rewrites refused: broke a cell, or not idempotent):", "ruleDefects")
        )
    for title, key in sections:
        lines += ["", title] + [f"  {n:6}  {name}" for name, n in summary[key].items()]
    return "\n".join(lines) + "\n"
