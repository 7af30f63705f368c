"""Synthetic siim-isic-melanoma-classification metadata (no images): the competition's
train/test columns; melanoma is likelier with age and on some sites; a few patients have
age_approx 0 (as in the real train.csv) and a few ages, sexes and sites are missing."""
from pathlib import Path

import numpy as np
import pandas as pd

folder = Path("input/siim-isic-melanoma-classification")
folder.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(2020)
sites = ["torso", "lower extremity", "upper extremity", "head/neck", "palms/soles", "oral/genital"]


def frame(n, start):
    age = rng.choice(np.arange(0, 95, 5), n).astype(float)
    site = rng.choice(sites, n, p=[0.5, 0.25, 0.15, 0.06, 0.03, 0.01])
    logit = -4.2 + 0.035 * age + 0.9 * (site == "head/neck") + 0.5 * (site == "upper extremity")
    target = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    df = pd.DataFrame(
        {
            "image_name": [f"ISIC_{i:07d}" for i in range(start, start + n)],
            "patient_id": [f"IP_{rng.integers(1_000_000, 9_999_999)}" for _ in range(n)],
            "sex": rng.choice(["male", "female"], n),
            "age_approx": age,
            "anatom_site_general_challenge": site,
        }
    )
    for column, rate in (("sex", 0.01), ("age_approx", 0.01), ("anatom_site_general_challenge", 0.02)):
        df.loc[rng.random(n) < rate, column] = np.nan
    return df, target


train, target = frame(2400, 15719)
train["diagnosis"] = np.where(target == 1, "melanoma", rng.choice(["unknown", "nevus"], len(train), p=[0.8, 0.2]))
train["benign_malignant"] = np.where(target == 1, "malignant", "benign")
train["target"] = target
train.to_csv(folder / "train.csv", index=False)
test, test_target = frame(600, 52212)
test.to_csv(folder / "test.csv", index=False)
test[["image_name"]].assign(target=0).to_csv(folder / "sample_submission.csv", index=False)
test[["image_name"]].assign(target=test_target).to_csv("answers.csv", index=False)
