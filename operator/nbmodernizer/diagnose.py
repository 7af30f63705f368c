"""Execution + score -> the issue to fix and the paper's outcome category. Pure.

An error that no change to the code can repair is marked as the environment's: a file the
inputs do not have (half of the real first errors in `corpus/census.csv`: a dataset the
notebook had attached on Kaggle), a download (runs have no network), an installed package
that does not import, a module of a known package the image lacks (`cv2`: install
opencv-python-headless; an LLM would delete the import). The rules may still fix paths; no
LLM is paid for it.
"""

from __future__ import annotations

import posixpath
import re

from nbmodernizer.known_packages import distribution_providing
from nbmodernizer.status import (
    CellError,
    Diagnosis,
    EnvironmentKind,
    ExecutionResult,
    ExecutionStatus,
    FixType,
    Issue,
    Outcome,
    ScoreResult,
)

FIX_FOR_ISSUE = {
    Issue.TIMEOUT: FixType.RUNTIME_REDUCTION,
    Issue.ERROR: FixType.ERROR_REPAIR,
    Issue.SCORE_DEVIATION: FixType.SCORE_CALIBRATION,
}


def outcome_of(execution: ExecutionResult, score: ScoreResult) -> Outcome:
    if execution.status is ExecutionStatus.FAILED and execution.cells_executed == 0:
        return Outcome.FAILED
    if score.reproduced:
        return (
            Outcome.ERROR_REPRODUCIBLE if execution.has_errors else Outcome.ERROR_FREE_REPRODUCIBLE
        )
    if execution.has_errors:
        return Outcome.ERROR_NON_REPRODUCIBLE
    return Outcome.ERROR_FREE_NON_REPRODUCIBLE


def _first_error(execution: ExecutionResult) -> str:
    if execution.failure:
        return execution.failure
    error = execution.cell_errors[0]
    return f"cell {error.cell_index}: {error.ename}: {error.evalue}".strip()


def _gap(score: ScoreResult) -> str:
    return (
        f"{score.metric.value} {score.value:.6g} vs target {score.target:.6g}"
        f" (relative gap {score.relative_gap or 0.0:.1%})"
    )


# `../input/x`, `/kaggle/input/x`, or the real folder a Kaggle path was mapped to
_UNDER_INPUTS = re.compile(r"(?:^|/)input/(?P<rest>.+)$")
_QUOTED_PATH = re.compile(r"""['"]([^'"]+)['"]""")
_NETWORK_ERRORS = frozenset(
    {
        "URLError",
        "HTTPError",
        "ConnectionError",
        "ConnectTimeout",
        "ReadTimeout",
        "MaxRetryError",
        "NewConnectionError",
        "gaierror",
        "SSLError",
        "RemoteDisconnected",
        "ConnectionRefusedError",
    }
)
_NO_NETWORK = re.compile(
    r"Name or service not known|Temporary failure in name resolution|"
    r"Failed to establish a new connection|Network is unreachable|nodename nor servname"
)
_HOST = re.compile(r"https?://([^/\s'\"]+)|host='([^']+)'")
# Kaggle's own services (KaggleDatasets().get_gcs_path(), UserSecretsClient) answer only inside
# a Kaggle session (census: plant-pathology-2020-fgvc7, kaggle_datasets' BackendError)
_KAGGLE_SERVICE = re.compile(r"Unexpected response from the service.*Unauthenticated")
# protobuf in the image does not match TensorFlow's generated code (31% of the census)
_BROKEN_PROTOBUF = re.compile(
    r"has no attribute 'GetPrototype'|cannot import name '_message' from 'google\.protobuf"
    r"|cannot import name 'runtime_version' from 'google\.protobuf'"
)

# a module, not a name in one (`cannot import name 'x' from 'm'` is the code's drift)
_NO_MODULE = re.compile(r"^No module named '(?P<module>[\w.]+)'")


