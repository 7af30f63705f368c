"""The operator's settings: flags first, then NBMOD_* environment variables, then defaults.

| flag                    | environment                   | default                          |
|-------------------------|-------------------------------|----------------------------------|
| --namespace NS (repeat) | NBMOD_NAMESPACES (comma list) | all namespaces                   |
| --s3-bucket             | NBMOD_S3_BUCKET               | (required)                       |
| --s3-prefix             | NBMOD_S3_PREFIX               | nbmodernizer                     |
| --s3-endpoint           | AWS_ENDPOINT_URL_S3           | AWS S3                           |
| --runner-s3-endpoint    | NBMOD_RUNNER_S3_ENDPOINT      | --s3-endpoint (the pods' view)   |
| --s3-secret             | NBMOD_S3_SECRET               | none: pods get pre-signed grants |
|                         |                               | only; a name is the opt-out for a|
|                         |                               | store that cannot pre-sign (the  |
|                         |                               | pods then hold that Secret's keys)|
| --max-input-files       | NBMOD_MAX_INPUT_FILES         | 1000 (inputs granted to one Job) |
| --max-input-bytes       | NBMOD_MAX_INPUT_BYTES         | 20 GiB (their total size)        |
| --max-submission-bytes  | NBMOD_MAX_SUBMISSION_BYTES    | 200 MB (a larger one is an Error)|
| --max-submission-rows   | NBMOD_MAX_SUBMISSION_ROWS     | 10,000,000                       |
| --runner-image          | NBMOD_RUNNER_IMAGE            | ghcr.io/nbmodernizer/runner:0.1.0|
| --environment-image     | NBMOD_ENVIRONMENT_IMAGE       | the runner image (the notebook's |
|                         |                               | image when execution.image is    |
|                         |                               | unset: ghcr.io/nbmodernizer/     |
|                         |                               | environment in the chart)        |
| --runner-defaults JSON  | NBMOD_RUNNER_DEFAULTS         | none (resources, nodeSelector,   |
|                         |                               | tolerations for resources that   |
|                         |                               | set none: e.g. a GPU per Job)    |
| --max-concurrent-jobs   | NBMOD_MAX_CONCURRENT_JOBS     | 20                               |
| --max-parallel-runs     | NBMOD_MAX_PARALLEL_RUNS       | 4 (pods of one Indexed Job at    |
|                         |                               | once: score.runs > 1)            |
| --metrics-port          | NBMOD_METRICS_PORT            | 9090 (0: off)                    |
| --health-port           | NBMOD_HEALTH_PORT             | 8080 (kopf's liveness endpoint)  |
| --workers               | NBMOD_WORKERS                 | 8 (modernizations handled at once)|
| --store-retries         | NBMOD_STORE_RETRIES           | 5 (S3 failures before Failed)    |
| --store-cache-mib       | NBMOD_STORE_CACHE_MIB         | 64 (revision files kept; 0: off) |
| --retry-seconds         | NBMOD_RETRY_SECONDS           | 30                               |
| --deadline-margin-seconds | NBMOD_DEADLINE_MARGIN_SECONDS | 120 (added to timeout x runs) |
| --fix-memory            | NBMOD_FIX_MEMORY              | s3://<bucket>/<prefix>/fix-memory/ |
|                         |                               | (a folder or s3:// prefix; off)  |
| --llm-budget-usd-per-hour | NBMOD_LLM_BUDGET_USD_PER_HOUR | none (the fleet's LLM dollars  |
|                         |                               | per hour; past it fixes wait)    |
| --llm-budget-usd        | NBMOD_LLM_BUDGET_USD          | none (in total, this operator)   |
| --leader-election       | NBMOD_LEADER_ELECTION=true    | off (one replica)                |
| --lease-namespace       | NBMOD_LEASE_NAMESPACE         | POD_NAMESPACE, else the first    |
|                         |                               | watched namespace, else default  |
| --lease-seconds         | NBMOD_LEASE_SECONDS           | 15 (a standby takes over after)  |
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from nbmodernizer.cluster.jobs import JobSettings, parse_runner_defaults
from nbmodernizer.grade import (
    DEFAULT_MAX_SUBMISSION_BYTES,
    DEFAULT_MAX_SUBMISSION_ROWS,
    SubmissionLimits,
)
from nbmodernizer.spec import ExecutionSpec
from nbmodernizer.store.grants import DEFAULT_MAX_INPUT_BYTES, DEFAULT_MAX_INPUT_FILES

DEFAULT_RUNNER_IMAGE = "ghcr.io/nbmodernizer/runner:0.1.0"


@dataclass(frozen=True)
class OperatorSettings:
    s3_bucket: str
    s3_prefix: str = "nbmodernizer"
    s3_endpoint: str | None = None
    # Where the runner pods reach the same store, when their address differs from the
    # operator's (an operator outside the cluster, a MinIO behind a NodePort). None: s3_endpoint.
    runner_s3_endpoint: str | None = None
    # The opt-out from grants: runner pods take S3 keys from this Secret. None: grants only.
    s3_secret: str | None = None
    max_input_files: int = DEFAULT_MAX_INPUT_FILES
    max_input_bytes: int = DEFAULT_MAX_INPUT_BYTES
    max_submission_bytes: int = DEFAULT_MAX_SUBMISSION_BYTES
    max_submission_rows: int = DEFAULT_MAX_SUBMISSION_ROWS
    runner_image: str = DEFAULT_RUNNER_IMAGE
    environment_image: str | None = None  # the notebook's default image; None: the runner's
    runner_defaults: ExecutionSpec = field(default_factory=ExecutionSpec)
    namespaces: tuple[str, ...] = ()  # empty: every namespace
    max_concurrent_jobs: int = 20
    max_parallel_runs: int = 4  # an iteration's runs executing at once (its Job's parallelism)
    metrics_port: int = 9090
    health_port: int = 8080
    workers: int = 8
    store_retries: int = 5
    store_cache_mib: int = 64
    retry_seconds: float = 30.0
    deadline_margin_seconds: int = 120
    fix_memory: str = "off"  # the fix memory's folder or s3:// prefix; "off": none
    # Several replicas, one active: the holder of a Lease (cluster/leader.py).
    llm_budget_usd_per_hour: float | None = None
    llm_budget_usd: float | None = None
    leader_election: bool = False
    lease_namespace: str = "default"
    lease_seconds: float = 15.0

    def submission_limits(self) -> SubmissionLimits:
        return SubmissionLimits(self.max_submission_bytes, self.max_submission_rows)

    def jobs(self) -> JobSettings:
        return JobSettings(
            max_submission_bytes=self.max_submission_bytes,
            runner_image=self.runner_image,
            environment_image=self.environment_image,
            s3_bucket=self.s3_bucket,
            s3_credentials_secret=self.s3_secret,
            s3_prefix=self.s3_prefix,
            s3_endpoint_url=self.runner_s3_endpoint or self.s3_endpoint,
            deadline_margin_seconds=self.deadline_margin_seconds,
            runner_defaults=self.runner_defaults,
            max_parallel_runs=self.max_parallel_runs,
        )


@dataclass(frozen=True)
class OperatorFlags:
    """What the command line gave (`nbmod operator --...`); None: not given, so the NBMOD_*
    variable or the default decides (`from_flags`)."""

    namespaces: tuple[str, ...] | None = None
    all_namespaces: bool = False
    s3_bucket: str | None = None
    s3_prefix: str | None = None
    s3_endpoint: str | None = None
    runner_s3_endpoint: str | None = None
    s3_secret: str | None = None
    max_input_files: int | None = None
    max_input_bytes: int | None = None
    max_submission_bytes: int | None = None
    max_submission_rows: int | None = None
    runner_image: str | None = None
    environment_image: str | None = None
    runner_defaults: str | None = None
    max_concurrent_jobs: int | None = None
    max_parallel_runs: int | None = None
    metrics_port: int | None = None
    health_port: int | None = None
    workers: int | None = None
    store_retries: int | None = None
    store_cache_mib: int | None = None
    retry_seconds: float | None = None
    deadline_margin_seconds: int | None = None
    fix_memory: str | None = None
    llm_budget_usd_per_hour: float | None = None
    llm_budget_usd: float | None = None
    leader_election: bool | None = None
    lease_namespace: str | None = None
    lease_seconds: float | None = None


class SettingsError(ValueError):
    """A setting is missing or malformed; the message names the flag and variable."""


def _pick(flag: object, variable: str, default: str | None = None) -> str | None:
    if flag is not None:
        return str(flag)
    return os.environ.get(variable) or default


def _number(flag: object, variable: str, default: float, name: str) -> float:
    value = _pick(flag, variable)
    if value is None:
        return default
    try:
        return float(value)
    except ValueError:
        raise SettingsError(f"{name} / {variable}: not a number: {value!r}") from None


def _optional_number(flag: object, variable: str, name: str) -> float | None:
    if _pick(flag, variable) is None:
        return None
    value = _number(flag, variable, 0.0, name)
    if value < 0:
        raise SettingsError(f"{name} / {variable}: must be 0 or more, not {value:g}")
    return value


def from_flags(flags: OperatorFlags) -> OperatorSettings:
    bucket = _pick(flags.s3_bucket, "NBMOD_S3_BUCKET")
    if not bucket:
        raise SettingsError("--s3-bucket / NBMOD_S3_BUCKET: required (where revisions live)")
    if flags.all_namespaces:
        namespaces: tuple[str, ...] = ()
    elif flags.namespaces:
        namespaces = tuple(flags.namespaces)
    else:
        listed = os.environ.get("NBMOD_NAMESPACES", "")
        namespaces = tuple(n.strip() for n in listed.split(",") if n.strip())
    secret = _pick(flags.s3_secret, "NBMOD_S3_SECRET")
    try:
        defaults = parse_runner_defaults(
            _pick(flags.runner_defaults, "NBMOD_RUNNER_DEFAULTS") or "",
            "--runner-defaults / NBMOD_RUNNER_DEFAULTS",
        )
    except ValueError as e:
        raise SettingsError(str(e)) from None
    prefix = _pick(flags.s3_prefix, "NBMOD_S3_PREFIX", "nbmodernizer") or ""
    memory = "/".join(p for p in (f"s3://{bucket}", prefix.strip("/"), "fix-memory") if p) + "/"
    settings = OperatorSettings(
        s3_bucket=bucket,
        s3_prefix=prefix,
        s3_endpoint=_pick(flags.s3_endpoint, "AWS_ENDPOINT_URL_S3"),
        runner_s3_endpoint=_pick(flags.runner_s3_endpoint, "NBMOD_RUNNER_S3_ENDPOINT"),
        s3_secret=secret or None,
        runner_image=_pick(flags.runner_image, "NBMOD_RUNNER_IMAGE", DEFAULT_RUNNER_IMAGE)
        or DEFAULT_RUNNER_IMAGE,
        environment_image=_pick(flags.environment_image, "NBMOD_ENVIRONMENT_IMAGE"),
        runner_defaults=defaults,
        max_input_files=int(
            _number(
                flags.max_input_files,
                "NBMOD_MAX_INPUT_FILES",
                DEFAULT_MAX_INPUT_FILES,
                "--max-input-files",
            )
        ),
        max_input_bytes=int(
            _number(
                flags.max_input_bytes,
                "NBMOD_MAX_INPUT_BYTES",
                DEFAULT_MAX_INPUT_BYTES,
                "--max-input-bytes",
            )
        ),
        max_submission_bytes=int(
            _number(
                flags.max_submission_bytes,
                "NBMOD_MAX_SUBMISSION_BYTES",
                DEFAULT_MAX_SUBMISSION_BYTES,
                "--max-submission-bytes",
            )
        ),
        max_submission_rows=int(
            _number(
                flags.max_submission_rows,
                "NBMOD_MAX_SUBMISSION_ROWS",
                DEFAULT_MAX_SUBMISSION_ROWS,
                "--max-submission-rows",
            )
        ),
        namespaces=namespaces,
        max_concurrent_jobs=int(
            _number(
                flags.max_concurrent_jobs, "NBMOD_MAX_CONCURRENT_JOBS", 20, "--max-concurrent-jobs"
            )
        ),
        max_parallel_runs=int(
            _number(flags.max_parallel_runs, "NBMOD_MAX_PARALLEL_RUNS", 4, "--max-parallel-runs")
        ),
        metrics_port=int(_number(flags.metrics_port, "NBMOD_METRICS_PORT", 9090, "--metrics-port")),
        health_port=int(_number(flags.health_port, "NBMOD_HEALTH_PORT", 8080, "--health-port")),
        workers=int(_number(flags.workers, "NBMOD_WORKERS", 8, "--workers")),
        store_retries=int(
            _number(flags.store_retries, "NBMOD_STORE_RETRIES", 5, "--store-retries")
        ),
        store_cache_mib=int(
            _number(flags.store_cache_mib, "NBMOD_STORE_CACHE_MIB", 64, "--store-cache-mib")
        ),
        retry_seconds=_number(flags.retry_seconds, "NBMOD_RETRY_SECONDS", 30.0, "--retry-seconds"),
        deadline_margin_seconds=int(
            _number(
                flags.deadline_margin_seconds,
                "NBMOD_DEADLINE_MARGIN_SECONDS",
                120,
                "--deadline-margin-seconds",
            )
        ),
        fix_memory=_pick(flags.fix_memory, "NBMOD_FIX_MEMORY", memory) or memory,
        llm_budget_usd_per_hour=_optional_number(
            flags.llm_budget_usd_per_hour,
            "NBMOD_LLM_BUDGET_USD_PER_HOUR",
            "--llm-budget-usd-per-hour",
        ),
        llm_budget_usd=_optional_number(
            flags.llm_budget_usd, "NBMOD_LLM_BUDGET_USD", "--llm-budget-usd"
        ),
        leader_election=(
            flags.leader_election
            or (_pick(None, "NBMOD_LEADER_ELECTION") or "").lower() in ("1", "true", "yes")
        ),
        lease_namespace=_pick(flags.lease_namespace, "NBMOD_LEASE_NAMESPACE")
        or os.environ.get("POD_NAMESPACE")
        or (namespaces[0] if namespaces else "default"),
        lease_seconds=_number(flags.lease_seconds, "NBMOD_LEASE_SECONDS", 15.0, "--lease-seconds"),
    )
    if settings.lease_seconds < 3:
        raise SettingsError("--lease-seconds / NBMOD_LEASE_SECONDS must be at least 3")
    if settings.store_cache_mib < 0:
        raise SettingsError("--store-cache-mib must be 0 (off) or more")
    if min(settings.max_concurrent_jobs, settings.workers, settings.max_parallel_runs) < 1:
        raise SettingsError(
            "--max-concurrent-jobs, --max-parallel-runs and --workers must be at least 1"
        )
    settings.jobs()  # validates bucket and prefix
    return settings
