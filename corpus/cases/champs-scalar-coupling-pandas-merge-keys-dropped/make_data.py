"""Synthetic champs-scalar-coupling data: structures (atom coordinates per molecule) and
atom pairs whose coupling constant follows their type and distance."""
from pathlib import Path

import numpy as np
import pandas as pd

folder = Path("input/champs-scalar-coupling")
folder.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(2024)
molecules = [f"dsgdb9nsd_{i:06d}" for i in range(1, 121)]
rows = []
for m in molecules:
    for a in range(9):
        rows.append((m, a, "C" if a < 4 else "H", *rng.normal(0, 1.2, 3).round(5)))
structures = pd.DataFrame(rows, columns=["molecule_name", "atom_index", "atom", "x", "y", "z"])
base = {"1JHC": 94.0, "2JHH": -10.0, "3JHC": 3.0}
pairs = []
for m in molecules:
    for _ in range(6):
        a0, a1 = int(rng.integers(4, 9)), int(rng.integers(0, 4))
        pairs.append((m, a0, a1, rng.choice(list(base))))
pairs = pd.DataFrame(pairs, columns=["molecule_name", "atom_index_0", "atom_index_1", "type"])
xyz = structures.set_index(["molecule_name", "atom_index"])[["x", "y", "z"]]
p0 = xyz.loc[list(zip(pairs.molecule_name, pairs.atom_index_0))].to_numpy()
p1 = xyz.loc[list(zip(pairs.molecule_name, pairs.atom_index_1))].to_numpy()
distance = np.sqrt(((p0 - p1) ** 2).sum(axis=1))
pairs["scalar_coupling_constant"] = (pairs["type"].map(base) - 4.0 * distance + rng.normal(0, 0.5, len(pairs))).round(5)
pairs.insert(0, "id", np.arange(len(pairs)))
train = pairs[pairs.molecule_name.isin(molecules[:90])]
test = pairs[pairs.molecule_name.isin(molecules[90:])]
structures.to_csv(folder / "structures.csv", index=False)
train.to_csv(folder / "train.csv", index=False)
test.drop(columns=["scalar_coupling_constant"]).to_csv(folder / "test.csv", index=False)
test[["id", "scalar_coupling_constant"]].to_csv("answers.csv", index=False)