def environment_problem(
    execution: ExecutionResult, error: CellError
) -> tuple[EnvironmentKind, str] | None:
    """The environment's share of an error, if no change to the code can repair it."""
    if error.ename in ("FileNotFoundError", "OSError", "IOError") or (
        "No such file or directory" in error.evalue
    ):
        return _missing_input(execution, error)
    if error.ename in _NETWORK_ERRORS or _NO_NETWORK.search(error.evalue):
        host = _HOST.search(error.evalue)
        where = f" from {host.group(1) or host.group(2)}" if host else ""
        return EnvironmentKind.NETWORK, (
            f"the notebook downloads{where} ({error.ename}); runs have no network"
        )
    if error.ename == "BackendError" and _KAGGLE_SERVICE.search(error.evalue):
        return EnvironmentKind.NETWORK, (
            "the notebook asks Kaggle's service (kaggle_datasets / kaggle_secrets), which answers "
            "only inside a Kaggle session (BackendError: Unauthenticated)"
        )
    if error.ename in ("ModuleNotFoundError", "ImportError"):
        missing = _NO_MODULE.match(error.evalue)
        if missing is not None:
            return _missing_package(missing.group("module"))
    if _BROKEN_PROTOBUF.search(error.evalue):
        return EnvironmentKind.BROKEN_PACKAGE, (
            f"protobuf in the image does not match TensorFlow ({error.ename}: {error.evalue[:120]})"
        )
    return None


def _missing_package(module: str) -> tuple[EnvironmentKind, str] | None:
    """A module no installed package provides, named by the distribution that does. A dotted
    name means its package imports but lacks the submodule (`sklearn.cross_validation`):
    code drift, unless the name is a namespace package's the map lists (`google.protobuf`)."""
    distribution = distribution_providing(module)
    if distribution is None:
        return None  # a Kaggle-only helper, the author's own file: the fixers' business
    return EnvironmentKind.MISSING_PACKAGE, (
        f"missing package: `{module}` is provided by `{distribution}`, which the environment "
        f"lacks; add it to the environment image (spec.execution.image)"
    )


def _missing_input(
    execution: ExecutionResult, error: CellError
) -> tuple[EnvironmentKind, str] | None:
    """A path under the inputs that no input file answers to, not even by its name alone
    (then the rules or an LLM can point the code at it)."""
    quoted = _QUOTED_PATH.findall(error.evalue)
    paths = [p for p in quoted if _UNDER_INPUTS.search(p)]
    if not paths or execution.inputs_total > len(execution.inputs):
        return None  # not an input, or the inputs are listed in part: cannot tell
    path = paths[-1]
    name = posixpath.basename(path.rstrip("/"))
    match = _UNDER_INPUTS.search(path)
    path = f"../input/{match.group('rest')}" if match else path
    if any(posixpath.basename(found.path) == name for found in execution.inputs):
        return None
    if _in_another_form(name, execution):
        return None
    listed = ", ".join(found.path for found in execution.inputs[:5]) or "none"
    more = ", …" if len(execution.inputs) > 5 else ""
    return EnvironmentKind.MISSING_INPUT, (
        f"missing input: {path} is not among the inputs (spec.inputs has "
        f"{execution.inputs_total} file(s): {listed}{more})"
    )


def _in_another_form(name: str, execution: ExecutionResult) -> bool:
    """`train.zip` where the inputs hold `train/` or `train.csv` (the data prepared unpacked or
    converted, e.g. `sample_submission.parquet` as `.csv`): the code can read that instead."""
    stem, dot, _ = name.partition(".")
    if not dot or not stem:
        return False
    for found in execution.inputs:
        *folders, file = found.path.split("/")
        if stem in folders or file.partition(".")[0] == stem:
            return True
    return False


def diagnose(execution: ExecutionResult, score: ScoreResult) -> Diagnosis:
    outcome = outcome_of(execution, score)
    if execution.status is ExecutionStatus.TIMEOUT:
        issue = Issue.TIMEOUT
        detail = execution.failure or (
            f"stopped at cell {execution.timed_out_cell} after {execution.duration_seconds:.0f}s"
        )
    elif execution.status is ExecutionStatus.FAILED or execution.cell_errors:
        issue, detail = Issue.ERROR, _first_error(execution)
        found = (
            environment_problem(execution, execution.cell_errors[0])
            if execution.cell_errors and not execution.failure
            else None
        )
        if found is not None:
            kind, why = found
            return Diagnosis(
                issue=issue,
                fix_type=FIX_FOR_ISSUE[issue],
                detail=f"cell {execution.cell_errors[0].cell_index}: {why}",
                outcome=outcome,
                environment=kind,
            )
    elif score.value is None:
        issue, detail = Issue.ERROR, score.reason or "no score"
    elif not score.reproduced:
        issue, detail = Issue.SCORE_DEVIATION, _gap(score)
    else:
        return Diagnosis(issue=Issue.NONE, detail=_gap(score), outcome=outcome)
    return Diagnosis(issue=issue, fix_type=FIX_FOR_ISSUE[issue], detail=detail, outcome=outcome)
