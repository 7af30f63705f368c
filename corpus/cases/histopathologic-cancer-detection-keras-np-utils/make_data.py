"""Synthetic stand-in for histopathologic-cancer-detection: 96x96 RGB TIFF patches (pink
tissue; a positive one has a dark purple cluster of nuclei in its centre 32x32) named by a
40-hex id under train/ and test/, train_labels.csv (id, label)."""

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

rng = np.random.RandomState(96)
root = Path("input")


def patch(label: int) -> Image.Image:
    img = np.zeros((96, 96, 3), np.uint8)
    img[...] = (230 - rng.randint(0, 40), 170 - rng.randint(0, 40), 210 - rng.randint(0, 30))
    for _ in range(6):  # a few nuclei anywhere
        r, c = rng.randint(0, 90, size=2)
        img[r : r + 6, c : c + 6] = (120, 60, 150)
    if label:
        r, c = 32 + rng.randint(0, 16, size=2)
        img[r : r + 16, c : c + 16] = (90 + rng.randint(0, 30), 30, 120)
    return Image.fromarray(img)


def write(folder: Path, labels: list[int]) -> pd.DataFrame:
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for label in labels:
        name = "".join(rng.choice(list("0123456789abcdef"), 40))
        patch(label).save(folder / f"{name}.tif", compression="tiff_deflate")
        rows.append({"id": name, "label": label})
    return pd.DataFrame(rows)


write(root / "train", [0] * 110 + [1] * 110).to_csv(root / "train_labels.csv", index=False)
write(root / "test", list(rng.randint(0, 2, 30))).to_csv("answers.csv", index=False)
