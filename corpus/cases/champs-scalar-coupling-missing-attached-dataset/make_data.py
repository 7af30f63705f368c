"""Synthetic champs-scalar-coupling data: the competition's test.csv in input/, and, in
reference/input/, the attached datasets the blending kernel read (other kernels'
submissions: the truth plus noise of different sizes), which the environment lacks."""
from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.default_rng(2019)
n = 300
types = rng.choice(["1JHC", "2JHH", "3JHC", "2JHC", "3JHH"], n)
base = {"1JHC": 94.0, "2JHH": -10.0, "3JHC": 3.0, "2JHC": -1.0, "3JHH": 4.5}
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
Path("input").mkdir(exist_ok=True)
test.to_csv("input/test.csv", index=False)
pd.DataFrame({"id": test.id, "scalar_coupling_constant": truth.round(5)}).to_csv("answers.csv", index=False)
attached = {
    "champs-blending-tutorial/1.csv": 2.0,
    "champs-blending-tutorial/2.csv": 1.2,
    "champs-blending-tutorial/3.csv": 1.0,
    "otherkernelsadded/submission-2.csv": 1.5,
    "otherkernelsadded/submission-giba-1.csv": 1.1,
    "otherkernelsadded/workingsubmission-test.csv": 2.5,
    "otherkernelsadded/LGB_2019-07-18_-1.2243.csv": 1.4,
}
for name, noise in attached.items():
    path = Path("reference/input") / name
    path.parent.mkdir(parents=True, exist_ok=True)
    pred = truth + rng.normal(0, noise, n)
    pd.DataFrame({"id": test.id, "scalar_coupling_constant": pred.round(5)}).to_csv(path, index=False)
