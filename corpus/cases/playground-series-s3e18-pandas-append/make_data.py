"""Synthetic playground-series-s3e18 data (enzyme classes EC1/EC2 from molecular
descriptors), a subset of the competition's descriptor columns."""
from pathlib import Path

import numpy as np
import pandas as pd

folder = Path("input/playground-series-s3e18")
folder.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(2023)
cols = ["BertzCT", "Chi1", "Chi1n", "Chi1v", "Chi2n", "Chi2v", "Chi3v", "Chi4n", "EState_VSA1", "EState_VSA2", "ExactMolWt", "FpDensityMorgan1", "FpDensityMorgan2", "FpDensityMorgan3"]


def frame(n, start):
    X = rng.normal(0, 1, (n, len(cols)))
    df = pd.DataFrame((X * 10 + 50).round(4), columns=cols)
    df.insert(0, "id", np.arange(start, start + n))
    ec1 = (X[:, 0] + 0.5 * X[:, 3] + rng.normal(0, 1, n) > -0.5).astype(int)
    ec2 = (X[:, 1] - 0.7 * X[:, 5] + rng.normal(0, 1, n) > 0.8).astype(int)
    return df, ec1, ec2


train, ec1, ec2 = frame(300, 0)
train = train.assign(EC1=ec1, EC2=ec2, EC3=rng.integers(0, 2, 300), EC4=rng.integers(0, 2, 300), EC5=0, EC6=0)
train.to_csv(folder / "train.csv", index=False)
test, t1, t2 = frame(150, 300)
test.to_csv(folder / "test.csv", index=False)
pd.DataFrame({"id": test.id, "EC1": t1, "EC2": t2}).to_csv("answers.csv", index=False)
