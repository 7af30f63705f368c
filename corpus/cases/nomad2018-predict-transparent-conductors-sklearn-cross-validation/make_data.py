"""Synthetic nomad2018-predict-transparent-conductors data (the competition's columns)."""
from pathlib import Path

import numpy as np
import pandas as pd

Path("input").mkdir(exist_ok=True)
rng = np.random.default_rng(2018)


def frame(n, start):
    al = rng.uniform(0, 1, n)
    ga = rng.uniform(0, 1 - al)
    frame = pd.DataFrame(
        {
            "id": np.arange(start, start + n),
            "spacegroup": rng.choice([12, 33, 167, 194, 206, 227], n),
            "number_of_total_atoms": rng.choice([10.0, 20.0, 30.0, 40.0, 60.0, 80.0], n),
            "percent_atom_al": al.round(4),
            "percent_atom_ga": ga.round(4),
            "percent_atom_in": (1 - al - ga).round(4),
            "lattice_vector_1_ang": rng.uniform(3, 25, n).round(4),
            "lattice_vector_2_ang": rng.uniform(3, 10, n).round(4),
            "lattice_vector_3_ang": rng.uniform(5, 25, n).round(4),
            "lattice_angle_alpha_degree": rng.uniform(88, 92, n).round(4),
            "lattice_angle_beta_degree": rng.uniform(88, 106, n).round(4),
            "lattice_angle_gamma_degree": rng.uniform(30, 120, n).round(4),
        }
    )
    noise = rng.normal(0, 0.02, (n, 2))
    frame["formation_energy_ev_natom"] = (0.05 + 0.2 * al - 0.1 * (1 - al - ga) + 0.1 * ga * al + np.abs(noise[:, 0])).clip(0.001).round(4)
    frame["bandgap_energy_ev"] = (1.0 + 3.5 * al + 1.5 * ga - 0.002 * frame["lattice_angle_gamma_degree"] + noise[:, 1]).clip(0.01).round(4)
    return frame


train, test = frame(700, 1), frame(240, 1001)
targets = ["formation_energy_ev_natom", "bandgap_energy_ev"]
train.to_csv("input/train.csv", index=False)
test.drop(columns=targets).to_csv("input/test.csv", index=False)
test[["id", *targets]].to_csv("answers.csv", index=False)
