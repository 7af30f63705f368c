"""Synthetic ranzcr-clip-catheter-line-classification data: tiny grey chest images whose mean
intensity shifts some labels' odds, train.csv (StudyInstanceUID, the 11 labels, PatientID),
the test images and the sample submission; the answers are the test labels."""
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

root = Path("input/ranzcr-clip-catheter-line-classification")
rng = np.random.default_rng(2021)
labels = [
    "ETT - Abnormal", "ETT - Borderline", "ETT - Normal", "NGT - Abnormal", "NGT - Borderline",
    "NGT - Incompletely Imaged", "NGT - Normal", "CVC - Abnormal", "CVC - Borderline",
    "CVC - Normal", "Swan Ganz Catheter Present",
]
slopes = rng.choice([-1.0, 1.0], len(labels)) * rng.uniform(0.5, 2.0, len(labels))
rates = rng.uniform(0.15, 0.5, len(labels))


def frame(n, folder):
    while True:
        level = rng.uniform(60, 200, n)
        odds = 1 / (1 + np.exp(-np.outer((level - 130) / 25, slopes)))
        y = (rng.random((n, len(labels))) < odds * rates * 2).astype(int)
        if (y.sum(axis=0) >= 3).all() and (y.sum(axis=0) <= n - 3).all():
            break
    (root / folder).mkdir(parents=True, exist_ok=True)
    uids = [f"1.2.826.0.1.3680043.8.498.{rng.integers(10**15, 10**16)}" for _ in range(n)]
    for uid, v in zip(uids, level):
        pixels = (v + rng.normal(0, 30, (8, 8))).clip(0, 255).astype(np.uint8)
        Image.fromarray(pixels, mode="L").save(root / folder / f"{uid}.jpg", quality=90)
    out = pd.DataFrame(y, columns=labels)
    out.insert(0, "StudyInstanceUID", uids)
    return out


train = frame(200, "train")
train["PatientID"] = [f"ec{rng.integers(10**8):08x}" for _ in range(len(train))]
train.to_csv(root / "train.csv", index=False)
test = frame(60, "test")
test[["StudyInstanceUID"]].assign(**{c: 0 for c in labels}).to_csv(root / "sample_submission.csv", index=False)
test.to_csv("answers.csv", index=False)
