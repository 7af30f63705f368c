"""The `memory` fixer: remembered fixes, applied at no cost where the same error recurs.

For each cell at issue (each failing cell, with its error signature; every code cell for a
ScoreDeviation or a Timeout) the entries of that signature that are not retired are tried,
best first, on the cell. For an error, the cell is rewritten only when a match covers the
statement that raised it; matches of other entries of the same signature in that cell ride
along (two removed APIs that fail alike are fixed at once). An entry already tried on a
cell in this run is not tried there again. The proposal says which entries it used and
where (`FixRecord.memoryEntries`) and what the paid fixes it repeats cost (`cost.savedUsd`).
"""

from __future__ import annotations

from nbmodernizer.fixers.base import FixAttempt, FixProposal, FixRequest
from nbmodernizer.fixers.memory.apply import CellRewrite, rewrite_cell
from nbmodernizer.fixers.memory.entries import Entry, FixMemory
from nbmodernizer.fixers.memory.outcome import Target, aliases, at_issue
from nbmodernizer.notebook import copy_notebook
from nbmodernizer.status import MemoryUse
from nbmodernizer.store import StoreError

MAX_SUMMARY = 600


class MemoryFixer:
    name = "memory"

    def __init__(self, memory: FixMemory) -> None:
        self.memory = memory

    def propose(self, request: FixRequest) -> FixAttempt:
        targets = at_issue(request.issue, request.execution, request.notebook)
        if not targets:
            return FixAttempt(None, note="nothing to look up")
        tried = {(u.entry, u.cell) for fix in request.fixes for u in fix.memory_entries or []}
        known = aliases(request.notebook)
        notebook = copy_notebook(request.notebook)
        uses: list[MemoryUse] = []
        used: dict[str, Entry] = {}
        looked_up: dict[str, list[Entry]] = {}
        try:
            for target in targets:
                if target.signature.key not in looked_up:
                    looked_up[target.signature.key] = self.memory.candidates(target.signature)
                entries = [
                    e for e in looked_up[target.signature.key] if (e.id, target.cell) not in tried
                ]
                cell = notebook.cells[target.cell]
                rewrite = rewrite_cell(cell.source, [(e.id, e.pattern) for e in entries], known)
                if rewrite is None or not _covers(rewrite, target):
                    continue
                cell.source, cell.outputs, cell.execution_count = rewrite.source, [], None
                for use in rewrite.uses:
                    uses.append(
                        MemoryUse(
                            entry=use.key,
                            cell=target.cell,
                            lines_before=list(use.before),
                            lines_after=list(use.after),
                        )
                    )
                    used[use.key] = next(e for e in entries if e.id == use.key)
        except (StoreError, OSError, ValueError, KeyError) as error:
            return FixAttempt(None, note=f"the fix memory at {self.memory.uri} failed: {error}")
        if not uses:
            issues = sorted({str(t.signature) for t in targets})
            return FixAttempt(None, note=f"no remembered fix for {'; '.join(issues)}")
        summary = "remembered: " + "; ".join(
            f"{entry.id} {entry.pattern.shown()}" for entry in used.values()
        )
        saved = round(sum(entry.cost_usd for entry in used.values()), 9)
        proposal = FixProposal(notebook, summary[:MAX_SUMMARY], memory=tuple(uses), saved_usd=saved)
        return FixAttempt(proposal)


def _covers(rewrite: CellRewrite, target: Target) -> bool:
    """Whether the rewrite touches the statement that raised the error (if it is known)."""
    line = target.line
    return line is None or any(use.before[0] <= line <= use.before[1] for use in rewrite.uses)
