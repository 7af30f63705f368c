"""The nine metrics of `spec.Metric` in pure Python, computed as scikit-learn computes them.

Each metric takes target columns, rows aligned: the answers' (`truth`) and a submission's
(`guess`). One column is a 1-D target (a label or a score per row), several a 2-D one (an
indicator matrix, one column per class), as scikit-learn reads a 1-D array and a 2-D one. A
metric returns what scikit-learn's function of the same name returns for the same arrays, NaN
where it returns NaN (ROC AUC of one class, R² of one row, kappa of one label), and raises
MetricError where it raises ValueError or TypeError, with its reason;
tests/test_scoring_differential.py holds them to it.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterable, Sequence
from itertools import compress, repeat
from operator import not_
from typing import Literal

from nbmodernizer.table import Column, Labels, Numbers

Value = float | str

# the types of target scikit-learn tells apart (sklearn.utils.multiclass.type_of_target)
BINARY = "binary"
MULTICLASS = "multiclass"
CONTINUOUS = "continuous"
MULTILABEL = "multilabel-indicator"
MULTICLASS_MULTIOUTPUT = "multiclass-multioutput"
CONTINUOUS_MULTIOUTPUT = "continuous-multioutput"

EPS = 2.220446049250313e-16  # float64's machine epsilon: log loss clips probabilities to it


class MetricError(ValueError):
    """The metric cannot be computed on these targets; the message says why."""


def _integral(values: Collection[float]) -> bool:
    """Whether every float survives numpy's cast to int64 and back unchanged."""
    return all(map(float.is_integer, values)) and (
        not values or (min(values) >= -(2**63) and max(values) < 2**63)
    )


def _require_finite(columns: Sequence[Sequence[float]], name: str) -> None:
    if not all(all(map(math.isfinite, column)) for column in columns):
        raise MetricError(f"Input {name} contains NaN or infinity.")


def target_type(columns: Sequence[Column], name: str = "y") -> str:
    """The type of target these columns are, as `type_of_target` says."""
    if len(columns) > 1:
        matrix = _numbers_only(columns, name)
        distinct = {value for column in matrix for value in column}
        if len(distinct) < 3 and _integral(distinct):
            return MULTILABEL
        if not _integral(distinct):
            _require_finite(matrix, name)
            return CONTINUOUS_MULTIOUTPUT
        return MULTICLASS_MULTIOUTPUT
    column = columns[0]
    if isinstance(column, Numbers) and not _integral(column.values):
        _require_finite([column.values], name)
        return CONTINUOUS
    return MULTICLASS if len(set(column.values)) > 2 else BINARY


def _numbers_only(columns: Sequence[Column], name: str) -> list[tuple[float, ...]]:
    """A 2-D target's columns; one of labels beside others is not a 2-D target."""
    numbers: list[tuple[float, ...]] = []
    for column in columns:
        if isinstance(column, Labels):
            raise MetricError(f"{name} has a column of labels: a 2-D target must be numbers")
        numbers.append(column.values)
    return numbers


def numbers(columns: Sequence[Column], name: str) -> list[tuple[float, ...]]:
    """Scores or values as floats (labels converted as numpy converts strings), all finite."""
    matrix: list[tuple[float, ...]] = []
    for column in columns:
        if isinstance(column, Numbers):
            matrix.append(column.values)
            continue
        try:
            matrix.append(tuple(float(value) for value in column.values))
        except ValueError as error:
            raise MetricError(str(error)) from None
    _require_finite(matrix, name)
    return matrix


