"""The runnable corpus (corpus/cases/): how many real failures the rules alone bring back.

    python benchmarks/corpus.py [--jobs 2] [--cases a,b] [--json FILE] [--references] [--oracle]
    python benchmarks/corpus.py --static [--cases a,b]   # only the static pass below

For every case: execute the legacy notebook and check that it fails today with the exception
and message its case.yaml records; modernize it with `fixers: [rules]` (what `nbmod modernize`
does; cost $0); then execute the final notebook again in a fresh folder and grade it against
answers.csv with nbmodernizer's grader (the loop's own report is not trusted for the score).
Prints a table per case and the totals: reproduced, error-free, by library, by class,
iterations used, the share of `api-drift` cases reproduced by the rules alone (issue #9's goal:
80%), and the cases whose final revision carries a fidelity flag (a model or hyperparameter
changed) or a blocking one, and the cases whose slowest execution took over half its
deadline (`execution.timeoutSeconds`). `--references` also executes each hand-modernized
reference and prints its score beside the spec's target. `--oracle` runs each case whose legacy
notebook's imports an era venv has (.eras/2019, else .eras/2017; scripts/era-envs) with
`--oracle-python` (issue #22): its era score beside the hand-made target, and the first cell of
the final revision whose values diverge from the era's; the cases that run in no era, and why.
First, a static pass (no kernel): every legacy notebook through `nbmod scan` / `nbmod fix`
twice, as the precision suite checks a file (`benchmarks/precision.py`): cells broken and
non-idempotent notebooks must be 0. Not a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import precision  # noqa: E402
from corpus.cases import Case, load_cases  # noqa: E402
from corpus.runs import (  # noqa: E402
    blocking_flags,
    era_of,
    execute_and_grade,
    fidelity_flags,
    modernize,
    reference_inputs,
    stopped_for_environment,
)
from nbmodernizer.status import ModernizationStatus  # noqa: E402

GOAL = 0.80
ERAS = ROOT / ".eras"
# an execution past this share of its deadline is reported: under load it may time out
NEAR_DEADLINE = 0.5


@dataclass(frozen=True)
class Row:
    name: str
    library: str
    klass: str
    expect: str
    legacy_error: str  # `Exception: message` of the legacy run ('' when it ran clean)
    legacy_as_recorded: bool
    outcome: str
    iterations: int
    fixes: int
    stop_reason: str
    environment_stop: bool  # stopped after one execution, the environment problem named
    final_error: str
    final_score: float | None
    target: float
    reproduced: bool  # re-executed and re-graded here, within tolerance, error-free
    error_free: bool
    flags: list[str]
    blocking: list[str]
    reference_score: float | None
    seconds: float
    gap: str | None = None  # the case's known gap: the rule still missing
    era: str | None = None  # --oracle: the era its legacy notebook ran in
    era_note: str = ""  # why it ran in no era, or what failed there
    era_score: float | None = None
    era_reproduced: bool = False  # the era score is within the spec's tolerance of the target
    divergence: str = ""  # the first diverging cell of the final revision ("" none)
    slowest: float = 0.0  # the longest of the case's executions (legacy, revisions, final)
    timeout: int = 0  # the spec's execution.timeoutSeconds, the deadline of each execution


def run_case(case: Case, references: bool, oracle: bool = False) -> Row:
    started = time.monotonic()
    era, era_note = era_of(case, ERAS) if oracle else (None, "")
    with tempfile.TemporaryDirectory(prefix=f"corpus-{case.name}-") as scratch:
        work = Path(scratch)
        legacy = execute_and_grade(case, case.notebook, work / "legacy")
        error = legacy.error
        as_recorded = (
            error is not None and error.ename == case.exception and case.message in error.evalue
        )
        era_python = str(ERAS / era / "bin" / "python") if era else None
        status = modernize(case, work / "out", era_python)
        final = work / "out" / "final.ipynb"
        regraded = execute_and_grade(case, final, work / "final") if final.is_file() else None
        reference = (
            execute_and_grade(
                case, case.reference, work / "ref", reference_inputs(case, work / "inputs")
            )
            if references
            else None
        )
    final_error = ""
    if regraded is None:
        final_error = "no final notebook"
    elif regraded.error is not None:
        final_error = f"{regraded.error.ename}: {regraded.error.evalue[:120]}"
    elif regraded.failure:
        final_error = regraded.failure
    return Row(
        name=case.name,
        library=case.library or "-",
        klass=case.klass,
        expect=case.expect,
        legacy_error=f"{error.ename}: {error.evalue[:120]}" if error else "",
        legacy_as_recorded=as_recorded,
        outcome=status.outcome.value if status.outcome else "-",
        iterations=status.iterations,
        fixes=len(status.fixes),
        stop_reason=(status.stop_reason or "")[:200],
        environment_stop=stopped_for_environment(status),
        final_error=final_error,
        final_score=regraded.score if regraded else None,
        target=case.resource.spec.score.target,
        reproduced=bool(regraded and regraded.reproduced),
        error_free=bool(regraded and regraded.error_free),
        flags=fidelity_flags(status),
        blocking=blocking_flags(status),
        reference_score=reference.score if reference else None,
        seconds=round(time.monotonic() - started, 1),
        gap=case.gap,
        **_era_fields(status, era, era_note),
        slowest=max(
            [legacy.seconds]
            + [r.duration_seconds for r in status.revisions if r.duration_seconds is not None]
            + [g.seconds for g in (regraded, reference) if g is not None]
        ),
        timeout=case.resource.spec.execution.timeout_seconds,
    )


def _era_fields(status: ModernizationStatus, era: str | None, note: str) -> dict[str, Any]:
    """What the differential run said: the era score, what failed there, the first diverging
    cell."""
    oracle = status.oracle
    if era is None or oracle is None:
        return {"era": era, "era_note": note or ("" if era is None else status.last_error or "")}
    raised = [c.detail for c in oracle.cells if c.detail.startswith("raised in the era")]
    first = oracle.first_divergence
    return {
        "era": era,
        "era_note": raised[0] if raised else (oracle.score_reason or ""),
        "era_score": oracle.score,
        "era_reproduced": oracle.reproduced,
        "divergence": (
            f"cell {first.cell} ({'rewritten' if first.rewritten else 'unchanged'}): "
            f"{first.difference}"
            if first
            else ""
        ),
    }


def render_eras(rows: Sequence[Row]) -> str:
    """--oracle: each case's era score beside its target, and whether the final revision
    diverges from the era; then the cases no era runs, and why."""
    ran = [r for r in rows if r.era is not None]
    lines = [
        "| case | era | era score | target | era vs target | final score | "
        "first diverging cell (final) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in ran:
        era_score = "-" if r.era_score is None else f"{r.era_score:.4f}"
        gap = "-" if r.era_score is None else f"{(r.era_score - r.target) / abs(r.target):+.2%}"
        final = "-" if r.final_score is None else f"{r.final_score:.4f}"
        diverges = r.divergence or "none"
        era_score += f" ({r.era_note[:80]})" if r.era_note else ""
        lines.append(
            f"| {r.name} | {r.era} | {era_score} | {r.target} | {gap} | {final} | "
            f"{diverges[:120]} |"
        )
    scored = [r for r in ran if r.era_score is not None]
    lines.append("")
    lines.append(
        f"cases run in an era: {len(ran)}/{len(rows)}, with an era score: {len(scored)}; "
        f"era score within the spec's tolerance of the target: "
        f"{sum(r.era_reproduced for r in scored)}/{len(scored)}; final revision diverges: "
        f"{sum(bool(r.divergence) for r in ran)} (in a cell the rules rewrote: "
        f"{sum('(rewritten)' in r.divergence for r in ran)})"
    )
    for r in rows:
        if r.era is None:
            lines.append(f"  not run in an era, {r.name}: {r.era_note}")
    return "\n".join(lines)


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.0%})" if whole else "0/0"


def render(rows: Sequence[Row], references: bool) -> str:
    lines: list[str] = []
    add = lines.append
    head = "| case | library | class | expect | legacy fails as recorded | outcome | iter | "
    head += "score (target) | reproduced | error-free | flags |"
    if references:
        head += " reference |"
    add(head)
    add("|" + "---|" * head.count(" |"))
    for r in rows:
        score = "-" if r.final_score is None else f"{r.final_score:.4f}"
        line = (
            f"| {r.name} | {r.library} | {r.klass} | {r.expect} | "
            f"{'yes' if r.legacy_as_recorded else 'NO: ' + (r.legacy_error or 'ran clean')} | "
            f"{r.outcome} | {r.iterations} | {score} ({r.target}) | "
            f"{'yes' if r.reproduced else 'no'} | {'yes' if r.error_free else 'no'} | "
            f"{'; '.join(r.flags) or '-'} |"
        )
        if references:
            line += f" {'-' if r.reference_score is None else f'{r.reference_score:.4f}'} |"
        add(line)
    add("")
    n = len(rows)
    add(
        f"cases: {n}; legacy fails as recorded: "
        f"{_share(sum(r.legacy_as_recorded for r in rows), n)}"
    )
    add(f"reproduced (re-executed, re-graded): {_share(sum(r.reproduced for r in rows), n)}")
    add(f"error-free: {_share(sum(r.error_free for r in rows), n)}")
    drift = [r for r in rows if r.klass == "api-drift"]
    drift_ok = sum(r.reproduced for r in drift)
    goal = "met" if drift and drift_ok / len(drift) >= GOAL else "NOT met"
    add(
        f"api-drift reproduced by rules alone: {_share(drift_ok, len(drift))} "
        f"(goal {GOAL:.0%}: {goal})"
    )
    missed = [r.name for r in drift if not r.reproduced and r.gap is None]
    if missed:
        add(f"  api-drift not reproduced: {', '.join(missed)}")
    for r in drift:
        if not r.reproduced and r.gap is not None:
            add(f"  known gap, {r.name}: {r.gap}")
    closed = [r.name for r in drift if r.reproduced and r.gap is not None]
    if closed:
        add(f"  gaps closed (remove their `gap`): {', '.join(closed)}")
    add(
        "models and hyperparameters kept (no fidelity flag on the final revision): "
        f"{_share(sum(not r.flags for r in rows), n)}; blocking flags: "
        f"{sum(bool(r.blocking) for r in rows)}"
    )
    stops = [r for r in rows if r.expect == "environment-stop"]
    stopped = sum(r.environment_stop for r in stops)
    add(
        "environment-stop cases stopped after the first execution, naming what is missing: "
        f"{_share(stopped, len(stops))}"
    )
    for title, key in (("library", "library"), ("class", "klass"), ("expect", "expect")):
        groups: dict[str, list[Row]] = {}
        for r in rows:
            groups.setdefault(getattr(r, key), []).append(r)
        parts = [
            f"{g} {sum(r.reproduced for r in members)}/{len(members)}"
            for g, members in sorted(groups.items())
        ]
        add(f"reproduced by {title}: {', '.join(parts)}")
    iterations = Counter(r.iterations for r in rows)
    add(
        "executions per case: "
        + ", ".join(f"{k}: {v}" for k, v in sorted(iterations.items()))
        + f"; total {sum(r.iterations for r in rows)}; rule fixes {sum(r.fixes for r in rows)}"
    )
    add("cost: $0 (fixers: [rules])")
    add(f"wall time per case (s): {', '.join(f'{r.name} {r.seconds}' for r in rows)}")
    near = [r for r in rows if r.slowest > NEAR_DEADLINE * r.timeout]
    add(
        f"executions past {NEAR_DEADLINE:.0%} of their deadline (slowest s / timeoutSeconds): "
        + (", ".join(f"{r.name} {r.slowest:.0f}/{r.timeout}" for r in near) or "none")
    )
    return "\n".join(lines)


def static_pass(cases: Sequence[Case]) -> str:
    """The legacy notebooks through scan and fix twice, no kernel: what a rewrite broke."""
    started = time.monotonic()
    summary = precision.totals(precision.run([case.notebook for case in cases], jobs=1))
    line = (
        f"static `nbmod fix` twice over {summary['files']} legacy notebooks ({summary['cells']} "
        f"cells, {summary['lines']} lines): {summary['files_changed']} changed, "
        f"{summary['findings']} findings; cells broken {summary['cells_broken']}, "
        f"non-idempotent notebooks {summary['non_idempotent_files']}, crashes "
        f"{summary['crashes']} ({time.monotonic() - started:.0f} s)"
    )
    defects = [
        f"  {kind}: {path}: {what}"
        for kind in ("broken", "non_idempotent", "crashed")
        for path, what in summary[kind].items()
    ]
    return "\n".join([line, *defects])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--jobs", type=int, default=1, help="cases at once (one kernel each)")
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    parser.add_argument("--json", type=Path, default=None, help="write the rows as JSON here")
    parser.add_argument(
        "--references", action="store_true", help="also execute and score each reference"
    )
    parser.add_argument(
        "--oracle",
        action="store_true",
        help="also run each legacy notebook in its era (.eras/2019, else 2017): era scores",
    )
    parser.add_argument("--static", action="store_true", help="only the static pass, no kernel")
    args = parser.parse_args(argv)
    cases = load_cases()
    if args.cases:
        wanted = [c.strip() for c in args.cases.split(",") if c.strip()]
        unknown = sorted(set(wanted) - {c.name for c in cases})
        if unknown:
            parser.error(f"no such case(s): {', '.join(unknown)}")
        cases = [c for c in cases if c.name in wanted]
    print(static_pass(cases), flush=True)
    if args.static:
        return 0
    started = time.monotonic()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(
                pool.map(
                    run_case, cases, [args.references] * len(cases), [args.oracle] * len(cases)
                )
            )
    else:
        rows = [run_case(case, args.references, args.oracle) for case in cases]
    print(render(rows, args.references))
    if args.oracle:
        print()
        print(render_eras(rows))
    print(f"total wall time: {time.monotonic() - started:.0f} s with --jobs {args.jobs}")
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
