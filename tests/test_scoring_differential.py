"""The grader without pandas and scikit-learn (issue #20) scores as the grader with them did.

The oracle is the grader as it was before: `pandas.read_csv` for the answers and the
submission, a merge on the id column, scikit-learn's metrics called as `grade.compute_metric`
called them. For many seeded random answers and submissions (binary, multi-class, string
labels, truth values, ties, constant columns, probabilities at 0 and 1, indicator matrices,
1 to 200 rows) both read the same CSV bytes: both refuse it, or both score it within 1e-9
relative (NaN where scikit-learn says NaN).
"""

from __future__ import annotations

import io
import math
import random
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from sklearn import metrics as skm

from nbmodernizer.grade import AnswersError, SubmissionError, grade_submission, parse_answers
from nbmodernizer.spec import Metric, ScoreSpec

ROOT = Path(__file__).resolve().parents[1]
CASES_PER_METRIC = 160
REFUSED = "refused"


def reference_metric(metric: Metric, y_true: pd.DataFrame, y_pred: pd.DataFrame) -> float:
    """`grade.compute_metric` before issue #20, verbatim but for the names."""
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
            labels = truth if single else y_true.to_numpy().argmax(axis=1)
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


def reference_grade(
    answers_csv: str, submission_csv: str, metric: Metric, id_column: str = "id"
) -> float | str:
    """`grade.load_answers` and `grade.grade_submission` before issue #20, condensed."""
    answers = pd.read_csv(io.StringIO(answers_csv))
    try:
        submitted = pd.read_csv(io.StringIO(submission_csv))
    except (pd.errors.ParserError, pd.errors.EmptyDataError):
        return REFUSED
    targets = [c for c in answers.columns if c != id_column]
    if any(c not in submitted.columns for c in [id_column, *targets]):
        return REFUSED
    if submitted[id_column].duplicated().any():
        return REFUSED
    merged = answers.assign(**{id_column: answers[id_column].astype(str)}).merge(
        submitted.assign(**{id_column: submitted[id_column].astype(str)}),
        on=id_column,
        how="left",
        suffixes=("_true", "_pred"),
        indicator=True,
    )
    if (merged["_merge"] == "left_only").any():
        return REFUSED
    predicted = merged[[f"{c}_pred" for c in targets]]
    if predicted.isna().to_numpy().any():
        return REFUSED
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return reference_metric(metric, merged[[f"{c}_true" for c in targets]], predicted)
    except (ValueError, TypeError):
        return REFUSED


def ours(
    answers_csv: str, submission_csv: str, metric: Metric, id_column: str = "id"
) -> float | str:
    spec = ScoreSpec.model_validate(
        {"metric": metric.value, "target": 1.0, "answers": "a.csv", "idColumn": id_column}
    )
    answers = parse_answers(answers_csv.encode(), id_column)
    try:
        return grade_submission(submission_csv.encode(), answers, spec)
    except SubmissionError:
        return REFUSED


def agree(mine: float | str, reference: float | str) -> bool:
    if isinstance(mine, str) or isinstance(reference, str):
        return mine == reference
    if math.isnan(reference):
        return math.isnan(mine)
    return math.isclose(mine, reference, rel_tol=1e-9, abs_tol=1e-12)


# --- random cases ----------------------------------------------------------------------------

Cell = str
Table = list[list[Cell]]  # rows of cells, one list per row, the target columns only


def csv_of(ids: list[int], rows: Table, names: list[str]) -> str:
    lines = [",".join(["id", *names])]
    lines += [",".join([str(i), *row]) for i, row in zip(ids, rows, strict=True)]
    return "\n".join(lines) + "\n"


def number(value: float) -> str:
    return repr(float(value))


def label_space(rng: random.Random) -> list[str]:
    return rng.choice(
        [
            ["0", "1"],
            ["1", "2"],
            ["0", "2"],
            ["-1", "1"],
            ["cat", "dog"],
            ["True", "False"],
            ["1", "2", "3", "4", "5"],
            ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"],
            ["3", "7", "11"],
            ["a", "b", "c", "d"],
            ["0"],  # a constant column
            ["hispa"],
        ]
    )


def labels_case(rng: random.Random, n: int) -> tuple[Table, Table]:
    truth_space = label_space(rng)
    truth = [[rng.choice(truth_space)] for _ in range(n)]
    guess_space = rng.choice([truth_space, truth_space, label_space(rng)])
    errors = rng.random()
    guess = [[rng.choice(guess_space)] if rng.random() < errors else list(row) for row in truth]
    if rng.random() < 0.15:  # probabilities where labels belong
        guess = [[number(rng.random())] for _ in range(n)]
    if rng.random() < 0.1:  # the same labels written as floats
        guess = [[number(float(v)) if v.lstrip("-").isdigit() else v for v in row] for row in guess]
    return truth, guess


