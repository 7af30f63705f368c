"""An original code cell with no similar cell left in the revision, wherever it moved."""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Sequence

from nbmodernizer.fidelity.kinds import CELL_REMOVED
from nbmodernizer.fidelity.similarity import ratio
from nbmodernizer.fidelity.syntax import clip
from nbmodernizer.notebook import CodeCell
from nbmodernizer.status import RiskFlag

# Below this similarity to every revision cell, an original cell counts as removed.
REMOVED_BELOW = 0.5
_CANDIDATES = 3  # revision cells compared in full with a changed original cell


def _code_lines(source: str) -> list[str]:
    """Stripped lines that are code: no blanks, comments, magics or shell commands."""
    stripped = (line.strip() for line in source.splitlines())
    return [line for line in stripped if line and not line.startswith(("#", "%", "!"))]


def _similar(a: str, b: str) -> bool:
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < REMOVED_BELOW or matcher.quick_ratio() < REMOVED_BELOW:
        return False
    return ratio(a, b) >= REMOVED_BELOW


def _words_of(source: str) -> Counter[str]:
    return Counter(re.findall(r"\w+", source))


def _overlap(a: Counter[str], b: Counter[str]) -> float:
    total = a.total() + b.total()
    return 2 * (a & b).total() / total if total else 0.0


def _candidates(
    cell: CodeCell, partner: CodeCell | None, new: Sequence[tuple[CodeCell, Counter[str]]]
) -> list[CodeCell]:
    """The revision cells most likely similar to `cell`: its aligned partner, then the few
    cells sharing the most words with it (so that the check stays linear)."""
    words = _words_of(cell.source)
    ranked = sorted(new, key=lambda other: -_overlap(words, other[1]))
    return ([partner] if partner is not None else []) + [c for c, _ in ranked[:_CANDIDATES]]


def removed_cell_flags(
    old: Sequence[CodeCell], new: Sequence[CodeCell], pairs: Sequence[tuple[int | None, int | None]]
) -> list[RiskFlag]:
    """Original code cells with no similar cell in the revision, wherever it moved them.

    A cell also counts as kept when most of its lines are still somewhere in the revision
    (cells merged or split).
    """
    sources = {cell.source for cell in new}
    lines = {line for cell in new for line in _code_lines(cell.source)}
    partners = {i: new[j] for i, j in pairs if i is not None and j is not None}
    worded = [(other, _words_of(other.source)) for other in new]
    flags: list[RiskFlag] = []
    for position, cell in enumerate(old):
        code = _code_lines(cell.source)
        if cell.source in sources or not code:
            continue
        if sum(line in lines for line in code) / len(code) >= REMOVED_BELOW:
            continue
        candidates = _candidates(cell, partners.get(position), worded)
        if any(_similar(cell.source, other.source) for other in candidates):
            continue
        detail = f"original cell {cell.index} removed: {clip(code[0])}"
        flags.append(RiskFlag(kind=CELL_REMOVED, cell=cell.index, detail=detail))
    return flags
