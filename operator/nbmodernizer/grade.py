"""Grading outside the notebook: submission vs private answers, metric, reproducibility test.

A score reproduces the target s_t when
- runs == 1: |s - s_t| <= tolerance * |s_t| (the paper's relative band, τ = 10%);
- runs > 1: a one-sample t-test of the run scores against s_t does not reject equality
  (p >= pValue); when every run scored the same, the t-test is undefined and the band decides;
  with `runsPolicy: adaptive`, runs that stopped early are judged by `evidence.weigh`.

No ML library is imported (issue #20): the CSV files are read by `table`, the metrics computed
by `scoring`, the t-test by `student_t`, each as pandas, scikit-learn and SciPy did.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from nbmodernizer import scoring
from nbmodernizer.evidence import weigh
from nbmodernizer.scoring import MetricError
from nbmodernizer.spec import Metric, ScoreSpec
from nbmodernizer.status import ScoreResult
from nbmodernizer.store.layout import Oversized
from nbmodernizer.student_t import one_sample_t_test
from nbmodernizer.table import (
    Column,
    CsvError,
    Sheet,
    canonical_id,
    column_kind,
    has_missing,
    read_csv,
    typed_column,
)

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


@dataclass(frozen=True)
class Answers:
    """The private answers: an id per row (unique) and the target columns beside the id
    column, none of them with a missing value."""

    id_column: str
    ids: tuple[str, ...]
    targets: tuple[str, ...]
    columns: tuple[Column, ...]

    def __len__(self) -> int:
        return len(self.ids)


def load_answers(path: Path, id_column: str) -> Answers:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise AnswersError(f"answers file not found: {path}") from None
    return parse_answers(data, id_column, str(path))


def parse_answers(data: bytes, id_column: str, name: str = "answers.csv") -> Answers:
    """The answers in CSV `data` (`name`: the file, for the messages), checked: an id
    column, a target column, unique ids, a row, no missing value."""
    try:
        sheet = read_csv(data)
        rows = list(sheet.rows)
    except CsvError as error:
        raise AnswersError(f"answers file {name} is not a readable CSV: {error}") from None
    header = sheet.header
    if id_column not in header:
        raise AnswersError(
            f"answers file {name} has no id column {id_column!r} "
            f"(columns: {', '.join(header)}); set spec.score.idColumn"
        )
    if len(header) < 2:
        raise AnswersError(f"answers file {name} has no target column beside {id_column!r}")
    id_at = header.index(id_column)
    ids = tuple(canonical_id(row[id_at]) for row in rows)
    if len(set(ids)) < len(ids):
        raise AnswersError(f"answers file {name} repeats ids in column {id_column!r}")
    if not rows:
        raise AnswersError(f"answers file {name} has no rows")
    targets = tuple(column for column in header if column != id_column)
    columns: list[Column] = []
    for target in targets:
        at = header.index(target)
        cells = [row[at] for row in rows]
        if has_missing(cells):
            id_ = next(i for i, cell in zip(ids, cells, strict=True) if has_missing([cell]))
            raise AnswersError(
                f"answers file {name} has no value in column {target!r} for id {id_!r}"
            )
        columns.append(typed_column(cells, column_kind(cells)))
    return Answers(id_column, ids, targets, tuple(columns))


def compute_metric(metric: Metric, truth: Sequence[Column], guess: Sequence[Column]) -> float:
    """`truth`, `guess`: the target column(s), rows aligned; MetricError when the metric
    cannot be computed on them."""
    single = len(truth) == 1
    match metric:
        case Metric.ACCURACY:
            return scoring.accuracy(truth, guess)
        case Metric.F1:
            binary = single and len(set(truth[0].values)) <= 2
            return scoring.f1(truth, guess, "binary" if binary else "macro")
        case Metric.ROC_AUC:
            return scoring.roc_auc(truth, guess)
        case Metric.LOG_LOSS:
            if single:
                return scoring.log_loss(truth[0], guess)
            return scoring.log_loss(scoring.row_argmax(truth), guess, range(len(truth)))
        case Metric.RMSE:
            return math.sqrt(scoring.mean_squared_error(truth, guess))
        case Metric.RMSLE:
            return math.sqrt(scoring.mean_squared_log_error(truth, guess))
        case Metric.MAE:
            return scoring.mean_absolute_error(truth, guess)
        case Metric.R2:
            return scoring.r2(truth, guess)
        case Metric.QWK:
            return scoring.quadratic_weighted_kappa(truth, guess)


def grade_submission(
    submission: Submission,
    answers: Answers,
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
        predicted = _predictions(read_csv(submission), answers, spec)
    except CsvError as error:
        raise SubmissionError(f"{spec.submission} is not a readable CSV: {error}") from None
    try:
        return compute_metric(spec.metric, answers.columns, predicted)
    except MetricError as error:
        raise SubmissionError(f"cannot compute {spec.metric.value}: {error}") from None


def _predictions(sheet: Sheet, answers: Answers, spec: ScoreSpec) -> list[Column]:
    """The submission's target columns, in the answers' row order (CsvError for a malformed
    row). A column's kind is that of all its cells, as pandas types a column, rows the answers
    do not ask for included."""
    id_column, header = answers.id_column, sheet.header
    missing_columns = [c for c in (id_column, *answers.targets) if c not in header]
    if missing_columns:
        raise SubmissionError(
            f"{spec.submission} lacks column(s) {', '.join(missing_columns)} "
            f"(has: {', '.join(header)})"
        )
    id_at = header.index(id_column)
    row_of = {id_: position for position, id_ in enumerate(answers.ids)}
    found: list[list[str] | None] = [None] * len(answers)
    others: list[list[str]] = []  # rows of ids the answers do not ask for
    seen: set[str] = set()
    repeated = False
    for row in sheet.rows:
        id_ = canonical_id(row[id_at])
        if id_ in seen:
            repeated = True
        seen.add(id_)
        position = row_of.get(id_)
        if position is None:
            others.append(row)
        else:
            found[position] = row
    if repeated:
        raise SubmissionError(f"{spec.submission} repeats ids in column {id_column!r}")
    rows = [row for row in found if row is not None]
    if len(rows) < len(found):
        absent = len(found) - len(rows)
        raise SubmissionError(f"{spec.submission} lacks {absent} of {len(answers)} answer ids")
    columns: list[Column] = []
    for target in answers.targets:
        at = header.index(target)
        cells = [row[at] for row in rows]
        if has_missing(cells):
            raise SubmissionError(f"{spec.submission} has empty predictions")
        columns.append(typed_column(cells, column_kind(cells + [row[at] for row in others])))
    return columns


def relative_gap(value: float, target: float) -> float:
    if target == 0:
        return abs(value)
    return abs(value - target) / abs(target)


@dataclass(frozen=True)
class Verdict:
    reproduced: bool
    p_value: float | None


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def reproducibility(values: list[float], spec: ScoreSpec) -> Verdict:
    mean_score = _mean(values)
    in_band = relative_gap(mean_score, spec.target) <= spec.tolerance + 1e-12
    if len(values) < 2 or max(values) == min(values):
        return Verdict(reproduced=in_band, p_value=None)
    p_value = one_sample_t_test(values, spec.target).p_value
    return Verdict(reproduced=p_value >= spec.p_value, p_value=p_value)


def grade_runs(
    submissions: list[Submission],
    answers: Answers,
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
    value = _mean(values)
    return ScoreResult(
        metric=spec.metric,
        target=spec.target,
        value=value,
        values=values,
        reproduced=verdict.reproduced,
        p_value=verdict.p_value,
        relative_gap=relative_gap(value, spec.target),
        evidence=evidence.reason if spec.runs > 1 else None,
    )
