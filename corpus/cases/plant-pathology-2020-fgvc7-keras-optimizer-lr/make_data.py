"""Synthetic stand-in for plant-pathology-2020-fgvc7: 24x24 JPEG apple leaves (green; rust gives
orange spots, scab dark brown ones, multiple diseases both) as images/Train_<n>.jpg and
images/Test_<n>.jpg, train.csv (image_id and the four one-hot columns) and test.csv."""

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

rng = np.random.RandomState(2020)
root = Path("input/plant-pathology-2020-fgvc7")
TARGETS = ["healthy", "multiple_diseases", "rust", "scab"]
RUST, SCAB = (230, 120, 20), (70, 50, 30)


def leaf(label: int) -> Image.Image:
    img = np.zeros((24, 24, 3), np.uint8)
    img[...] = (50 + rng.randint(0, 30), 140 + rng.randint(0, 40), 50)
    spots = {0: [], 1: [RUST, SCAB], 2: [RUST, RUST], 3: [SCAB, SCAB]}[label]
    for colour in spots:
        r, c = rng.randint(2, 18, size=2)
        img[r : r + 5, c : c + 5] = colour
    return Image.fromarray(img)


def write(prefix: str, n: int) -> pd.DataFrame:
    rows = []
    for i in range(n):
        label = int(rng.choice(4, p=[0.3, 0.1, 0.3, 0.3]))
        leaf(label).save(root / "images" / f"{prefix}_{i}.jpg", quality=75)
        rows.append(
            {"image_id": f"{prefix}_{i}", **{t: int(k == label) for k, t in enumerate(TARGETS)}}
        )
    return pd.DataFrame(rows)


(root / "images").mkdir(parents=True, exist_ok=True)
write("Train", 128).to_csv(root / "train.csv", index=False)
answers = write("Test", 60)
answers[["image_id"]].to_csv(root / "test.csv", index=False)
answers.to_csv("answers.csv", index=False)
