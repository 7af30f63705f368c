"""Grading outside the notebook: submission vs private answers, metric, reproducibility test.

A score reproduces the target s_t when
- runs == 1: |s - s_t| <= tolerance * |s_t| (the paper's relative band, τ = 10%);
- runs > 1: a one-sample t-test of the run scores against s_t does not reject equality
  (p >= pValue); when every run scored the same, the t-test is undefined and the band decides;
  with `runsPolicy: adaptive`, runs that stopped early are judged by `evidence.weigh`.
"""

from __future__ import annotations

import importlib
import io
import math
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from nbmodernizer.evidence import weigh
from nbmodernizer.spec import Metric, ScoreSpec
from nbmodernizer.status import ScoreResult
from nbmodernizer.store.layout import Oversized

HIGHER_IS_BETTER = {
    Metric.ACCURACY: True,
    Metric.ROC_AUC: True,
    Metric.LOG_LOSS: False,
    Metric.F1: True,
    Metric.RMSE: False,
    Metric.RMSLE: False,
    Metric.MAE: False,
    Metric.R2: True,
    Metric.QWK: True,
}


class AnswersError(Exception):
    """The private answers cannot be used (missing file, no id column, no target column)."""


class SubmissionError(Exception):
    """The notebook's submission cannot be graded; the message says why."""


# A submission is untrusted output: bounded before it is read (bytes) and before it is parsed
# (rows, counted by streaming its line ends). Larger ones are an Error with that reason.
DEFAULT_MAX_SUBMISSION_BYTES = 200 * 10**6
DEFAULT_MAX_SUBMISSION_ROWS = 10_000_000
MAX_HEADER_BYTES = 2**20
MAX_SUBMISSION_COLUMNS = 10_000


@dataclass(frozen=True)
class SubmissionLimits:
    max_bytes: int = DEFAULT_MAX_SUBMISSION_BYTES
    max_rows: int = DEFAULT_MAX_SUBMISSION_ROWS


def oversize_reason(name: str, size: int, limits: SubmissionLimits) -> str:
    return (
        f"{name} is {size} bytes, more than the {limits.max_bytes} allowed (max submission bytes)"
    )


# What a run wrote as its submission: its bytes, the size of one too large to read, or None.
Submission = bytes | Oversized | None


def read_submission_file(path: Path, limits: SubmissionLimits) -> Submission:
    """A submission's bytes, without reading one past the size limit (its size then); None
    when there is none."""
    if not path.is_file():
        return None
    size = path.stat().st_size
    if size > limits.max_bytes:
        return Oversized(size)
    with path.open("rb") as handle:
        return handle.read(limits.max_bytes + 1)


def _check_bounds(data: bytes, spec: ScoreSpec, limits: SubmissionLimits) -> None:
    if len(data) > limits.max_bytes:
        raise SubmissionError(oversize_reason(spec.submission, len(data), limits))
    header_end = data.find(b"\n", 0, MAX_HEADER_BYTES + 1)
    header = data[: MAX_HEADER_BYTES + 1] if header_end < 0 else data[:header_end]
    if len(header) > MAX_HEADER_BYTES or header.count(b",") >= MAX_SUBMISSION_COLUMNS:
        raise SubmissionError(
            f"{spec.submission}'s header is longer than {MAX_HEADER_BYTES} bytes or has "
            f"more than {MAX_SUBMISSION_COLUMNS} columns"
        )
    if data.count(b"\n") > limits.max_rows + 1:  # + the header
        raise SubmissionError(
            f"{spec.submission} has more than {limits.max_rows} rows (max submission rows)"
        )


def load_answers(path: Path, id_column: str) -> pd.DataFrame:
    try:
        answers = pd.read_csv(path)
    except FileNotFoundError:
        raise AnswersError(f"answers file not found: {path}") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
        raise AnswersError(f"answers file {path} is not a readable CSV: {error}") from None
    if id_column not in answers.columns:
        raise AnswersError(
            f"answers file {path} has no id column {id_column!r} "
            f"(columns: {', '.join(map(str, answers.columns))}); set spec.score.idColumn"
        )
    if len(answers.columns) < 2:
        raise AnswersError(f"answers file {path} has no target column beside {id_column!r}")
    if answers[id_column].duplicated().any():
        raise AnswersError(f"answers file {path} repeats ids in column {id_column!r}")
    return answers


def _multi_class_labels(frame: pd.DataFrame) -> np.ndarray[Any, Any]:
    labels: np.ndarray[Any, Any] = frame.to_numpy().argmax(axis=1)
    return labels


# scikit-learn and SciPy take about a second to import; the drivers import them on a thread
# while the kernel runs (see `prewarm`), so grading adds no start-up time to an iteration.
_HEAVY_MODULES = ("sklearn.metrics", "scipy.stats")


def import_grading_libraries() -> None:
    for name in _HEAVY_MODULES:
        importlib.import_module(name)


def prewarm() -> None:
    """Start importing the grading libraries in the background."""
    threading.Thread(
        target=import_grading_libraries, name="nbmod-prewarm-grading", daemon=True
    ).start()


