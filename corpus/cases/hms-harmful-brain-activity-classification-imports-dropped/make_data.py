"""Synthetic hms-harmful-brain-activity-classification metadata (no EEGs): train.csv with the
competition's 15 columns and expert votes, test.csv and the sample submission; the answers are
the test rows' expert consensus as one-hot votes."""
from pathlib import Path

import numpy as np
import pandas as pd

root = Path("input/hms-harmful-brain-activity-classification")
root.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(2024)
TARGETS = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
NAMES = ["Seizure", "LPD", "GPD", "LRDA", "GRDA", "Other"]
share = np.array([0.2, 0.14, 0.16, 0.08, 0.12, 0.3])

n = 300
votes = np.array([rng.multinomial(int(rng.integers(3, 16)), share) for _ in range(n)])
train = pd.DataFrame({
    "eeg_id": rng.integers(10**8, 10**9, n), "eeg_sub_id": 0, "eeg_label_offset_seconds": 0.0,
    "spectrogram_id": rng.integers(10**8, 10**9, n), "spectrogram_sub_id": 0,
    "spectrogram_label_offset_seconds": 0.0, "label_id": rng.integers(10**8, 10**9, n),
    "patient_id": rng.integers(10**4, 10**5, n),
    "expert_consensus": [NAMES[i] for i in votes.argmax(axis=1)],
})
train[TARGETS] = votes
train.to_csv(root / "train.csv", index=False)

m = 60
test = pd.DataFrame({"spectrogram_id": rng.integers(10**8, 10**9, m),
                     "eeg_id": rng.choice(np.arange(10**8, 10**9), m, replace=False),
                     "patient_id": rng.integers(10**4, 10**5, m)})
test.to_csv(root / "test.csv", index=False)
test[["eeg_id"]].assign(**{t: 1 / 6 for t in TARGETS}).to_csv(root / "sample_submission.csv", index=False)
consensus = rng.choice(6, m, p=share)
answers = pd.DataFrame(np.eye(6, dtype=int)[consensus], columns=TARGETS)
answers.insert(0, "eeg_id", test["eeg_id"])
answers.to_csv("answers.csv", index=False)
