"""The precision section of docs/coverage.md: the precision suite's figures and the audit.

Reads what `benchmarks/precision.py --json` wrote over the installed libraries' code
(corpus/precision-site-packages.json) and over real notebooks (corpus/precision-notebooks.json),
and the findings judged by hand (corpus/precision-audit.csv: one row a finding, the audit
round that drew it (`ROUNDS`), its verdict TP / FP and why; a false positive whose `why` starts
with "fixed:" is one its rule no longer makes). `corpus/coverage.py` puts the section in the
document.
"""

from __future__ import annotations

import csv
import json
import math
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
AUDIT_COLUMNS = ("round", "set", "rule", "source", "line", "verdict", "why")
# how each audit round drew its findings (a round judges a new sample with the rules of its day)
ROUNDS = {
    "1": "on site-packages every finding of the same sample before the rule fixes of issue #19 "
    "(main at a7fed16); on notebooks a seeded sample of the first 245 findings the run wrote "
    "(`benchmarks/precision.py --audit FINDINGS --sample 110 --seed 19`)",
    "2": "on notebooks a new seeded sample of 160 of the 4,545 findings of the rules at main "
    "8d8690d over all 1,266 notebooks of the collection (the notebooks run above, "
    "`--findings FINDINGS`; then `benchmarks/precision.py --audit FINDINGS --sample 160 "
    "--seed 2026`), each judged on the notebook's code around it: is the API legacy today, and "
    "does the rewrite keep its meaning",
}
VERDICTS = ("TP", "FP")
FALSE_POSITIVE_GOAL = 0.02


@dataclass(frozen=True)
class Verdict:
    round: str  # the audit round that drew it (a key of ROUNDS)
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
        if row.round not in ROUNDS:
            raise ValueError(
                f"{path.name}:{number}: round {row.round!r} is not one of {list(ROUNDS)}"
            )
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
        "`corpus/precision-audit.csv`, judged by hand, in rounds: "
        + "; ".join(f"round {name}: {how}" for name, how in ROUNDS.items())
        + ". Intervals: 95% Wilson score."
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
        rounds = [r for r in ROUNDS if any(row.round == r for row in judged_here)]
        verdicts = Counter((row.round, row.rule, _standing(row)) for row in judged_here)
        rules = sorted(set(suite["rules"]) | {row.rule for row in judged_here})
        add(
            f"**{name}**: findings per rule in the run above, the findings judged by hand, and "
            "the rule's precision: true of the judged findings it still makes, every round"
        )
        add("")
        header = "".join(
            f" round {r}: TP | FP, fixed since | FP, open |" for r in rounds
        )  # fmt: skip
        add(f"| rule | findings |{header} precision |")
        add("|---|---:|" + "---:|" * (3 * len(rounds) + 1))
        for rule in rules:
            judged = "".join(
                f" {verdicts[r, rule, standing]} |" for r in rounds for standing in _STANDINGS
            )
            share = _precision(verdicts, rule)
            add(f"| `{rule}` | {suite['rules'].get(rule, 0)} |{judged} {share} |")
        add("")
        for r in rounds:
            add(_summary(r, [row for row in judged_here if row.round == r]))
            add("")
    return lines


def _summary(name: str, judged: Sequence[Verdict]) -> str:
    standing = Counter(_standing(row) for row in judged)
    false = standing["fixed"] + standing["open"]
    remaining = len(judged) - standing["fixed"]
    return (
        f"Round {name}: {len(judged)} findings judged: {standing['TP']} true, {false} false "
        f"({_share(false, len(judged))}); {standing['fixed']} of the false fixed since (their "
        f"rules no longer make them, or now rewrite them right), {standing['open']} open: "
        f"{_share(standing['open'], remaining)} of the judged findings the rules still make "
        f"(goal <= {FALSE_POSITIVE_GOAL:.0%})."
    )


_STANDINGS = ("TP", "fixed", "open")


def _precision(verdicts: Counter[tuple[str, str, str]], rule: str) -> str:
    """True of the judged findings the rule still makes, every round: `TP/(TP + FP open)`."""
    true = sum(n for (_, r, standing), n in verdicts.items() if r == rule and standing == "TP")
    made = true + sum(n for (_, r, s), n in verdicts.items() if r == rule and s == "open")
    return f"{true}/{made}" if made else "-"


def _standing(row: Verdict) -> str:
    """TP; or a false positive `fixed` (its rule no longer makes it) or still `open`."""
    if row.verdict == "TP":
        return "TP"
    return "fixed" if row.why.startswith("fixed:") else "open"


def _share(part: int, whole: int) -> str:
    """`part` of `whole` as a percentage with its 95% interval."""
    if not whole:
        return "-"
    low, high = wilson(part, whole)
    return f"{part / whole:.1%}, 95% CI {low:.1%}-{high:.1%}"


def wilson(part: int, whole: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of the proportion `part / whole` (95% by default)."""
    share = part / whole
    centre = (share + z * z / (2 * whole)) / (1 + z * z / whole)
    spread = (
        z
        / (1 + z * z / whole)
        * math.sqrt(share * (1 - share) / whole + z * z / (4 * whole * whole))
    )
    return max(0.0, centre - spread), min(1.0, centre + spread)
