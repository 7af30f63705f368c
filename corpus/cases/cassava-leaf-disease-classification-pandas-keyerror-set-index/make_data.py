"""Synthetic cassava-leaf-disease-classification data: tiny leaf images whose colour follows
the label (0-4), train.csv (image_id, label), the test images and the sample submission; the
answers are the test labels."""
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

root = Path("input/cassava-leaf-disease-classification")
rng = np.random.default_rng(2020)
colours = [(150, 120, 40), (120, 150, 60), (90, 170, 90), (40, 160, 40), (170, 90, 50)]


def frame(n, folder, start):
    (root / folder).mkdir(parents=True, exist_ok=True)
    labels = rng.choice(5, n, p=[0.1, 0.15, 0.15, 0.45, 0.15])
    names = [f"{start + i}.jpg" for i in range(n)]
    for name, label in zip(names, labels):
        pixels = (np.array(colours[label], dtype=float) + rng.normal(0, 50, (8, 8, 3))).clip(0, 255)
        Image.fromarray(pixels.astype(np.uint8)).save(root / folder / name, quality=90)
    return pd.DataFrame({"image_id": names, "label": labels})


frame(200, "train_images", 1000000).to_csv(root / "train.csv", index=False)
test = frame(60, "test_images", 2000000)
test[["image_id"]].assign(label=4).to_csv(root / "sample_submission.csv", index=False)
test.to_csv("answers.csv", index=False)
