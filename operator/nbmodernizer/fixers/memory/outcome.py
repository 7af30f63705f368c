"""What was at issue in an execution, and whether a later execution still shows it.

Both the memory fixer (what to look up) and the learner (whether a fix held) read an
execution the same way: for an Error, each failing cell with its error signature; for a
ScoreDeviation or a Timeout, every code cell under the issue's own signature. An error is
still there when the same cell raises the same signature at a line of the statements the
fix rewrote (or at an unknown line); a ScoreDeviation when the score does not reproduce; a
Timeout when the execution timed out again.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from nbmodernizer.cells import imports, parse
from nbmodernizer.fixers.memory.pattern import Span
from nbmodernizer.fixers.memory.signature import Signature, of_error, of_issue
from nbmodernizer.loop import Attempt
from nbmodernizer.notebook import Notebook, code_cells
from nbmodernizer.status import CellError, ExecutionResult, ExecutionStatus, Issue


@dataclass(frozen=True)
class Target:
    cell: int
    signature: Signature
    error: CellError | None = None

    @property
    def line(self) -> int | None:
        return self.error.failing_line() if self.error is not None else None

    @property
    def error_text(self) -> str:
        return f"{self.error.ename}: {self.error.evalue}" if self.error else self.signature.issue


def at_issue(issue: Issue, execution: ExecutionResult, notebook: Notebook) -> list[Target]:
    code = {cell.index for cell in code_cells(notebook)}
    if issue is Issue.ERROR:
        targets: dict[int, Target] = {}
        for error in execution.cell_errors:
            if error.cell_index in code and error.cell_index not in targets:
                targets[error.cell_index] = Target(error.cell_index, of_error(error), error)
        return list(targets.values())
    if issue in (Issue.SCORE_DEVIATION, Issue.TIMEOUT):
        return [Target(cell, of_issue(issue)) for cell in sorted(code)]
    return []


def still_there(signature: Signature, attempt: Attempt, cell: int, span: Span | None) -> bool:
    """Whether `attempt` (the revision a fix made, executed) still shows `signature`."""
    if signature.issue == Issue.SCORE_DEVIATION.value:
        return not attempt.score.reproduced
    if signature.issue == Issue.TIMEOUT.value:
        return attempt.execution.status is ExecutionStatus.TIMEOUT
    for error in attempt.execution.cell_errors:
        if error.cell_index != cell or of_error(error) != signature:
            continue
        line = error.failing_line()
        if span is None or line is None or span[0] <= line <= span[1]:
            return True
    return False


def ran(attempt: Attempt) -> bool:
    """Whether the revision ran at all (a Job that never started tells nothing about a fix)."""
    execution = attempt.execution
    return not (execution.status is ExecutionStatus.FAILED and execution.cells_executed == 0)


def aliases(notebook: Notebook) -> dict[str, str]:
    return imports(cell.source for cell in code_cells(notebook))


def setup_for(text: str, known: dict[str, str]) -> str:
    """The import statements that bind the imported names `text` uses, as `known` (a
    notebook's aliases) says they were bound."""
    tree = parse(text).tree
    if tree is None:
        return ""
    used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in known})
    lines = []
    for name in used:
        module, _, attribute = known[name].rpartition(".")
        if not module:
            lines.append(f"import {name}" if name == attribute else f"import {attribute} as {name}")
        else:
            alias = "" if name == attribute else f" as {name}"
            lines.append(f"from {module} import {attribute}{alias}")
    return "\n".join(lines)
