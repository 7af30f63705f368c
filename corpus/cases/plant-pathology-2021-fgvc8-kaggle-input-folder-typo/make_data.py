"""Synthetic plant-pathology-2021-fgvc8 data: train.csv (image, labels), tiny test images
and the sample submission; the answers are the test labels."""
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

root = Path("input/plant-pathology-2021-fgvc8")
rng = np.random.default_rng(2108)
labels = ["healthy", "scab", "frog_eye_leaf_spot", "rust", "complex", "powdery_mildew", "scab frog_eye_leaf_spot"]
weights = [0.3, 0.25, 0.15, 0.1, 0.08, 0.07, 0.05]


def frame(n, folder=None):
    names = [f"{rng.integers(1 << 60):016x}.jpg" for _ in range(n)]
    if folder is not None:
        (root / folder).mkdir(parents=True, exist_ok=True)
        for name in names:
            pixels = rng.integers(0, 255, (6, 6, 3), dtype=np.uint8)
            Image.fromarray(pixels).save(root / folder / name, quality=90)
    return pd.DataFrame({"image": names, "labels": rng.choice(labels, n, p=weights)})


root.mkdir(parents=True, exist_ok=True)
frame(300).to_csv(root / "train.csv", index=False)
test = frame(50, "test_images")
test[["image"]].assign(labels="healthy").to_csv(root / "sample_submission.csv", index=False)
test.to_csv("answers.csv", index=False)
