"""Write docs/coverage.md: the census of real errors, the removal lists and the rules.

Reads corpus/census.csv, corpus/removals/*.csv, the census rows the runnable cases name
(corpus/cases/*/case.yaml), the rule catalog (`nbmodernizer.fixers.rules.catalog.RULES`) and
the precision suite's figures and audit (`corpus/precision.py`), and writes docs/coverage.md.

    PYTHONPATH=operator:. python corpus/coverage.py            # rewrite docs/coverage.md
    PYTHONPATH=operator:. python corpus/coverage.py --check    # exit 1 when it is stale
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from corpus import precision

ROOT = Path(__file__).resolve().parent.parent
CENSUS = ROOT / "corpus" / "census.csv"
REMOVALS = ROOT / "corpus" / "removals"
DOC = ROOT / "docs" / "coverage.md"
AUDIT = ROOT / "corpus" / "audit-fixers-issue.csv"
CASES = ROOT / "corpus" / "cases"

CENSUS_COLUMNS = (
    "source",
    "competition",
    "notebook",
    "exception",
    "message",
    "signature",
    "class",
    "library",
    "old_api",
    "new_api",
    "rule",
    "note",
)
REMOVAL_COLUMNS = (
    "api",
    "replacement",
    "removed_in",
    "source",
    "notebook_relevance",
    "rule",
    "reason",
)
AUDIT_COLUMNS = ("api", "snippet", "rule")
CLASSES = ("api-drift", "environment", "notebook-bug", "other")
RELEVANCE = ("high", "low")
# The `rule` column of the census: a rule id, or NO_RULE when a rule's symptom matches the
# message by coincidence but cannot fix the error (the message alone does not decide).
NO_RULE = "-"
# Competitions this census leaves out entirely (issue #9).
EXCLUDED_COMPETITIONS = frozenset(
    {
        "AI4Code",
        "aerial-cactus-identification",
        "aptos2019-blindness-detection",
        "dog-breed-identification",
        "dogs-vs-cats-redux-kernels-edition",
        "jigsaw-toxic-comment-classification-challenge",
        "jigsaw-unintended-bias-in-toxicity-classification",
        "leaf-classification",
        "movie-review-sentiment-analysis-kernels-only",
        "new-york-city-taxi-fare-prediction",
        "osic-pulmonary-fibrosis-progression",
        "petfinder-pawpularity-score",
        "stanford-covid-vaccine",
        "statoil-iceberg-classifier-challenge",
        "tabular-playground-series-dec-2021",
        "tabular-playground-series-may-2022",
        "tweet-sentiment-extraction",
        "ventilator-pressure-prediction",
        "vesuvius-challenge-ink-detection",
        "whale-categorization-playground",
    }
)
# The `competition` of a row whose excerpt does not tell it.
UNKNOWN_COMPETITION = "unknown"
# Goals of issue #9.
REMOVAL_GOAL = 0.90
# Reasons that do not explain a miss: they say a rule is still to be written.
UNEXPLAINED = ("no rule yet", "no notebook in the census hits it")
SIGNATURE_GOAL_MIN_COUNT = 3
# Python 2 names whose NameError is itself the drift (kept in the signature).
PYTHON2_NAMES = frozenset(
    {"xrange", "raw_input", "unicode", "basestring", "unichr", "long", "file", "reduce"}
)

# A quoted name is kept in the signature when it is the API that drifted: the text before it.
_KEEP_BEFORE = re.compile(
    r"(module |attribute |named |import name |keyword argument |from |argument: |object "
    r"has no attribute |^)$"
)
_QUOTED = re.compile(r"'([^'\n]*)'|\"([^\"\n]*)\"")
_NUMBER = re.compile(r"(?<![\w.<])\d+(?:\.\d+)?(?![\w>])")
_PAREN_PATH = re.compile(r"\s*\((?:/|[A-Za-z]:\\)[^)]*\)")
_HEX = re.compile(r"\b0x[0-9a-fA-F]+\b")


_SOURCE_QUERY = re.compile(r'find_string "(.*)" -> index id')


def _query(source: str) -> str:
    """The search string a prompt row's `source` names ('' for other sources)."""
    match = _SOURCE_QUERY.search(source)
    return match.group(1) if match else ""


