"""The fixer interface and the chain that asks fixers in order.

A fixer gets the revision that was executed and its diagnosis, and proposes the next
revision's notebook, or nothing. The chain takes the first proposal that changes a cell.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from nbmodernizer.facts import EnvironmentFacts
from nbmodernizer.loop import LoopState
from nbmodernizer.notebook import Notebook, cell_changes, fingerprint
from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.status import (
    CostSummary,
    Diagnosis,
    ExecutionResult,
    FixRecord,
    FixType,
    Issue,
    MemoryUse,
    RuleUse,
    ScoreResult,
)
from nbmodernizer.store.revisions import RevisionStore

RequestObserver = Callable[[str, str], None]  # (model, status) for each LLM HTTP request


@dataclass(frozen=True)
class FixRequest:
    notebook: Notebook  # the revision's source, as stored
    executed: Notebook  # the same after execution, with outputs and tracebacks
    execution: ExecutionResult
    score: ScoreResult
    diagnosis: Diagnosis
    issue: Issue
    fix_type: FixType
    spec: ModernizationSpec
    input_dir: Path | None
    history: tuple[Diagnosis, ...] = ()  # earlier revisions' diagnoses, oldest first
    spent: CostSummary = field(default_factory=CostSummary)  # by fixers so far in this run
    fixes: tuple[FixRecord, ...] = ()  # how each revision so far was made, oldest first
    tried: Mapping[str, int] = field(default_factory=dict)  # fingerprint -> revision, so far
    # what envprobe.py found where the notebook runs (which legacy APIs are gone); None: no
    # facts, so no rule is applied proactively, only those an error calls for
    environment: EnvironmentFacts | None = None


@dataclass(frozen=True)
class FixProposal:
    notebook: Notebook
    summary: str
    mode: str | None = None  # the LLM's: cell or file
    memory: tuple[MemoryUse, ...] = ()  # the memory's: the remembered fixes it applied
    saved_usd: float = 0.0  # the memory's: what the paid fixes it repeats cost
    rules: tuple[RuleUse, ...] = ()  # the rules': which rule changed which cells


@dataclass(frozen=True)
class FixAttempt:
    proposal: FixProposal | None
    spent: CostSummary = field(default_factory=CostSummary)
    note: str | None = None  # why there is no proposal


class Fixer(Protocol):
    @property
    def name(self) -> str: ...

    def propose(self, request: FixRequest) -> FixAttempt: ...


class Learner(Protocol):
    """Learns from what happened once a revision made by a fixer has run."""

    def after_execution(self, store: RevisionStore, state: LoopState) -> None: ...


@dataclass(frozen=True)
class ChainResult:
    proposal: FixProposal | None
    fixer: str | None
    notes: list[str] = field(default_factory=list)  # fixers skipped or that changed nothing
    spent: CostSummary = field(default_factory=CostSummary)  # by every fixer asked


class FixerChain:
    def __init__(self, fixers: Sequence[Fixer], notes: Sequence[str] = ()) -> None:
        self.fixers = list(fixers)
        self.notes = list(notes)  # why configured fixers are absent

    def propose(self, request: FixRequest) -> ChainResult:
        notes = list(self.notes)
        spent = CostSummary()
        for fixer in self.fixers:
            attempt = fixer.propose(request)
            spent = spent.plus(attempt.spent)
            proposal = attempt.proposal
            if proposal is not None and cell_changes(request.notebook, proposal.notebook):
                again = request.tried.get(fingerprint(proposal.notebook))
                if again is None:
                    return ChainResult(proposal, fixer.name, notes, spent)
                # a fixer that repeats itself would do so until maxIterations: the next is asked
                notes.append(f"{fixer.name}: proposed revision {again} again (already tried)")
                continue
            notes.append(f"{fixer.name}: {attempt.note or 'no change'}")
        return ChainResult(None, None, notes, spent)
