"""Synthetic stand-in for paddy-disease-classification: 16x16 JPEG rice leaves (green, with a
disease-coloured streak at a disease-dependent place) under train_images/<label>/ and
test_images/, train.csv (image_id, label, variety, age) and sample_submission.csv."""

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

rng = np.random.RandomState(2022)
root = Path("input/paddy-disease-classification")
LABELS = [
    "tungro",
    "hispa",
    "downy_mildew",
    "bacterial_leaf_streak",
    "bacterial_leaf_blight",
    "brown_spot",
    "blast",
    "normal",
    "dead_heart",
    "bacterial_panicle_blight",
]
COLOURS = [(220, 200, 40), (240, 240, 240), (150, 160, 150), (200, 170, 60), (230, 220, 150)]


def leaf(k: int) -> Image.Image:
    img = np.zeros((16, 16, 3), np.uint8)
    img[...] = (40 + rng.randint(0, 20), 120 + rng.randint(0, 40), 40)
    if LABELS[k] != "normal":
        row = 2 + 6 * (k % 2) + rng.randint(0, 2)
        img[row : row + 5, 3:13] = COLOURS[k // 2]
    return Image.fromarray(img)


ids = iter(rng.choice(np.arange(100000, 110000), 240, replace=False))
rows = []
for k, label in enumerate(LABELS):
    (root / "train_images" / label).mkdir(parents=True, exist_ok=True)
    for _ in range(24):
        name = f"{next(ids)}.jpg"
        leaf(k).save(root / "train_images" / label / name, quality=75)
        rows.append(
            {"image_id": name, "label": label, "variety": "ADT45", "age": rng.randint(45, 82)}
        )
train = pd.DataFrame(rows).sample(frac=1, random_state=0)
train.to_csv(root / "train.csv", index=False)
(root / "test_images").mkdir(parents=True, exist_ok=True)
answers = []
for i in range(60):
    k = rng.randint(len(LABELS))
    name = f"{200000 + i}.jpg"
    leaf(k).save(root / "test_images" / name, quality=75)
    answers.append({"image_id": name, "label": LABELS[k]})
answers = pd.DataFrame(answers)
answers.to_csv("answers.csv", index=False)
answers.assign(label="normal").to_csv(root / "sample_submission.csv", index=False)
