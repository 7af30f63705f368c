"""Prove the rules against the past (issue #22): each example's legacy snippet runs in an era
environment (`.eras/<era>/bin/python`, made by scripts/era-envs from `eras/<era>.lock`), its
rewrite runs today (this interpreter), both through the stdlib-only `bound_values.py`, and the
values the two bind must agree (`bound_diff`). The example's author is no longer the oracle:
the legacy library itself is.

Per example and era the finding is derived from what happened, never written by hand: the
legacy snippet raised there (the library is not in that era, its API was already gone or not
yet there, Python 2 syntax), the values differ (failed), nothing comparable is bound (a plot, a
model) or what is bound changes from run to run (randomness), or they agree (proven). Where
they differ only in values whose difference the example explains (`era_differences`: the
library's own change since, such as an algorithm or a default the rule is not about), the
finding is "differs", with the difference found and the written reason; the reason explains a
difference, it never skips the run nor excuses a value it does not name.

`python -m nbmodernizer.fixers.rules.past [--eras DIR] [--write]` runs every rule and prints
(or writes, to `past.json`) the record docs/rules.md is generated from.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from nbmodernizer import bound_diff
from nbmodernizer.bound_values import DISTRIBUTIONS
from nbmodernizer.environment import python_source
from nbmodernizer.fixers.rules.catalog import RULES
from nbmodernizer.fixers.rules.model import Example, Kind, Rule
from nbmodernizer.fixers.rules.pastrecord import RECORD, Finding, PastRecord, RuleFinding, Verdict

SCRIPT = Path(__file__).resolve().parents[2] / "bound_values.py"  # nbmodernizer/bound_values.py
RUNS = 2  # each snippet runs twice: a value that differs between the runs is random
TIMEOUT = 120  # seconds for one snippet
REASON = 90  # characters of an error message kept in a reason
LOCKS = Path("eras")
ERAS = Path(".eras")


class EraMissingError(RuntimeError):
    """An era environment is not made: names the interpreter it needs."""


def era_python(era: str, eras: Path = ERAS, locks: Path = LOCKS) -> Path:
    python = eras / era / "bin" / "python"
    if python.exists():
        return python
    lock = locks / f"{era}.lock"
    needs = next(
        (line.split(":", 1)[1].strip() for line in lock.read_text().splitlines()
         if line.startswith("# python:")),
        "?",
    ) if lock.is_file() else "?"  # fmt: skip
    raise EraMissingError(
        f"era {era} is not made ({python} is missing): run scripts/era-envs, which needs "
        f"Python {needs} (python{needs} on PATH or pyenv's versions/{needs}.*)"
    )


def era_names(locks: Path = LOCKS) -> list[str]:
    return sorted(lock.stem for lock in locks.glob("*.lock"))


def example_key(rule: Rule, n: int) -> str:
    return f"{rule.id}[{n}]"


def bound_values(python: Path, snippets: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Run bound_values.py in `python` on these snippets; its RESULTS (see the script)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(MPLBACKEND="Agg", PYTHONHASHSEED="0", PYTHONNOUSERSITE="1")
    with tempfile.TemporaryDirectory(prefix="nbmod-past-") as folder:
        request = Path(folder) / "request.json"
        request.write_text(json.dumps({"snippets": snippets, "runs": RUNS, "timeout": TIMEOUT}))
        done = subprocess.run(
            [str(python.absolute()), str(SCRIPT), str(request)],
            capture_output=True, text=True, check=False, cwd=folder, env=env,
            timeout=TIMEOUT * RUNS * max(len(snippets), 1),
        )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"{python} {SCRIPT.name} failed ({done.returncode}): {done.stderr}")
    results: dict[str, Any] = json.loads(done.stdout)
    return results


def _short(text: str) -> str:
    """A reason the same on every run and in every checkout: without a log line's clock
    (`[12:44:08] `), an address or a file's path (`(/work/.eras/2019/lib/…/__init__.py)`),
    cut at REASON characters."""
    text = re.sub(r"0x[0-9a-fA-F]+", "0x…", re.sub(r"\[\d\d:\d\d:\d\d\] ?", "", text))
    text = re.sub(r" \(/[^)]*\)", "", text)
    return text if len(text) <= REASON else text[: REASON - 1] + "…"


def _unrunnable(rule: Rule, error: str, packages: Mapping[str, str]) -> str:
    if rule.kind is Kind.PYTHON2:
        return "Python 2 code (the eras run Python 3)"
    name = error.split(":", 1)[0]
    if name in ("ModuleNotFoundError", "ImportError"):
        # a module of a library the era has (`sklearn.lda`): that release lacks it
        module = re.search(r"No module named '([\w.]+)'|from '([\w.]+)'", error)
        top = next(m for m in module.groups() if m).split(".")[0] if module else ""
        distribution = DISTRIBUTIONS.get(top, "")
        if distribution in packages:
            return _short(f"not in {distribution} {packages[distribution]} ({error})")
        return _short(f"not in the era ({error})")
    if name == "SyntaxError":
        return _short(f"the era cannot parse it ({error})")
    return _short(f"the legacy code fails there ({error})")


def _release(version: str) -> tuple[int, ...]:
    """`0.22.2.post1` -> (0, 22, 2): the release numbers a version starts with."""
    return tuple(int(part) for part in re.findall(r"\d+", version.split("+")[0])[:3])


def imported_names(source: str) -> frozenset[str]:
    """The names a snippet binds by importing them (`from sklearn.metrics import SCORERS`)."""
    try:
        tree = ast.parse(python_source(source))
    except SyntaxError:  # Python 2: it runs in no era
        return frozenset()
    return frozenset(
        alias.asname or alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    )


def _compare(
    then: Mapping[str, Any], now: Mapping[str, Any], imported: frozenset[str] = frozenset()
) -> tuple[list[tuple[str, str]], list[str], str]:
    """The differences between two snippets' values (name, how), the names compared, and why
    nothing could be compared (values that change from run to run, or only opaque ones).

    A value the legacy snippet imported that the rewrite no longer binds at all is the legacy
    API the rule replaces (`SCORERS`), not a value the snippet computed: not compared (were it
    still used, the rewrite would raise)."""
    unstable = set(then["unstable"]) | set(now["unstable"])
    differences: list[tuple[str, str]] = []
    compared: list[str] = []
    opaque: set[str] = set()
    for name, value in sorted(then["values"].items()):
        if name in unstable or (name in imported and name not in now["values"]):
            continue
        if not bound_diff.comparable(value):
            opaque.add(value.get("type", value["kind"]).rsplit(".", 1)[-1])
            continue
        compared.append(name)
        if name not in now["values"]:
            differences.append((name, f"{name} is no longer bound"))
            continue
        found = bound_diff.difference(value, now["values"][name], name)
        if found:
            differences.append((name, found))
    if unstable:
        why = "random: " + ", ".join(sorted(unstable))
    else:
        why = "binds nothing comparable" + (f" ({', '.join(sorted(opaque))})" if opaque else "")
    return differences, compared, why


def judge(
    rule: Rule,
    example: Example,
    then: Mapping[str, Any],
    then_rewritten: Mapping[str, Any],
    now: Mapping[str, Any],
    packages: Mapping[str, str],
) -> Finding:
    """One example in one era: `then` the legacy snippet's result there, `then_rewritten` the
    rewrite's result there, `now` the rewrite's result today (each as bound_values.py reports a
    snippet); `packages` the era's versions."""
    if rule.kind is Kind.ENVIRONMENT:
        return Finding(Verdict.NOT_PROVABLE, "it changes the environment the code meets")
    era_version = packages.get(rule.library)
    if (
        rule.kind is Kind.SILENT
        and era_version is not None
        and _release(era_version) >= _release(rule.changed_in)
    ):
        return Finding(
            Verdict.NOT_PROVABLE,
            f"the era has the change already ({rule.library} {era_version})",
        )
    if then["error"]:
        return Finding(Verdict.NOT_PROVABLE, _unrunnable(rule, then["error"], packages))
    if now["error"]:
        return Finding(Verdict.FAILED, _short(f"the rewrite raises today ({now['error']})"))
    imported = imported_names(example.before)
    differences, compared, why = _compare(then, now, imported)
    if not compared:
        return Finding(Verdict.NOT_PROVABLE, _short(why))
    if not differences:
        return Finding(Verdict.PROVEN)
    if not then_rewritten["error"] and not _compare(then, then_rewritten, imported)[0]:
        return Finding(  # the rewrite means the same there: the library drifted, not the rule
            Verdict.PROVEN,
            _short(f"the rewrite agrees in the era; today's values differ ({differences[0][1]})"),
        )
    explained = example.era_differences
    unexplained = [how for name, how in differences if name not in explained]
    if not unexplained:
        return Finding(
            Verdict.DIFFERS,
            _short("; ".join(how for _, how in differences)),
            "; ".join(dict.fromkeys(explained[name] for name, _ in differences)),
        )
    # the rewrite needs today's API, or it computes other values in the era too (where the
    # era may read the new spelling otherwise, or not at all)
    also = "" if then_rewritten["error"] else " (the rewrite differs in the era too)"
    return Finding(Verdict.FAILED, _short("; ".join(unexplained)) + also)


