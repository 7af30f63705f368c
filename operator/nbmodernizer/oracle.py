"""Pure: the differential run's verdict (issue #22), cell by cell.

Revision 0 ran in an era's interpreter (`EraRun`: its interpreter, versions, runs, score and
what each cell bound, a `BoundRecord` of `CellPrint`s that `bound_cells` recorded in the
kernel); a later revision ran today and recorded the same. Cells are matched as fidelity
matches them (`fidelity.align`: by position, unless a fix added or removed cells), and each
matched pair is `same`, `diverges` (the first name whose value differs, as `bound_diff` says
it), `not comparable` (only opaque values, values that differ from run to run, or a cell with
no partner) or `not run` (it did not run, or raised, on either side); a cell the fixes
changed is `rewritten` (a divergence in one they left alone is the libraries' drift).
`compare` returns the report's `OracleReport`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from nbmodernizer import bound_diff
from nbmodernizer.fidelity import align
from nbmodernizer.notebook import Notebook, code_cells
from nbmodernizer.status import (
    CellFidelity,
    ExecutionResult,
    OracleCell,
    OracleDivergence,
    OracleReport,
    ScoreResult,
)

MAX_DETAIL = 300
MAX_ERROR_CHARS = 300

Fingerprint = Mapping[str, Any]


@dataclass(frozen=True)
class CellPrint:
    """What one cell bound: name -> fingerprint (bound_values.py's FINGERPRINT), or why the
    recording failed; `cut`: names were left out (more than bound_values.CELL_NAMES)."""

    values: Mapping[str, Fingerprint] = field(default_factory=dict)
    error: str | None = None
    cut: bool = False

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"values": dict(self.values)}
        if self.error is not None:
            found["error"] = self.error
        if self.cut:
            found["cut"] = True
        return found


def read_cell(data: object) -> CellPrint:
    """A CellPrint from JSON someone else wrote (a kernel, a store): checked, never trusted."""
    if not isinstance(data, Mapping):
        return CellPrint(error="not an object")
    values, error = data.get("values", {}), data.get("error")
    if not isinstance(values, Mapping) or not all(
        isinstance(k, str) and isinstance(v, Mapping) and isinstance(v.get("kind"), str)
        for k, v in values.items()
    ):
        return CellPrint(error="values: not names and fingerprints")
    return CellPrint(
        values=dict(values),
        error=str(error)[:MAX_ERROR_CHARS] if error is not None else None,
        cut=data.get("cut") is True,
    )


@dataclass(frozen=True)
class BoundRecord:
    """Every recorded cell of a run (by index), and per cell the names whose fingerprints
    differed between two runs of it (randomness: not compared)."""

    cells: Mapping[int, CellPrint]
    unstable: Mapping[int, Sequence[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, runs: Sequence[Mapping[int, CellPrint]]) -> BoundRecord:
        """The first run's cells, with what differs in the others as unstable."""
        if not runs:
            return cls({})
        first = runs[0]
        unstable: dict[int, list[str]] = {}
        for index, cell in first.items():
            names = {
                name
                for other in runs[1:]
                if index in other
                for name, value in cell.values.items()
                if other[index].values.get(name) != value
            }
            if names:
                unstable[index] = sorted(names)
        return cls(dict(first), unstable)

    def to_json(self) -> dict[str, Any]:
        return {
            "cells": {str(i): cell.to_json() for i, cell in sorted(self.cells.items())},
            "unstable": {str(i): list(names) for i, names in sorted(self.unstable.items())},
        }

    @classmethod
    def parse(cls, data: object) -> BoundRecord:
        """ValueError when `data` is not a record."""
        if not isinstance(data, Mapping):
            raise ValueError("not an object")
        cells, unstable = data.get("cells", {}), data.get("unstable", {})
        if not isinstance(cells, Mapping) or not isinstance(unstable, Mapping):
            raise ValueError("cells and unstable must be objects")
        return cls(
            {int(i): read_cell(cell) for i, cell in cells.items()},
            {int(i): [str(n) for n in names] for i, names in unstable.items()},
        )


@dataclass(frozen=True)
class EraRun:
    """Revision 0's run in the era (`oracle.json` in revision 0's folder)."""

    python: str
    python_version: str | None
    packages: Mapping[str, str]
    runs: Sequence[ExecutionResult]
    score: ScoreResult
    bound: BoundRecord

    def to_json(self) -> dict[str, Any]:
        return {
            "python": self.python,
            "pythonVersion": self.python_version,
            "packages": dict(self.packages),
            "runs": [run.to_wire() for run in self.runs],
            "score": self.score.to_wire(),
            "bound": self.bound.to_json(),
        }

    @classmethod
    def parse(cls, data: object) -> EraRun:
        """ValueError (pydantic's included) when `data` is not an era run."""
        if not isinstance(data, Mapping):
            raise ValueError("not an object")
        runs, packages = data.get("runs"), data.get("packages", {})
        if not isinstance(runs, list) or not runs or not isinstance(packages, Mapping):
            raise ValueError("runs must be a list of runs, packages an object")
        version = data.get("pythonVersion")
        return cls(
            python=str(data.get("python", "")),
            python_version=str(version) if version is not None else None,
            packages={str(k): str(v) for k, v in packages.items()},
            runs=[ExecutionResult.model_validate(run) for run in runs],
            score=ScoreResult.model_validate(data.get("score")),
            bound=BoundRecord.parse(data.get("bound")),
        )


@dataclass(frozen=True)
class Side:
    """One side of the comparison: a notebook, the run that recorded it, what it bound."""

    notebook: Notebook
    execution: ExecutionResult
    bound: BoundRecord
    where: str  # "in the era", "today"


def _clip(text: str) -> str:
    return text if len(text) <= MAX_DETAIL else text[: MAX_DETAIL - 1] + "…"


def _not_run(side: Side, index: int) -> str | None:
    """Why cell `index` did not run to its end on this side; None when it did."""
    for error in side.execution.cell_errors:
        if error.cell_index == index:
            return _clip(f"raised {side.where}: {error.ename}: {error.evalue}".strip())
    if index not in side.bound.cells:
        return f"not reached {side.where}"
    return None


def _names(cell: CellPrint, unstable: Sequence[str]) -> tuple[list[str], set[str], set[str]]:
    """The names to compare, the opaque ones' types, and the random ones."""
    compared, opaque, random = [], set(), set()
    for name, value in sorted(cell.values.items()):
        if name in unstable:
            random.add(name)
        elif not bound_diff.comparable(value):
            opaque.add(str(value.get("type", value.get("kind"))).rsplit(".", 1)[-1])
        else:
            compared.append(name)
    return compared, opaque, random


def _plain(
    new: int, old: int, fidelity: CellFidelity, detail: str
) -> tuple[OracleCell, str | None, str]:
    """A pair's cell that does not diverge: no differing name, no difference line."""
    return OracleCell(index=new, era_index=old, fidelity=fidelity, detail=_clip(detail)), None, ""


def _pair(era: Side, today: Side, old: int, new: int) -> tuple[OracleCell, str | None, str]:
    """One matched pair's cell, and for a diverging one its first differing name and line."""
    for side, index in ((era, old), (today, new)):
        why = _not_run(side, index)
        if why is not None:
            return _plain(new, old, CellFidelity.NOT_RUN, why)
    then, now = era.bound.cells[old], today.bound.cells[new]
    failed = then.error or now.error
    if failed is not None:
        return _plain(new, old, CellFidelity.NOT_COMPARABLE, f"not recorded: {failed}")
    unstable = [*era.bound.unstable.get(old, ()), *today.bound.unstable.get(new, ())]
    names, opaque, random = _names(then, unstable)
    compared = [name for name in names if name in now.values]
    for name in compared:
        try:
            found = bound_diff.difference(then.values[name], now.values[name], name)
        except (KeyError, TypeError, ValueError, IndexError) as error:
            unread = f"{name}: a fingerprint that cannot be read ({error})"
            return _plain(new, old, CellFidelity.NOT_COMPARABLE, unread)
        if found:
            cell = OracleCell(
                index=new, era_index=old, fidelity=CellFidelity.DIVERGES, detail=_clip(found)
            )
            return cell, name, found
    if compared:
        return _plain(new, old, CellFidelity.SAME, ", ".join(compared))
    parts = []
    if random:
        parts.append("random: " + ", ".join(sorted(random)))
    if opaque:
        parts.append("opaque: " + ", ".join(sorted(opaque)))
    return _plain(
        new, old, CellFidelity.NOT_COMPARABLE, "; ".join(parts) or "binds nothing comparable"
    )


def compare_cells(era: Side, today: Side) -> tuple[list[OracleCell], OracleDivergence | None]:
    """Every cell's fidelity, in the compared revision's order (removed cells where they
    were), and the first diverging cell."""
    old, new = code_cells(era.notebook), code_cells(today.notebook)
    cells: list[OracleCell] = []
    first: OracleDivergence | None = None
    for i, j in align([c.source for c in old], [c.source for c in new]):
        if i is None or j is None:
            what = "added by the fixes" if i is None else "removed by the fixes"
            cells.append(
                OracleCell(
                    index=None if j is None else new[j].index,
                    era_index=None if i is None else old[i].index,
                    fidelity=CellFidelity.NOT_COMPARABLE,
                    detail=what,
                )
            )
            continue
        cell, name, difference = _pair(era, today, old[i].index, new[j].index)
        rewritten = old[i].source != new[j].source
        cells.append(cell.model_copy(update={"rewritten": rewritten}))
        if first is None and name is not None:
            first = OracleDivergence(
                cell=new[j].index,
                era_cell=old[i].index,
                name=name,
                difference=difference,
                rewritten=rewritten,
            )
    return cells, first


def compare(run: EraRun, era: Notebook, today: Side | None, revision: int | None) -> OracleReport:
    """The report of the differential run: the era's score and facts, and, when a revision
    ran today with its cells recorded (`today`), each cell's fidelity to the era."""
    report = OracleReport(
        python=run.python,
        python_version=run.python_version,
        packages=dict(run.packages),
        score=run.score.value,
        score_reason=run.score.reason,
        reproduced=run.score.reproduced,
        revision=revision,
    )
    if today is None:
        return report.model_copy(update={"note": "no revision ran today with its cells recorded"})
    side = Side(era, run.runs[0], run.bound, "in the era")
    cells, first = compare_cells(side, today)
    return report.model_copy(update={"cells": cells, "first_divergence": first})
