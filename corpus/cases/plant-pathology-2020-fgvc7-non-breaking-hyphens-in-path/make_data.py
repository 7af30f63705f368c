"""Synthetic plant-pathology-2020-fgvc7 data: tiny leaf images whose colour follows the
label, train.csv and test.csv (image_id plus the four one-hot label columns in train), the
sample submission; the answers are the test labels."""
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

root = Path("input/plant-pathology-2020-fgvc7")
rng = np.random.default_rng(2020)
labels = ["healthy", "multiple_diseases", "rust", "scab"]
colours = {"healthy": (40, 160, 40), "multiple_diseases": (150, 100, 60), "rust": (170, 80, 30), "scab": (110, 110, 40)}


def frame(n, prefix):
    (root / "images").mkdir(parents=True, exist_ok=True)
    chosen = rng.choice(labels, n, p=[0.3, 0.1, 0.3, 0.3])
    rows = []
    for i, label in enumerate(chosen):
        image_id = f"{prefix}_{i}"
        base = np.array(colours[label], dtype=float)
        pixels = (base + rng.normal(0, 80, (12, 12, 3))).clip(0, 255).astype(np.uint8)
        Image.fromarray(pixels).save(root / "images" / f"{image_id}.jpg", quality=90)
        rows.append({"image_id": image_id, **{c: int(c == label) for c in labels}})
    return pd.DataFrame(rows)


train = frame(160, "Train")
train.to_csv(root / "train.csv", index=False)
test = frame(60, "Test")
test[["image_id"]].to_csv(root / "test.csv", index=False)
test[["image_id"]].assign(**{c: 0.25 for c in labels}).to_csv(root / "sample_submission.csv", index=False)
test.to_csv("answers.csv", index=False)
