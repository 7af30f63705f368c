"""Synthetic stand-in for cassava-leaf-disease-classification: 16x16 JPEG leaves (green, with
spots whose colour and count depend on the disease) under cassava-leaf-disease-classification/
train_images/ and test_images/, train.csv (image_id, label 0-4) and
label_num_to_disease_map.json."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

rng = np.random.RandomState(5)
root = Path("input/cassava-leaf-disease-classification")
DISEASES = {
    "0": "Cassava Bacterial Blight (CBB)",
    "1": "Cassava Brown Streak Disease (CBSD)",
    "2": "Cassava Green Mottle (CGM)",
    "3": "Cassava Mosaic Disease (CMD)",
    "4": "Healthy",
}
SPOTS = [(200, 200, 60), (120, 70, 30), (170, 220, 120), (240, 240, 200), (40, 140, 40)]


def leaf(label: int) -> Image.Image:
    img = np.zeros((16, 16, 3), np.uint8)
    img[...] = (40 + rng.randint(0, 20), 130 + rng.randint(0, 30), 40)
    for _ in range(3 + 2 * label):
        r, c = rng.randint(0, 13, size=2)
        img[r : r + 3, c : c + 3] = SPOTS[label]
    return Image.fromarray(img)


def write(folder: Path, n: int) -> pd.DataFrame:
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for _ in range(n):
        name = f"{rng.randint(10**9, 4 * 10**9)}.jpg"
        label = int(rng.choice(5, p=[0.1, 0.2, 0.2, 0.4, 0.1]))
        leaf(label).save(folder / name, quality=75)
        rows.append({"image_id": name, "label": label})
    return pd.DataFrame(rows)


write(root / "train_images", 240).to_csv(root / "train.csv", index=False)
write(root / "test_images", 60).to_csv("answers.csv", index=False)
(root / "label_num_to_disease_map.json").write_text(json.dumps(DISEASES))
