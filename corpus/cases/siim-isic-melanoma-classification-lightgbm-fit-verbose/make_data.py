"""Synthetic stand-in for siim-isic-melanoma-classification's tabular side: the patient
columns of train.csv/test.csv; malignancy rises with age and on some body sites.
3000 images (2400 train, 600 test)."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.RandomState(2020)
n = 3000
sites = ["torso", "lower extremity", "upper extremity", "head/neck", "palms/soles", "oral/genital"]
frame = pd.DataFrame(
    {
        "image_name": [f"ISIC_{k:07d}" for k in rng.choice(10**7, n, replace=False)],
        "patient_id": [f"IP_{k:07d}" for k in rng.randint(0, 600, n)],
        "sex": rng.choice(["male", "female", None], n, p=[0.5, 0.47, 0.03]),
        "age_approx": rng.choice(np.arange(10, 95, 5), n).astype(float),
        "anatom_site_general_challenge": rng.choice([*sites, None], n),
    }
)
frame.loc[rng.rand(n) < 0.02, "age_approx"] = np.nan
risk = (frame["age_approx"].fillna(50) - 50) / 15 + frame["anatom_site_general_challenge"].isin(
    ["head/neck", "palms/soles"]
) * 1.0
frame["target"] = (risk + rng.normal(0, 1.2, n) > 1.6).astype(int)
frame["diagnosis"] = np.where(frame["target"] == 1, "melanoma", "unknown")
frame["benign_malignant"] = np.where(frame["target"] == 1, "malignant", "benign")
train, test = frame.iloc[:2400], frame.iloc[2400:]
Path("input").mkdir(exist_ok=True)
train.to_csv("input/train.csv", index=False)
columns = ["image_name", "patient_id", "sex", "age_approx", "anatom_site_general_challenge"]
test[columns].to_csv("input/test.csv", index=False)
test[["image_name", "target"]].to_csv("answers.csv", index=False)
