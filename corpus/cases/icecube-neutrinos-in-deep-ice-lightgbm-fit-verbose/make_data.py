"""Synthetic stand-in for icecube-neutrinos-in-deep-ice: pulses (event_id, sensor_id, charge)
of one train batch and one test batch, the train meta table with each event's direction;
the direction decides which sensors fire. CSV instead of parquet (pyarrow is not installed)."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.RandomState(2023)
NB_SENSORS = 5160


def batch(first_event: int, events: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    azimuth = rng.uniform(0, 2 * np.pi, events)
    zenith = rng.uniform(0, np.pi, events)
    pulses = []
    for k in range(events):
        centre = int((azimuth[k] / (2 * np.pi)) * 60) * 86 + int(zenith[k] / np.pi * 80)
        sensors = (centre + rng.randint(-3, 4, 10)) % NB_SENSORS
        charge = np.round(rng.gamma(2.0, 0.5, 10), 2)
        pulses += [(first_event + k, s, c) for s, c in zip(sensors, charge, strict=True)]
    meta = pd.DataFrame(
        {
            "event_id": np.arange(first_event, first_event + events),
            "azimuth": azimuth.round(4),
            "zenith": zenith.round(4),
        }
    )
    return pd.DataFrame(pulses, columns=["event_id", "sensor_id", "charge"]), meta


train_pulses, train_meta = batch(1000, 700)
test_pulses, test_meta = batch(900000, 150)
Path("input/train").mkdir(parents=True, exist_ok=True)
Path("input/test").mkdir(parents=True, exist_ok=True)
train_pulses.to_csv("input/train/batch_10.csv", index=False)
test_pulses.to_csv("input/test/batch_661.csv", index=False)
train_meta.insert(0, "batch_id", 10)
train_meta.to_csv("input/train_meta.csv", index=False)
test_meta[["event_id"]].assign(batch_id=661).to_csv("input/test_meta.csv", index=False)
test_meta[["event_id"]].assign(azimuth=1.0, zenith=1.0).to_csv(
    "input/sample_submission.csv", index=False
)
test_meta.to_csv("answers.csv", index=False)
