"""`nbmod fleet`: thousands of notebooks without thousands of YAML files.

    nbmod fleet make index.csv [-n NAMESPACE] [-o fleet.yaml]   # resources to kubectl apply
    nbmod fleet summary [-n NAMESPACE | -A] [--json]            # the paper's table

The index is a CSV with a header. Required columns: `notebook`, `answers`, `metric`,
`target`; optional: `name` (default: from the notebook's path), `inputs`, `submission`,
`idColumn`, `tolerance`, `runs`, `timeoutSeconds`, `maxIterations`, `fixers` (separated by
`;` or spaces), `image`, `queueName`. A bad row is reported with its line number and field.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from nbmodernizer.spec import API_GROUP, API_VERSION, KIND, SpecError, parse_modernization
from nbmodernizer.status import Outcome

REQUIRED = ("notebook", "answers", "metric", "target")
_SCORE = {"submission": str, "idColumn": str, "tolerance": float, "runs": int}
_EXECUTION = {"timeoutSeconds": int, "image": str, "queueName": str}
MAX_NAME = 63


class FleetError(Exception):
    """A row of the index cannot become a resource; the message names the line and field."""


def resource_name(notebook: str, taken: set[str]) -> str:
    """A DNS-1123 name from the notebook's path (`…/titanic-2017/notebook.ipynb` ->
    `titanic-2017`), unique among `taken`."""
    path = Path(notebook.split("://", 1)[-1])
    stem = path.parent.name if path.stem in ("notebook", "kernel", "main") else path.stem
    base = re.sub(r"[^a-z0-9-]+", "-", stem.lower()).strip("-")[: MAX_NAME - 6] or "notebook"
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    return name


def _converted(row: dict[str, str], column: str, kind: type, line: int) -> Any:
    try:
        return kind(row[column])
    except ValueError:
        raise FleetError(f"line {line}: {column}: not a {kind.__name__}: {row[column]!r}") from None


def row_to_resource(
    row: dict[str, str], line: int, namespace: str | None, taken: set[str]
) -> dict[str, Any]:
    missing = [c for c in REQUIRED if not (row.get(c) or "").strip()]
    if missing:
        raise FleetError(f"line {line}: missing {', '.join(missing)}")
    name = (row.get("name") or "").strip() or resource_name(row["notebook"], taken)
    score: dict[str, Any] = {
        "metric": row["metric"].strip(),
        "target": _converted(row, "target", float, line),
        "answers": row["answers"].strip(),
    }
    execution: dict[str, Any] = {}
    for columns, target in ((_SCORE, score), (_EXECUTION, execution)):
        for column, kind in columns.items():
            if (row.get(column) or "").strip():
                target[column] = _converted({column: row[column].strip()}, column, kind, line)
    spec: dict[str, Any] = {"notebook": row["notebook"].strip(), "score": score}
    if (row.get("inputs") or "").strip():
        spec["inputs"] = row["inputs"].strip()
    if execution:
        spec["execution"] = execution
    fix: dict[str, Any] = {}
    if (row.get("maxIterations") or "").strip():
        fix["maxIterations"] = _converted(row, "maxIterations", int, line)
    if (row.get("fixers") or "").strip():
        fix["fixers"] = [f for f in re.split(r"[;\s]+", row["fixers"].strip()) if f]
    if fix:
        spec["fix"] = fix
    metadata: dict[str, Any] = {"name": name}
    if namespace:
        metadata["namespace"] = namespace
    document = {
        "apiVersion": f"{API_GROUP}/{API_VERSION}",
        "kind": KIND,
        "metadata": metadata,
        "spec": spec,
    }
    try:
        parse_modernization(document, f"line {line}")
    except SpecError as error:
        raise FleetError(f"line {line}: {'; '.join(error.problems)}") from None
    if name in taken:
        raise FleetError(f"line {line}: name {name!r} is used twice")
    taken.add(name)
    return document


def resources_from_index(text: str, namespace: str | None = None) -> list[dict[str, Any]]:
    reader = csv.DictReader(io.StringIO(text))
    absent = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
    if absent:
        raise FleetError(f"line 1: the header lacks column(s) {', '.join(absent)}")
    taken: set[str] = set()
    return [
        row_to_resource(row, line, namespace, taken) for line, row in enumerate(reader, start=2)
    ]


TRIAGE_KEY = f"{API_GROUP}/triage"


def annotate_triage(resources: list[dict[str, Any]], base: Path, jobs: int | None = None) -> None:
    """`nbmod fleet make --scan`: each resource gets the triage class of its notebook (`nbmod
    scan --summary`: rules, beyond, clean; unknown for one not readable here, e.g. on S3) as
    the label and annotation `nbmodernizer.dev/triage`, so `-l nbmodernizer.dev/triage=rules`
    selects the notebooks the rules alone are expected to repair."""
    from nbmodernizer.fixers.rules import all_libraries, all_rules
    from nbmodernizer.scan.batch import triage_notebooks
    from nbmodernizer.scan.finding import Scanner

    paths = [
        Path("/nonexistent/s3") if "://" in r["spec"]["notebook"] else base / r["spec"]["notebook"]
        for r in resources
    ]
    classes = triage_notebooks(Scanner(all_rules(), all_libraries()), paths, jobs)
    for resource, kind in zip(resources, classes, strict=True):
        metadata = resource["metadata"]
        metadata.setdefault("labels", {})[TRIAGE_KEY] = kind
        metadata.setdefault("annotations", {})[TRIAGE_KEY] = kind


def render_resources(resources: list[dict[str, Any]]) -> str:
    return yaml.safe_dump_all(resources, sort_keys=False)


@dataclass
class FleetSummary:
    """The paper's table: modernizations per outcome category, fixes, cost."""

    total: int = 0
    unfinished: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    fixes: Counter[tuple[str, str]] = field(default_factory=Counter)  # (fixer, type)
    cost_usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    saved_usd: float = 0.0  # LLM dollars the fix memory saved (estimated)
    iterations: Counter[int] = field(default_factory=Counter)  # finished runs: executions
    errors: Counter[str] = field(default_factory=Counter)  # what finished runs still fail on

    @property
    def reproduced(self) -> int:
        return sum(self.outcomes[o.value] for o in Outcome if o.reproducible)

    def most_common_errors(self, n: int = 10) -> list[tuple[str, int]]:
        return sorted(self.errors.items(), key=lambda item: (-item[1], item[0]))[:n]

    def to_dict(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "unfinished": self.unfinished,
            "outcomes": {o.value: self.outcomes[o.value] for o in Outcome},
            "reproduced": self.reproduced,
            "fixes": [
                {"fixer": fixer, "type": kind, "count": count}
                for (fixer, kind), count in sorted(self.fixes.items())
            ],
            "cost": {
                "usd": round(self.cost_usd, 6),
                "inputTokens": self.input_tokens,
                "outputTokens": self.output_tokens,
                "usdPerReproduced": round(self.cost_usd / self.reproduced, 6)
                if self.reproduced
                else None,
                "savedUsd": round(self.saved_usd, 6),
            },
            "iterations": [
                {"iterations": n, "count": count} for n, count in sorted(self.iterations.items())
            ],
            "errors": [
                {"error": error, "count": count} for error, count in self.most_common_errors()
            ],
        }


