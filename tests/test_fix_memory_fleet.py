"""A fleet through `nbmod modernize` with a shared local fix memory: four drifts no rule
covers, twenty notebooks, one LLM fix per drift (testing/memory_fleet.py)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from nbmodernizer.cli import main
from nbmodernizer.fixers.memory import FixMemory
from nbmodernizer.fleet import render_summary, summarize
from testing.llm_server import Responder, scripted_llm
from testing.memory_fleet import DRIFTS, FIX_USD, answer, make_fleet, reports

pytestmark = pytest.mark.kernel


def test_the_fleet_pays_once_per_drift(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cases = make_fleet(tmp_path / "cases", students=16)
    memory = tmp_path / "memory"
    monkeypatch.setenv("NBMOD_FIX_MEMORY", str(memory))
    out = tmp_path / "out"
    with scripted_llm(Responder(answer)) as llm:
        monkeypatch.setenv("OPENAI_BASE_URL", llm.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        codes = {
            c.name: main(["modernize", str(c.spec), "--out", str(out / c.name)]) for c in cases
        }
    assert codes == {c.name: 0 for c in cases}  # every notebook reproduced
    assert len(llm.requests) == len(DRIFTS)  # the teachers' four fixes; no retries were needed

    by_name = reports(out)
    for case in cases:
        fixers = [fix["fixer"] for fix in by_name[case.name]["fixes"]]
        expected = ["llm"] if case.name.startswith("teacher") else ["memory"]
        assert fixers == (["rules"] if case.rules else []) + expected, (case, fixers)

    summary = summarize([{"status": status} for status in by_name.values()])
    table = summary.to_dict()
    counts = Counter({(row["fixer"], row["type"]): row["count"] for row in table["fixes"]})
    students = len(cases) - len(DRIFTS)
    assert counts == Counter(
        {
            ("llm", "ErrorRepair"): len(DRIFTS),
            ("memory", "ErrorRepair"): students,
            ("rules", "ErrorRepair"): sum(c.rules for c in cases),
        }
    )
    drift_uses = Counter(drift for case in cases[len(DRIFTS) :] for drift in case.drifts)
    assert table["cost"]["usd"] == pytest.approx(len(DRIFTS) * FIX_USD)
    assert table["cost"]["savedUsd"] == pytest.approx(sum(drift_uses.values()) * FIX_USD)
    assert table["reproduced"] == len(cases)
    print(render_summary(summary))

    entries = FixMemory.at(str(memory)).entries()
    assert len(entries) == len(DRIFTS)
    assert sorted(e.uses for e in entries) == sorted(drift_uses.values())
    assert all(e.fixed == e.uses and not e.retired for e in entries)
