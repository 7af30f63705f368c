"""The NotebookModernization spec: the one YAML document both drivers read.

`nbmod modernize spec.yaml` and `kubectl apply -f spec.yaml` take the same object.
Field names on the wire are camelCase (Kubernetes style); Python attributes are snake_case.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    WithJsonSchema,
    field_validator,
    model_validator,
)
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


class RunsPolicy(StrEnum):
    FIXED = "fixed"  # every run, then the t-test (the paper's)
    ADAPTIVE = "adaptive"  # stop once an interval of the mean is inside or outside the band


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
    runs_policy: RunsPolicy = Field(
        default=RunsPolicy.FIXED,
        description="fixed: every run, then the t-test; adaptive: stop once the runs so far "
        "decide (see nbmodernizer.evidence for the rule and its error rates).",
    )


# --- Kubernetes value syntax, checked here so a bad spec fails before any Job is created. ---

DNS_SUBDOMAIN = r"^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$"
"""A Kubernetes object name (DNS-1123 subdomain, at most 253 characters)."""

LABEL_VALUE = r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"
"""A label value (at most 63 characters, may be empty)."""

QUALIFIED_NAME = (
    r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
    r"[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$"
)
"""A label key, taint key or resource name: `[prefix/]name`, e.g. `nvidia.com/gpu`."""

QUANTITY = (
    r"^\+?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))"
    r"(([KMGTPE]i)|[numkMGTPE]|([eE][+-]?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$"
)
"""A non-negative Kubernetes quantity: `2`, `500m`, `1.5`, `16Gi`, `1e3`."""

_QUANTITY_RE = re.compile(QUANTITY)
_QUALIFIED_NAME_RE = re.compile(QUALIFIED_NAME)
_BINARY = {"Ki": 1, "Mi": 2, "Gi": 3, "Ti": 4, "Pi": 5, "Ei": 6}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}


def _check_quantity(value: object) -> object:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError("a quantity is an integer or a string such as '500m', '2' or '16Gi'")
    if isinstance(value, int):
        if value < 0:
            raise ValueError("a quantity cannot be negative")
    elif not _QUANTITY_RE.match(value):
        raise ValueError(f"{value!r} is not a quantity such as '500m', '2' or '16Gi'")
    return value


def quantity_value(quantity: int | str) -> Decimal:
    """The number a (valid) quantity stands for: `500m` -> 0.5, `1Gi` -> 1073741824."""
    if isinstance(quantity, int):
        return Decimal(quantity)
    text = quantity.lstrip("+")
    for suffix, power in _BINARY.items():
        if text.endswith(suffix):
            return Decimal(text[: -len(suffix)]) * (1 << (10 * power))
    try:
        if text and text[-1] in _DECIMAL:
            return Decimal(text[:-1]).scaleb(_DECIMAL[text[-1]])
        return Decimal(text)  # a plain number or the exponent form: 1e3, 1.5E-3
    except InvalidOperation:
        raise ValueError(f"{quantity!r} is not a quantity") from None


Quantity = Annotated[
    int | str,
    BeforeValidator(_check_quantity),
    # The schema Kubernetes tooling (controller-gen) writes for resource.Quantity.
    WithJsonSchema(
        {
            "anyOf": [{"type": "integer"}, {"type": "string"}],
            "pattern": QUANTITY,
            "x-kubernetes-int-or-string": True,
        }
    ),
]
LabelValue = Annotated[str, StringConstraints(max_length=63, pattern=LABEL_VALUE)]
ObjectName = Annotated[str, StringConstraints(min_length=1, max_length=253, pattern=DNS_SUBDOMAIN)]


def _check_qualified_names(names: dict[str, Any], what: str) -> None:
    for name in names:
        if len(name) > 316 or not _QUALIFIED_NAME_RE.match(name):
            raise ValueError(f"{name!r} is not a valid {what} (`[prefix/]name`)")


class ResourceRequirements(CamelModel):
    """Kubernetes compute resources of the runner container (cluster only)."""

    requests: dict[str, Quantity] = Field(
        default_factory=dict, description='Minimum resources, e.g. {"cpu": "2", "memory": "8Gi"}.'
    )
    limits: dict[str, Quantity] = Field(
        default_factory=dict, description='Maximum resources, e.g. {"nvidia.com/gpu": 1}.'
    )

    @field_validator("requests", "limits")
    @classmethod
    def _resource_names(cls, value: dict[str, Any]) -> dict[str, Any]:
        _check_qualified_names(value, "resource name")
        return value

    @model_validator(mode="after")
    def _requests_within_limits(self) -> ResourceRequirements:
        for name, request in self.requests.items():
            limit = self.limits.get(name)
            if limit is not None and quantity_value(request) > quantity_value(limit):
                raise ValueError(f"requests.{name} ({request}) exceeds limits.{name} ({limit})")
        return self


class TolerationOperator(StrEnum):
    EXISTS = "Exists"
    EQUAL = "Equal"


class TaintEffect(StrEnum):
    NO_SCHEDULE = "NoSchedule"
    PREFER_NO_SCHEDULE = "PreferNoSchedule"
    NO_EXECUTE = "NoExecute"


class Toleration(CamelModel):
    """A Kubernetes pod toleration for the runner pod (cluster only)."""

    key: str | None = Field(
        default=None,
        max_length=316,
        pattern=QUALIFIED_NAME,
        description="Taint key; empty with operator Exists tolerates every taint.",
    )
    operator: TolerationOperator = TolerationOperator.EQUAL
    value: LabelValue | None = Field(default=None, description="Empty with operator Exists.")
    effect: TaintEffect | None = Field(default=None, description="Empty: every effect.")
    toleration_seconds: int | None = Field(
        default=None, ge=0, description="Only with effect NoExecute: how long the pod stays."
    )

    @model_validator(mode="after")
    def _consistent(self) -> Toleration:
        if self.operator is TolerationOperator.EXISTS and self.value:
            raise ValueError("value must be empty when operator is Exists")
        if self.key is None and self.operator is not TolerationOperator.EXISTS:
            raise ValueError("operator must be Exists when key is empty")
        if self.toleration_seconds is not None and self.effect is not TaintEffect.NO_EXECUTE:
            raise ValueError("tolerationSeconds needs effect NoExecute")
        return self


class InputsVolumeClaim(CamelModel):
    """A PersistentVolumeClaim mounted as the notebook's inputs (cluster only)."""

    claim_name: ObjectName = Field(description="A PVC in the resource's namespace.")
    sub_path: str | None = Field(
        default=None,
        min_length=1,
        pattern=r"^[^/]",
        description="Folder inside the volume to mount (relative, no `..`); default: its root.",
    )
    read_only: bool = Field(default=True, description="Mount read-only (the default).")

    @field_validator("sub_path")
    @classmethod
    def _relative(cls, value: str | None) -> str | None:
        if value is not None and ".." in value.split("/"):
            raise ValueError("subPath cannot contain '..'")
        return value


