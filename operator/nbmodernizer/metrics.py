"""Prometheus metrics, defined once. No per-notebook labels: fleets have thousands.

Names follow Prometheus conventions (`nbmodernizer_<what>_<unit>_total` for counters).
The drivers call the `observe_*` functions with the engine's own records.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from nbmodernizer.loop import Attempt, LoopState
from nbmodernizer.status import ExecutionStatus, FixRecord, Issue, Phase

REGISTRY = CollectorRegistry(auto_describe=True)

MODERNIZATIONS = Gauge(
    "nbmodernizer_modernizations",
    "Modernizations known to the operator, by phase.",
    ["phase"],
    registry=REGISTRY,
)
OUTCOMES = Counter(
    "nbmodernizer_outcomes_total",
    "Finished modernizations by outcome category.",
    ["outcome"],
    registry=REGISTRY,
)
EXECUTIONS = Counter(
    "nbmodernizer_executions_total",
    "Notebook executions by result: reproducible, error, timeout, score_deviation, infrastructure.",
    ["result"],
    registry=REGISTRY,
)
EXECUTION_SECONDS = Histogram(
    "nbmodernizer_execution_duration_seconds",
    "How long one notebook execution took.",
    buckets=(5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400),
    registry=REGISTRY,
)
NOTEBOOK_ERRORS = Counter(
    "nbmodernizer_notebook_errors_total",
    "Errors raised by notebook cells, by exception name.",
    ["exception"],
    registry=REGISTRY,
)
ENVIRONMENT_FAILURES = Counter(
    "nbmodernizer_environment_failures_total",
    "Modernizations that ended on an error of the environment's (no code change can fix "
    "it), by kind: missing-input, network, broken-package, missing-package.",
    ["kind"],
    registry=REGISTRY,
)
FIXES = Counter(
    "nbmodernizer_fixes_total",
    "Fix attempts by fix type, fixer and result (applied, no_change).",
    ["type", "fixer", "result"],
    registry=REGISTRY,
)
LLM_REQUESTS = Counter(
    "nbmodernizer_llm_requests_total",
    "LLM HTTP requests by model and status (200, 429, 500, timeout, ...).",
    ["model", "status"],
    registry=REGISTRY,
)
LLM_TOKENS = Counter(
    "nbmodernizer_llm_tokens_total",
    "LLM tokens by model and direction (input, output).",
    ["model", "direction"],
    registry=REGISTRY,
)
LLM_COST = Counter(
    "nbmodernizer_llm_cost_usd_total",
    "LLM cost in US dollars by model.",
    ["model"],
    registry=REGISTRY,
)
LLM_SAVED = Counter(
    "nbmodernizer_llm_saved_usd_total",
    "LLM dollars not spent because the fix memory fixed instead (estimated: what the paid "
    "fixes its entries were learnt from cost).",
    registry=REGISTRY,
)
ITERATIONS = Histogram(
    "nbmodernizer_modernization_iterations",
    "Executions per finished modernization.",
    buckets=(1, 2, 3, 4, 6, 8, 12, 16, 24, 32),
    registry=REGISTRY,
)
JOBS_RUNNING = Gauge(
    "nbmodernizer_jobs_running",
    "Runner Jobs created by the operator and not finished.",
    registry=REGISTRY,
)

_EXECUTION_RESULT = {
    Issue.NONE: "reproducible",
    Issue.ERROR: "error",
    Issue.TIMEOUT: "timeout",
    Issue.SCORE_DEVIATION: "score_deviation",
}


def execution_result(attempt: Attempt) -> str:
    if attempt.execution.status is ExecutionStatus.FAILED and attempt.execution.cells_executed == 0:
        return "infrastructure"
    return _EXECUTION_RESULT[attempt.diagnosis.issue]


# An exception's name is the notebook's to choose: a label only if it looks like a class name,
# and only so many of them (each label set is kept for the process's life).
MAX_EXCEPTION_LABELS = 200
_EXCEPTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]{0,79}")
_exception_labels: set[str] = set()


def exception_label(ename: str) -> str:
    if not ename:
        return "unknown"
    if not _EXCEPTION_NAME.fullmatch(ename):
        return "other"
    if ename not in _exception_labels and len(_exception_labels) >= MAX_EXCEPTION_LABELS:
        return "other"
    _exception_labels.add(ename)
    return ename


def observe_attempt(attempt: Attempt) -> None:
    EXECUTIONS.labels(execution_result(attempt)).inc()
    EXECUTION_SECONDS.observe(attempt.execution.duration_seconds)
    for error in attempt.execution.cell_errors:
        NOTEBOOK_ERRORS.labels(exception_label(error.ename)).inc()


def observe_fix(record: FixRecord | None, fixer_names: Iterable[str], fix_type: str) -> None:
    """One round of the fixer chain: the fixer that applied, and those that changed nothing."""
    for name in fixer_names:
        applied = record is not None and record.fixer == name
        FIXES.labels(fix_type, name, "applied" if applied else "no_change").inc()
        if applied:
            if record is not None and record.cost.saved_usd:
                LLM_SAVED.inc(record.cost.saved_usd)
            return


def observe_llm_usage(model: str, input_tokens: int, output_tokens: int, usd: float) -> None:
    LLM_TOKENS.labels(model, "input").inc(input_tokens)
    LLM_TOKENS.labels(model, "output").inc(output_tokens)
    LLM_COST.labels(model).inc(usd)


def observe_llm_request(model: str, status: str) -> None:
    LLM_REQUESTS.labels(model, status).inc()


def observe_finish(state: LoopState) -> None:
    if state.finish is None:
        return
    OUTCOMES.labels(state.finish.outcome.value).inc()
    ITERATIONS.observe(len(state.attempts))
    last = state.attempts[-1].diagnosis if state.attempts else None
    if last is not None and last.environment is not None:
        ENVIRONMENT_FAILURES.labels(last.environment.value).inc()


def initialize() -> None:
    """Create the labelled series a fresh operator would otherwise create on first use, at 0,
    so that `increase()` and `rate()` see their first increments."""
    from nbmodernizer.status import EnvironmentKind, Outcome

    for outcome in Outcome:
        OUTCOMES.labels(outcome.value)
    for kind in EnvironmentKind:
        ENVIRONMENT_FAILURES.labels(kind.value)
    for result in (*_EXECUTION_RESULT.values(), "infrastructure"):
        EXECUTIONS.labels(result)
    set_phases({})


def set_phases(counts: dict[Phase, int]) -> None:
    for phase in Phase:
        MODERNIZATIONS.labels(phase.value).set(counts.get(phase, 0))
