"""The prompt for one fix: the task by fix type, the cells, the environment, the history."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from string import Template

from nbmodernizer.execute import truncated
from nbmodernizer.fixers.base import FixRequest
from nbmodernizer.fixers.llm.cells import cell_seconds, dependencies, writer_of
from nbmodernizer.notebook import code_cells, source_text
from nbmodernizer.status import ExecutionResult, FixType

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
MAX_TRACEBACK_LINES = 60
MAX_PROMPT_ERROR_CHARS = 8_000


@dataclass(frozen=True)
class Prompt:
    system: str
    user: str
    editable: frozenset[int]  # indices in the notebook's cells array a reply may change

    @property
    def messages(self) -> list[dict[str, str]]:
        return [{"role": "system", "content": self.system}, {"role": "user", "content": self.user}]


def template(name: str) -> str:
    return (resources.files("nbmodernizer.fixers.llm") / "prompts" / name).read_text("utf-8")


def focus_cell(request: FixRequest) -> int:
    """The cell the issue is in: the failing, the timed-out, or the submission-writing cell."""
    code = [cell.index for cell in code_cells(request.notebook)]
    if (
        request.fix_type is FixType.RUNTIME_REDUCTION
        and request.execution.timed_out_cell is not None
    ):
        return request.execution.timed_out_cell
    if request.fix_type is FixType.ERROR_REPAIR and request.execution.cell_errors:
        return request.execution.cell_errors[0].cell_index
    writer = writer_of(request.notebook, request.spec.score.submission)
    return writer if writer is not None else (code[-1] if code else 0)


def cells_in_scope(request: FixRequest, mode: str) -> list[int]:
    code = [cell.index for cell in code_cells(request.notebook)]
    if mode == "file":
        return code
    focus = focus_cell(request)
    scope = set(dependencies(request.notebook, focus)) | {focus}
    if request.fix_type is FixType.RUNTIME_REDUCTION:
        timings = cell_seconds(request.executed)
        slow = sorted(timings, key=lambda i: timings[i], reverse=True)[:3]
        for index in slow:
            scope |= {index, *dependencies(request.notebook, index)}
    return sorted(i for i in scope if i in code)


def _traceback(request: FixRequest) -> tuple[int, str]:
    if not request.execution.cell_errors:
        return focus_cell(request), request.diagnosis.detail
    error = request.execution.cell_errors[0]
    lines = [_ANSI.sub("", line) for line in error.traceback] or [f"{error.ename}: {error.evalue}"]
    text = "\n".join(lines).splitlines()[-MAX_TRACEBACK_LINES:]
    # the notebook's output is untrusted: bounded, the end kept, the cut said
    return error.cell_index, truncated("\n".join(text), MAX_PROMPT_ERROR_CHARS, keep_end=True)


def task_text(request: FixRequest) -> str:
    if request.fix_type is FixType.ERROR_REPAIR:
        cell, error = _traceback(request)
        return Template(template("error_repair.md")).substitute(cell=cell, error=error)
    if request.fix_type is FixType.RUNTIME_REDUCTION:
        timings = cell_seconds(request.executed)
        listed = "\n".join(f"- cell {i}: {s:.2f}" for i, s in sorted(timings.items())) or "- none"
        return Template(template("runtime_reduction.md")).substitute(
            timeout=request.spec.execution.timeout_seconds,
            cell=request.execution.timed_out_cell,
            elapsed=f"{request.execution.duration_seconds:.0f}",
            gpus=request.execution.gpus,
            timings=listed,
        )
    return Template(template("score_calibration.md")).substitute(gap=request.diagnosis.detail)


def describe_inputs(execution: ExecutionResult) -> list[str]:
    """One line per input file the notebook saw: path, size and, for CSVs, the columns."""
    lines = []
    for found in execution.inputs:
        line = f"- ../input/{found.path} ({found.size_bytes} bytes)"
        if found.columns is not None:
            line += f" columns: {found.columns}"
        lines.append(line)
    if execution.inputs_total > len(execution.inputs):
        lines.append(f"- … and {execution.inputs_total - len(execution.inputs)} more files")
    return lines


def environment_text(request: FixRequest) -> str:
    packages = ", ".join(f"{n}=={v}" for n, v in sorted(request.execution.packages.items()))
    return f"Python {request.execution.python_version}; installed: {packages or 'none imported'}"


def history_text(request: FixRequest) -> str:
    if not request.history:
        return "none (this is the original notebook)"
    return "\n".join(
        f"- revision {n}: {d.issue.value} ({d.outcome.value}): {d.detail}"
        for n, d in enumerate(request.history)
    )


def cells_text(request: FixRequest, shown: list[int], mode: str) -> str:
    blocks: list[str] = []
    code = {cell.index: cell.source for cell in code_cells(request.notebook)}
    indices = range(len(request.notebook.cells)) if mode == "file" else shown
    for index in indices:
        if index in code:
            blocks.append(f"### cell {index} (code, editable)\n```python\n{code[index]}\n```")
        else:
            cell = request.notebook.cells[index]
            blocks.append(f"### cell {index} ({cell.cell_type})\n{source_text(cell)}")
    return "\n\n".join(blocks)


def build_prompt(request: FixRequest, mode: str) -> Prompt:
    shown = cells_in_scope(request, mode)
    inputs = describe_inputs(request.execution)
    scope = "the whole notebook" if mode == "file" else "the cells involved (others are omitted)"
    user = "\n\n".join(
        [
            task_text(request),
            f"Environment: {environment_text(request)}",
            "Input files:\n" + ("\n".join(inputs) or "- none"),
            f"The notebook writes `{request.spec.score.submission}`; metric "
            f"{request.spec.score.metric.value}, reported score {request.spec.score.target}.",
            f"Earlier attempts:\n{history_text(request)}",
            f"Notebook, {scope}:\n\n{cells_text(request, shown, mode)}",
        ]
    )
    return Prompt(system=template("system.md"), user=user, editable=frozenset(shown))


def approximate_tokens(text: str) -> int:
    """A tokenizer-free estimate (words and punctuation), for comparing prompt sizes."""
    return len(re.findall(r"\w+|[^\w\s]", text))
