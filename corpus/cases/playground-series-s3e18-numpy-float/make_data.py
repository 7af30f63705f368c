"""Synthetic stand-in for playground-series-s3e18 (enzyme substrates): the competition's
descriptor columns and the six EC targets; 1200 rows (900 train, 300 test)."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.RandomState(318)
n = 1200
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
    "FpDensityMorgan2",
    "FpDensityMorgan3",
    "HallKierAlpha",
    "HeavyAtomMolWt",
    "Kappa3",
    "MaxAbsEStateIndex",
    "MinEStateIndex",
    "NumHeteroatoms",
    "PEOE_VSA10",
    "PEOE_VSA14",
    "PEOE_VSA6",
    "PEOE_VSA7",
    "PEOE_VSA8",
    "SMR_VSA10",
    "SMR_VSA5",
    "SlogP_VSA3",
    "VSA_EState9",
    "fr_COO",
    "fr_COO2",
]
X = rng.gamma(2.0, 2.0, size=(n, len(columns)))
frame = pd.DataFrame(X.round(4), columns=columns)
frame.insert(0, "id", np.arange(n))
z1 = 0.6 * X[:, 0] - 0.5 * X[:, 4] + 0.4 * X[:, 10] - 0.3 * X[:, 20] + rng.normal(0, 1.5, n)
z2 = 0.5 * X[:, 2] + 0.4 * X[:, 18] - 0.6 * X[:, 25] + rng.normal(0, 1.5, n)
frame["EC1"] = (z1 > np.median(z1)).astype(int)
frame["EC2"] = (z2 > np.percentile(z2, 25)).astype(int)
for k in range(3, 7):
    frame[f"EC{k}"] = (rng.rand(n) < 0.2).astype(int)
train, test = frame.iloc[:900], frame.iloc[900:]
Path("input").mkdir(exist_ok=True)
train.to_csv("input/train.csv", index=False)
test.drop(columns=[f"EC{k}" for k in range(1, 7)]).to_csv("input/test.csv", index=False)
test[["id"]].assign(EC1=0.5, EC2=0.5).to_csv("input/sample_submission.csv", index=False)
test[["id", "EC1", "EC2"]].to_csv("answers.csv", index=False)
