"""The rules proven against the past (issue #22): every example's legacy snippet runs in the era
environments (.eras/, made by scripts/era-envs, which .ci/run calls), its rewrite runs today,
and the values both bind must agree. A missing era environment fails here, naming the
interpreter it needs; it is never a skip."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from nbmodernizer import bound_diff
from nbmodernizer.bound_values import fingerprint
from nbmodernizer.fixers.rules.catalog import RULES
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule
from nbmodernizer.fixers.rules.past import (
    SCRIPT,
    EraMissingError,
    era_names,
    era_python,
    example_key,
    prove,
)
from nbmodernizer.fixers.rules.pastrecord import PastRecord, RuleFinding, Verdict, load

ROOT = Path(__file__).resolve().parents[1]
ERA_ENVS = ROOT / "scripts" / "era-envs"


def eras() -> dict[str, Path]:
    try:
        return {
            era: era_python(era, ROOT / ".eras", ROOT / "eras") for era in era_names(ROOT / "eras")
        }
    except EraMissingError as missing:
        pytest.fail(str(missing))


def replacing(old: str, new: str) -> Rule:
    """A rule that rewrites `old` to `new` everywhere, with one example (made up here)."""

    def rewrite(source: str, _context: RuleContext) -> str:
        return source.replace(old, new)

    return Rule(
        id=f"test.{old}-to-{new}",
        library="pandas",
        changed_in="test",
        summary="made up",
        kind=Kind.API,
        rewrite=rewrite,
        examples=(),
    )


def with_example(rule: Rule, before: str, era_differences: dict[str, str] | None = None) -> Rule:
    after = rule.rewrite(before, RuleContext(aliases={}, gpu_available=False))
    example = Example(before=before, after=after, check="True")
    if era_differences is not None:
        example = replace(example, era_differences=era_differences)
    return replace(rule, examples=(example,))


FRAME = "import pandas as pd\nframe = pd.DataFrame({'a': [1, 2, 3, 4], 'b': [5, 6, 7, 8]})\n"


def test_the_era_environments_are_made_and_up_to_date() -> None:
    names = era_names(ROOT / "eras")
    assert names == ["2017", "2019"]
    eras()  # each has its python, or this fails naming the interpreter it needs
    done = subprocess.run([str(ERA_ENVS)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert [f"era {era}: up to date" in done.stdout for era in names] == [True, True], done.stdout


def test_a_missing_interpreter_is_named(tmp_path: Path) -> None:
    locks = tmp_path / "locks"
    locks.mkdir()
    (locks / "1999.lock").write_text("# python: 2.1\n# pip: 1.0\nnumpy==1.0\n")
    env = {**os.environ, "ERA_LOCKS": str(locks), "ERA_ENVS": str(tmp_path / "envs")}
    done = subprocess.run([str(ERA_ENVS)], capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 1
    assert "era 1999 needs Python 2.1: no python2.1 on PATH" in done.stderr
    with pytest.raises(EraMissingError, match=r"era 1999 is not made .* needs Python 2\.1"):
        era_python("1999", tmp_path / "envs", locks)


def test_every_rule_is_proven_against_the_past_as_recorded() -> None:
    """The record docs/rules.md shows (fixers/rules/past.json) is what the eras say now: a rule
    whose rewrite changes meaning turns "failed", and the record no longer matches."""
    found = prove(RULES, eras())
    stored = load()
    changed = {
        rule: (stored.rules.get(rule), now)
        for rule, now in found.rules.items()
        if stored.rules.get(rule) != now
    }
    assert not changed, (
        "the proofs against the past changed; if that is right, run `make past-proofs`:\n"
        + "\n".join(f"{rule}: {was} -> {now}" for rule, (was, now) in changed.items())
    )
    assert found.examples == stored.examples
    assert found.eras == stored.eras
    proven = [r for r in found.rules.values() if r.verdict is Verdict.PROVEN]
    assert len(proven) >= 100  # most rules ran in an era and agreed there


def test_a_rewrite_that_changes_meaning_fails_its_past_proof() -> None:
    """`.ix[1:2]` on integer labels took rows 1 and 2: `.iloc[1:2]` takes row 1 only;
    `.ix[:, 1:]` on string columns took positions: `.loc[:, 1:]` raises today. `.loc[1:2]` is
    right, and an unseeded random draw or a figure cannot be proven at all."""
    era = {"2019": eras()["2019"]}
    wrong_rows = with_example(replacing(".ix[", ".iloc["), FRAME + "rows = frame.ix[1:2]\n")
    wrong_columns = with_example(replacing(".ix[", ".loc["), FRAME + "rest = frame.ix[:, 1:]\n")
    right = with_example(replacing(".ix[", ".loc["), FRAME + "rows = frame.ix[1:2]\n")
    right = replace(right, id="test.right")
    random = with_example(
        replacing("np.random.rand(", "np.random.random_sample("),
        "import numpy as np\ndraw = np.random.rand(3)\n",
    )
    figure = with_example(
        replacing("plt.figure(", "plt.figure(num=None, "),
        "import matplotlib.pyplot as plt\nfig = plt.figure(figsize=(4, 3))\n",
    )
    # a difference explained in writing "differs", with its reason; a reason for another
    # value excuses nothing
    explained = with_example(
        replace(replacing(".ix[", ".iloc["), id="test.explained"),
        FRAME + "rows = frame.ix[1:2]\n",
        {"rows": "made up: the library changed"},
    )
    elsewhere = with_example(
        replace(replacing(".ix[", ".iloc["), id="test.elsewhere"),
        FRAME + "rows = frame.ix[1:2]\n",
        {"frame": "made up: the library changed"},
    )
    # the legacy API a rewrite no longer imports is not a value the snippet computed
    no_import = with_example(
        replacing("from math import pi\nhalf = pi", "import math\nhalf = math.pi"),
        "from math import pi\nhalf = pi / 2\n",
    )
    rules = [wrong_rows, wrong_columns, right, random, figure, explained, elsewhere, no_import]
    record = prove(rules, era)
    found = record.rules
    assert found[wrong_rows.id].verdict is Verdict.FAILED
    reason = "rows: shape [2, 2] != [1, 2] (the rewrite differs in the era too)"
    assert found[wrong_rows.id].reason == reason
    assert found[wrong_columns.id].verdict is Verdict.FAILED
    assert found[wrong_columns.id].reason.startswith("the rewrite raises today (TypeError")
    assert found["test.right"].verdict is Verdict.PROVEN
    assert found[random.id].verdict is Verdict.NOT_PROVABLE
    assert found[random.id].reason == "random: draw"
    assert found[figure.id].verdict is Verdict.NOT_PROVABLE
    assert found[figure.id].reason == "binds nothing comparable (Figure)"
    assert found["test.explained"] == RuleFinding(
        Verdict.DIFFERS, ("2019",), "rows: shape [2, 2] != [1, 2]", "made up: the library changed"
    )
    assert found["test.elsewhere"].verdict is Verdict.FAILED
    assert found["test.elsewhere"].reason == reason
    assert found[no_import.id].verdict is Verdict.PROVEN
    assert PastRecord.from_json(record.to_json()) == record


def test_every_written_reason_explains_a_difference_found() -> None:
    """A reason written down for a difference (`Example.era_differences`) is needed: in some
    era the value it names differs, as recorded (the record is checked against the eras
    above). A reason that no longer explains anything goes."""
    stored = load()
    for rule in RULES:
        for n, example in enumerate(rule.examples):
            found = stored.examples[example_key(rule, n)].values()
            differences = [
                part for f in found if f.verdict is Verdict.DIFFERS for part in f.reason.split("; ")
            ]
            for name in example.era_differences:
                assert any(part.startswith(name) for part in differences), (rule.id, n, name)


def test_fingerprints_agree_on_meaning_not_spelling() -> None:
    import numpy as np
    import pandas as pd

    def same(a: object, b: object) -> bool:
        return bound_diff.difference(fingerprint(a), fingerprint(b)) is None

    assert same(3, 3.0) and same(np.float64(0.1 + 0.2), 0.3) and same((1, 2), [1, 2])
    assert same(np.array([1, 2], dtype="int32"), np.array([1, 2], dtype="int64"))
    assert same(float("nan"), np.nan) and same(
        pd.Timestamp("2020-01-02"), pd.Timestamp("2020-01-02")
    )
    assert same(pd.Series([1, 2], name="count"), pd.Series([1, 2]))
    assert not same(np.array([1.0, 2.0]), np.array([1.0, 2.001]))
    assert not same(np.array([1, 2]), np.array([1.0, 2.0]))  # an integer dtype became float
    assert not same(pd.DataFrame({"a": [1]}), pd.DataFrame({"b": [1]}))
    assert not same(pd.Series([1, 2], index=[0, 1]), pd.Series([1, 2], index=[1, 2]))
    assert not same("a", "b") and not same(True, 1)
    assert same(complex(0.37370381391652463, 0), complex(0.3737038139165246, 0))  # one ulp
    assert not same(1 + 2j, 1 + 2.001j)
    big = np.arange(1000.0)
    assert same(big, big + 1e-9) and not same(big, big + 1)
    assert fingerprint(object())["kind"] == "opaque" and same(object(), 1)


def test_bound_values_says_what_is_wrong_with_a_request(tmp_path: Path) -> None:
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"snippets": {"a": {"source": 1}}}))
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(request)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert "snippets['a'].source must be a string" in done.stderr
