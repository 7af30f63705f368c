"""Regenerate every example's input/train.csv, input/test.csv and answers.csv.

All data come from datasets that ship inside scikit-learn (no download), and every
random step uses a fixed seed, so running this twice writes byte-identical files:

    python examples/make_data.py

Examples:
  cancer-rf-2017             load_breast_cancer, target `diagnosis` (1 = malignant)
  cancer-knn-loops-2017      the same data as cancer-rf-2017
  wine-removed-apis-2016     load_wine, target `cultivar` (0/1/2), a few missing cells
  diabetes-silent-drift-2018 load_diabetes (raw units), target `outcome`; train.csv uses
                             the clinical-export coding 1 = stable / 2 = progressed, the
                             answers use 0 / 1, and bmi / bp hold 0 where not measured
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer, load_diabetes, load_wine
from sklearn.model_selection import train_test_split

HERE = Path(__file__).resolve().parent


def _write(name: str, train: pd.DataFrame, test: pd.DataFrame, answers: pd.DataFrame) -> None:
    root = HERE / name
    (root / "input").mkdir(parents=True, exist_ok=True)
    train.to_csv(root / "input" / "train.csv", index=False, float_format="%.6g")
    test.to_csv(root / "input" / "test.csv", index=False, float_format="%.6g")
    answers.to_csv(root / "answers.csv", index=False)
    print(f"{name}: train {train.shape}, test {test.shape}, answers {answers.shape}")


def _split(frame: pd.DataFrame, target: str, seed: int, test_size: float = 0.3):
    """Kaggle-style split: shuffled ids, stratified train/test, test without the target."""
    frame = frame.copy()
    rng = np.random.RandomState(seed)
    frame.insert(0, "id", rng.permutation(len(frame)) + 1)
    train, test = train_test_split(
        frame, test_size=test_size, random_state=seed, stratify=frame[target]
    )
    train = train.sort_values("id").reset_index(drop=True)
    test = test.sort_values("id").reset_index(drop=True)
    answers = test[["id", target]].copy()
    return train, test.drop(columns=[target]), answers


def cancer() -> None:
    data = load_breast_cancer()
    prefix = {"mean": "mean", "worst": "worst"}
    columns = []
    for feature in data.feature_names:
        words = feature.split(" ")
        if words[0] in prefix:  # "mean radius" -> radius_mean
            columns.append("_".join(words[1:]) + "_" + prefix[words[0]])
        else:  # "radius error" -> radius_se
            columns.append("_".join(words[:-1]) + "_se")
    frame = pd.DataFrame(data.data, columns=columns)
    frame["diagnosis"] = (data.target == 0).astype(int)  # sklearn: 0 = malignant
    train, test, answers = _split(frame, "diagnosis", seed=2017)
    _write("cancer-rf-2017", train, test, answers)
    # the same data for the kernel that computes its neighbour features in Python loops
    _write("cancer-knn-loops-2017", train, test, answers)


def wine() -> None:
    data = load_wine()
    columns = [c.replace("od280/od315_of_diluted_wines", "od280_od315") for c in data.feature_names]
    frame = pd.DataFrame(data.data, columns=columns)
    frame["cultivar"] = data.target
    train, test, answers = _split(frame, "cultivar", seed=2016)
    # A few cells went missing in the export; never the first row, so a forward fill works.
    rng = np.random.RandomState(16)
    for part in (train, test):
        for column in ("magnesium", "color_intensity"):
            rows = rng.choice(np.arange(1, len(part)), size=max(2, len(part) // 15), replace=False)
            part.loc[rows, column] = np.nan
    _write("wine-removed-apis-2016", train, test, answers)


def diabetes() -> None:
    data = load_diabetes(scaled=False)
    columns = ["age", "sex", "bmi", "bp", "tc", "ldl", "hdl", "tch", "ltg", "glu"]
    frame = pd.DataFrame(data.data, columns=columns)
    frame["sex"] = frame["sex"].astype(int)
    frame["age"] = frame["age"].astype(int)
    frame["outcome"] = (data.target > 140).astype(int)  # 1 = progressed a lot in a year
    train, test, answers = _split(frame, "outcome", seed=2018)
    # Clinical export quirks: unmeasured bmi / bp were stored as 0, and the training
    # labels use the export's coding 1 = stable, 2 = progressed (answers stay 0 / 1).
    rng = np.random.RandomState(18)
    for part in (train, test):
        for column in ("bmi", "bp"):
            rows = rng.choice(len(part), size=len(part) // 10, replace=False)
            part.loc[rows, column] = 0
    train["outcome"] = train["outcome"] + 1
    _write("diabetes-silent-drift-2018", train, test, answers)


def main() -> None:
    cancer()
    wine()
    diabetes()


if __name__ == "__main__":
    main()