def indicator_case(rng: random.Random, n: int, scores: bool) -> tuple[Table, Table]:
    k = rng.choice([2, 3, 4])
    truth = []
    for _ in range(n):
        row = ["0"] * k
        row[rng.randrange(k)] = "1"
        if rng.random() < 0.2:  # multi-label rows
            row[rng.randrange(k)] = "1"
        truth.append(row)
    if rng.random() < 0.2:  # a column nobody has
        for row in truth:
            row[0] = "0"
    if scores:
        guess = []
        for _ in range(n):
            raw = [rng.random() for _ in range(k)]
            if rng.random() < 0.5:
                total = sum(raw)
                raw = [v / total for v in raw]
            guess.append([number(round(v, rng.choice([1, 3, 12]))) for v in raw])
    else:
        guess = [
            [rng.choice(["0", "1"]) if rng.random() < 0.3 else v for v in row] for row in truth
        ]
    return truth, guess


def scores_case(rng: random.Random, n: int) -> tuple[Table, Table]:
    space = rng.choice([["0", "1"], ["0", "1"], ["1", "2"], ["cat", "dog"], ["1"], ["0", "1", "2"]])
    truth = [[rng.choice(space)] for _ in range(n)]
    digits = rng.choice([1, 2, 12])  # 1 digit: many ties
    guess = [[number(round(rng.random(), digits))] for _ in range(n)]
    if rng.random() < 0.1:
        guess[0] = [rng.choice(["0.0", "1.0", "1.5", "-0.1"])]
    return truth, guess


def regression_case(rng: random.Random, n: int) -> tuple[Table, Table]:
    k = rng.choice([1, 1, 2])
    scale = rng.choice([1.0, 100.0, 1e-3])
    low = rng.choice([0.0, -0.5, -3.0])
    truth = [[number(low + scale * rng.random()) for _ in range(k)] for _ in range(n)]
    if rng.random() < 0.15:  # a constant column of a value numpy sums exactly
        value = rng.choice(["0", "2", "0.5", "7"])
        for row in truth:
            row[0] = value
    guess = [[number(float(v) + rng.gauss(0, scale / 5)) for v in row] for row in truth]
    if rng.random() < 0.1:
        guess = [list(row) for row in truth]  # exact
    if rng.random() < 0.05:
        guess[0][0] = "oops"
    return truth, guess


def case(metric: Metric, rng: random.Random) -> tuple[str, str]:
    n = rng.choice([1, 2, 3, 5, 17, 60, 200])
    match metric:
        case Metric.ACCURACY | Metric.F1 | Metric.QWK:
            truth, guess = (
                indicator_case(rng, n, scores=False) if rng.random() < 0.2 else labels_case(rng, n)
            )
        case Metric.ROC_AUC | Metric.LOG_LOSS:
            truth, guess = (
                indicator_case(rng, n, scores=True) if rng.random() < 0.25 else scores_case(rng, n)
            )
        case _:
            truth, guess = regression_case(rng, n)
    names = [f"y{j}" for j in range(len(truth[0]))]
    ids = list(range(1, n + 1))
    order = list(zip(ids, guess, strict=True))
    rng.shuffle(order)  # joined on the id, not on the row order
    if rng.random() < 0.2:  # rows the answers do not ask for
        order.append((n + 1000, list(guess[0])))
    submission = csv_of([i for i, _ in order], [row for _, row in order], names)
    return csv_of(ids, truth, names), submission


@pytest.mark.parametrize("metric", list(Metric), ids=lambda m: m.value)
def test_each_metric_scores_as_scikit_learn_did(metric: Metric) -> None:
    rng = random.Random(f"differential-{metric.value}")
    scored = refused = 0
    for index in range(CASES_PER_METRIC):
        answers, submission = case(metric, rng)
        mine, reference = (
            ours(answers, submission, metric),
            reference_grade(answers, submission, metric),
        )
        assert agree(mine, reference), (index, mine, reference, answers, submission)
        scored += not isinstance(reference, str)
        refused += isinstance(reference, str)
    # the cases reach both sides: scores compared, and refusals compared
    assert scored >= CASES_PER_METRIC // 3 and refused >= 3, (scored, refused)


SUBMISSIONS: list[tuple[str, str]] = [
    ("shuffled, extra column", "y,id,extra\n0.2,2,x\n0.9,1,y\n0.4,3,z\n0.8,4,w\n"),
    ("a byte order mark", "\ufeffid,y\n1,0.9\n2,0.2\n3,0.4\n4,0.8\n"),
    ("blank lines and CRLF", "id,y\r\n\r\n1,0.9\r\n2,0.2\r\n \r\n3,0.4\r\n4,0.8\r\n"),
    ("quoted cells", 'id,y\n"1","0.9"\n2,0.2\n3,".4"\n4,8e-1\n'),
    ("ids with leading zeros", "id,y\n001,0.9\n002,0.2\n003,0.4\n004,0.8\n"),
    ("an NA spelling", "id,y\n1,NA\n2,0.2\n3,0.4\n4,0.8\n"),
    ("None", "id,y\n1,None\n2,0.2\n3,0.4\n4,0.8\n"),
    ("a short row", "id,y\n1\n2,0.2\n3,0.4\n4,0.8\n"),
    ("a long row", "id,y\n1,0.9,7\n2,0.2\n3,0.4\n4,0.8\n"),
    ("inf", "id,y\n1,inf\n2,0.2\n3,0.4\n4,0.8\n"),
    ("a label among scores", "id,y\n1,high\n2,0.2\n3,0.4\n4,0.8\n"),
    ("a label in a row not graded", "id,y\n1,0.9\n2,0.2\n3,0.4\n4,0.8\n9,high\n"),
    ("truth values", "id,y\n1,True\n2,False\n3,True\n4,true\n"),
    ("repeated id", "id,y\n1,0.9\n1,0.2\n3,0.4\n4,0.8\n"),
    ("id written 1.0", "id,y\n1.0,0.9\n2.0,0.2\n3.0,0.4\n4.0,0.8\n"),
    ("a repeated column name", "id,y,y\n1,0.9,0\n2,0.2,0\n3,0.4,0\n4,0.8,0\n"),
    ("spaces around numbers", "id,y\n 1 , 0.9 \n2,0.2\n3,0.4\n4,0.8\n"),
    ("underscores", "id,y\n1,0_9\n2,0.2\n3,0.4\n4,0.8\n"),
    ("empty", ""),
    ("header only", "id,y\n"),
]


