"""Synthetic rsna-breast-cancer-detection metadata (no images): the competition's train/test
columns; cancer rates differ by site and laterality."""
from pathlib import Path

import numpy as np
import pandas as pd

folder = Path("input/rsna-breast-cancer-detection")
folder.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(2022)


def frame(patients, start):
    rows = []
    for p in range(start, start + patients):
        site, age, machine = int(rng.integers(1, 3)), int(rng.integers(38, 85)), int(rng.choice([21, 29, 49, 93]))
        for laterality in "LR":
            rate = 0.04 + 0.08 * (site == 2) + 0.05 * (laterality == "L")
            cancer = int(rng.random() < rate)
            for view in ("CC", "MLO"):
                rows.append((site, p, int(rng.integers(1 << 30)), laterality, view, age, cancer, 0, machine))
    cols = ["site_id", "patient_id", "image_id", "laterality", "view", "age", "cancer", "implant", "machine_id"]
    return pd.DataFrame(rows, columns=cols)


train, test = frame(700, 10000), frame(150, 60000)
train.to_csv(folder / "train.csv", index=False)
test["prediction_id"] = test.patient_id.astype(str) + "_" + test.laterality
test.drop(columns=["cancer"]).to_csv(folder / "test.csv", index=False)
answers = test.groupby("prediction_id", as_index=False)["cancer"].max()
answers[["prediction_id"]].assign(cancer=0.0).to_csv(folder / "sample_submission.csv", index=False)
answers.to_csv("answers.csv", index=False)
