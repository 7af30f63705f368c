"""Synthetic stand-in for playground-series-s3e18 (enzyme substrates): the competition's
descriptor columns and the six EC targets; 400 rows (300 train, 100 test), twelve of the
31 descriptor columns."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.RandomState(2023)
n = 400
columns = [
    "BertzCT",
    "Chi1",
    "Chi1n",
    "Chi1v",
    "Chi2n",
    "Chi2v",
    "Chi3v",
    "Chi4n",
    "EState_VSA1",
    "EState_VSA2",
    "ExactMolWt",
    "FpDensityMorgan1",
]
X = rng.gamma(2.0, 2.0, size=(n, len(columns)))
frame = pd.DataFrame(X.round(4), columns=columns)
frame.insert(0, "id", np.arange(n))
z1 = 0.6 * X[:, 0] - 0.5 * X[:, 4] + 0.4 * X[:, 10] - 0.3 * X[:, 8] + rng.normal(0, 1.5, n)
z2 = 0.5 * X[:, 2] + 0.4 * X[:, 9] - 0.6 * X[:, 11] + rng.normal(0, 1.5, n)
frame["EC1"] = (z1 > np.median(z1)).astype(int)
frame["EC2"] = (z2 > np.percentile(z2, 25)).astype(int)
for k in range(3, 7):
    frame[f"EC{k}"] = (rng.rand(n) < 0.2).astype(int)
train, test = frame.iloc[:300], frame.iloc[300:]
folder = Path("input/playground-series-s3e18")
folder.mkdir(parents=True, exist_ok=True)
train.to_csv(folder / "train.csv", index=False)
test.drop(columns=[f"EC{k}" for k in range(1, 7)]).to_csv(folder / "test.csv", index=False)
test[["id"]].assign(EC1=0.5, EC2=0.5).to_csv(folder / "sample_submission.csv", index=False)
test[["id", "EC1", "EC2"]].to_csv("answers.csv", index=False)
