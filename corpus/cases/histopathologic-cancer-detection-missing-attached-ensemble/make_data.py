"""Synthetic histopathologic-cancer-detection data: the competition's sample submission in
input/, and, in reference/input/, the three attached datasets the ensembling kernel read (each
another kernel's validation and test log-probabilities, `val_0/val_1` and `pred_0/pred_1`),
which the environment lacks. Each model's logit is the truth plus noise of its own size."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.default_rng(2019)
n_valid, n_test = 600, 200
comp = Path("input/histopathologic-cancer-detection")
comp.mkdir(parents=True, exist_ok=True)
ids = [f"{rng.integers(0, 2**63):016x}{rng.integers(0, 2**63):016x}"[:40] for _ in range(n_test)]
y_valid = (rng.random(n_valid) < 0.4).astype(int)
y_test = (rng.random(n_test) < 0.4).astype(int)
pd.DataFrame({"id": ids, "label": 0}).to_csv(comp / "sample_submission.csv", index=False)
pd.DataFrame({"id": ids, "label": y_test}).to_csv("answers.csv", index=False)


def log_probs(y, noise):
    logit = 3.0 * (2.0 * y - 1.0) + rng.normal(0, noise, len(y))
    p1 = 1 / (1 + np.exp(-logit))
    return np.log(1 - p1).round(6), np.log(p1).round(6)


models = {
    "cancer-densenet161-v2-for-ensemble": ("0.976066529750824", 3.0),
    "cancer-densenet201-v2-for-ensemble": ("0.9749373197555542", 3.5),
    "cancer-resnet50-v2-for-ensemble": ("0.9727705717086792", 4.0),
}
for folder, (auc, noise) in models.items():
    out = Path("reference/input") / folder
    out.mkdir(parents=True, exist_ok=True)
    v0, v1 = log_probs(y_valid, noise)
    pd.DataFrame({"val_0": v0, "val_1": v1, "label": y_valid}).to_csv(
        out / f"validation_{auc}.csv", index=False
    )
    p0, p1 = log_probs(y_test, noise)
    pd.DataFrame({"pred_0": p0, "pred_1": p1}).to_csv(out / f"submission_{auc}.csv", index=False)
