"""The memory fixer and its learner through the engine's steps, without a kernel: executions
are written as the executor would have stored them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from nbmodernizer.engine import fix_step, record_result
from nbmodernizer.fixers.base import FixAttempt, FixerChain, FixProposal, FixRequest
from nbmodernizer.fixers.memory import FixMemory, MemoryFixer, MemoryLearner
from nbmodernizer.fixers.registry import FixerEnvironment, build_chain, build_learner
from nbmodernizer.loop import Finish, LoopState, RequestFix, start
from nbmodernizer.notebook import Notebook, copy_notebook, parse_notebook, serialise
from nbmodernizer.spec import FixSpec, Metric, ModernizationSpec, ScoreSpec
from nbmodernizer.status import (
    CellError,
    CostSummary,
    ExecutionResult,
    ExecutionStatus,
    FixRecord,
    ScoreResult,
)
from nbmodernizer.store.layout import EXECUTED, NOTEBOOK
from nbmodernizer.store.revisions import LocalStore
from testing.notebooks import notebook

MISSING = "module 'legacy_lib' has no attribute 'old_call'"
SPEC = ModernizationSpec(
    notebook="notebook.ipynb",
    score=ScoreSpec(metric=Metric.ACCURACY, target=1.0, answers="answers.csv"),
    fix=FixSpec(fixers=["memory", "llm"]),
)


@dataclass
class PaidFixer:
    """Plays the LLM: rewrites the cells it is given, at a price."""

    edits: dict[int, str]
    usd: float = 0.02
    calls: int = 0
    name: str = field(default="llm", init=False)

    def propose(self, request: FixRequest) -> FixAttempt:
        self.calls += 1
        changed = copy_notebook(request.notebook)
        for index, source in self.edits.items():
            changed.cells[index].source = source
        spent = CostSummary(usd=self.usd, input_tokens=900, output_tokens=100, requests=1)
        return FixAttempt(FixProposal(changed, "the new API", mode="cell"), spent)


def failed(*errors: tuple[int, int, str]) -> ExecutionResult:
    """(cell, line, ename) for each failing cell; the message is the drift's."""
    return ExecutionResult(
        status=ExecutionStatus.COMPLETED,
        duration_seconds=1.0,
        cells_executed=4,
        cell_errors=[
            CellError(cell_index=cell, ename=ename, evalue=MISSING,
                      traceback=[f"Cell In[{cell}], line {line}\n----> {line} ..."])
            for cell, line, ename in errors
        ],
    )  # fmt: skip


def score(value: float | None) -> ScoreResult:
    if value is None:
        return ScoreResult(metric=Metric.ACCURACY, target=1.0, reason="no submission")
    return ScoreResult(metric=Metric.ACCURACY, target=1.0, value=value, values=[value],
                       reproduced=value == 1.0, relative_gap=abs(1.0 - value))  # fmt: skip


class Run:
    """One modernization driven step by step, as a driver would."""

    def __init__(self, root: Path, memory: FixMemory, *cells: str) -> None:
        self.store = LocalStore(root)
        self.store.put(0, NOTEBOOK, serialise(notebook(*cells)))
        self.learner = MemoryLearner(memory)
        self.state: LoopState
        self.state, _ = start(5)
        self.action: Any = None

    def executed(self, execution: ExecutionResult, value: float | None) -> None:
        revision = len(self.state.attempts)
        self.store.put(revision, EXECUTED, self.store.get(revision, NOTEBOOK))
        self.state, self.action = record_result(
            self.store, self.state, revision, execution, score(value), learner=self.learner
        )

    def fix(self, chain: FixerChain) -> FixRecord | None:
        assert isinstance(self.action, RequestFix)
        outcome = fix_step(self.store, self.state, self.action, chain, SPEC, None)
        self.state, self.action = outcome.state, outcome.action
        return outcome.record

    def notebook(self, revision: int) -> Notebook:
        return parse_notebook(self.store.get(revision, NOTEBOOK)).notebook


@pytest.fixture
def memory(tmp_path: Path) -> FixMemory:
    return FixMemory.at(str(tmp_path / "memory"))


def teach(root: Path, memory: FixMemory) -> PaidFixer:
    """A notebook the LLM fixes for $0.02: the memory learns the fix."""
    llm = PaidFixer({2: "x = ll.new_call(1).value"})
    run = Run(root, memory, "import legacy_lib as ll", "x = ll.old_call(1)", "print(x)")
    run.executed(failed((2, 1, "AttributeError")), None)
    record = run.fix(FixerChain([MemoryFixer(memory), llm]))
    assert record is not None and record.fixer == "llm"
    run.executed(failed(), 1.0)
    return llm


def test_a_paid_fix_that_holds_is_learnt(tmp_path: Path, memory: FixMemory) -> None:
    teach(tmp_path / "teacher", memory)
    [entry] = memory.entries()
    assert entry.pattern.shown() == "legacy_lib.old_call(<h0>)  ->  legacy_lib.new_call(<h0>).value"
    assert str(entry.signature) == "AttributeError: module <str> has no attribute <str>"
    [origin] = entry.origins
    assert origin.cost_usd == 0.02 and origin.revision == 1
    assert origin.run == LocalStore(tmp_path / "teacher").uri
    assert (origin.example.before, origin.example.after) == (
        "x = ll.old_call(1)",
        "x = ll.new_call(1).value",
    )
    assert origin.example.setup == "import legacy_lib as ll"
    assert origin.example.error == f"AttributeError: {MISSING}"


