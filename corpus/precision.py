"""The precision section of docs/coverage.md: the precision suite's figures and the audit.

Reads what `benchmarks/precision.py --json` wrote over the installed libraries' code
(corpus/precision-site-packages.json) and over real notebooks (corpus/precision-notebooks.json),
and the findings judged by hand (corpus/precision-audit.csv: one row a finding, its verdict
TP / FP and why; a false positive whose `why` starts with "fixed:" is one its rule no longer
makes). `corpus/coverage.py` puts the section in the document.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
AUDIT = ROOT / "corpus" / "precision-audit.csv"
SUITES = {
    "site-packages": ROOT / "corpus" / "precision-site-packages.json",
    "notebooks": ROOT / "corpus" / "precision-notebooks.json",
}
AUDIT_COLUMNS = ("set", "rule", "source", "line", "verdict", "why")
VERDICTS = ("TP", "FP")
FALSE_POSITIVE_GOAL = 0.02


@dataclass(frozen=True)
class Verdict:
    set: str  # which suite the finding came from (a key of SUITES)
    rule: str
    source: str  # repository and path (notebooks), or the library file (site-packages)
    line: str  # the line of the finding, at most one line
    verdict: str  # TP or FP
    why: str


def read_audit(path: Path = AUDIT) -> list[Verdict]:
    """The audited findings; ValueError names the row and field that is wrong."""
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != AUDIT_COLUMNS:
            raise ValueError(f"{path.name}: columns must be {', '.join(AUDIT_COLUMNS)}")
        rows = [Verdict(**row) for row in reader]
    for number, row in enumerate(rows, start=2):
        if row.set not in SUITES:
            raise ValueError(f"{path.name}:{number}: set {row.set!r} is not one of {list(SUITES)}")
        if row.verdict not in VERDICTS:
            raise ValueError(f"{path.name}:{number}: verdict {row.verdict!r} is not TP or FP")
        if "\n" in row.line or not row.why.strip():
            raise ValueError(f"{path.name}:{number}: line must be one line, why must be given")
    return rows


def read_suites() -> dict[str, dict[str, Any]]:
    return {
        name: json.loads(path.read_text(encoding="utf-8"))
        for name, path in SUITES.items()
        if path.exists()
    }


def render(suites: dict[str, dict[str, Any]], audit: Sequence[Verdict]) -> list[str]:
    lines: list[str] = []
    add = lines.append
    add("## 5. Precision: the rules on code nobody here wrote")
    add("")
    add(
        "`benchmarks/precision.py` runs `nbmod scan` / `nbmod fix` (the proactive rules of "
        "the installed versions) over code its authors never saw and counts what a rewrite "
        "must never do: a cell that parsed (as IPython reads it) and no longer does, a file a "
        "second fix changes again, a crash. Site-packages: every `.py` file of the installed "
        "ML libraries, each a notebook of one cell; notebooks: real Kaggle kernels "
        "(`adgirish/kaggleScape`, read from a snapshot, not committed). Figures from "
        "`corpus/precision-*.json` (the command is in each); verdicts from "
        "`corpus/precision-audit.csv`, judged by hand: on site-packages every finding of the "
        "same sample before the rule fixes of issue #19 (main at a7fed16), on notebooks a "
        "seeded sample of the first 245 findings the run wrote (`benchmarks/precision.py "
        "--audit FINDINGS --sample 110 --seed 19`)."
    )
    add("")
    add(
        "| suite | command | files | cells | lines | files changed | findings | cells broken "
        "| non-idempotent files | crashes |"
    )
    add("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, suite in suites.items():
        add(
            f"| {name} | `{suite['command']}` | {suite['files']} | {suite['cells']} | "
            f"{suite['lines']} | {suite['files_changed']} | {suite['findings']} | "
            f"{suite['cells_broken']} | {suite['non_idempotent_files']} | {suite['crashes']} |"
        )
    add("")
    for name, suite in suites.items():
        for kind, found in (("broken", "broken"), ("non-idempotent", "non_idempotent")):
            for path, numbers in suite[found].items():
                add(f"- {name}, {kind}: `{path}` cells {', '.join(map(str, numbers))}")
    add("")
    for name, suite in suites.items():
        judged_here = [row for row in audit if row.set == name]
        verdicts = Counter((row.rule, _standing(row)) for row in judged_here)
        rules = sorted(set(suite["rules"]) | {row.rule for row in judged_here})
        add(f"**{name}**: findings per rule in the run above, and the findings judged by hand")
        add("")
        add("| rule | findings | judged TP | FP, fixed since | FP, open |")
        add("|---|---:|---:|---:|---:|")
        for rule in rules:
            judged = " | ".join(str(verdicts[rule, standing]) for standing in _STANDINGS)
            add(f"| `{rule}` | {suite['rules'].get(rule, 0)} | {judged} |")
        add("")
        if not judged_here:
            continue
        standing = Counter(_standing(row) for row in judged_here)
        remaining = len(judged_here) - standing["fixed"]
        add(
            f"{len(judged_here)} findings judged: {standing['TP']} true, {standing['fixed']} false "
            f"and fixed since (their rules no longer make them), {standing['open']} false and "
            f"open: {_share(standing['open'], remaining)} of the judged findings the rules still "
            f"make (goal <= {FALSE_POSITIVE_GOAL:.0%})."
        )
        add("")
    return lines


_STANDINGS = ("TP", "fixed", "open")


def _standing(row: Verdict) -> str:
    """TP; or a false positive `fixed` (its rule no longer makes it) or still `open`."""
    if row.verdict == "TP":
        return "TP"
    return "fixed" if row.why.startswith("fixed:") else "open"


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"