def summarise(by_era: Mapping[str, Sequence[Finding]]) -> RuleFinding:
    """A rule's finding from its examples' findings in each era: failed anywhere, else proven
    anywhere (saying what differs elsewhere, and why), else differs (where the differences are
    explained), else not provable."""
    failed = {era: fs for era, fs in by_era.items() if any(f.verdict is Verdict.FAILED for f in fs)}
    if failed:
        reasons = dict.fromkeys(
            f.reason for fs in failed.values() for f in fs if f.verdict is Verdict.FAILED
        )
        return RuleFinding(Verdict.FAILED, tuple(sorted(failed)), "; ".join(reasons))
    differing = {era: [f for f in fs if f.verdict is Verdict.DIFFERS] for era, fs in by_era.items()}
    differing = {era: fs for era, fs in differing.items() if fs}
    differences = "; ".join(dict.fromkeys(f.reason for fs in differing.values() for f in fs))
    whys = "; ".join(dict.fromkeys(f.why for fs in differing.values() for f in fs))
    proven = [era for era, fs in by_era.items() if any(f.verdict is Verdict.PROVEN for f in fs)]
    if proven:
        notes = list(
            dict.fromkeys(
                f.reason
                for era in proven
                for f in by_era[era]
                if f.verdict is Verdict.PROVEN and f.reason
            )
        )
        if differing:
            notes.append(f"differs in {', '.join(sorted(differing))}: {differences}")
        return RuleFinding(Verdict.PROVEN, tuple(sorted(proven)), "; ".join(notes), whys)
    if differing:
        return RuleFinding(Verdict.DIFFERS, tuple(sorted(differing)), differences, whys)
    per_era = {era: "; ".join(dict.fromkeys(f.reason for f in fs)) for era, fs in by_era.items()}
    if len(set(per_era.values())) == 1:
        return RuleFinding(Verdict.NOT_PROVABLE, reason=next(iter(per_era.values())))
    reason = "; ".join(f"{era}: {text}" for era, text in sorted(per_era.items()))
    return RuleFinding(Verdict.NOT_PROVABLE, reason=reason)