def check_targets(truth: Sequence[Column], guess: Sequence[Column]) -> tuple[str, list[Value]]:
    """The type of a classification target and its labels, sorted (`_check_targets`)."""
    true_type = target_type(truth, "y_true")
    pred_type = target_type(guess, "y_pred")
    types = {true_type, pred_type}
    if types == {BINARY, MULTICLASS}:
        types = {MULTICLASS}
    if len(types) > 1:
        raise MetricError(
            f"Classification metrics can't handle a mix of {true_type} and {pred_type} targets"
        )
    kind = types.pop()
    if kind not in (BINARY, MULTICLASS, MULTILABEL):
        raise MetricError(f"{kind} is not supported")
    if kind == MULTILABEL:
        return kind, list(range(len(truth)))
    labels = _labels(truth[0], guess[0])
    if kind == BINARY and len(labels) > 2:
        kind = MULTICLASS
    return kind, labels


def _labels(*columns: Column) -> list[Value]:
    values: set[Value] = set()
    for column in columns:
        values.update(column.values)
    if len({isinstance(value, str) for value in values}) > 1:
        raise MetricError("Mix of label input types (string and number)")
    return _classes(values)


def _classes(values: Iterable[Value]) -> list[Value]:
    """The distinct values, sorted (all labels or all numbers: the caller made sure)."""
    distinct: list[Value] = list(set(values))
    return sorted(distinct)


def _values(column: Column) -> tuple[Value, ...]:
    return column.values


def accuracy(truth: Sequence[Column], guess: Sequence[Column]) -> float:
    kind, _ = check_targets(truth, guess)
    rows = len(truth[0].values)
    pairs = zip(_rows(truth), _rows(guess), strict=True)
    if kind == MULTILABEL:
        return sum(true == pred for true, pred in pairs) / rows
    return sum(true[0] == pred[0] for true, pred in pairs) / rows


def _rows(columns: Sequence[Column]) -> list[tuple[Value, ...]]:
    return list(zip(*(column.values for column in columns), strict=True))


def f1(
    truth: Sequence[Column], guess: Sequence[Column], average: Literal["binary", "macro"]
) -> float:
    """F1 of the positive label 1 (`binary`), or the mean F1 over the labels (`macro`)."""
    kind, labels = check_targets(truth, guess)
    if average == "binary":
        if kind != BINARY:
            raise MetricError(
                f"Target is {kind} but average='binary'. Please choose another average "
                "setting, one of [None, 'micro', 'macro', 'weighted']."
            )
        if 1 not in labels:
            if len(labels) >= 2:
                raise MetricError(f"pos_label=1 is not a valid label. It should be one of {labels}")
            return 0.0  # no positive label anywhere: tp + fp + fn = 0, scored 0 (with a warning)
        return _f1_of(truth[0].values, guess[0].values, 1)
    if kind == MULTILABEL:
        scores = [
            _f1_counts(
                sum(t != 0 and p != 0 for t, p in zip(true.values, pred.values, strict=True)),
                sum(t != 0 for t in true.values),
                sum(p != 0 for p in pred.values),
            )
            for true, pred in zip(truth, guess, strict=True)
        ]
    else:
        scores = [_f1_of(truth[0].values, guess[0].values, label) for label in labels]
    return math.fsum(scores) / len(scores)


def _f1_of(true: Sequence[Value], pred: Sequence[Value], label: Value) -> float:
    hits = sum(t == label and p == label for t, p in zip(true, pred, strict=True))
    return _f1_counts(hits, sum(t == label for t in true), sum(p == label for p in pred))


def _f1_counts(hits: int, true: int, predicted: int) -> float:
    return 0.0 if true + predicted == 0 else 2 * hits / (true + predicted)


