"""Synthetic stand-in for nomad2018-predict-transparent-conductors with its geometry files:
the competition's columns for 100 train and 40 test materials (ids 1.. in each, as the
competition numbers them) and one train|test/<id>/geometry.xyz per material (three
lattice_vector lines, then one atom line per atom: x y z element); answers.csv holds the
test targets."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.RandomState(2018)
n_train, n_test = 100, 40
n = n_train + n_test
al = rng.dirichlet([1, 1, 1], n)
frame = pd.DataFrame(
    {
        "spacegroup": rng.choice([12, 33, 167, 194, 206, 227], n),
        "number_of_total_atoms": rng.choice([10, 20], n).astype(float),
        "percent_atom_al": al[:, 0].round(4),
        "percent_atom_ga": al[:, 1].round(4),
        "percent_atom_in": al[:, 2].round(4),
        "lattice_vector_1_ang": rng.uniform(3, 12, n).round(4),
        "lattice_vector_2_ang": rng.uniform(3, 10, n).round(4),
        "lattice_vector_3_ang": rng.uniform(5, 14, n).round(4),
        "lattice_angle_alpha_degree": rng.uniform(85, 105, n).round(4),
        "lattice_angle_beta_degree": rng.uniform(85, 110, n).round(4),
        "lattice_angle_gamma_degree": rng.uniform(30, 120, n).round(4),
    }
)
sg = frame["spacegroup"].map({12: 0.02, 33: 0.05, 167: 0.08, 194: 0.03, 206: 0.06, 227: 0.1})
frame["formation_energy_ev_natom"] = (
    (0.05 + 0.25 * frame["percent_atom_al"] - 0.1 * frame["percent_atom_in"] + sg + 0.02 * rng.rand(n))
    .clip(0.0, None)
    .round(4)
)
frame["bandgap_energy_ev"] = (
    (1.0 + 3.5 * frame["percent_atom_al"] + 1.2 * frame["percent_atom_ga"] + 0.2 * rng.rand(n))
    .clip(0.0, None)
    .round(4)
)


def geometry(row: pd.Series) -> str:
    lengths = row[["lattice_vector_1_ang", "lattice_vector_2_ang", "lattice_vector_3_ang"]]
    lattice = np.diag(lengths.to_numpy(dtype=float)) + rng.uniform(-0.3, 0.3, (3, 3))
    n_atoms = int(row["number_of_total_atoms"])
    n_metal = n_atoms * 2 // 5
    shares = row[["percent_atom_al", "percent_atom_ga", "percent_atom_in"]].to_numpy(dtype=float)
    metals = rng.choice(["Al", "Ga", "In"], n_metal, p=shares / shares.sum())
    elements = list(metals) + ["O"] * (n_atoms - n_metal)
    lines = [f"lattice_vector {v[0]:.6f} {v[1]:.6f} {v[2]:.6f} " for v in lattice]
    for element in elements:
        x, y, z = rng.rand(3) @ lattice
        lines.append(f"atom {x:.6f} {y:.6f} {z:.6f} {element}")
    return "\n".join(lines) + "\n"


targets = ["formation_energy_ev_natom", "bandgap_energy_ev"]
train = frame.iloc[:n_train].copy()
test = frame.iloc[n_train:].copy()
train.insert(0, "id", np.arange(1, n_train + 1))
test.insert(0, "id", np.arange(1, n_test + 1))
for name, part in (("train", train), ("test", test)):
    for _, row in part.iterrows():
        folder = Path("input") / name / str(int(row["id"]))
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "geometry.xyz").write_text(geometry(row))
train.to_csv("input/train.csv", index=False)
test.drop(columns=targets).to_csv("input/test.csv", index=False)
test[["id", *targets]].to_csv("answers.csv", index=False)
