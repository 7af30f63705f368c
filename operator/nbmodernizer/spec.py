"""The NotebookModernization spec: the one YAML document both drivers read.

`nbmod modernize spec.yaml` and `kubectl apply -f spec.yaml` take the same object.
Field names on the wire are camelCase (Kubernetes style); Python attributes are snake_case.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

API_GROUP = "nbmodernizer.dev"
API_VERSION = "v1alpha1"
KIND = "NotebookModernization"


class CamelModel(BaseModel):
    """Base for every wire object: camelCase aliases, unknown fields rejected."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        frozen=True,
    )

    def to_wire(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


class Metric(StrEnum):
    ACCURACY = "accuracy"
    ROC_AUC = "roc_auc"
    LOG_LOSS = "log_loss"
    F1 = "f1"
    RMSE = "rmse"
    RMSLE = "rmsle"
    MAE = "mae"
    R2 = "r2"
    QWK = "qwk"


class ScoreSpec(CamelModel):
    metric: Metric
    target: float = Field(description="The originally reported score, s_t.")
    submission: str = Field(
        default="submission.csv",
        min_length=1,
        description="File the notebook writes in its working directory.",
    )
    answers: str = Field(min_length=1, description="Private answers: id column + target column(s).")
    id_column: str = Field(default="id", min_length=1)
    tolerance: float = Field(default=0.10, ge=0.0, le=1.0, description="Relative band τ.")
    runs: int = Field(default=1, ge=1, le=100, description="Executions per score check.")
    p_value: float = Field(default=0.05, gt=0.0, lt=1.0)


class ExecutionSpec(CamelModel):
    timeout_seconds: int = Field(default=600, ge=1, le=7 * 24 * 3600)


FixerName = Literal["rules", "llm"]
DEFAULT_FIXERS: tuple[FixerName, ...] = ("rules", "llm")


class LLMSpec(CamelModel):
    """An OpenAI-compatible Chat Completions endpoint (OpenAI, Azure, vLLM, Ollama)."""

    model: str | None = Field(default=None, min_length=1)
    base_url: str | None = Field(
        default=None,
        alias="baseURL",
        description="Default: OPENAI_BASE_URL, else OpenAI's own endpoint.",
    )
    input_usd_per_m_tok: float | None = Field(default=None, ge=0, alias="inputUSDPerMTok")
    output_usd_per_m_tok: float | None = Field(default=None, ge=0, alias="outputUSDPerMTok")
    temperature: float | None = Field(default=None, ge=0, le=2)
    max_output_tokens: int = Field(default=8192, ge=1, le=1_000_000)
    mode: Literal["cell", "file"] = Field(
        default="cell", description="cell: only the cells needed; file: the whole notebook."
    )
    timeout_seconds: float = Field(default=300, gt=0, le=3600)
    max_retries: int = Field(default=4, ge=0, le=20)
    max_replies: int = Field(
        default=2, ge=1, le=10, description="Replies asked for per fix when one is rejected."
    )


class FixSpec(CamelModel):
    max_iterations: int = Field(default=16, ge=1, le=100)
    fixers: list[FixerName] = Field(default_factory=lambda: list(DEFAULT_FIXERS))
    llm: LLMSpec = Field(default_factory=LLMSpec)
    budget_usd: float | None = Field(
        default=None, ge=0, alias="budgetUSD", description="No LLM call once this is spent."
    )


class ModernizationSpec(CamelModel):
    notebook: str = Field(min_length=1, description="s3://bucket/key or a path.")
    inputs: str | None = Field(default=None, description="Directory the notebook reads.")
    score: ScoreSpec
    execution: ExecutionSpec = Field(default_factory=ExecutionSpec)
    fix: FixSpec = Field(default_factory=FixSpec)


class ObjectMeta(BaseModel):
    """Kubernetes metadata: only `name` matters to the engine; the rest passes through."""

    model_config = ConfigDict(extra="allow", frozen=True)

    name: str = Field(
        min_length=1,
        max_length=253,
        pattern=r"^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$",
        description="A DNS-1123 subdomain, as Kubernetes requires.",
    )
    namespace: str | None = None


class NotebookModernization(CamelModel):
    model_config = ConfigDict(extra="ignore")  # status, etc. may ride along on a live object

    api_version: Literal["nbmodernizer.dev/v1alpha1"]
    kind: Literal["NotebookModernization"]
    metadata: ObjectMeta
    spec: ModernizationSpec


class SpecError(Exception):
    """A spec that cannot be used, with one line per problem: `field.path: reason`."""

    def __init__(self, problems: list[str], source: str = "spec") -> None:
        self.problems = problems
        self.source = source
        super().__init__(f"{source}: " + "; ".join(problems))


def _field_path(loc: tuple[int | str, ...]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        else:
            parts.append(("." if parts else "") + item)
    return "".join(parts) or "(document)"


def problems_from(error: ValidationError) -> list[str]:
    return [f"{_field_path(e['loc'])}: {e['msg']}" for e in error.errors()]


def parse_modernization(document: Any, source: str = "spec") -> NotebookModernization:
    if not isinstance(document, dict):
        raise SpecError(
            ["(document): expected a mapping with apiVersion, kind, metadata, spec"], source
        )
    try:
        return NotebookModernization.model_validate(document)
    except ValidationError as error:
        raise SpecError(problems_from(error), source) from None


def load_spec_file(path: Path) -> tuple[NotebookModernization, dict[str, Any]]:
    """Read and validate a spec file; returns the model and the raw document."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError([f"file not found: {path}"], str(path)) from None
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise SpecError([f"(document): not valid YAML: {error}"], str(path)) from None
    return parse_modernization(document, str(path)), document
