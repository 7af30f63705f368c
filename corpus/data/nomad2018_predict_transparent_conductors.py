"""nomad2018-predict-transparent-conductors: materials with the competition's columns, the two
targets (formation and bandgap energy) a function of the composition, the spacegroup and the
lattice, and noise. Two generators, each shared by several cases (their make_data.py name one)."""

from pathlib import Path

import numpy as np
import pandas as pd


def write_materials_600(sample_submission: bool = False) -> None:
    """600 materials (450 train, 150 test) from a Dirichlet composition, in input/; answers.csv
    holds the test targets; with `sample_submission`, input/sample_submission.csv too."""
    Path("input").mkdir(exist_ok=True)
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
    train.to_csv("input/train.csv", index=False)
    test.drop(columns=targets).to_csv("input/test.csv", index=False)
    test[["id", *targets]].to_csv("answers.csv", index=False)
    if sample_submission:
        sample = test[["id"]].assign(formation_energy_ev_natom=0.1779, bandgap_energy_ev=1.8892)
        sample.to_csv("input/sample_submission.csv", index=False)


def write_materials_940() -> None:
    """940 materials (700 train, 240 test) from a uniform composition, in input/; answers.csv
    holds the test targets."""
    Path("input").mkdir(exist_ok=True)
    rng = np.random.default_rng(2018)
    train, test = _frame(rng, 700, 1), _frame(rng, 240, 1001)
    targets = ["formation_energy_ev_natom", "bandgap_energy_ev"]
    train.to_csv("input/train.csv", index=False)
    test.drop(columns=targets).to_csv("input/test.csv", index=False)
    test[["id", *targets]].to_csv("answers.csv", index=False)


def _frame(rng: np.random.Generator, n: int, start: int) -> pd.DataFrame:
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
    frame["formation_energy_ev_natom"] = (
        (0.05 + 0.2 * al - 0.1 * (1 - al - ga) + 0.1 * ga * al + np.abs(noise[:, 0]))
        .clip(0.001)
        .round(4)
    )
    frame["bandgap_energy_ev"] = (
        (1.0 + 3.5 * al + 1.5 * ga - 0.002 * frame["lattice_angle_gamma_degree"] + noise[:, 1])
        .clip(0.01)
        .round(4)
    )
    return frame
