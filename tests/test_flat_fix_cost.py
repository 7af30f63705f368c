"""Runs written before `FixRecord.cost` nested the fix's cost are still read.

`tests/data/run-with-flat-fix-cost/` is a run folder written by nbmodernizer at commit a7fed16,
whose fix.json and report.json's `fixes[]` hold the cost flat (`costUsd`, `inputTokens`, ...
beside `fixer`): revision 0 fails, a fixer named llm spends $0.0031 on revision 1, which
reproduces. A restarted operator replays such a store, `nbmod render` reads such a folder.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from nbmodernizer.engine import replay
from nbmodernizer.loop import Finish
from nbmodernizer.runfolder import read_status, render_folder
from nbmodernizer.status import CostSummary, FixRecord, Phase
from nbmodernizer.store.revisions import LocalStore, read_fix
from nbmodernizer.summary import build_status
from tests.test_engine import SPEC

OLD_RUN = Path(__file__).parent / "data" / "run-with-flat-fix-cost"
SPENT = CostSummary(
    usd=0.0031,
    input_tokens=120,
    output_tokens=45,
    requests=2,
    rejected_replies=1,
    estimated_replies=1,
)


@pytest.fixture
def old_run(tmp_path: Path) -> Path:
    return Path(shutil.copytree(OLD_RUN, tmp_path / "run"))


def test_an_old_fix_json_is_read_with_its_cost_nested(old_run: Path) -> None:
    record = read_fix(LocalStore(old_run), 1)
    assert record is not None
    assert (record.fixer, record.mode, record.summary) == ("llm", "cell", "divide by one")
    assert record.cost == SPENT
    assert record.memory_entries is None and record.rules is None


def test_an_old_report_json_is_read_and_equals_the_status_replayed_from_its_store(
    old_run: Path,
) -> None:
    stored = read_status(old_run)
    assert [fix.cost for fix in stored.fixes] == [SPENT]
    state, action = replay(LocalStore(old_run), 4)
    assert isinstance(action, Finish)
    assert state.spent == SPENT == stored.cost
    rebuilt = build_status(
        state,
        SPEC.score,
        lambda revision: f"revisions/{revision:04d}/",
        Phase.SUCCEEDED,
        stored.started_at,
        stored.completed_at,
    )
    assert rebuilt == stored


def test_an_old_run_folder_renders_its_fix_cost(old_run: Path) -> None:
    page = render_folder(old_run)
    assert "120 input / 45 output tokens, $0.0031" in page


def test_memory_savings_move_into_the_cost_and_a_null_is_no_savings() -> None:
    flat = {"iteration": 2, "issue": "Error", "type": "ErrorRepair", "fixer": "memory"}
    saved = FixRecord.model_validate({**flat, "costUsd": 0.0, "savedUsd": 0.02})
    assert saved.cost == CostSummary(saved_usd=0.02)
    unsaved = FixRecord.model_validate({**flat, "costUsd": 0.5, "savedUsd": None})
    assert unsaved.cost == CostSummary(usd=0.5)


def test_a_record_in_both_shapes_is_refused_naming_the_flat_field() -> None:
    both = {
        "iteration": 1,
        "issue": "Error",
        "type": "ErrorRepair",
        "fixer": "llm",
        "cost": {"usd": 0.1},
        "costUsd": 0.1,
    }
    with pytest.raises(ValidationError, match="costUsd"):
        FixRecord.model_validate(both)


def test_a_new_record_round_trips_in_the_nested_shape() -> None:
    record = FixRecord(
        iteration=1, issue="Error", type="ErrorRepair", fixer="llm", cost=SPENT, mode="cell"
    )
    wire = record.to_wire()
    assert wire["cost"]["inputTokens"] == 120 and "costUsd" not in wire
    assert FixRecord.model_validate(wire) == record