def compute_metric(metric: Metric, y_true: pd.DataFrame, y_pred: pd.DataFrame) -> float:
    """`y_true`, `y_pred`: the target column(s), rows aligned."""
    from sklearn import metrics as skm

    single = y_true.shape[1] == 1
    truth = y_true.iloc[:, 0].to_numpy() if single else y_true.to_numpy()
    guess = y_pred.iloc[:, 0].to_numpy() if single else y_pred.to_numpy()
    match metric:
        case Metric.ACCURACY:
            return float(skm.accuracy_score(truth, guess))
        case Metric.F1:
            average = "binary" if single and len(np.unique(truth)) <= 2 else "macro"
            return float(skm.f1_score(truth, guess, average=average))
        case Metric.ROC_AUC:
            return float(skm.roc_auc_score(truth, guess))
        case Metric.LOG_LOSS:
            labels = truth if single else _multi_class_labels(y_true)
            return float(
                skm.log_loss(labels, guess, labels=None if single else range(y_true.shape[1]))
            )
        case Metric.RMSE:
            return float(math.sqrt(skm.mean_squared_error(truth, guess)))
        case Metric.RMSLE:
            return float(math.sqrt(skm.mean_squared_log_error(truth, guess)))
        case Metric.MAE:
            return float(skm.mean_absolute_error(truth, guess))
        case Metric.R2:
            return float(skm.r2_score(truth, guess))
        case Metric.QWK:
            return float(skm.cohen_kappa_score(truth, guess, weights="quadratic"))


def grade_submission(
    submission: Submission,
    answers: pd.DataFrame,
    spec: ScoreSpec,
    limits: SubmissionLimits | None = None,
) -> float:
    """Score one submission; SubmissionError says why it cannot be scored."""
    limits = limits or SubmissionLimits()
    if submission is None:
        raise SubmissionError(f"the notebook did not write {spec.submission}")
    if isinstance(submission, Oversized):
        raise SubmissionError(oversize_reason(spec.submission, submission.size, limits))
    _check_bounds(submission, spec, limits)
    try:
        submitted = pd.read_csv(io.BytesIO(submission))
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
        raise SubmissionError(f"{spec.submission} is not a readable CSV: {error}") from None
    id_column = spec.id_column
    targets = [c for c in answers.columns if c != id_column]
    missing_columns = [c for c in [id_column, *targets] if c not in submitted.columns]
    if missing_columns:
        raise SubmissionError(
            f"{spec.submission} lacks column(s) {', '.join(map(str, missing_columns))} "
            f"(has: {', '.join(map(str, submitted.columns))})"
        )
    if submitted[id_column].duplicated().any():
        raise SubmissionError(f"{spec.submission} repeats ids in column {id_column!r}")
    truth_ids = answers[id_column].astype(str)
    merged = answers.assign(**{id_column: truth_ids}).merge(
        submitted.assign(**{id_column: submitted[id_column].astype(str)}),
        on=id_column,
        how="left",
        suffixes=("_true", "_pred"),
        indicator=True,
    )
    absent = int((merged["_merge"] == "left_only").sum())
    if absent:
        raise SubmissionError(f"{spec.submission} lacks {absent} of {len(answers)} answer ids")
    true_cols = [f"{c}_true" for c in targets]
    pred_cols = [f"{c}_pred" for c in targets]
    predicted = merged[pred_cols]
    if predicted.isna().to_numpy().any():
        raise SubmissionError(f"{spec.submission} has empty predictions")
    try:
        return compute_metric(spec.metric, merged[true_cols], predicted)
    except (ValueError, TypeError) as error:
        raise SubmissionError(f"cannot compute {spec.metric.value}: {error}") from None


def relative_gap(value: float, target: float) -> float:
    if target == 0:
        return abs(value)
    return abs(value - target) / abs(target)


@dataclass(frozen=True)
class Verdict:
    reproduced: bool
    p_value: float | None


def reproducibility(values: list[float], spec: ScoreSpec) -> Verdict:
    mean = float(np.mean(values))
    in_band = relative_gap(mean, spec.target) <= spec.tolerance + 1e-12
    if len(values) < 2 or max(values) == min(values):
        return Verdict(reproduced=in_band, p_value=None)
    from scipy import stats

    test = stats.ttest_1samp(values, spec.target)
    p_value = float(test.pvalue)
    return Verdict(reproduced=p_value >= spec.p_value, p_value=p_value)


def grade_runs(
    submissions: list[Submission],
    answers: pd.DataFrame,
    spec: ScoreSpec,
    limits: SubmissionLimits | None = None,
) -> ScoreResult:
    """The score of a revision's runs from their submissions; the first that cannot be graded
    fails them all."""
    values: list[float] = []
    for submission in submissions:
        try:
            values.append(grade_submission(submission, answers, spec, limits))
        except SubmissionError as error:
            return score_runs(values, str(error), spec)
    return score_runs(values, None, spec)


def score_runs(values: list[float], failure: str | None, spec: ScoreSpec) -> ScoreResult:
    """The ScoreResult of a revision from its runs' scores (any failed run fails the check)."""
    if failure is not None or not values:
        return ScoreResult(
            metric=spec.metric, target=spec.target, values=values, reason=failure or "no runs"
        )
    evidence = weigh(values, spec)
    if evidence.early:
        assert evidence.reproduced is not None
        verdict = Verdict(reproduced=evidence.reproduced, p_value=None)
    else:
        verdict = reproducibility(values, spec)
    mean = float(np.mean(values))
    return ScoreResult(
        metric=spec.metric,
        target=spec.target,
        value=mean,
        values=values,
        reproduced=verdict.reproduced,
        p_value=verdict.p_value,
        relative_gap=relative_gap(mean, spec.target),
        evidence=evidence.reason if spec.runs > 1 else None,
    )