def roc_auc(truth: Sequence[Column], guess: Sequence[Column]) -> float:
    """The area under the ROC curve of a binary target, or the mean over the columns of an
    indicator matrix (macro one-vs-rest); NaN for a column with one class."""
    kind = target_type(truth, "y_true")
    scores = numbers(guess, "y_score")
    if len(truth) == 1:
        if kind == MULTICLASS:
            raise MetricError("multi_class must be in ('ovo', 'ovr')")
        if kind != BINARY:
            raise MetricError(f"{kind} format is not supported")
        classes = _classes(truth[0].values)
        if len(classes) < 2:
            return math.nan
        return _binary_auc([value == classes[1] for value in truth[0].values], scores[0])
    if kind != MULTILABEL:
        raise MetricError(f"{kind} format is not supported")
    areas: list[float] = []
    for column, column_scores in zip(_numbers_only(truth, "y_true"), scores, strict=True):
        classes = sorted(set(column))
        if len(classes) != 2:
            areas.append(math.nan)
            continue
        if classes not in ([0, 1], [-1, 1]):
            raise MetricError(
                f"y_true takes value in {{{', '.join(map(repr, classes))}}} and pos_label is "
                "not specified: either make y_true take value in {0, 1} or {-1, 1} or pass "
                "pos_label explicitly."
            )
        areas.append(_binary_auc([value == 1 for value in column], column_scores))
    return math.fsum(areas) / len(areas)


def _binary_auc(positive: Sequence[bool], scores: Sequence[float]) -> float:
    """The probability that a positive scores above a negative, ties counting half: twice the
    area is, over the positives, the negatives below plus the negatives at or below (exact
    integers, rounded once)."""
    negatives = sorted(compress(scores, map(not_, positive)))
    positives = list(compress(scores, positive))
    below = sum(map(bisect_left, repeat(negatives), positives))
    at_or_below = sum(map(bisect_right, repeat(negatives), positives))
    return (below + at_or_below) / (2 * len(positives) * len(negatives))


def log_loss(
    truth: Column, probabilities: Sequence[Column], labels: Sequence[Value] | None = None
) -> float:
    """The mean negative log of the probability given to each row's true class. One column of
    probabilities is the positive class's (the larger of two labels); several, one per label
    in sorted order. Probabilities are clipped to [eps, 1 - eps], not renormalised."""
    matrix = numbers(probabilities, "y_prob")
    high = max(max(column) for column in matrix)
    low = min(min(column) for column in matrix)
    if high > 1:
        raise MetricError(f"y_prob contains values greater than 1: {high}")
    if low < 0:
        raise MetricError(f"y_prob contains values lower than 0: {low}")
    classes = _log_loss_classes(truth, labels)
    if len(matrix) == 1:
        matrix = [tuple(1 - p for p in matrix[0]), matrix[0]]
    if len(classes) != len(matrix):
        if labels is None:
            raise MetricError(
                f"y_true and y_prob contain different number of classes: {len(classes)} vs "
                f"{len(matrix)}. Please provide the true labels explicitly through the labels "
                f"argument. Classes found in y_true: {classes}"
            )
        raise MetricError(
            "The number of classes in labels is different from that in y_prob. Classes found "
            f"in labels: {classes}"
        )
    index = {label: position for position, label in enumerate(classes)}
    losses = [
        -math.log(min(max(matrix[index[value]][row], EPS), 1 - EPS))
        for row, value in enumerate(_values(truth))
    ]
    return math.fsum(losses) / len(losses)


def _log_loss_classes(truth: Column, labels: Sequence[Value] | None) -> list[Value]:
    if labels is not None:
        classes = _classes(labels)
        undeclared = set(truth.values) - set(classes)
        if undeclared:
            raise MetricError(
                f"y_true contains values {undeclared} not belonging to the passed labels "
                f"{list(labels)}."
            )
    else:
        kind = target_type([truth], "y")
        if kind not in (BINARY, MULTICLASS):
            raise MetricError(f"Unknown label type: {kind}")
        classes = _classes(truth.values)
    if len(classes) == 1:
        if labels is None:
            raise MetricError(
                f"y_true contains only one label ({classes[0]}). Please provide the list of "
                "all expected class labels explicitly through the labels argument."
            )
        raise MetricError(f"The labels array needs to contain at least two labels, got {classes}.")
    return classes


def row_argmax(columns: Sequence[Column]) -> Numbers:
    """Each row's first column holding its largest value (an indicator matrix's class)."""
    matrix = _numbers_only(columns, "y_true")
    return Numbers(
        tuple(float(max(range(len(row)), key=row.__getitem__)) for row in zip(*matrix, strict=True))
    )


