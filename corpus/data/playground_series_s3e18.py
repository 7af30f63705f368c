"""playground-series-s3e18 (enzyme substrates): molecular descriptors drawn from a gamma
distribution, EC1 and EC2 a noisy function of a few of them, EC3-EC6 at random. One generator,
its sizes and columns chosen by each case's make_data.py."""

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

DESCRIPTORS = [
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


def write_enzymes(
    seed: int,
    rows: int,
    descriptors: Sequence[str],
    ec1_from: tuple[int, int, int, int],
    ec2_from: tuple[int, int, int],
    folder: str = "input",
) -> None:
    """`rows` molecules (three quarters train, the rest test) from `RandomState(seed)`: in
    `folder`, train.csv (descriptors and EC1-EC6), test.csv and sample_submission.csv;
    answers.csv holds the test's EC1 and EC2. EC1 is 0.6a - 0.5b + 0.4c - 0.3d of the
    descriptors `ec1_from` names (by index), EC2 0.5a + 0.4b - 0.6c of `ec2_from`'s."""
    rng = np.random.RandomState(seed)
    n = rows
    x = rng.gamma(2.0, 2.0, size=(n, len(descriptors)))
    frame = pd.DataFrame(x.round(4), columns=list(descriptors))
    frame.insert(0, "id", np.arange(n))
    a, b, c, d = ec1_from
    z1 = 0.6 * x[:, a] - 0.5 * x[:, b] + 0.4 * x[:, c] - 0.3 * x[:, d] + rng.normal(0, 1.5, n)
    a, b, c = ec2_from
    z2 = 0.5 * x[:, a] + 0.4 * x[:, b] - 0.6 * x[:, c] + rng.normal(0, 1.5, n)
    frame["EC1"] = (z1 > np.median(z1)).astype(int)
    frame["EC2"] = (z2 > np.percentile(z2, 25)).astype(int)
    for k in range(3, 7):
        frame[f"EC{k}"] = (rng.rand(n) < 0.2).astype(int)
    train, test = frame.iloc[: n * 3 // 4], frame.iloc[n * 3 // 4 :]
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    train.to_csv(out / "train.csv", index=False)
    test.drop(columns=[f"EC{k}" for k in range(1, 7)]).to_csv(out / "test.csv", index=False)
    test[["id"]].assign(EC1=0.5, EC2=0.5).to_csv(out / "sample_submission.csv", index=False)
    test[["id", "EC1", "EC2"]].to_csv("answers.csv", index=False)
