"""Deterministic synthetic RSNA mammography tables.

Writes input/train.csv, input/test.csv, input/sample_submission.csv and answers.csv.
"""

from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent
MACHINES = [21, 29, 48, 49, 93, 170, 190, 197, 210, 216]


def patients(rng: np.random.Generator, count: int, first_id: int) -> pd.DataFrame:
    rows = []
    for p in range(count):
        patient_id = first_id + p
        site_id = int(rng.integers(1, 3))
        age = float(round(rng.normal(58, 10)))
        machine_id = int(rng.choice(MACHINES))
        implant = int(rng.random() < 0.03)
        density = str(rng.choice(["A", "B", "C", "D"]))
        for laterality in ("L", "R"):
            risk = (
                -2.8
                + 0.08 * (age - 58)
                + 0.5 * (machine_id in (29, 170))
                + 0.4 * (laterality == "L")
            )
            cancer = int(rng.random() < 1 / (1 + np.exp(-risk)))
            for view in ("CC", "MLO"):
                rows.append(
                    {
                        "site_id": site_id,
                        "patient_id": patient_id,
                        "image_id": int(rng.integers(10**6, 10**9)),
                        "laterality": laterality,
                        "view": view,
                        "age": age if rng.random() > 0.02 else np.nan,
                        "cancer": cancer,
                        "biopsy": int(cancer or rng.random() < 0.03),
                        "invasive": int(cancer and rng.random() < 0.7),
                        "BIRADS": int(rng.choice([0, 1, 2])) if rng.random() > 0.4 else np.nan,
                        "implant": implant,
                        "density": density if rng.random() > 0.3 else np.nan,
                        "machine_id": machine_id,
                        "difficult_negative_case": bool(rng.random() < 0.1 and not cancer),
                    }
                )
    return pd.DataFrame(rows)


def main() -> None:
    rng = np.random.default_rng(2022)
    train = patients(rng, 700, 10000)
    test = patients(rng, 250, 60000)
    test["prediction_id"] = test["patient_id"].astype(str) + "_" + test["laterality"]
    (HERE / "input").mkdir(exist_ok=True)
    train.to_csv(HERE / "input" / "train.csv", index=False)
    test_columns = [
        "site_id",
        "patient_id",
        "image_id",
        "laterality",
        "view",
        "age",
        "implant",
        "machine_id",
        "prediction_id",
    ]
    test[test_columns].to_csv(HERE / "input" / "test.csv", index=False)
    answers = test.groupby("prediction_id", sort=True)["cancer"].max().reset_index()
    answers.assign(cancer=0.0).to_csv(HERE / "input" / "sample_submission.csv", index=False)
    answers.to_csv(HERE / "answers.csv", index=False)


if __name__ == "__main__":
    main()