class ExecutionSpec(CamelModel):
    timeout_seconds: int = Field(default=600, ge=1, le=7 * 24 * 3600)
    # Cluster only: the fields below shape the runner Job; `nbmod modernize` ignores them.
    image: str | None = Field(
        default=None,
        min_length=1,
        pattern=r"^\S+$",
        description=(
            "Cluster only: the notebook's image (e.g. gcr.io/kaggle-images/python): its own"
            " python probes it and runs the kernel; it needs Python >= 3.6 and ipykernel, not"
            " nbmodernizer. Default: the operator's environment image."
        ),
    )
    resources: ResourceRequirements | None = Field(
        default=None,
        description="Cluster only: the runner container's resources (requests/limits).",
    )
    node_selector: dict[str, LabelValue] = Field(
        default_factory=dict, description="Cluster only: node labels the runner pod needs."
    )
    tolerations: list[Toleration] = Field(
        default_factory=list, description="Cluster only: taints the runner pod tolerates."
    )
    priority_class_name: ObjectName | None = Field(
        default=None, description="Cluster only: the runner pod's PriorityClass."
    )
    queue_name: str | None = Field(
        default=None,
        min_length=1,
        max_length=63,
        pattern=DNS_SUBDOMAIN,
        description="Cluster only: the Kueue LocalQueue admitting the runner Jobs; "
        "unset: Jobs start at once.",
    )
    inputs_volume_claim: InputsVolumeClaim | None = Field(
        default=None,
        description="Cluster only: a PVC mounted read-only at /kaggle/input. When set, "
        "the cluster takes the inputs from it and does not fetch spec.inputs; "
        "`nbmod modernize` ignores it and reads spec.inputs.",
    )

    @field_validator("node_selector")
    @classmethod
    def _label_keys(cls, value: dict[str, str]) -> dict[str, str]:
        _check_qualified_names(value, "label key")
        return value


class SecretKeyRef(CamelModel):
    """A key of a Secret in the resource's namespace (cluster only)."""

    name: ObjectName = Field(description="The Secret's name.")
    key: str = Field(
        min_length=1, max_length=253, pattern=r"^[-._a-zA-Z0-9]+$", description="The key in it."
    )


FixerName = Literal["rules", "memory", "llm"]
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
    reasoning_effort: Literal["minimal", "low", "medium", "high"] | None = Field(
        default=None, description="For reasoning models; dropped if the endpoint refuses it."
    )
    max_output_tokens: int = Field(default=8192, ge=1, le=1_000_000)
    mode: Literal["cell", "file"] = Field(
        default="cell",
        description="cell: only the cells needed (escalating once to the whole notebook after "
        "two cell-mode fixes of the same issue did not hold); file: the whole notebook.",
    )
    timeout_seconds: float = Field(default=300, gt=0, le=3600)
    max_retries: int = Field(default=4, ge=0, le=20)
    max_replies: int = Field(
        default=2, ge=1, le=10, description="Replies asked for per fix when one is rejected."
    )
    api_key_secret: SecretKeyRef | None = Field(
        default=None,
        description="Cluster only: the Secret key holding the API key, read by the operator "
        "(never by runner pods). `nbmod modernize` ignores it and reads OPENAI_API_KEY.",
    )


class FixSpec(CamelModel):
    max_iterations: int = Field(default=16, ge=1, le=100)
    fixers: list[FixerName] = Field(default_factory=lambda: list(DEFAULT_FIXERS))
    llm: LLMSpec = Field(default_factory=LLMSpec)
    budget_usd: float | None = Field(
        default=None, ge=0, alias="budgetUSD", description="No LLM call once this is spent."
    )


class RevisionRetention(StrEnum):
    KEEP = "Keep"
    DELETE = "Delete"


class RevisionsSpec(CamelModel):
    """What becomes of the revisions in S3 (cluster only)."""

    retention: RevisionRetention = Field(
        default=RevisionRetention.KEEP,
        description="Cluster only: Keep or Delete the S3 revisions when the resource is "
        "deleted. `nbmod modernize` always keeps its output folder.",
    )


class ModernizationSpec(CamelModel):
    notebook: str = Field(min_length=1, description="s3://bucket/key or a path.")
    inputs: str | None = Field(default=None, description="Directory the notebook reads.")
    score: ScoreSpec
    execution: ExecutionSpec = Field(default_factory=ExecutionSpec)
    fix: FixSpec = Field(default_factory=FixSpec)
    revisions: RevisionsSpec = Field(default_factory=RevisionsSpec)


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
