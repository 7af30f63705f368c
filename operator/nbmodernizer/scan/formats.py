"""Findings as text (ruff's style), JSON (a list) and SARIF 2.1.0 (code-scanning services)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from nbmodernizer.fixers.rules.model import Rule
from nbmodernizer.scan.finding import Finding, RuleDefect

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
TOOL_URI = "https://github.com/nbmodernizer/nbmodernizer/blob/main/docs/rules.md"


def location(finding: Finding) -> str:
    cell = f"cell {finding.cell}:" if finding.cell is not None else ""
    return f"{finding.path}:{cell}{finding.line}:{finding.column}"


def describe(finding: Finding) -> str:
    installed = f", {finding.installed} installed" if finding.installed else ""
    return f"{finding.message} ({finding.library} {finding.changed_in}{installed})"


def describe_defect(defect: RuleDefect) -> str:
    cell = f"cell {defect.cell}: " if defect.cell is not None else ""
    return (
        f"{defect.path}:{cell}rule defect: {defect.rule} {defect.reason};"
        " its rewrite of this cell was refused"
    )


def text(findings: Sequence[Finding], defects: Sequence[RuleDefect] = ()) -> str:
    lines = [f"{location(f)}: {f.rule} {describe(f)}" for f in findings]
    lines += [describe_defect(d) for d in defects]
    files = len({f.path for f in findings})
    if findings:
        lines.append(
            f"Found {len(findings)} legacy API use{'s' if len(findings) != 1 else ''}"
            f" in {files} file{'s' if files != 1 else ''} (all fixable with `nbmod fix`)."
        )
    else:
        lines.append("All checks passed!")
    if defects:
        lines.append(
            f"{len(defects)} rule defect{'s' if len(defects) != 1 else ''}: rewrites refused"
            " because they broke a cell or were not idempotent (the rules' fault, not the code's)."
        )
    return "\n".join(lines) + "\n"


def as_json(findings: Sequence[Finding], defects: Sequence[RuleDefect] = ()) -> str:
    """Findings, then rule defects (`"ruleDefect": true`)."""
    items = [f.to_json() for f in findings] + [d.to_json() for d in defects]
    return json.dumps(items, indent=2) + "\n"


def _uri(path: str) -> str:
    candidate = Path(path)
    if candidate.is_absolute():
        try:
            candidate = candidate.relative_to(Path.cwd())
        except ValueError:
            return candidate.as_uri()
    return candidate.as_posix()


def source_lines(text: str) -> dict[int, int]:
    """Cell number -> the file line of its source's first line, for a notebook laid out as
    nbformat and Jupyter write it (1-space indent, one JSON string a source line); empty for
    another layout."""
    starts: dict[int, int] = {}
    cell, inside = 0, False
    for number, line in enumerate(text.split("\n"), start=1):
        if not inside:
            inside = line.startswith(' "cells": [')
        elif line == "  {":
            cell += 1
        elif line in (" ]", " ],"):
            break
        elif line.startswith('   "source": ['):
            starts[cell] = number + 1
    return starts


def _region(finding: Finding, starts: dict[int, int] | None) -> dict[str, int]:
    """Where a code-scanning service should point: in a notebook, the JSON string of the line
    (its column shifted past the indent and the quote; escapes before it are not counted);
    the cell's line when the notebook's layout is unknown."""
    if finding.cell is None:
        return {"startLine": finding.line, "startColumn": finding.column}
    if starts and finding.cell in starts:
        return {
            "startLine": starts[finding.cell] + finding.line - 1,
            "startColumn": finding.column + 5,
        }
    return {"startLine": finding.line, "startColumn": finding.column}


def _layouts(findings: Sequence[Finding]) -> dict[str, dict[int, int]]:
    found: dict[str, dict[int, int]] = {}
    for path in {f.path for f in findings if f.cell is not None}:
        try:
            found[path] = source_lines(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            found[path] = {}
    return found


def sarif(
    findings: Sequence[Finding],
    rules: Sequence[Rule],
    version: str,
    defects: Sequence[RuleDefect] = (),
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run. A notebook finding's region is the line of the
    notebook's JSON file that holds the source line (`source_lines`); the cell and its line
    are in the message and in `properties` too. A rule defect is an `error` result of its
    rule, located at the file (`properties.ruleDefect`)."""
    layouts = _layouts(findings)
    used = sorted({f.rule for f in findings} | {d.rule for d in defects})
    by_id = {rule.id: rule for rule in rules}
    index = {rule_id: n for n, rule_id in enumerate(used)}
    descriptors = [
        {
            "id": rule_id,
            "name": rule_id,
            "shortDescription": {"text": by_id[rule_id].summary if rule_id in by_id else rule_id},
            "helpUri": TOOL_URI,
            "properties": {
                "library": by_id[rule_id].library if rule_id in by_id else "",
                "changedIn": by_id[rule_id].changed_in if rule_id in by_id else "",
            },
        }
        for rule_id in used
    ]
    results = [
        {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": "warning",
            "message": {
                "text": (f"cell {f.cell}, line {f.line}: " if f.cell is not None else "")
                + describe(f)
            },
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri(f.path)},
                        "region": _region(f, layouts.get(f.path)),
                    }
                }
            ],
            "properties": {"cell": f.cell, "cellLine": f.line, "fixable": True},
        }
        for f in findings
    ]
    results += [
        {
            "ruleId": d.rule,
            "ruleIndex": index[d.rule],
            "level": "error",
            "message": {"text": describe_defect(d)},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(d.path)}}}],
            "properties": {"cell": d.cell, "ruleDefect": True, "fixable": False},
        }
        for d in defects
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "nbmod",
                        "informationUri": TOOL_URI,
                        "version": version,
                        "rules": descriptors,
                    }
                },
                "results": results,
            }
        ],
    }
