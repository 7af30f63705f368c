"""The fix memory's entries: write-once objects on a folder or an S3 prefix (moto's server),
safe under concurrent writers; scores aggregated on read; retirement; export; `nbmod memory`."""

from __future__ import annotations

import json
import runpy
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from nbmodernizer.cli import main
from nbmodernizer.fixers.memory.entries import (
    RETIRE_AFTER_USES,
    Example,
    FixMemory,
    Origin,
    Use,
)
from nbmodernizer.fixers.memory.export import export
from nbmodernizer.fixers.memory.location import default_location, open_memory, resolve
from nbmodernizer.fixers.memory.pattern import Pattern
from nbmodernizer.fixers.memory.signature import Signature
from nbmodernizer.fixers.rules.context import RuleContext
from testing.s3server import S3Bucket, s3_bucket_fixture  # noqa: F401

SIGNATURE = Signature("Error", "AttributeError", "module <str> has no attribute <str>")
OLD_CALL = Pattern(
    "expr",
    "__nbm_ref_0__.old_call(__nbm_hole_0__)",
    "__nbm_ref_0__.new_call(__nbm_hole_0__).value",
    ("legacy_lib",),
)
EXAMPLE = Example(
    before="x = ll.old_call(1)",
    after="x = ll.new_call(1).value",
    error="AttributeError: module 'legacy_lib' has no attribute 'old_call'",
    setup="import legacy_lib as ll",
)


def pattern(number: int) -> Pattern:
    return Pattern("expr", f"__nbm_ref_0__.old_{number}()", f"__nbm_ref_0__.new_{number}()",
                   ("legacy_lib",))  # fmt: skip


def origin(run: str, cost: float = 0.01) -> Origin:
    return Origin(run=run, revision=1, cost_usd=cost, example=EXAMPLE)


def use(run: str, fixed: bool, example: Example = EXAMPLE) -> Use:
    return Use(run=run, revision=2, fixed=fixed, saved_usd=0.01, example=example)


