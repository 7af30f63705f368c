"""Findings as text (ruff's style), JSON (a list) and SARIF 2.1.0 (code-scanning services)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from nbmodernizer.fixers.rules.model import Rule
from nbmodernizer.scan.finding import Finding

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
TOOL_URI = "https://github.com/nbmodernizer/nbmodernizer/blob/main/docs/rules.md"


def location(finding: Finding) -> str:
    cell = f"cell {finding.cell}:" if finding.cell is not None else ""
    return f"{finding.path}:{cell}{finding.line}:{finding.column}"


def describe(finding: Finding) -> str:
    installed = f", {finding.installed} installed" if finding.installed else ""
    return f"{finding.message} ({finding.library} {finding.changed_in}{installed})"


def text(findings: Sequence[Finding]) -> str:
    lines = [f"{location(f)}: {f.rule} {describe(f)}" for f in findings]
    files = len({f.path for f in findings})
    if findings:
        lines.append(
            f"Found {len(findings)} legacy API use{'s' if len(findings) != 1 else ''}"
            f" in {files} file{'s' if files != 1 else ''} (all fixable with `nbmod fix`)."
        )
    else:
        lines.append("All checks passed!")
    return "\n".join(lines) + "\n"


def as_json(findings: Sequence[Finding]) -> str:
    return json.dumps([f.to_json() for f in findings], indent=2) + "\n"


def _uri(path: str) -> str:
    candidate = Path(path)
    if candidate.is_absolute():
        try:
            candidate = candidate.relative_to(Path.cwd())
        except ValueError:
            return candidate.as_uri()
    return candidate.as_posix()


def sarif(findings: Sequence[Finding], rules: Sequence[Rule], version: str) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run. A notebook finding's region is its line and column in
    the cell; the cell is in the message and in `properties.cell` (code-scanning services
    show the notebook file)."""
    used = sorted({f.rule for f in findings})
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
                        "region": {"startLine": f.line, "startColumn": f.column},
                    }
                }
            ],
            "properties": {"cell": f.cell, "fixable": True},
        }
        for f in findings
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