@pytest.mark.parametrize(("name", "submission"), SUBMISSIONS, ids=[n for n, _ in SUBMISSIONS])
@pytest.mark.parametrize("metric", [Metric.ROC_AUC, Metric.ACCURACY, Metric.RMSE])
def test_odd_csv_files_read_as_pandas_read_them(name: str, submission: str, metric: Metric) -> None:
    answers = "id,y\n1,1\n2,0\n3,1\n4,1\n"
    mine, reference = (
        ours(answers, submission, metric),
        reference_grade(answers, submission, metric),
    )
    assert agree(mine, reference), (mine, reference)


ODD_ANSWERS = [
    "id,y\n1,1\n2,\n",  # a missing answer
    "id,y\n",  # no rows
    "id\n1\n",  # no target column
    "id,y\n1,1\n1,0\n",  # a repeated id
]


@pytest.mark.parametrize("answers", ODD_ANSWERS)
def test_answers_that_cannot_be_graded_against_are_refused_up_front(answers: str) -> None:
    with pytest.raises(AnswersError):
        parse_answers(answers.encode(), "id")


def test_a_missing_answer_was_refused_by_the_metric_before() -> None:
    submission = "id,y\n1,1\n2,0\n"
    for metric in Metric:
        assert reference_grade(ODD_ANSWERS[0], submission, metric) == REFUSED, metric


def test_a_constant_truth_of_a_value_numpy_cannot_average_exactly_scores_as_meant() -> None:
    """R² of a constant truth is 1 when predicted exactly, else 0 (scikit-learn's rule). Its
    mean of [0.1, 0.1, 0.1] is not 0.1 in floating point, so scikit-learn finds a total sum of
    squares of 6e-34 and scores -1e31; the constant's mean here is the constant."""
    answers, submission = "id,y\n1,0.1\n2,0.1\n3,0.1\n", "id,y\n1,0.2\n2,0.1\n3,0.1\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert reference_grade(answers, submission, Metric.R2) < -1e20  # type: ignore[operator]
    assert ours(answers, submission, Metric.R2) == 0.0
    assert ours(answers, answers, Metric.R2) == 1.0


CASE_FOLDERS = sorted(
    folder
    for root in (ROOT / "corpus" / "cases", ROOT / "examples")
    for folder in root.iterdir()
    if (folder / "answers.csv").is_file()
)


def perturbed(answers: pd.DataFrame, id_column: str, rng: random.Random) -> str:
    """A plausible submission for these answers: rows shuffled, a third of the targets changed
    (a float moved within its column's range, a label or an integer swapped for another of its
    column)."""
    submission = answers.sample(frac=1.0, random_state=rng.randrange(2**31)).reset_index(drop=True)
    for column in submission.columns:
        if column == id_column:
            continue
        values = answers[column]
        for row in range(len(submission)):
            if rng.random() < 1 / 3:
                if pd.api.types.is_float_dtype(values):
                    low, high = float(values.min()), float(values.max())
                    submission.loc[row, column] = low + (high - low) * rng.random()
                else:
                    submission.loc[row, column] = rng.choice(list(values))
    return str(submission.to_csv(index=False))


@pytest.mark.parametrize("folder", CASE_FOLDERS, ids=[f.name for f in CASE_FOLDERS])
def test_the_corpus_and_the_examples_grade_as_before(folder: Path) -> None:
    """Each real answers file of the corpus and the examples, against the answers themselves
    and against a perturbed copy, under the case's own metric and id column."""
    spec = yaml.safe_load((folder / "spec.yaml").read_text())["spec"]["score"]
    metric, id_column = Metric(spec["metric"]), spec.get("idColumn", "id")
    answers_csv = (folder / "answers.csv").read_text()
    answers = pd.read_csv(io.StringIO(answers_csv))
    rng = random.Random(folder.name)
    for submission in (answers_csv, perturbed(answers, id_column, rng)):
        mine = ours(answers_csv, submission, metric, id_column)
        reference = reference_grade(answers_csv, submission, metric, id_column)
        assert agree(mine, reference), (mine, reference)