@pytest.fixture(params=["folder", "s3"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> FixMemory:
    if request.param == "folder":
        return FixMemory.at(str(tmp_path / "memory"))
    bucket: S3Bucket = request.getfixturevalue("s3_bucket")
    return FixMemory.at(bucket.uri("fleet/fix-memory/"))


def in_threads(count: int, work: Callable[[int], None]) -> None:
    errors: list[BaseException] = []
    start = threading.Barrier(count)

    def run(number: int) -> None:
        try:
            start.wait()
            work(number)
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


def test_many_writers_of_the_same_and_of_different_entries(memory: FixMemory) -> None:
    ids: list[str] = []

    def learn(number: int) -> None:
        # half the writers learn the same pattern (from different runs), half one each
        learnt = OLD_CALL if number % 2 == 0 else pattern(number)
        ids.append(memory.learn(SIGNATURE, learnt, origin(f"s3://runs/nb-{number}")))

    in_threads(12, learn)
    entries = {entry.id: entry for entry in memory.entries()}
    assert set(entries) == set(ids) and len(entries) == 1 + 6
    same = next(e for e in entries.values() if e.pattern == OLD_CALL)
    assert len(same.origins) == 6 and same.cost_usd == 0.01

    def score(number: int) -> None:
        memory.record_use(same, use(f"s3://runs/student-{number}", fixed=number % 3 != 0))
        memory.record_use(same, use(f"s3://runs/student-{number}", fixed=number % 3 != 0))

    in_threads(9, score)  # each use written twice at once: a repeated step writes nothing new
    [scored] = [e for e in memory.candidates(SIGNATURE) if e.id == same.id]
    assert (scored.fixed, scored.failed, scored.uses) == (6, 3, 9)
    assert len(memory.uses_of(scored)) == 9


def test_a_write_that_exists_is_not_repeated(memory: FixMemory) -> None:
    first = memory.learn(SIGNATURE, OLD_CALL, origin("s3://runs/a", cost=0.01))
    again = memory.learn(SIGNATURE, OLD_CALL, origin("s3://runs/a", cost=0.02))  # a retried step
    assert first == again
    [entry] = memory.entries()
    assert [o.cost_usd for o in entry.origins] == [0.01]


def test_entries_that_keep_failing_are_retired(tmp_path: Path) -> None:
    memory = FixMemory.at(str(tmp_path))
    good = memory.learn(SIGNATURE, OLD_CALL, origin("run-good"))
    bad = memory.learn(SIGNATURE, pattern(1), origin("run-bad"))
    fair = memory.learn(SIGNATURE, pattern(2), origin("run-fair"))
    entries = {e.id: e for e in memory.entries()}
    for n in range(RETIRE_AFTER_USES - 1):
        memory.record_use(entries[bad], use(f"bad-{n}", fixed=False))
        memory.record_use(entries[fair], use(f"fair-{n}", fixed=True))
    assert bad in [e.id for e in memory.candidates(SIGNATURE)]  # two uses: too few to judge
    memory.record_use(entries[bad], use("bad-last", fixed=True))  # 1 of 3: below half
    memory.record_use(entries[fair], use("fair-last", fixed=False))  # 2 of 3: kept
    assert set(e.id for e in memory.candidates(SIGNATURE)) == {good, fair}
    assert {e.id: e.retired for e in memory.entries()} == {good: False, bad: True, fair: False}
    memory.record_use(entries[good], use("good-1", fixed=True))
    assert memory.candidates(SIGNATURE)[0].id == good  # 1 of 1 ranks above 2 of 3


def test_the_best_candidate_comes_first(tmp_path: Path) -> None:
    memory = FixMemory.at(str(tmp_path))
    ids = [memory.learn(SIGNATURE, pattern(n), origin(f"r{n}")) for n in range(3)]
    entries = {e.id: e for e in memory.entries()}
    for n in range(3):
        memory.record_use(entries[ids[1]], use(f"u{n}", fixed=True))
    memory.record_use(entries[ids[2]], use("u", fixed=False))
    ranked = [e.id for e in memory.candidates(SIGNATURE)]
    assert ranked[0] == ids[1] and ranked[-1] == ids[2]
    assert memory.candidates(Signature("Error", "TypeError", "x")) == []


def test_where_the_memory_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NBMOD_FIX_MEMORY", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert default_location() == str(tmp_path / "cache" / "nbmodernizer" / "fix-memory")
    assert resolve() == default_location()
    monkeypatch.setenv("NBMOD_FIX_MEMORY", "s3://bucket/memory/")
    assert resolve() == "s3://bucket/memory/" and resolve("/elsewhere") == "/elsewhere"
    monkeypatch.setenv("NBMOD_FIX_MEMORY", "off")
    assert resolve() is None and open_memory() is None


def proven_memory(tmp_path: Path) -> tuple[FixMemory, str]:
    memory = FixMemory.at(str(tmp_path / "memory"))
    entry_id = memory.learn(SIGNATURE, OLD_CALL, origin("s3://runs/teacher"))
    entry = memory.entries()[0]
    for n, before in enumerate(["a = lib.old_call(2)", "b = lib.old_call(x + 1)"]):
        after = before.replace("old_call", "new_call").replace(")", ").value", 1)
        example = Example(before=before, after=after, error=EXAMPLE.error,
                          setup="import legacy_lib as lib")  # fmt: skip
        memory.record_use(entry, use(f"s3://runs/student-{n}", fixed=True, example=example))
    memory.record_use(entry, use("s3://runs/student-9", fixed=True))
    memory.learn(SIGNATURE, pattern(7), origin("s3://runs/unproven"))
    return memory, entry_id


def test_export_writes_proven_entries_as_rules_that_work(tmp_path: Path) -> None:
    memory, entry_id = proven_memory(tmp_path)
    text = export(memory, min_uses=3)
    assert text.count("    Rule(") == 1 and entry_id in text and "old_7" not in text
    assert export(memory, min_uses=4).count("    Rule(") == 0
    module = tmp_path / "proposals.py"
    module.write_text(text)
    [rule] = runpy.run_path(str(module))["RULES"]
    assert rule.library == "legacy_lib" and rule.changed_in == "TODO"
    assert rule.matches_error("AttributeError", "module 'legacy_lib' has no attribute 'old_call'")
    assert len(rule.examples) == 3
    for example in rule.examples:
        assert example.error == "AttributeError" and example.check == "True"
        assert example.before.startswith(
            ("import legacy_lib as ll\n", "import legacy_lib as lib\n")
        )
        context = RuleContext(aliases={"ll": "legacy_lib", "lib": "legacy_lib"})
        assert rule.rewrite(example.before, context) == example.after


def test_nbmod_memory_list_show_and_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    memory, entry_id = proven_memory(tmp_path)
    where = ["memory", "--memory", memory.uri]
    assert main([*where, "list"]) == 0
    listed = capsys.readouterr().out
    assert entry_id in listed and "100%" in listed and "2 entries in" in listed
    assert main([*where, "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["id"] == entry_id and rows[0]["uses"] == 3 and rows[0]["retired"] is False
    assert main([*where, "show", entry_id[:6]]) == 0
    shown = capsys.readouterr().out
    assert "legacy_lib.old_call(<h0>)  ->  legacy_lib.new_call(<h0>).value" in shown
    assert "learnt from s3://runs/teacher revision 1" in shown and shown.count("fixed: ") == 3
    assert main([*where, "show", entry_id, "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert len(document["usedBy"]) == 3 and document["rawPattern"] == OLD_CALL.to_wire()
    assert main([*where, "show", "zzzz"]) == 1
    assert main([*where, "export", "--min-uses", "3", "-o", str(tmp_path / "rules.py")]) == 0
    assert "Rule(" in (tmp_path / "rules.py").read_text()
