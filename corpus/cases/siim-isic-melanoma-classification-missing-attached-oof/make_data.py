"""Synthetic siim-isic-melanoma-classification data: the competition's train/test/sample
submission in input/, and, in reference/input/, the attached dataset the blending kernel read
(`siim3reorg`: six other kernels' out-of-fold predictions and submissions), which the
environment lacks. Each model's score is the truth plus noise of its own size."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.default_rng(2020)
n_train, n_test = 400, 200
comp = Path("input/siim-isic-melanoma-classification")
comp.mkdir(parents=True, exist_ok=True)


def frame(n, start):
    return pd.DataFrame(
        {
            "image_name": [f"ISIC_{start + i:07d}" for i in range(n)],
            "patient_id": [f"IP_{rng.integers(1000000, 9999999)}" for _ in range(n)],
            "sex": rng.choice(["male", "female"], n),
            "age_approx": rng.choice([30.0, 45.0, 60.0, 75.0], n),
            "anatom_site_general_challenge": rng.choice(
                ["torso", "head/neck", "lower extremity"], n
            ),
        }
    )


train, test = frame(n_train, 15719), frame(n_test, 52212)
y_train = (rng.random(n_train) < 0.2).astype(int)
y_test = (rng.random(n_test) < 0.2).astype(int)
train["diagnosis"] = np.where(y_train == 1, "melanoma", "nevus")
train["benign_malignant"] = np.where(y_train == 1, "malignant", "benign")
train["target"] = y_train
train.to_csv(comp / "train.csv", index=False)
test.to_csv(comp / "test.csv", index=False)
pd.DataFrame({"image_name": test.image_name, "target": 0.0}).to_csv(
    comp / "sample_submission.csv", index=False
)
pd.DataFrame({"image_name": test.image_name, "target": y_test}).to_csv("answers.csv", index=False)

models = {
    "384-E6-with-2018": 2.5,
    "512-E6": 3.0,
    "768-E2": 4.0,
    "512-E5": 3.2,
    "effb2-fulldata-upsample": 4.5,
    "effb1-fulldata-upsample": 5.0,
}
for model, noise in models.items():
    folder = Path("reference/input/siim3reorg") / model
    folder.mkdir(parents=True, exist_ok=True)
    oof = 1 / (1 + np.exp(-(2.0 * y_train - 1.0 + rng.normal(0, noise, n_train))))
    pd.DataFrame(
        {
            "image_name": train.image_name,
            "target": y_train,
            "pred": oof.round(5),
            "fold": np.arange(n_train) % 5,
        }
    ).to_csv(folder / "oof.csv", index=False)
    sub = 1 / (1 + np.exp(-(2.0 * y_test - 1.0 + rng.normal(0, noise, n_test))))
    pd.DataFrame({"image_name": test.image_name, "target": sub.round(5)}).to_csv(
        folder / "submission.csv", index=False
    )
