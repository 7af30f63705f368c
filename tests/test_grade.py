from __future__ import annotations

import math
from pathlib import Path

import pytest

from nbmodernizer.grade import (
    Answers,
    AnswersError,
    SubmissionError,
    grade_submission,
    load_answers,
    reproducibility,
    score_runs,
)
from nbmodernizer.spec import Metric, ScoreSpec
from nbmodernizer.table import Labels, Numbers


def spec(metric: str, target: float = 1.0, **extra: object) -> ScoreSpec:
    return ScoreSpec.model_validate(
        {"metric": metric, "target": target, "answers": "a.csv", **extra}
    )


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.fixture
def answers(tmp_path: Path) -> Answers:
    return load_answers(write(tmp_path / "answers.csv", "id,y\n1,1\n2,0\n3,1\n4,1\n"), "id")


def test_accuracy_joins_on_id_not_row_order(tmp_path: Path, answers: Answers) -> None:
    sub = write(tmp_path / "s.csv", "id,y\n4,1\n3,0\n2,0\n1,1\n")  # shuffled; id 3 wrong
    assert grade_submission(sub.read_bytes(), answers, spec("accuracy")) == 0.75


@pytest.mark.parametrize(
    ("metric", "expected"),
    [
        ("rmse", math.sqrt((0.25 + 0.0 + 1.0 + 0.0) / 4)),
        ("mae", (0.5 + 0.0 + 1.0 + 0.0) / 4),
        (
            "rmsle",
            math.sqrt(
                sum(
                    (math.log1p(p) - math.log1p(t)) ** 2
                    for p, t in [(1.5, 1), (0, 0), (0, 1), (1, 1)]
                )
                / 4
            ),
        ),
    ],
)
def test_regression_metrics_match_hand_computation(
    tmp_path: Path, answers: Answers, metric: str, expected: float
) -> None:
    sub = write(tmp_path / "s.csv", "id,y\n1,1.5\n2,0\n3,0\n4,1\n")
    assert grade_submission(sub.read_bytes(), answers, spec(metric)) == pytest.approx(expected)


def test_roc_auc_and_log_loss_on_probabilities(tmp_path: Path, answers: Answers) -> None:
    sub = write(tmp_path / "s.csv", "id,y\n1,0.9\n2,0.2\n3,0.4\n4,0.8\n")
    assert grade_submission(sub.read_bytes(), answers, spec("roc_auc")) == 1.0
    expected = -(math.log(0.9) + math.log(0.8) + math.log(0.4) + math.log(0.8)) / 4
    assert grade_submission(sub.read_bytes(), answers, spec("log_loss")) == pytest.approx(expected)


def test_qwk_perfect_and_f1(tmp_path: Path, answers: Answers) -> None:
    perfect = write(tmp_path / "p.csv", "id,y\n1,1\n2,0\n3,1\n4,1\n")
    assert grade_submission(perfect.read_bytes(), answers, spec("qwk")) == 1.0
    one_miss = write(tmp_path / "m.csv", "id,y\n1,1\n2,0\n3,0\n4,1\n")
    assert grade_submission(one_miss.read_bytes(), answers, spec("f1")) == pytest.approx(0.8)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "did not write submission.csv"),
        ("id,z\n1,1\n", r"lacks column\(s\) y"),
        ("id,y\n1,1\n2,0\n", "lacks 2 of 4 answer ids"),
        ("id,y\n1,1\n1,0\n2,0\n3,1\n4,1\n", "repeats ids"),
        ("", "not a readable CSV"),
        ("id,y\n1,1\n2,\n3,1\n4,1\n", "empty predictions"),
    ],
)
def test_unusable_submissions_say_why(
    tmp_path: Path, answers: Answers, content: str | None, reason: str
) -> None:
    submission = None if content is None else content.encode()
    with pytest.raises(SubmissionError, match=reason):
        grade_submission(submission, answers, spec("accuracy"))


def test_answers_without_id_column(tmp_path: Path) -> None:
    path = write(tmp_path / "answers.csv", "PassengerId,y\n1,1\n")
    with pytest.raises(AnswersError, match=r"no id column 'id'.*PassengerId"):
        load_answers(path, "id")


def test_relative_band_is_inclusive_and_symmetric() -> None:
    band = spec("accuracy", target=0.8, tolerance=0.1)
    assert reproducibility([0.72], band).reproduced
    assert reproducibility([0.88], band).reproduced
    assert not reproducibility([0.71], band).reproduced
    assert not reproducibility([0.89], band).reproduced


def test_t_test_over_runs() -> None:
    check = spec("accuracy", target=0.80, runs=5, pValue=0.05)
    close = reproducibility([0.79, 0.81, 0.80, 0.82, 0.78], check)
    assert close.reproduced and close.p_value is not None and close.p_value > 0.5
    # tightly clustered away from the target: inside the 10% band, yet the t-test rejects
    off = reproducibility([0.760, 0.761, 0.759, 0.760, 0.762], check)
    assert not off.reproduced and off.p_value is not None and off.p_value < 0.05


def test_identical_runs_fall_back_to_the_band() -> None:
    check = spec("accuracy", target=0.80, runs=3)
    verdict = reproducibility([0.8, 0.8, 0.8], check)
    assert verdict.reproduced and verdict.p_value is None


def test_score_runs_records_the_failure() -> None:
    result = score_runs(
        [], "the notebook did not write submission.csv", spec(Metric.ACCURACY.value)
    )
    assert result.value is None and not result.reproduced
    assert result.reason == "the notebook did not write submission.csv"


def test_a_malformed_row_is_named_by_its_line(answers: Answers) -> None:
    with pytest.raises(SubmissionError, match="not a readable CSV: expected 2 fields in line 3"):
        grade_submission(b"id,y\n1,1\n2,0,9\n3,1\n4,1\n", answers, spec("accuracy"))


def test_a_cell_holding_a_nul_is_a_label_not_two_numbers(answers: Answers) -> None:
    """Columns are typed by one match over their cells joined by NUL: a NUL inside a cell
    must not pass for two numbers."""
    with pytest.raises(SubmissionError, match="cannot compute rmse: could not convert"):
        grade_submission(b"id,y\n1,1\x002\n2,0\n3,1\n4,1\n", answers, spec("rmse"))


def test_answers_are_typed_as_pandas_typed_them(tmp_path: Path) -> None:
    path = write(tmp_path / "a.csv", "id,label,flag,score\n007,cat,True,1\n2,dog,false,2.5\n")
    loaded = load_answers(path, "id")
    assert loaded.ids == ("7", "2") and loaded.targets == ("label", "flag", "score")
    assert loaded.columns == (Labels(("cat", "dog")), Numbers((1.0, 0.0)), Numbers((1.0, 2.5)))


def test_an_answer_without_a_value_is_refused_naming_its_id(tmp_path: Path) -> None:
    path = write(tmp_path / "a.csv", "id,y\n1,1\n2,NA\n")
    with pytest.raises(AnswersError, match="no value in column 'y' for id '2'"):
        load_answers(path, "id")
