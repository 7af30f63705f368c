"""Synthetic icecube-neutrinos-in-deep-ice event metadata (no pulse batches): the competition's
train_meta/test_meta columns, as CSV (the image has no parquet engine); the zenith grows
slowly with the event's pulse count."""
from pathlib import Path

import numpy as np
import pandas as pd

folder = Path("input/icecube-neutrinos-in-deep-ice")
folder.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(2023)


def frame(events, first_event):
    counts = rng.integers(5, 200, events)
    last = np.cumsum(counts) - 1
    first = last - counts + 1
    zenith = np.clip(0.8 + 0.006 * counts + rng.normal(0, 0.45, events), 0.0, np.pi)
    return pd.DataFrame(
        {
            "batch_id": 1,
            "event_id": np.arange(first_event, first_event + 3 * events, 3),
            "first_pulse_index": first,
            "last_pulse_index": last,
            "azimuth": rng.uniform(0, 2 * np.pi, events).round(4),
            "zenith": zenith.round(4),
        }
    )


train, test = frame(2500, 24), frame(500, 2092)
train.to_csv(folder / "train_meta.csv", index=False)
test.drop(columns=["azimuth", "zenith"]).to_csv(folder / "test_meta.csv", index=False)
test[["event_id"]].assign(azimuth=1.0, zenith=1.0).to_csv(folder / "sample_submission.csv", index=False)
test[["event_id", "azimuth", "zenith"]].to_csv("answers.csv", index=False)
