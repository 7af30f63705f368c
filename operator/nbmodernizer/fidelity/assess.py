"""How faithful a revision stayed to the original notebook: edit similarity and risk flags.

A fixer that chases the score can change what a notebook means: train on a sample, grow fewer
trees, run fewer epochs or folds, swap the model, drop a cell. `assess` is pure: it compares the
code cells of the original and of a revision and returns a `Fidelity` with

- the edit similarity of all code and of each changed code cell (`difflib.SequenceMatcher`
  ratio; cells aligned as `notebook.cell_changes` aligns them), and
- risk flags found by comparing both notebooks' syntax trees, one detector a module:
  `subsampling`, `settings` (fewer estimators, epochs, folds), `model_class`, `removed_cells`,
  `reach` (credentials, the network, /proc, the answers, outside files: a blocking flag).
  Patterns are counted and numeric settings matched per notebook, not per cell position, so
  moving cells raises nothing. A cell that does not parse is compared as text only (it counts
  for the similarity and for `cell-removed`).
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Sequence

from nbmodernizer.fidelity.kinds import FEWER_EPOCHS, FEWER_ESTIMATORS, FEWER_FOLDS
from nbmodernizer.fidelity.model_class import model_class_flags
from nbmodernizer.fidelity.reach import reach_flags
from nbmodernizer.fidelity.removed_cells import removed_cell_flags
from nbmodernizer.fidelity.settings import all_settings, setting_flags
from nbmodernizer.fidelity.similarity import ratio
from nbmodernizer.fidelity.subsampling import subsampling_flags
from nbmodernizer.notebook import CodeCell, Notebook, code_cells
from nbmodernizer.status import CellSimilarity, Fidelity

_DECIMALS = 4


# ---------------------------------------------------------------- public


def assess(original: Notebook, revision: Notebook, answers: str | None = None) -> Fidelity:
    """How close `revision` stayed to `original`: similarity and the risky changes found
    (`answers`: the answers file's name, which no revision may mention)."""
    old, new = code_cells(original), code_cells(revision)
    old_sources, new_sources = [c.source for c in old], [c.source for c in new]
    if old_sources == new_sources:
        return Fidelity(similarity=1.0)
    overall = ratio("\n".join(old_sources), "\n".join(new_sources))
    pairs = align(old_sources, new_sources)
    settings = all_settings(old), all_settings(new)
    flags = [
        *subsampling_flags(old, new, *settings),
        *setting_flags(*settings, FEWER_ESTIMATORS),
        *setting_flags(*settings, FEWER_EPOCHS),
        *setting_flags(*settings, FEWER_FOLDS),
        *model_class_flags(old, new, pairs),
        *removed_cell_flags(old, new, pairs),
        *reach_flags(old, new, answers),
    ]
    return Fidelity(
        similarity=_rounded(overall, changed=True),
        cells=_cell_similarities(old, new, pairs),
        flags=flags,
    )


# ---------------------------------------------------------------- similarity


def _rounded(ratio: float, changed: bool) -> float:
    """Rounded to 4 decimals; a changed text never rounds up to 1."""
    value = round(ratio, _DECIMALS)
    return min(value, 1 - 10**-_DECIMALS) if changed else value


def align(old: Sequence[str], new: Sequence[str]) -> list[tuple[int | None, int | None]]:
    """(old position, new position) pairs, aligned as `notebook.cell_changes` aligns cells."""
    pairs: list[tuple[int | None, int | None]] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs.extend(zip(range(i1, i2), range(j1, j2), strict=True))
            continue
        paired = min(i2 - i1, j2 - j1)
        pairs.extend((i1 + k, j1 + k) for k in range(paired))
        pairs.extend((None, j) for j in range(j1 + paired, j2))
        pairs.extend((i, None) for i in range(i1 + paired, i2))
    return pairs


def _cell_similarities(
    old: Sequence[CodeCell], new: Sequence[CodeCell], pairs: Sequence[tuple[int | None, int | None]]
) -> list[CellSimilarity]:
    """Changed revision cells; an added cell scores 0 unless it is an original cell moved."""
    unpaired = Counter(old[i].source for i, j in pairs if i is not None and j is None)
    cells: list[CellSimilarity] = []
    for i, j in pairs:
        if j is None:
            continue
        after = new[j].source
        if i is None:
            if unpaired[after] > 0:  # moved, unchanged
                unpaired[after] -= 1
                continue
            similarity = 0.0
        elif old[i].source == after:
            continue
        else:
            similarity = _rounded(ratio(old[i].source, after), changed=True)
        cells.append(CellSimilarity(index=new[j].index, similarity=similarity))
    return sorted(cells, key=lambda c: c.index)