def _column_pairs(
    truth: Sequence[Column], guess: Sequence[Column]
) -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
    true = numbers(truth, "y_true")
    pred = numbers(guess, "y_pred")
    if len(true) != len(pred):
        raise MetricError(
            f"y_true and y_pred have different number of output ({len(true)}!={len(pred)})"
        )
    return list(zip(true, pred, strict=True))


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def mean_squared_error(truth: Sequence[Column], guess: Sequence[Column]) -> float:
    """The mean over the columns of each column's mean squared error."""
    return _mean(
        [
            _mean([(t - p) ** 2 for t, p in zip(true, pred, strict=True)])
            for true, pred in _column_pairs(truth, guess)
        ]
    )


def mean_squared_log_error(truth: Sequence[Column], guess: Sequence[Column]) -> float:
    pairs = _column_pairs(truth, guess)
    if any(value <= -1 for true, pred in pairs for value in (*true, *pred)):
        raise MetricError(
            "Mean Squared Logarithmic Error cannot be used when targets contain values less "
            "than or equal to -1."
        )
    return mean_squared_error(
        [Numbers(tuple(math.log1p(t) for t in true)) for true, _ in pairs],
        [Numbers(tuple(math.log1p(p) for p in pred)) for _, pred in pairs],
    )


def mean_absolute_error(truth: Sequence[Column], guess: Sequence[Column]) -> float:
    return _mean(
        [
            _mean([abs(p - t) for t, p in zip(true, pred, strict=True)])
            for true, pred in _column_pairs(truth, guess)
        ]
    )


def r2(truth: Sequence[Column], guess: Sequence[Column]) -> float:
    """The mean over the columns of 1 - SS_res / SS_tot; a column whose truth is constant
    scores 1 when predicted exactly, else 0; NaN for fewer than two rows."""
    pairs = _column_pairs(truth, guess)
    if len(pairs[0][0]) < 2:
        return math.nan
    scores: list[float] = []
    for true, pred in pairs:
        residual = math.fsum((t - p) ** 2 for t, p in zip(true, pred, strict=True))
        # a constant column's mean is its value, exactly (a rounded mean would leave a total
        # of a few ulps and a score of -1e30)
        mean = true[0] if all(t == true[0] for t in true) else _mean(true)
        total = math.fsum((t - mean) ** 2 for t in true)
        if residual == 0:
            scores.append(1.0)
        elif total == 0:
            scores.append(0.0)
        else:
            scores.append(1 - residual / total)
    return _mean(scores)


def quadratic_weighted_kappa(truth: Sequence[Column], guess: Sequence[Column]) -> float:
    """Cohen's kappa with quadratic weights on the labels' ranks (sorted, as
    `cohen_kappa_score(weights="quadratic")` ranks them), computed exactly in integers and
    rounded once; NaN when every row has one and the same label."""
    kind, labels = check_targets(truth, guess)
    if kind == MULTILABEL:
        raise MetricError(f"{kind} is not supported")
    rank = {label: position for position, label in enumerate(labels)}
    true_ranks = [rank[value] for value in truth[0].values]
    pred_ranks = [rank[value] for value in guess[0].values]
    rows = len(true_ranks)
    observed = sum((t - p) ** 2 for t, p in zip(true_ranks, pred_ranks, strict=True))
    # sum over label pairs of (i - j)^2 * predicted(i) * true(j), expanded into moments
    t0, t1, t2 = rows, sum(true_ranks), sum(r * r for r in true_ranks)
    p0, p1, p2 = rows, sum(pred_ranks), sum(r * r for r in pred_ranks)
    chance = p2 * t0 - 2 * p1 * t1 + p0 * t2  # rows times the expected weighted disagreement
    if chance == 0:
        return math.nan
    return (chance - observed * rows) / chance
