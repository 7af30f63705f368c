"""Synthetic stand-in for nomad2018-predict-transparent-conductors: the competition's columns,
600 materials (450 train, 150 test), the sample submission; answers.csv holds the test targets."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.RandomState(2018)
n = 600
al = rng.dirichlet([1, 1, 1], n)
frame = pd.DataFrame(
    {
        "id": np.arange(1, n + 1),
        "spacegroup": rng.choice([12, 33, 167, 194, 206, 227], n),
        "number_of_total_atoms": rng.choice([10, 20, 30, 40, 60, 80], n).astype(float),
        "percent_atom_al": al[:, 0].round(4),
        "percent_atom_ga": al[:, 1].round(4),
        "percent_atom_in": al[:, 2].round(4),
        "lattice_vector_1_ang": rng.uniform(3, 25, n).round(4),
        "lattice_vector_2_ang": rng.uniform(3, 10, n).round(4),
        "lattice_vector_3_ang": rng.uniform(5, 25, n).round(4),
        "lattice_angle_alpha_degree": rng.uniform(85, 105, n).round(4),
        "lattice_angle_beta_degree": rng.uniform(85, 110, n).round(4),
        "lattice_angle_gamma_degree": rng.uniform(30, 120, n).round(4),
    }
)
sg = frame["spacegroup"].map({12: 0.02, 33: 0.05, 167: 0.08, 194: 0.03, 206: 0.06, 227: 0.1})
frame["formation_energy_ev_natom"] = (
    (
        0.05
        + 0.25 * frame["percent_atom_al"]
        - 0.1 * frame["percent_atom_in"]
        + sg
        + 0.002 * frame["lattice_vector_3_ang"]
        + 0.02 * rng.rand(n)
    )
    .clip(0.0, None)
    .round(4)
)
frame["bandgap_energy_ev"] = (
    (
        1.0
        + 3.5 * frame["percent_atom_al"]
        + 1.2 * frame["percent_atom_ga"]
        - 0.01 * frame["lattice_angle_gamma_degree"]
        + 0.2 * rng.rand(n)
    )
    .clip(0.0, None)
    .round(4)
)
train, test = frame.iloc[:450], frame.iloc[450:]
targets = ["formation_energy_ev_natom", "bandgap_energy_ev"]
Path("input").mkdir(exist_ok=True)
train.to_csv("input/train.csv", index=False)
test.drop(columns=targets).to_csv("input/test.csv", index=False)
test[["id", *targets]].to_csv("answers.csv", index=False)
sample = test[["id"]].assign(formation_energy_ev_natom=0.1779, bandgap_energy_ev=1.8892)
sample.to_csv("input/sample_submission.csv", index=False)
