"""Synthetic champs-scalar-coupling data: test.csv in input/, and, in reference/input/champstacks/,
the attached dataset the stacking kernel read (six other kernels' submissions: the truth plus
noise of different sizes), which the environment lacks."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.default_rng(2019)
n = 400
types = rng.choice(["1JHC", "2JHH", "3JHC", "2JHC", "3JHH", "1JHN"], n)
base = {"1JHC": 94.0, "2JHH": -10.0, "3JHC": 3.0, "2JHC": -1.0, "3JHH": 4.5, "1JHN": 48.0}
truth = np.array([base[t] for t in types]) + rng.normal(0, 3, n)
test = pd.DataFrame(
    {
        "id": np.arange(4658147, 4658147 + n),
        "molecule_name": [f"dsgdb9nsd_{i // 6:06d}" for i in range(n)],
        "atom_index_0": rng.integers(9, 20, n),
        "atom_index_1": rng.integers(0, 9, n),
        "type": types,
    }
)
Path("input/champs-scalar-coupling").mkdir(parents=True, exist_ok=True)
test.to_csv("input/champs-scalar-coupling/test.csv", index=False)
pd.DataFrame({"id": test.id, "scalar_coupling_constant": truth.round(5)}).to_csv(
    "answers.csv", index=False
)
attached = {
    "submission-giba-1 (2).csv": 0.8,
    "lgb-1.406.csv": 1.5,
    "mpnn-1.69.csv": 1.9,
    "schnet-1.52.csv": 1.6,
    "keras-nn-1.31.csv": 1.2,
    "blend-1.63.csv": 1.8,
}
folder = Path("reference/input/champstacks")
folder.mkdir(parents=True, exist_ok=True)
for name, noise in attached.items():
    pred = truth + rng.normal(0, noise, n)
    pd.DataFrame({"id": test.id, "scalar_coupling_constant": pred.round(5)}).to_csv(
        folder / name, index=False
    )
