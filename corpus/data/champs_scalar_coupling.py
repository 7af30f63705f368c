"""champs-scalar-coupling: molecules' structures (atom coordinates) and atom pairs whose coupling
constant follows their type and distance. One generator, its seed and folder chosen by each
case's make_data.py."""

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd


def write_couplings(seed: int, folder: str = "input") -> None:
    """120 molecules of 9 atoms, 6 pairs each (90 molecules train, 30 test), from
    `default_rng(seed)`: structures.csv, train.csv and test.csv in `folder`; answers.csv holds
    the test's coupling constants."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    molecules = [f"dsgdb9nsd_{i:06d}" for i in range(1, 121)]
    rows = []
    for m in molecules:
        for a in range(9):
            rows.append((m, a, "C" if a < 4 else "H", *rng.normal(0, 1.2, 3).round(5)))
    structures = pd.DataFrame(rows, columns=["molecule_name", "atom_index", "atom", "x", "y", "z"])
    base = {"1JHC": 94.0, "2JHH": -10.0, "3JHC": 3.0}
    found = []
    for m in molecules:
        for _ in range(6):
            a0, a1 = int(rng.integers(4, 9)), int(rng.integers(0, 4))
            found.append((m, a0, a1, rng.choice(list(base))))
    pairs = pd.DataFrame(found, columns=["molecule_name", "atom_index_0", "atom_index_1", "type"])
    xyz = structures.set_index(["molecule_name", "atom_index"])[["x", "y", "z"]]
    p0 = xyz.loc[list(zip(pairs.molecule_name, pairs.atom_index_0, strict=True))].to_numpy()
    p1 = xyz.loc[list(zip(pairs.molecule_name, pairs.atom_index_1, strict=True))].to_numpy()
    distance = np.sqrt(((p0 - p1) ** 2).sum(axis=1))
    noise = rng.normal(0, 0.5, len(pairs))
    pairs["scalar_coupling_constant"] = (pairs["type"].map(base) - 4.0 * distance + noise).round(5)
    pairs.insert(0, "id", np.arange(len(pairs)))
    train = pairs[pairs.molecule_name.isin(molecules[:90])]
    test = pairs[pairs.molecule_name.isin(molecules[90:])]
    structures.to_csv(out / "structures.csv", index=False)
    train.to_csv(out / "train.csv", index=False)
    test.drop(columns=["scalar_coupling_constant"]).to_csv(out / "test.csv", index=False)
    test[["id", "scalar_coupling_constant"]].to_csv("answers.csv", index=False)


def write_blended_submissions(
    n: int, base: Mapping[str, float], folder: str, attachments: Mapping[str, float]
) -> None:
    """For a kernel that blends other kernels' submissions: `n` test pairs from
    `default_rng(2019)`, whose constant is its type's `base` plus noise, as test.csv in `folder`
    (answers.csv holds the constants), and in reference/input/ each of `attachments` (a path
    under it: the noise's size), a submission of the truth plus that noise."""
    rng = np.random.default_rng(2019)
    types = rng.choice(list(base), n)
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
    Path(folder).mkdir(parents=True, exist_ok=True)
    test.to_csv(Path(folder) / "test.csv", index=False)
    answers = pd.DataFrame({"id": test.id, "scalar_coupling_constant": truth.round(5)})
    answers.to_csv("answers.csv", index=False)
    for name, noise in attachments.items():
        path = Path("reference/input") / name
        path.parent.mkdir(parents=True, exist_ok=True)
        pred = truth + rng.normal(0, noise, n)
        submission = pd.DataFrame({"id": test.id, "scalar_coupling_constant": pred.round(5)})
        submission.to_csv(path, index=False)