def _snippet(source: str, check: str, files: Mapping[str, str]) -> dict[str, Any]:
    return {"source": python_source(source), "check": check, "files": dict(files)}


def prove(rules: Sequence[Rule], eras: Mapping[str, Path]) -> PastRecord:
    """Run every example's legacy snippet in each era and its rewrite today, and judge."""
    keyed = {example_key(r, n): (r, e) for r in rules for n, e in enumerate(r.examples)}
    legacy = {key: _snippet(e.before, e.check, e.files) for key, (_, e) in keyed.items()}
    rewritten = {key: _snippet(e.after, e.check, e.files) for key, (_, e) in keyed.items()}
    # each era runs the legacy snippets and the rewrites (`key>`): where a rewrite runs in the
    # era, it tells a rule that changes meaning from a library that drifted since
    both = {**legacy, **{f"{key}>": snippet for key, snippet in rewritten.items()}}
    with ThreadPoolExecutor(max_workers=max(len(eras), 1)) as pool:
        futures = {era: pool.submit(bound_values, python, both) for era, python in eras.items()}
        results = {era: future.result() for era, future in futures.items()}
    # today runs only the rewrites of what ran in some era: the others cannot be proven
    ran = {key for key in keyed for found in results.values() if not found["results"][key]["error"]}
    today = bound_values(Path(sys.executable), {key: rewritten[key] for key in sorted(ran)})[
        "results"
    ]
    unrun: dict[str, Any] = {"error": "not run", "check": None, "values": {}, "unstable": []}
    examples = {
        key: {
            era: judge(
                rule,
                example,
                found["results"][key],
                found["results"][f"{key}>"],
                today.get(key, unrun),
                found["packages"],
            )
            for era, found in results.items()
        }
        for key, (rule, example) in keyed.items()
    }
    findings = {
        rule.id: summarise(
            {
                era: [examples[example_key(rule, n)][era] for n in range(len(rule.examples))]
                for era in results
            }
        )
        for rule in rules
    }
    facts = {era: {"python": r["python"], "packages": r["packages"]} for era, r in results.items()}
    return PastRecord(eras=facts, rules=findings, examples=examples)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nbmodernizer.fixers.rules.past")
    parser.add_argument("--eras", type=Path, default=ERAS, help="the era venvs (.eras)")
    parser.add_argument("--locks", type=Path, default=LOCKS, help="the era lock files (eras)")
    parser.add_argument("--write", action="store_true", help=f"write {RECORD} beside this module")
    options = parser.parse_args(argv)
    try:
        pythons = {
            era: era_python(era, options.eras, options.locks) for era in era_names(options.locks)
        }
    except EraMissingError as missing:
        print(missing, file=sys.stderr)
        return 1
    record = prove(RULES, pythons)
    if options.write:
        Path(__file__).with_name(RECORD).write_text(record.to_json())
    else:
        sys.stdout.write(record.to_json())
    return 0


if __name__ == "__main__":
    sys.exit(main())
