"""plant-seedlings-classification: 32x32 PNG seedlings (a green blob whose size and place depend
on the species) in input/train/<species>/ and input/test/; 12 species. One generator, its sizes
chosen by each case's make_data.py."""

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

SPECIES = [
    "Black-grass",
    "Charlock",
    "Cleavers",
    "Common Chickweed",
    "Common wheat",
    "Fat Hen",
    "Loose Silky-bent",
    "Maize",
    "Scentless Mayweed",
    "Shepherds Purse",
    "Small-flowered Cranesbill",
    "Sugar beet",
]


def write_seedlings(per_species: int, tests: int) -> None:
    """`per_species` training images of each species and `tests` test images, from
    `RandomState(12)`; answers.csv holds each test file's species."""
    rng = np.random.RandomState(12)
    answers = []
    for k, name in enumerate(SPECIES):
        folder = Path("input/train") / name
        folder.mkdir(parents=True, exist_ok=True)
        for i in range(per_species):
            _seedling(rng, k).save(folder / f"{k:02d}{i:03d}.png")
    Path("input/test").mkdir(parents=True, exist_ok=True)
    for _ in range(tests):
        k = rng.randint(len(SPECIES))
        name = f"{rng.randint(16**8):08x}.png"
        _seedling(rng, k).save(Path("input/test") / name)
        answers.append({"file": name, "species": SPECIES[k]})
    pd.DataFrame(answers).to_csv("answers.csv", index=False)


def _seedling(rng: np.random.RandomState, k: int) -> Image.Image:
    img = np.zeros((32, 32, 3), np.uint8)
    img[..., 0] = 90 + rng.randint(0, 30)  # soil
    img[..., 1] = 60
    img[..., 2] = 40
    row, col = 4 + 2 * (k % 4) + rng.randint(0, 3), 4 + 5 * (k // 4) + rng.randint(0, 3)
    size = 3 + k % 3 + rng.randint(0, 2)
    img[row : row + size * 2, col : col + size] = (40, 160 + rng.randint(0, 60), 50)
    return Image.fromarray(img)
