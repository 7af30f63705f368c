"""Synthetic plant-pathology-2021-fgvc8 data: tiny leaf images whose colour follows the
label, train.csv (image, labels) and the test images; the answers are the test labels."""
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

root = Path("input/plant-pathology-2021-fgvc8")
rng = np.random.default_rng(2121)
colours = {"healthy": (40, 160, 40), "scab": (120, 110, 40), "rust": (170, 80, 30), "complex": (90, 60, 110)}


def frame(n, folder):
    (root / folder).mkdir(parents=True, exist_ok=True)
    labels = rng.choice(list(colours), n, p=[0.4, 0.25, 0.2, 0.15])
    names = [f"{rng.integers(1 << 60):016x}.jpg" for _ in range(n)]
    for name, label in zip(names, labels):
        base = np.array(colours[label], dtype=float)
        pixels = (base + rng.normal(0, 60, (8, 8, 3))).clip(0, 255).astype(np.uint8)
        Image.fromarray(pixels).save(root / folder / name, quality=90)
    return pd.DataFrame({"image": names, "labels": labels})


frame(160, "train_images").to_csv(root / "train.csv", index=False)
test = frame(50, "test_images")
test[["image"]].assign(labels="healthy").to_csv(root / "sample_submission.csv", index=False)
test.to_csv("answers.csv", index=False)
