"""After each execution of a revision a fixer made: learn from a paid fix that held, and
score each remembered fix the memory applied.

A revision made by the LLM that no longer shows the error it was asked about (for an Error:
the same signature at the rewritten statements of the same cell; for a ScoreDeviation: the
score reproduces; for a Timeout: no timeout) is distilled into a pattern (`pattern.distil`)
and kept with what the fix cost. Only a fix confined to the cell at issue, with one edited
place, is learnt. A revision made by the memory scores each entry it used: fixed or not.
The memory never stops a run: when it cannot be read or written, the learner says so in the
log and the loop goes on.
"""

from __future__ import annotations

import logging

from nbmodernizer.fixers.memory.entries import Example, FixMemory, Origin, Use
from nbmodernizer.fixers.memory.outcome import (
    Target,
    aliases,
    at_issue,
    ran,
    setup_for,
    still_there,
)
from nbmodernizer.fixers.memory.pattern import distil
from nbmodernizer.fixers.memory.syntax import Text
from nbmodernizer.loop import Attempt, LoopState
from nbmodernizer.notebook import Notebook, parse_notebook
from nbmodernizer.status import FixRecord, MemoryUse
from nbmodernizer.store import RevisionExistsError, StoreError
from nbmodernizer.store.layout import NOTEBOOK
from nbmodernizer.store.revisions import RevisionStore

log = logging.getLogger("nbmodernizer.memory")
LEARNS_FROM = ("llm",)  # the paid fixers
MEMORY = "memory"


def _notebook(store: RevisionStore, revision: int) -> Notebook:
    return parse_notebook(store.get(revision, NOTEBOOK)).notebook


class MemoryLearner:
    def __init__(self, memory: FixMemory) -> None:
        self.memory = memory

    def after_execution(self, store: RevisionStore, state: LoopState) -> None:
        if len(state.attempts) < 2:
            return
        previous, attempt = state.attempts[-2], state.attempts[-1]
        fix = attempt.fix
        if fix is None or not ran(attempt):
            return
        try:
            if fix.fixer in LEARNS_FROM:
                self.learn(store, previous, attempt, fix)
            elif fix.fixer == MEMORY:
                self.score(store, previous, attempt, fix)
        except (StoreError, RevisionExistsError, OSError, ValueError, KeyError) as error:
            log.warning("fix memory at %s: %s", self.memory.uri, error)

    def learn(
        self, store: RevisionStore, previous: Attempt, attempt: Attempt, fix: FixRecord
    ) -> str | None:
        """The id of the entry learnt from `fix`, or None when there is nothing to learn."""
        before = _notebook(store, previous.revision)
        targets = at_issue(fix.issue, previous.execution, before)
        changed = [change.index for change in fix.changes if change.kind == "modified"]
        if len(changed) != 1 or len(fix.changes) != 1 or not targets:
            return None
        # an Error: the first failing cell, the one the LLM was asked about; else the cell
        # the LLM changed
        target = (
            targets[0] if targets[0].error is not None else Target(changed[0], targets[0].signature)
        )
        if target.cell != changed[0]:
            return None
        after = _notebook(store, attempt.revision)
        lesson = distil(
            before.cells[target.cell].source,
            after.cells[target.cell].source,
            aliases(before),
            aliases(after),
            target.line,
        )
        if lesson is None or still_there(target.signature, attempt, target.cell, lesson.after_span):
            return None
        setup = setup_for(lesson.before_text, aliases(before))
        example = Example(
            before=lesson.before_text, after=lesson.after_text, error=target.error_text, setup=setup
        )
        origin = Origin(
            run=store.uri,
            revision=attempt.revision,
            cost_usd=fix.cost.usd,
            example=example,
            fixer=fix.fixer,
        )
        return self.memory.learn(target.signature, lesson.pattern, origin)

    def score(
        self, store: RevisionStore, previous: Attempt, attempt: Attempt, fix: FixRecord
    ) -> None:
        before = _notebook(store, previous.revision)
        after = _notebook(store, attempt.revision)
        targets = {t.cell: t for t in at_issue(fix.issue, previous.execution, before)}
        by_entry: dict[str, list[MemoryUse]] = {}
        for use in fix.memory_entries or []:
            by_entry.setdefault(use.entry, []).append(use)
        for entry_id, uses in by_entry.items():
            target = targets.get(uses[0].cell)
            if target is None:
                continue
            entry = next(
                (e for e in self.memory.entries_for(target.signature) if e.id == entry_id), None
            )
            if entry is None:
                continue
            fixed = not any(
                still_there(
                    target.signature, attempt, use.cell, (use.lines_after[0], use.lines_after[1])
                )
                for use in uses
            )
            example = _example(before, after, uses[0], target)
            self.memory.record_use(
                entry,
                Use(
                    run=store.uri,
                    revision=attempt.revision,
                    fixed=fixed,
                    saved_usd=entry.cost_usd,
                    example=example,
                ),
            )


def _example(before: Notebook, after: Notebook, use: MemoryUse, target: Target) -> Example:
    old = Text(before.cells[use.cell].source).line_range(*use.lines_before)
    new = Text(after.cells[use.cell].source).line_range(*use.lines_after)
    setup = setup_for(old, aliases(before))
    return Example(before=old, after=new, error=target.error_text, setup=setup)
