"""Deterministic synthetic Smartphone Decimeter 2022 folders.

Writes train/<drive>/<phone>/device_gnss.csv + ground_truth.csv, test/<drive>/<phone>/
device_gnss.csv and sample_submission.csv under input/, and the test ground truth to answers.csv.
"""

import shutil
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent
TRAIN = [
    ("2020-05-15-US-MTV-1", "GooglePixel4XL"),
    ("2020-05-21-US-MTV-1", "GooglePixel4"),
    ("2021-04-08-US-MTV-1", "GooglePixel5"),
    ("2021-08-24-US-SVL-1", "XiaomiMi8"),
]
TEST = [("2020-06-04-US-MTV-1", "GooglePixel4"), ("2021-04-29-US-MTV-1", "SamsungGalaxyS20Ultra")]
EPOCHS, SATELLITES = 90, 3


def trip(rng: np.random.Generator, start_ms: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    times = start_ms + 1000 * np.arange(EPOCHS)
    lat = 37.40 + rng.normal(0, 0.01) + np.cumsum(rng.normal(0, 2e-5, EPOCHS))
    lon = -122.08 + rng.normal(0, 0.01) + np.cumsum(rng.normal(0, 2e-5, EPOCHS))
    truth = pd.DataFrame(
        {
            "MessageType": "Fix",
            "Provider": "GT",
            "LatitudeDegrees": lat,
            "LongitudeDegrees": lon,
            "AltitudeMeters": 10.0,
            "UnixTimeMillis": times,
        }
    )
    rows = []
    for t, la, lo in zip(times, lat, lon, strict=True):
        x = -2_693_000 + 88_000 * (la - 37.4) - 70_000 * (lo + 122.08)
        y = -4_297_000 - 55_000 * (la - 37.4) + 111_000 * (lo + 122.08)
        z = 3_854_000 + 88_500 * (la - 37.4)
        for _ in range(SATELLITES):
            rows.append(
                {
                    "MessageType": "Raw",
                    "utcTimeMillis": int(t),
                    "Svid": int(rng.integers(1, 33)),
                    "SignalType": str(rng.choice(["GPS_L1", "GAL_E1", "GLO_G1"])),
                    "Cn0DbHz": round(float(rng.normal(30, 5)), 2),
                    "WlsPositionXEcefMeters": round(x + rng.normal(0, 3), 2),
                    "WlsPositionYEcefMeters": round(y + rng.normal(0, 3), 2),
                    "WlsPositionZEcefMeters": round(z + rng.normal(0, 3), 2),
                }
            )
    return pd.DataFrame(rows), truth


def main() -> None:
    rng = np.random.default_rng(2022)
    base = HERE / "input" / "smartphone-decimeter-2022"
    shutil.rmtree(HERE / "input", ignore_errors=True)
    start = 1_589_000_000_000
    for drive, phone in TRAIN:
        folder = base / "train" / drive / phone
        folder.mkdir(parents=True)
        gnss, truth = trip(rng, start)
        gnss.to_csv(folder / "device_gnss.csv", index=False)
        truth.to_csv(folder / "ground_truth.csv", index=False)
        start += 10_000_000
    answers, sample = [], []
    for drive, phone in TEST:
        folder = base / "test" / drive / phone
        folder.mkdir(parents=True)
        gnss, truth = trip(rng, start)
        gnss.to_csv(folder / "device_gnss.csv", index=False)
        start += 10_000_000
        trip_id = f"{drive}/{phone}"
        answers.append(truth[["UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"]])
        sample.append(
            pd.DataFrame(
                {
                    "tripId": trip_id,
                    "UnixTimeMillis": truth["UnixTimeMillis"],
                    "LatitudeDegrees": 37.9,
                    "LongitudeDegrees": -122.4,
                }
            )
        )
    pd.concat(sample).to_csv(base / "sample_submission.csv", index=False)
    pd.concat(answers).to_csv(HERE / "answers.csv", index=False)


if __name__ == "__main__":
    main()