def one_line(message: str, limit: int = 300) -> str:
    """The message on one line, at most `limit` characters."""
    text = " ".join(message.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def signature(exception: str, message: str) -> str:
    """`exception: message` with names, numbers, strings and paths replaced by placeholders.

    The quoted name is kept where it is the drift itself: the attribute or module that is
    gone, the keyword that is refused, the type that lacks the attribute.
    """
    text = _PAREN_PATH.sub("", one_line(message, 10_000))
    text = _HEX.sub("<hex>", text)
    out: list[str] = []
    last = 0
    for match in _QUOTED.finditer(text):
        before = text[last : match.start()]
        out.append(_NUMBER.sub("<n>", before))
        value = match.group(1) if match.group(1) is not None else match.group(2)
        prefix = text[: match.start()]
        tail = prefix[-40:]
        after = text[match.end() : match.end() + 8]
        keep = bool(_KEEP_BEFORE.search(tail)) and not tail.endswith(": ")
        if prefix.endswith("name ") and exception == "NameError":
            keep = value in PYTHON2_NAMES
        elif after.startswith(" object"):
            keep = True
        if prefix.endswith("name ") and exception == "NameError" and not keep:
            out.append("<name>")
        elif "/" in value or "\\" in value:
            out.append("<path>")
        elif exception == "KeyError" and not prefix.strip():
            out.append("<key>")
        elif keep and value and len(value) <= 60:
            out.append(f"'{value}'")
        else:
            out.append("<str>")
        last = match.end()
    out.append(_NUMBER.sub("<n>", text[last:]))
    body = "".join(out).strip()
    if len(body) > 160:
        body = body[:157] + "..."
    return f"{exception}: {body}" if body else exception


@dataclass(frozen=True)
class CensusRow:
    source: str
    competition: str
    notebook: str
    exception: str
    message: str
    signature: str
    klass: str
    library: str
    old_api: str
    new_api: str
    rule: str
    note: str


@dataclass(frozen=True)
class Removal:
    library: str
    api: str
    replacement: str
    removed_in: str
    source: str
    relevance: str
    rule: str
    reason: str


@dataclass(frozen=True)
class AuditRow:
    """An API the fixers issue (#3) named, a snippet that uses it, the rule that fixes it."""

    api: str
    snippet: str
    rule: str


def explained(removal: Removal) -> bool:
    """Whether an uncovered removal says why no rule is safe (not merely "not yet")."""
    return bool(removal.reason) and not removal.reason.startswith(UNEXPLAINED)


def _read(path: Path, columns: Sequence[str]) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != tuple(columns):
            raise ValueError(f"{path.name}: columns {reader.fieldnames} != {list(columns)}")
        return list(reader)


def read_census(path: Path = CENSUS) -> list[CensusRow]:
    return [
        CensusRow(
            source=r["source"],
            competition=r["competition"],
            notebook=r["notebook"],
            exception=r["exception"],
            message=r["message"],
            signature=r["signature"],
            klass=r["class"],
            library=r["library"],
            old_api=r["old_api"],
            new_api=r["new_api"],
            rule=r["rule"],
            note=r["note"],
        )
        for r in _read(path, CENSUS_COLUMNS)
    ]


def read_removals(folder: Path = REMOVALS) -> list[Removal]:
    out: list[Removal] = []
    for path in sorted(folder.glob("*.csv")):
        for r in _read(path, REMOVAL_COLUMNS):
            out.append(
                Removal(
                    library=path.stem,
                    api=r["api"],
                    replacement=r["replacement"],
                    removed_in=r["removed_in"],
                    source=r["source"],
                    relevance=r["notebook_relevance"],
                    rule=r["rule"],
                    reason=r["reason"],
                )
            )
    return out


def read_audit(path: Path = AUDIT) -> list[AuditRow]:
    return [
        AuditRow(api=r["api"], snippet=r["snippet"].replace("\\n", "\n"), rule=r["rule"])
        for r in _read(path, AUDIT_COLUMNS)
    ]


def audit_rewrites(rows: Sequence[AuditRow]) -> list[tuple[AuditRow, bool]]:
    """Each audit row and whether its rule (from the catalog) rewrites its snippet."""
    from nbmodernizer.fixers.rules.catalog import RULES
    from nbmodernizer.fixers.rules.proof import context_for, facts_here

    by_id = {rule.id: rule for rule in RULES}
    found: list[tuple[AuditRow, bool]] = []
    for row in rows:
        rule = by_id.get(row.rule)
        if rule is None:
            found.append((row, False))
            continue
        # the rule reads the facts of this environment, as its proofs do
        context = context_for(row.snippet, ROOT / "corpus", environment=facts_here(rule))
        found.append((row, rule.rewrite(row.snippet, context) != row.snippet))
    return found


def read_case_sources(folder: Path = CASES) -> dict[tuple[str, str], list[str]]:
    """(census source, exception) -> the runnable cases that reproduce that census row."""
    out: dict[tuple[str, str], list[str]] = {}
    for path in sorted(folder.glob("*/case.yaml")):
        facts = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for source in facts.get("census") or []:
            out.setdefault((source, str(facts.get("exception", ""))), []).append(path.parent.name)
    return out


class RuleLike:
    """What this document needs of a rule (the catalog's `Rule` has it)."""

    id: str
    library: str

    def matches_error(self, ename: str, evalue: str) -> bool:  # pragma: no cover - protocol
        raise NotImplementedError


def load_rules() -> Sequence[RuleLike]:
    from nbmodernizer.fixers.rules.catalog import RULES

    return RULES  # type: ignore[return-value]


def symptom_matches(row: CensusRow, rules: Iterable[RuleLike]) -> list[str]:
    return [rule.id for rule in rules if rule.matches_error(row.exception, row.message)]


def handled_by(row: CensusRow, rules: Sequence[RuleLike]) -> str:
    """The rule that handles the row: the hand-kept mapping first, else the symptom match."""
    if row.rule == NO_RULE:
        return ""
    if row.rule:
        return row.rule
    matches = symptom_matches(row, rules)
    return matches[0] if len(matches) == 1 else ""


def _source_kind(source: str) -> str:
    if source.startswith("usr_prompts"):
        return "fix prompts (usr_prompts)"
    if source.startswith("github:"):
        return "public Kaggle kernel collections"
    return "crash reports"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    """A table cell's text as inline code (double backticks around one that holds a backtick)."""
    text = _cell(text)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def _why_not(rows: Sequence[CensusRow]) -> str:
    klass = Counter(r.klass for r in rows).most_common(1)[0][0]
    if klass == "environment":
        kinds = Counter(re.split(r"[:(;]", r.note)[0].strip() for r in rows if r.note)
        listed = ", ".join(f"{k} ({n})" if len(rows) > 1 else k for k, n in kinds.most_common())
        return f"environment: {listed}" if listed else "environment"
    if klass == "api-drift":
        lib = rows[0].library or "?"
        old = rows[0].old_api or "?"
        return f"**no rule yet** ({lib}: `{old}` -> `{rows[0].new_api or '?'}`)"
    if klass == "notebook-bug":
        return "LLM only: a bug of the notebook (or of an earlier rewrite), not drift"
    return "LLM only: " + (rows[0].note.split(";")[0] or "no mechanical fix")


def render(
    census: Sequence[CensusRow],
    removals: Sequence[Removal],
    rules: Sequence[RuleLike],
    audit: Sequence[tuple[AuditRow, bool]] = (),
    cases: dict[tuple[str, str], list[str]] | None = None,
    precision: Sequence[str] = (),
) -> str:
    rule_ids = {rule.id for rule in rules}
    lines: list[str] = []
    add = lines.append
    add("# Coverage: real errors and removed APIs beside the rulebook")
    add("")
    add("Generated by `PYTHONPATH=operator:. python corpus/coverage.py` from `corpus/census.csv`,")
    add("`corpus/removals/*.csv` and the rule catalog; `tests/test_coverage.py` fails when this")
    add("file is stale. Issue #9, parts 1-3; section 4 audits the API list of the fixers issue")
    add("(#3); section 5 measures the rules' precision on code nobody here wrote (#19).")
    add("")

    # --- census -------------------------------------------------------------------------
    add("## 1. Census of real errors")
    add("")
    sources = Counter(_source_kind(r.source) for r in census)
    queries = {q for q in (_query(r.source) for r in census) if q}
    unknown = sum(1 for r in census if r.competition == UNKNOWN_COMPETITION)
    competitions = {r.competition for r in census} - {UNKNOWN_COMPETITION}
    add(
        f"{len(census)} errors from {len(competitions)} named competitions and {unknown} rows "
        f"whose competition the excerpt does not tell (`{UNKNOWN_COMPETITION}`) "
        f"({', '.join(f'{n} from {s}' for s, n in sorted(sources.items()))}), taken from the "
        "paper's replication repository `Bihui-Jin/MLEModernizer` and, for rules it holds no "
        "failure of, from public collections of Kaggle kernels (their failing line run here "
        "today); each row names where it came from. Crash-report and kernel rows name their "
        "notebook. Prompt rows were found by exact-string "
        f"search ({len(queries)} distinct query strings, named in the `source` column with the "
        "index id and offset of the hit); the search returns no file path, so their notebook "
        "is unknown, their competition is read from the paths, columns or metrics around the "
        f"error (`{UNKNOWN_COMPETITION}` when nothing there tells it, and the row is kept only "
        "when nothing points at an excluded competition), and the error shown is not always "
        "the notebook's first: some prompts hold code of a later fix iteration (their `note` "
        "says so). Hits from the competitions issue #9 excludes were dropped, and so was a "
        "second hit of a notebook already recorded (another fix iteration of it)."
    )
    add("")
    add(
        "**The frequencies below reflect the search as much as the failures.** A query returns at "
        "most 10 hits, so frequent messages were partitioned (the protobuf errors by the number "
        "of the next cell, the missing files by the first letter of the input folder), which "
        "finds many of them; API drift was searched message by message, and most drift hits "
        "came from excluded competitions (old Keras/pandas notebooks of aerial-cactus, "
        'leaf-classification, movie-review, jigsaw, osic ...). Read the table as "which '
        'failures are common", not as exact shares.'
    )
    add("")
    add("| class | errors | share |")
    add("|---|---|---|")
    classes = Counter(r.klass for r in census)
    for klass in CLASSES:
        share = classes[klass] / len(census) if census else 0.0
        add(f"| {klass} | {classes[klass]} | {share:.0%} |")
    add("")

    add("| library | errors | api-drift | environment | notebook-bug | other |")
    add("|---|---|---|---|---|---|")
    by_lib: dict[str, Counter[str]] = {}
    for row in census:
        by_lib.setdefault(row.library or "-", Counter())[row.klass] += 1
    for lib, counts in sorted(by_lib.items(), key=lambda item: (-sum(item[1].values()), item[0])):
        cells = " | ".join(str(counts[k]) for k in CLASSES)
        add(f"| {lib} | {sum(counts.values())} | {cells} |")
    add("")
    add("`-`: no library (a missing file, a name error).")
    add("")
    add("| competition | errors |")
    add("|---|---|")
    for comp, n in sorted(
        Counter(r.competition for r in census).items(), key=lambda item: (-item[1], item[0])
    ):
        add(f"| {comp} | {n} |")
    add("")

    add("### Signatures by frequency")
    add("")
    add("`handled by`: the census row's hand-kept rule, else the one rule whose symptom matches")
    add("the exception and message (`Rule.matches_error`); `symptom matches` lists every rule")
    add("whose symptom matches, which is not the same as a rule that fixes it.")
    add("")
    cases = cases or {}

    def cases_of(rows: Iterable[CensusRow]) -> list[str]:
        return sorted({c for r in rows for c in cases.get((r.source, r.exception), [])})

    with_case = [r for r in census if cases.get((r.source, r.exception))]
    add(
        f"`case`: the runnable cases (`corpus/cases/`, `python benchmarks/corpus.py`) that keep a "
        f"row's failing lines; {len(with_case)} census rows have one, in "
        f"{len({c for names in cases.values() for c in names})} cases."
    )
    add("")
    add("| # | signature | class | handled by | symptom matches | case |")
    add("|---|---|---|---|---|---|")
    by_sig: dict[str, list[CensusRow]] = {}
    for row in census:
        by_sig.setdefault(row.signature, []).append(row)
    ordered = sorted(by_sig.items(), key=lambda item: (-len(item[1]), item[0]))
    uncovered_frequent: list[tuple[str, int, str, int, str]] = []
    # no rule can supply what the environment lacks; a notebook's own bug is an LLM's
    by_environment: list[tuple[str, int]] = []
    for sig, rows in ordered:
        handlers = sorted({h for h in (handled_by(r, rules) for r in rows) if h})
        left = [r for r in rows if not handled_by(r, rules)]
        matches = sorted({m for r in rows for m in symptom_matches(r, rules)})
        klass = Counter(r.klass for r in rows).most_common(1)[0][0]
        if not handlers:
            handled = _why_not(rows)
        elif left:
            handled = (
                ", ".join(f"`{h}`" for h in handlers)
                + f" ({len(rows) - len(left)} of {len(rows)}); the rest: {_why_not(left)}"
            )
        else:
            handled = ", ".join(f"`{h}`" for h in handlers)
        shown = ", ".join(f"`{m}`" for m in matches[:3]) + (" ..." if len(matches) > 3 else "")
        named = ", ".join(cases_of(rows)) or "-"
        add(
            f"| {len(rows)} | {_code(sig)} | {klass} | {_cell(handled)} | {shown or '-'} "
            f"| {named} |"
        )
        drift_left = [r for r in left if r.klass == "api-drift"]
        if len(rows) >= SIGNATURE_GOAL_MIN_COUNT and left and not drift_left:
            by_environment.append((sig, len(rows)))
        elif len(rows) >= SIGNATURE_GOAL_MIN_COUNT and left:
            rest = "; ".join(sorted({r.note for r in drift_left if r.note})) or "no rule yet"
            uncovered_frequent.append((sig, len(rows), klass, len(rows) - len(left), rest))
    add("")
    frequent = [s for s, rows in ordered if len(rows) >= SIGNATURE_GOAL_MIN_COUNT]
    add(
        f"Goal: every signature seen {SIGNATURE_GOAL_MIN_COUNT}+ times has a rule for each of its "
        "rows, or the environment handling where what fails is the environment's (the loop "
        "stops after one execution naming what is missing, `diagnose.environment_problem`; "
        "the environment rules repair what code can). "
        f"{len(frequent)} signatures are that frequent; "
        f"{len(frequent) - len(uncovered_frequent) - len(by_environment)} are covered by rules, "
        f"{len(by_environment)} by the environment handling (and their notebook bugs: LLM only)"
        + (
            " (" + "; ".join(f"{_code(s)} ({n})" for s, n in by_environment) + ")"
            if by_environment
            else ""
        )
        + ". "
        + (
            "**Not met**: "
            + "; ".join(
                f"{_code(s)} ({n}, {k}{f', {h} handled' if h else ''}; the rest: {rest})"
                for s, n, k, h, rest in uncovered_frequent
            )
            if uncovered_frequent
            else "Met."
        )
    )
    add("")

    # --- removals -----------------------------------------------------------------------
    add("## 2. The libraries' removal lists beside the rules")
    add("")
    add(
        "Each list is what the library's own migration guide or changelog says it removed or "
        "changed, checked by introspecting the installed library where it is installed "
        "(`corpus/removals/<library>.csv`, column `source`). Covered: a rule id in the list's "
        "`rule` column (a test checks that the id is in the catalog)."
    )
    add("")
    add(
        "Goal (issue #9): 90% of each list covered, or each miss explained: `explained` when "
        "every uncovered API says why no rewrite is safe (its meaning depends on run-time data, "
        "the successor computes something else, nothing fails today ...), not merely that no "
        "rule is written yet."
    )
    add("")
    add("| library | APIs | covered | share | high relevance | high covered | goal (90%) |")
    add("|---|---|---|---|---|---|---|")
    libraries = sorted({r.library for r in removals})
    unmet: list[str] = []
    for lib in libraries:
        items = [r for r in removals if r.library == lib]
        covered = [r for r in items if r.rule]
        high = [r for r in items if r.relevance == "high"]
        high_cov = [r for r in high if r.rule]
        share = len(covered) / len(items)
        met = share >= REMOVAL_GOAL
        why = all(explained(r) for r in items if not r.rule)
        if not met and not why:
            unmet.append(lib)
        goal = "met" if met else "explained" if why else "**not met**"
        add(
            f"| {lib} | {len(items)} | {len(covered)} | {share:.0%} | {len(high)} | "
            f"{len(high_cov)} | {goal} |"
        )
    total = len(removals)
    total_cov = sum(1 for r in removals if r.rule)
    add(f"| all | {total} | {total_cov} | {total_cov / total:.0%} | | | |")
    add("")
    add(
        "Goal: at least 90% of each library's list covered, or each miss explained. "
        + (f"**Not met** for {', '.join(unmet)}." if unmet else "Met for every library.")
    )
    add("")
    for lib in libraries:
        add(f"### {lib}")
        add("")
        add("| API | replacement | removed in | relevance | rule, or why not |")
        add("|---|---|---|---|---|")
        for r in (x for x in removals if x.library == lib):
            if r.rule:
                status = f"`{r.rule}`" + ("" if r.rule in rule_ids else " (unknown id)")
            else:
                status = "not covered: " + (r.reason or "no reason recorded")
            add(
                f"| {_code(r.api)} | {_cell(r.replacement)} | {r.removed_in} | "
                f"{r.relevance} | {_cell(status)} |"
            )
        add("")

    # --- gaps ---------------------------------------------------------------------------
    add("## 3. Gaps: what the next session should write first")
    add("")
    add(
        "In order of the census rows no rule handles (per signature), then the uncovered "
        "high-relevance removals."
    )
    add("")
    n = 0
    unhandled = sorted(
        ((sig, [r for r in rows if not handled_by(r, rules)], len(rows)) for sig, rows in ordered),
        key=lambda item: (-len(item[1]), item[0]),
    )
    for sig, left, total in unhandled:
        if not left:
            continue
        klass = Counter(r.klass for r in left).most_common(1)[0][0]
        if klass not in ("api-drift", "environment"):
            continue
        n += 1
        count = f"{len(left)}x" if len(left) == total else f"{len(left)} of {total}x"
        add(f"{n}. {_code(sig)} ({count}, {klass}): {_cell(_why_not(left))}")
    for r in removals:
        if r.relevance == "high" and not r.rule and r.reason.startswith("no rule yet"):
            n += 1
            add(f"{n}. {r.library}: {_code(r.api)} -> {_cell(r.replacement)} ({_cell(r.reason)})")
    add("")

    # --- audit --------------------------------------------------------------------------
    if audit:
        add("## 4. Audit: the APIs the fixers issue (#3) named")
        add("")
        add(
            "Every API that issue's text names (its examples and its survey of first errors), "
            "from `corpus/audit-fixers-issue.csv`: the rule that fixes it, and whether that rule "
            "rewrites the row's snippet (checked when this file is generated). `np.asscalar` "
            "had no rule until `numpy.removed-functions`."
        )
        add("")
        add("| API | rule | rewrites the snippet |")
        add("|---|---|---|")
        for item, rewrites in audit:
            known = "" if item.rule in rule_ids else " (unknown id)"
            shown = "yes" if rewrites else "**no**"
            add(f"| {_code(item.api)} | `{item.rule}`{known} | {shown} |")
        missing = [item.api for item, rewrites in audit if not rewrites]
        add("")
        add(
            f"{len(audit) - len(missing)} of {len(audit)} APIs have a rule that rewrites them."
            + (f" **Missing**: {', '.join(missing)}." if missing else "")
        )
        add("")
    lines += precision
    return "\n".join(lines)


def generate() -> str:
    return render(
        read_census(),
        read_removals(),
        load_rules(),
        audit_rewrites(read_audit()),
        read_case_sources(),
        precision.render(precision.read_suites(), precision.read_audit()),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when docs/coverage.md is stale"
    )
    args = parser.parse_args(argv)
    text = generate()
    if args.check:
        current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        if current != text:
            print("docs/coverage.md is stale: run corpus/coverage.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
