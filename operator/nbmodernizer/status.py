"""What a modernization found: the records of each iteration and the status/report object.

`report.json` written by `nbmod modernize` and `.status` written by the operator are the
same `ModernizationStatus` object.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, Protocol

from pydantic import Field, model_validator

from nbmodernizer.spec import CamelModel, Metric


class EnvironmentKind(StrEnum):
    """What the environment lacks when no change to the code can supply it."""

    MISSING_INPUT = "missing-input"  # a file the inputs do not have (an attached dataset)
    NETWORK = "network"  # a download: runs have no network
    BROKEN_PACKAGE = "broken-package"  # an installed package that does not import
    MISSING_PACKAGE = "missing-package"  # a module of a known package the image lacks


class Issue(StrEnum):
    """What an execution went wrong with (the paper's three issue types), or nothing."""

    TIMEOUT = "Timeout"
    ERROR = "Error"
    SCORE_DEVIATION = "ScoreDeviation"
    NONE = "Reproducible"


class FixType(StrEnum):
    RUNTIME_REDUCTION = "RuntimeReduction"
    ERROR_REPAIR = "ErrorRepair"
    SCORE_CALIBRATION = "ScoreCalibration"


class Outcome(StrEnum):
    """The paper's five outcome categories."""

    ERROR_FREE_REPRODUCIBLE = "ErrorFreeReproducible"
    ERROR_REPRODUCIBLE = "ErrorReproducible"
    ERROR_FREE_NON_REPRODUCIBLE = "ErrorFreeNonReproducible"
    ERROR_NON_REPRODUCIBLE = "ErrorNonReproducible"
    FAILED = "Failed"

    @property
    def reproducible(self) -> bool:
        return self in (Outcome.ERROR_FREE_REPRODUCIBLE, Outcome.ERROR_REPRODUCIBLE)


class ExecutionStatus(StrEnum):
    COMPLETED = "completed"  # every cell ran (some may have raised: allow_errors)
    TIMEOUT = "timeout"  # the whole-notebook limit was hit; outputs are partial
    FAILED = "failed"  # the notebook could not run: kernel died, invalid notebook, ...


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_CELL_LINE = re.compile(r"Cell In\[\d+\], line (\d+)")
_CELL_FRAME = re.compile(r"Cell In\[(\d+)\], line (\d+)")
_ARROW_LINE = re.compile(r"^-+> ?(\d+)", re.MULTILINE)


class CellError(CamelModel):
    cell_index: int
    ename: str
    evalue: str
    traceback: list[str] = Field(default_factory=list)

    def failing_line(self) -> int | None:
        """The line of the cell (1-based) the error was raised at, from its traceback (the
        cell's frame comes first: IPython's `Cell In[n], line L`, or an older `---> L`)."""
        text = _ANSI.sub("", "\n".join(self.traceback))
        found = _CELL_LINE.search(text) or _ARROW_LINE.search(text)
        return int(found.group(1)) if found else None

    def raising_frame(self) -> tuple[int, int] | None:
        """The innermost notebook frame of the traceback (`Cell In[n], line L`, the last one):
        the execution count `n` of the cell the raising code is in (a function may be defined
        in another cell than the one that called it) and its line `L` (1-based)."""
        text = _ANSI.sub("", "\n".join(self.traceback))
        frames = _CELL_FRAME.findall(text)
        return (int(frames[-1][0]), int(frames[-1][1])) if frames else None


class InputFile(CamelModel):
    """An input file as the notebook saw it (what a fixer may tell an LLM about the data)."""

    path: str = Field(description="Relative to the input folder (the notebook's ../input).")
    size_bytes: int
    columns: str | None = Field(default=None, description="A CSV's header line.")


class ExecutionResult(CamelModel):
    status: ExecutionStatus
    duration_seconds: float
    cells_total: int = 0
    cells_executed: int = 0
    cell_errors: list[CellError] = Field(default_factory=list)
    failure: str | None = Field(default=None, description="Why the notebook could not run.")
    timed_out_cell: int | None = None
    python_version: str | None = None
    gpus: int = Field(default=0, description="GPUs visible where the notebook ran.")
    packages: dict[str, str] = Field(
        default_factory=dict, description="Installed versions of the packages it imports."
    )
    inputs: list[InputFile] = Field(
        default_factory=list, description="The first input files (sorted by path)."
    )
    inputs_total: int = Field(default=0, description="How many input files there were.")

    @property
    def has_errors(self) -> bool:
        return bool(self.cell_errors) or self.status is not ExecutionStatus.COMPLETED


class ScoreResult(CamelModel):
    """The grade of one revision: one value per run, or the reason there is none."""

    metric: Metric
    target: float
    value: float | None = None
    values: list[float] = Field(default_factory=list)
    reason: str | None = Field(default=None, description="Why there is no score.")
    reproduced: bool = False
    p_value: float | None = None
    relative_gap: float | None = None
    evidence: str | None = Field(
        default=None, description="With several runs: why this many runs decided the score."
    )
    runs: int | None = Field(
        default=None,
        description="With several runs stored one by one (a cluster's Indexed Job): how many "
        "were used, runs 0 to runs-1; the adaptive policy or a run that did not complete can "
        "stop before score.runs.",
    )


class Diagnosis(CamelModel):
    issue: Issue
    fix_type: FixType | None = None
    detail: str = ""
    outcome: Outcome
    environment: EnvironmentKind | None = Field(
        default=None,
        description="Set when the error is the environment's (the detail names what is "
        "missing): rules may still fix paths; no LLM is asked.",
    )


class CellChange(CamelModel):
    index: int = Field(description="Position in the notebook's `cells` array.")
    kind: str = Field(description="modified, added or removed")
    before: str | None = None
    after: str | None = None


class RiskFlag(CamelModel):
    """A change that may alter what the notebook means (the paper's score-chasing edits)."""

    kind: str = Field(
        description="subsampling, fewer-estimators, fewer-epochs, fewer-folds, "
        "model-class-changed, cell-removed, or reaches-outside (blocking: credentials, the "
        "network, /proc, the answers or files outside the inputs and the working directory)"
    )
    cell: int | None = Field(default=None, description="Cell index in the revision.")
    detail: str = ""


class CellSimilarity(CamelModel):
    index: int
    similarity: float


class Fidelity(CamelModel):
    """How close a revision stayed to the original notebook."""

    similarity: float = Field(description="Edit similarity of all code, 0..1 (1: unchanged).")
    cells: list[CellSimilarity] = Field(default_factory=list, description="Changed cells only.")
    flags: list[RiskFlag] = Field(default_factory=list)


class MemoryUse(CamelModel):
    """A remembered fix the `memory` fixer applied: which entry, where."""

    entry: str = Field(description="The fix memory entry (`nbmod memory show ENTRY`).")
    cell: int = Field(description="Position in the notebook's `cells` array.")
    lines_before: list[int] = Field(
        description="First and last line of the statements it rewrote, in the cell before."
    )
    lines_after: list[int] = Field(description="The same lines in the cell it made.")


class RuleOccurrence(CamelModel):
    """A place one rule's rewrite wrote: a stretch of one line of a cell, as the fix left it."""

    cell: int = Field(description="Position in the notebook's `cells` array.")
    line: int = Field(description="1-based line of the cell's source.")
    start: int = Field(description="0-based column of the first character the rule wrote.")
    end: int = Field(description="0-based column one past the last character the rule wrote.")


class RuleUse(CamelModel):
    """rules: a rule and the cells it changed, or what was done when its rewrite raised."""

    rule: str
    cells: list[int] = Field(description="Positions in the notebook's `cells` array.")
    action: str = Field(
        default="applied",
        description="applied; alternative (its rewrite raised at a line it wrote, so its other "
        "reading of the legacy code was used instead); or reverted (the line it wrote raised "
        "and it has no other reading: the cell is as it was, and the rule is not applied "
        "there again).",
    )
    occurrences: list[RuleOccurrence] = Field(
        default_factory=list,
        description="Where the rule wrote, read as `action` says (a cell's lines another use "
        "of the same rule lists were rewritten the other way); empty in records made before "
        "occurrences were kept: the action then holds for the whole of each cell.",
    )


class CostSummary(CamelModel):
    """What fixing cost: money, tokens, LLM requests and replies rejected as unusable; and
    what the fix memory saved."""

    usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    requests: int = 0
    rejected_replies: int = 0
    estimated_replies: int = Field(
        default=0, description="Replies without token usage: their tokens are estimated."
    )
    saved_usd: float = Field(
        default=0.0,
        description="LLM dollars the fix memory saved, estimated as what the paid fixes its "
        "entries were learnt from cost.",
    )

    def plus(self, other: CostSummary) -> CostSummary:
        return CostSummary(
            usd=round(self.usd + other.usd, 9),
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            requests=self.requests + other.requests,
            rejected_replies=self.rejected_replies + other.rejected_replies,
            estimated_replies=self.estimated_replies + other.estimated_replies,
            saved_usd=round(self.saved_usd + other.saved_usd, 9),
        )


class Proposal(Protocol):
    """What a fix record keeps of the proposal it was made from (fixers.base.FixProposal)."""

    @property
    def summary(self) -> str: ...
    @property
    def mode(self) -> str | None: ...
    @property
    def memory(self) -> Sequence[MemoryUse]: ...
    @property
    def saved_usd(self) -> float: ...
    @property
    def rules(self) -> Sequence[RuleUse]: ...


# FixRecord's wire fields before `cost` nested them (fix.json and statuses written until
# December 2026): the flat field -> the CostSummary field it became.
_FLAT_COST_FIELDS = {
    "costUsd": "usd",
    "inputTokens": "inputTokens",
    "outputTokens": "outputTokens",
    "requests": "requests",
    "rejectedReplies": "rejectedReplies",
    "estimatedReplies": "estimatedReplies",
    "savedUsd": "savedUsd",
}


class FixRecord(CamelModel):
    """How revision `iteration` was made from the one before it."""

    iteration: int
    issue: Issue
    type: FixType
    fixer: str
    summary: str = ""
    changes: list[CellChange] = Field(default_factory=list)
    cost: CostSummary = Field(
        default_factory=CostSummary,
        description="What the fixers asked for this revision spent; memory: what it saved.",
    )
    mode: str | None = Field(
        default=None, description="llm: cell (the cells involved) or file (the whole notebook)."
    )
    fidelity: Fidelity | None = Field(
        default=None, description="How close the revision this fix made stays to the original."
    )
    memory_entries: list[MemoryUse] | None = Field(
        default=None, description="memory: the remembered fixes it applied."
    )
    rules: list[RuleUse] | None = Field(
        default=None, description="rules: which rule changed which cells."
    )

    @model_validator(mode="before")
    @classmethod
    def _nest_flat_cost(cls, data: object) -> object:
        """A record in the earlier flat wire form (`costUsd`, `inputTokens`, ... beside the
        other fields) is read with those fields moved into `cost`."""
        if not isinstance(data, Mapping) or "cost" in data:
            return data
        flat = {k: v for k, v in data.items() if k in _FLAT_COST_FIELDS}
        if not flat:
            return data
        rest = {k: v for k, v in data.items() if k not in _FLAT_COST_FIELDS}
        cost = {_FLAT_COST_FIELDS[k]: v for k, v in flat.items() if v is not None}
        return {**rest, "cost": cost}

    @classmethod
    def of(
        cls,
        proposal: Proposal,
        *,
        iteration: int,
        issue: Issue,
        type: FixType,
        fixer: str,
        changes: Sequence[CellChange],
        spent: CostSummary,
        fidelity: Fidelity | None,
    ) -> FixRecord:
        """The record of a proposal a fixer made and the loop took (`spent`: by every fixer
        asked for it; the proposal's own savings are added)."""
        return cls(
            iteration=iteration,
            issue=issue,
            type=type,
            fixer=fixer,
            summary=proposal.summary,
            changes=list(changes),
            cost=spent.plus(CostSummary(saved_usd=proposal.saved_usd)),
            mode=proposal.mode,
            fidelity=fidelity,
            memory_entries=list(proposal.memory) or None,
            rules=list(proposal.rules) or None,
        )


class RevisionRecord(CamelModel):
    iteration: int
    uri: str
    issue: Issue | None = None
    outcome: Outcome | None = None
    fix_type: FixType | None = None
    fixer: str | None = None
    score: float | None = None
    scores: list[float] = Field(
        default_factory=list, description="With several runs: each graded run's score."
    )
    evidence: str | None = Field(
        default=None, description="With several runs: why this many runs decided the score."
    )
    runs: int | None = Field(
        default=None,
        description="With several runs executed one per pod (an Indexed Job): how many were "
        "used before the iteration stopped (evidence or reason says why).",
    )
    duration_seconds: float | None = None
    fidelity: Fidelity | None = None


class ScoreSummary(CamelModel):
    metric: Metric
    target: float
    value: float | None = None
    reproduced: bool = False
    tolerance: float | None = Field(
        default=None, description="The relative band τ the score is judged in (score.tolerance)."
    )


class CellFidelity(StrEnum):
    """What the differential run found for one cell (issue #22)."""

    SAME = "same"  # every value both runs bound agrees
    DIVERGES = "diverges"  # a value differs
    NOT_COMPARABLE = "not comparable"  # nothing comparable bound, random, or no partner cell
    NOT_RUN = "not run"  # the cell did not run, or raised, in the era or today


class OracleCell(CamelModel):
    index: int | None = Field(description="The cell in the compared revision (None: removed).")
    era_index: int | None = Field(
        default=None, description="The original's cell it is matched with (None: added)."
    )
    fidelity: CellFidelity
    detail: str = ""
    rewritten: bool = Field(default=False, description="The fixes changed the cell.")


class OracleDivergence(CamelModel):
    """The first cell whose values differ from what the original computes in the era."""

    cell: int = Field(description="The cell in the compared revision.")
    era_cell: int = Field(description="The original's cell, run in the era.")
    name: str = Field(description="The first name whose value differs.")
    difference: str = Field(description="How it differs (bound_diff's line).")
    rewritten: bool = Field(
        default=False,
        description="The fixes changed the cell; else the libraries drifted under it.",
    )


class OracleReport(CamelModel):
    """The differential run (`--oracle-python`): revision 0 executed in an era's interpreter,
    its score and what each cell bound, against the compared revision's run today."""

    python: str = Field(description="The era's interpreter.")
    python_version: str | None = None
    packages: dict[str, str] = Field(default_factory=dict)
    score: float | None = Field(default=None, description="The era score: revision 0's there.")
    score_reason: str | None = Field(default=None, description="Why there is no era score.")
    reproduced: bool = Field(default=False, description="The era score is within tolerance.")
    revision: int | None = Field(default=None, description="The revision compared with it.")
    first_divergence: OracleDivergence | None = None
    cells: list[OracleCell] = Field(default_factory=list)
    note: str | None = Field(default=None, description="Why cells could not be compared.")


class Phase(StrEnum):
    PENDING = "Pending"
    QUEUED = "Queued"
    RUNNING = "Running"
    FIXING = "Fixing"
    SUCCEEDED = "Succeeded"
    FAILED = "Failed"


class ModernizationStatus(CamelModel):
    phase: Phase
    outcome: Outcome | None = None
    message: str = ""
    iteration: int = Field(default=0, description="Revision being or last executed.")
    iterations: int = Field(default=0, description="Executions so far.")
    best_revision: int | None = None
    last_issue: Issue | None = None
    last_error: str | None = None
    score: ScoreSummary | None = None
    cost: CostSummary = Field(default_factory=CostSummary)
    fixes: list[FixRecord] = Field(default_factory=list)
    revisions: list[RevisionRecord] = Field(default_factory=list)
    stop_reason: str | None = None
    notes: list[str] = Field(
        default_factory=list, description="What the run did on the side: upgrades, skipped fixers."
    )
    started_at: str | None = None
    completed_at: str | None = None
    report: str | None = Field(
        default=None,
        description="Where the HTML report of the finished run is (in a cluster: an s3:// URI "
        "beside its revisions).",
    )
    final_notebook: str | None = Field(
        default=None, description="Where the best revision, executed, is (final.ipynb)."
    )
    oracle: OracleReport | None = Field(
        default=None, description="The differential run against an era's interpreter."
    )

    def merge_patch(self, previous: Mapping[str, Any]) -> dict[str, Any]:
        """The wire object as a merge patch (RFC 7386) over the `previous` one: a field this
        status no longer has (a `lastError` fixed since) is null, so the patch removes it."""
        wire = self.to_wire()
        for name, field in type(self).model_fields.items():
            key = field.alias or name
            if key in previous and key not in wire:
                wire[key] = None
        return wire


# Fields the operator writes to .status beside the model (cluster/crd.py's STATUS_EXTENSIONS):
# a report.json pulled from a cluster holds them too.
OPERATOR_STATUS_FIELDS = ("observedGeneration", "conditions")
