"""siim-isic-melanoma-classification: the competition's train.csv, test.csv and sample
submission in input/siim-isic-melanoma-classification/, melanoma at a given share. The cases
whose kernels read another kernel's attached outputs share it; each writes its attachment."""

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd


def write_images_metadata(
    rng: np.random.Generator, n_train: int, n_test: int, sites: Sequence[str], share: float
) -> tuple[pd.DataFrame, pd.DataFrame, np.ndarray, np.ndarray]:
    """`n_train` and `n_test` images' metadata, each melanoma with probability `share`; answers.csv
    holds the test's targets. Returns both frames and both targets (train, test)."""
    comp = Path("input/siim-isic-melanoma-classification")
    comp.mkdir(parents=True, exist_ok=True)
    train, test = _frame(rng, n_train, 15719, sites), _frame(rng, n_test, 52212, sites)
    y_train = (rng.random(n_train) < share).astype(int)
    y_test = (rng.random(n_test) < share).astype(int)
    train["diagnosis"] = np.where(y_train == 1, "melanoma", "nevus")
    train["benign_malignant"] = np.where(y_train == 1, "malignant", "benign")
    train["target"] = y_train
    train.to_csv(comp / "train.csv", index=False)
    test.to_csv(comp / "test.csv", index=False)
    pd.DataFrame({"image_name": test.image_name, "target": 0.0}).to_csv(
        comp / "sample_submission.csv", index=False
    )
    answers = pd.DataFrame({"image_name": test.image_name, "target": y_test})
    answers.to_csv("answers.csv", index=False)
    return train, test, y_train, y_test


def _frame(rng: np.random.Generator, n: int, start: int, sites: Sequence[str]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "image_name": [f"ISIC_{start + i:07d}" for i in range(n)],
            "patient_id": [f"IP_{rng.integers(1000000, 9999999)}" for _ in range(n)],
            "sex": rng.choice(["male", "female"], n),
            "age_approx": rng.choice([30.0, 45.0, 60.0, 75.0], n),
            "anatom_site_general_challenge": rng.choice(list(sites), n),
        }
    )
