"""Synthetic siim-isic-melanoma-classification metadata (the competition's train/test columns)."""

from pathlib import Path

import numpy as np
import pandas as pd

folder = Path("input/siim-isic-melanoma-classification")
folder.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(2020)
SITES = ["torso", "lower extremity", "upper extremity", "head/neck", "palms/soles", "oral/genital"]


def frame(n: int, start: int, patients: int) -> pd.DataFrame:
    age = rng.choice(np.arange(15.0, 90.0, 5.0), n)
    site = rng.choice(SITES, n, p=[0.5, 0.25, 0.15, 0.06, 0.02, 0.02])
    sex = rng.choice(["male", "female"], n)
    risk = -4.0 + 0.05 * (age - 50) + 1.2 * (site == "head/neck") + 0.8 * (site == "palms/soles")
    risk += 0.4 * (sex == "male") + rng.normal(0, 0.8, n)
    return pd.DataFrame(
        {
            "image_name": [f"ISIC_{i:07d}" for i in range(start, start + n)],
            "patient_id": [f"IP_{p:07d}" for p in rng.integers(0, patients, n)],
            "sex": sex,
            "age_approx": age,
            "anatom_site_general_challenge": site,
            "target": (risk > -1.5).astype(int),
        }
    )


train, test = frame(700, 15719, 300), frame(250, 52212, 100)
for column, share in (("sex", 0.01), ("age_approx", 0.01), ("anatom_site_general_challenge", 0.03)):
    train.loc[rng.random(len(train)) < share, column] = np.nan
test.loc[rng.random(len(test)) < 0.03, "anatom_site_general_challenge"] = np.nan
train["diagnosis"] = np.where(train["target"] == 1, "melanoma", "unknown")
train["benign_malignant"] = np.where(train["target"] == 1, "malignant", "benign")
columns = ["image_name", "patient_id", "sex", "age_approx", "anatom_site_general_challenge"]
labelled = [*columns, "diagnosis", "benign_malignant", "target"]
train[labelled].to_csv(folder / "train.csv", index=False)
test[columns].to_csv(folder / "test.csv", index=False)
test[["image_name"]].assign(target=0).to_csv(folder / "sample_submission.csv", index=False)
test[["image_name", "target"]].to_csv("answers.csv", index=False)
