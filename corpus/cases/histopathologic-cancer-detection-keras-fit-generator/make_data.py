"""Synthetic stand-in for histopathologic-cancer-detection: 32x32 RGB TIFF patches (pink
tissue; a positive one has a dark purple cluster of nuclei in its centre) named by a 40-hex
id under histopathologic-cancer-detection/train/ and test/, train_labels.csv (id, label)."""

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

rng = np.random.RandomState(7)
root = Path("input/histopathologic-cancer-detection")


def patch(label: int) -> Image.Image:
    img = np.zeros((32, 32, 3), np.uint8)
    img[...] = (230 - rng.randint(0, 40), 170 - rng.randint(0, 40), 210 - rng.randint(0, 30))
    for _ in range(4):  # a few nuclei anywhere
        r, c = rng.randint(0, 30, size=2)
        img[r : r + 2, c : c + 2] = (120, 60, 150)
    if label:
        r, c = 10 + rng.randint(0, 6, size=2)
        img[r : r + 8, c : c + 8] = (90 + rng.randint(0, 30), 30, 120)
    return Image.fromarray(img)


def write(folder: Path, n: int) -> pd.DataFrame:
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for _ in range(n):
        name = "".join(rng.choice(list("0123456789abcdef"), 40))
        label = int(rng.rand() < 0.4)
        patch(label).save(folder / f"{name}.tif", compression="tiff_deflate")
        rows.append({"id": name, "label": label})
    return pd.DataFrame(rows)


write(root / "train", 330).to_csv(root / "train_labels.csv", index=False)
write(root / "test", 80).to_csv("answers.csv", index=False)