def test_the_next_notebook_is_fixed_from_memory_for_free(tmp_path: Path, memory: FixMemory) -> None:
    teach(tmp_path / "teacher", memory)
    llm = PaidFixer({})
    cells = ("import numpy as np\nimport legacy_lib", "p = np.ones(3)",
             "score = legacy_lib.old_call(np.mean(p == 1))\nprint(score)")  # fmt: skip
    run = Run(tmp_path / "student", memory, *cells)
    run.executed(failed((3, 1, "AttributeError")), None)
    record = run.fix(FixerChain([MemoryFixer(memory), llm]))
    assert record is not None and record.fixer == "memory" and llm.calls == 0
    assert record.cost.usd == 0 and record.cost.saved_usd == 0.02
    [entry] = memory.entries()
    assert [u.model_dump() for u in record.memory_entries or []] == [
        {"entry": entry.id, "cell": 3, "lines_before": [1, 1], "lines_after": [1, 1]}
    ]
    assert record.summary.startswith(f"remembered: {entry.id} legacy_lib.old_call(<h0>)")
    assert run.notebook(1).cells[3].source == (
        "score = legacy_lib.new_call(np.mean(p == 1)).value\nprint(score)"
    )
    assert run.state.spent.saved_usd == 0.02 and run.state.spent.usd == 0
    run.executed(failed(), 1.0)
    assert isinstance(run.action, Finish)
    [scored] = memory.entries()
    assert (scored.fixed, scored.failed) == (1, 0)
    [use] = memory.uses_of(scored)
    assert use.example.before == "score = legacy_lib.old_call(np.mean(p == 1))"
    assert use.example.setup == "import legacy_lib\nimport numpy as np"


def test_a_remembered_fix_that_fails_is_scored_and_not_tried_there_again(
    tmp_path: Path, memory: FixMemory
) -> None:
    teach(tmp_path / "teacher", memory)
    llm = PaidFixer({2: "import legacy_lib\nv = 0"})
    run = Run(tmp_path / "student", memory, "import legacy_lib", "v = legacy_lib.old_call(1)")
    run.executed(failed((2, 1, "AttributeError")), None)
    assert run.fix(FixerChain([MemoryFixer(memory), llm])) is not None
    run.executed(failed((2, 1, "AttributeError")), None)  # the same error where it rewrote
    [entry] = memory.entries()
    assert (entry.fixed, entry.failed) == (0, 1)
    record = run.fix(FixerChain([MemoryFixer(memory), llm]))
    assert record is not None and record.fixer == "llm" and llm.calls == 1


def test_the_error_moving_elsewhere_in_the_cell_counts_as_fixed(
    tmp_path: Path, memory: FixMemory
) -> None:
    """The same signature raised by another statement is another drift, not this one."""
    teach(tmp_path / "teacher", memory)
    cells = ("import legacy_lib", "v = legacy_lib.old_call(1)\nw = legacy_lib.gone(2)")
    run = Run(tmp_path / "student", memory, *cells)
    run.executed(failed((2, 1, "AttributeError")), None)
    assert run.fix(FixerChain([MemoryFixer(memory)])) is not None
    run.executed(failed((2, 2, "AttributeError")), None)
    assert memory.entries()[0].fixed == 1


def test_nothing_is_learnt_from_a_paid_fix_that_did_not_hold(
    tmp_path: Path, memory: FixMemory
) -> None:
    llm = PaidFixer({2: "x = ll.new_call(1)"})
    run = Run(tmp_path / "a", memory, "import legacy_lib as ll", "x = ll.old_call(1)")
    run.executed(failed((2, 1, "AttributeError")), None)
    run.fix(FixerChain([MemoryFixer(memory), llm]))
    run.executed(failed((2, 1, "AttributeError")), None)
    assert memory.entries() == []


def test_nothing_is_learnt_from_a_paid_fix_that_changed_other_cells(
    tmp_path: Path, memory: FixMemory
) -> None:
    llm = PaidFixer({1: "import legacy_lib as ll\nimport numpy", 2: "x = ll.new_call(1).value"})
    run = Run(tmp_path / "a", memory, "import legacy_lib as ll", "x = ll.old_call(1)")
    run.executed(failed((2, 1, "AttributeError")), None)
    run.fix(FixerChain([MemoryFixer(memory), llm]))
    run.executed(failed(), 1.0)
    assert memory.entries() == []


def test_retired_entries_are_not_offered(tmp_path: Path, memory: FixMemory) -> None:
    teach(tmp_path / "teacher", memory)
    for n in range(3):
        run = Run(tmp_path / f"s{n}", memory, "import legacy_lib", "v = legacy_lib.old_call(1)")
        run.executed(failed((2, 1, "AttributeError")), None)
        assert run.fix(FixerChain([MemoryFixer(memory)])) is not None
        run.executed(failed((2, 1, "AttributeError")), None)
    assert memory.entries()[0].retired and memory.candidates(memory.entries()[0].signature) == []
    run = Run(tmp_path / "late", memory, "import legacy_lib", "v = legacy_lib.old_call(1)")
    run.executed(failed((2, 1, "AttributeError")), None)
    assert run.fix(FixerChain([MemoryFixer(memory)])) is None
    assert isinstance(run.action, Finish) and "memory: no remembered fix for" in run.action.reason


def test_the_chain_and_the_learner_use_memory_only_when_the_spec_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NBMOD_FIX_MEMORY", str(tmp_path / "memory"))
    without = SPEC.model_copy(update={"fix": FixSpec(fixers=["rules", "llm"])})
    assert build_learner(without) is None
    assert isinstance(build_learner(SPEC), MemoryLearner)
    assert [f.name for f in build_chain(SPEC).fixers] == ["memory"]  # no LLM endpoint here
    off = FixerEnvironment(fix_memory="off")
    assert build_learner(SPEC, off) is None
    assert "memory: skipped, the fix memory is off" in build_chain(SPEC, off).notes