REMAINING = ("Error", "Timeout")  # last issues that are errors (not a score gap)
MAX_ERROR = 160


def remaining_error(status: dict[str, Any]) -> str | None:
    """What a finished run still fails on, as a key to count across the fleet: its last
    error without the cell number (`cell 3: KeyError: 'x'` -> `KeyError: 'x'`), first line."""
    if status.get("outcome") in (None, Outcome.ERROR_FREE_REPRODUCIBLE.value):
        return None
    error = status.get("lastError")
    issue = status.get("lastIssue")
    if not error or (issue is not None and issue not in REMAINING):
        return None
    lines = str(error).strip().splitlines()
    text = re.sub(r"^cell \d+: ", "", lines[0]) if lines else ""
    return text[:MAX_ERROR] or None


def summarize(resources: list[dict[str, Any]]) -> FleetSummary:
    summary = FleetSummary()
    for resource in resources:
        status = resource.get("status") or {}
        summary.total += 1
        outcome = status.get("outcome")
        if outcome is None:
            summary.unfinished += 1
        else:
            summary.outcomes[outcome] += 1
            summary.iterations[int(status.get("iterations") or 0)] += 1
            error = remaining_error(status)
            if error:
                summary.errors[error] += 1
        for fix in status.get("fixes") or []:
            summary.fixes[(fix.get("fixer", "?"), fix.get("type", "?"))] += 1
        cost = status.get("cost") or {}
        summary.cost_usd += float(cost.get("usd") or 0)
        summary.input_tokens += int(cost.get("inputTokens") or 0)
        summary.output_tokens += int(cost.get("outputTokens") or 0)
        summary.saved_usd += float(cost.get("savedUsd") or 0)
    return summary


def render_summary(summary: FleetSummary) -> str:
    def share(count: int) -> str:
        return f"{100 * count / summary.total:5.1f}%" if summary.total else "    -"

    lines = [f"{'outcome':28} {'count':>7} {'share':>7}"]
    for outcome in Outcome:
        count = summary.outcomes[outcome.value]
        lines.append(f"{outcome.value:28} {count:7d} {share(count):>7}")
    lines.append(f"{'(not finished)':28} {summary.unfinished:7d} {share(summary.unfinished):>7}")
    lines.append(f"{'reproduced':28} {summary.reproduced:7d} {share(summary.reproduced):>7}")
    lines.append(f"{'total':28} {summary.total:7d}")
    lines.append("")
    lines.append(f"{'fixer':10} {'fix type':20} {'count':>7}")
    for (fixer, kind), count in sorted(summary.fixes.items()):
        lines.append(f"{fixer:10} {kind:20} {count:7d}")
    per = f"${summary.cost_usd / summary.reproduced:.4f}" if summary.reproduced else "-"
    lines.append("")
    lines.append(
        f"LLM cost ${summary.cost_usd:.4f} ({summary.input_tokens} input, "
        f"{summary.output_tokens} output tokens); per reproduced notebook {per}"
    )
    lines.append(f"LLM cost saved by the fix memory (estimated) ${summary.saved_usd:.4f}")
    errors = summary.most_common_errors()
    if errors:
        lines += ["", f"{'count':>7}  most common remaining errors"]
        lines += [f"{count:7d}  {error}" for error, count in errors]
    return "\n".join(lines) + "\n"
