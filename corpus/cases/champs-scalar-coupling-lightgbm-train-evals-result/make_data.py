"""Synthetic stand-in for champs-scalar-coupling: atom pairs of molecules with the coupling
type; the constant depends on the type and the atom indices. 1500 pairs (1200 train)."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.RandomState(2019)
n = 1500
types = ["1JHC", "2JHH", "1JHN", "2JHN", "2JHC", "3JHH", "3JHC", "3JHN"]
base = {
    "1JHC": 95.0,
    "2JHH": -10.0,
    "1JHN": 47.0,
    "2JHN": 3.0,
    "2JHC": -1.0,
    "3JHH": 4.5,
    "3JHC": 3.0,
    "3JHN": 1.0,
}
frame = pd.DataFrame(
    {
        "id": np.arange(n),
        "molecule_name": [f"dsgdb9nsd_{k:06d}" for k in rng.randint(1, 400, n)],
        "atom_index_0": rng.randint(9, 20, n),
        "atom_index_1": rng.randint(0, 9, n),
        "type": rng.choice(types, n),
    }
)
frame["scalar_coupling_constant"] = (
    frame["type"].map(base)
    + 0.8 * frame["atom_index_1"]
    - 0.3 * frame["atom_index_0"]
    + rng.normal(0, 1.0, n)
).round(4)
train, test = frame.iloc[:1200], frame.iloc[1200:]
Path("input").mkdir(exist_ok=True)
train.to_csv("input/train.csv", index=False)
test.drop(columns="scalar_coupling_constant").to_csv("input/test.csv", index=False)
test[["id", "scalar_coupling_constant"]].to_csv("answers.csv", index=False)
