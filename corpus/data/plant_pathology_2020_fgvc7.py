"""plant-pathology-2020-fgvc7: 24x24 JPEG apple leaves (green; rust gives orange spots, scab dark
brown ones, multiple diseases both) as images/Train_<n>.jpg and images/Test_<n>.jpg, train.csv
(image_id and the four one-hot columns) and test.csv. One generator, its seed chosen by each
case's make_data.py."""

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

TARGETS = ["healthy", "multiple_diseases", "rust", "scab"]
RUST, SCAB = (230, 120, 20), (70, 50, 30)


def write_leaves(seed: int) -> None:
    """128 training and 60 test leaves from `RandomState(seed)` in
    input/plant-pathology-2020-fgvc7/; answers.csv holds the test's one-hot labels."""
    rng = np.random.RandomState(seed)
    root = Path("input/plant-pathology-2020-fgvc7")
    (root / "images").mkdir(parents=True, exist_ok=True)
    _leaves(rng, root, "Train", 128).to_csv(root / "train.csv", index=False)
    answers = _leaves(rng, root, "Test", 60)
    answers[["image_id"]].to_csv(root / "test.csv", index=False)
    answers.to_csv("answers.csv", index=False)


def _leaf(rng: np.random.RandomState, label: int) -> Image.Image:
    img = np.zeros((24, 24, 3), np.uint8)
    img[...] = (50 + rng.randint(0, 30), 140 + rng.randint(0, 40), 50)
    spots = {0: [], 1: [RUST, SCAB], 2: [RUST, RUST], 3: [SCAB, SCAB]}[label]
    for colour in spots:
        r, c = rng.randint(2, 18, size=2)
        img[r : r + 5, c : c + 5] = colour
    return Image.fromarray(img)


def _leaves(rng: np.random.RandomState, root: Path, prefix: str, n: int) -> pd.DataFrame:
    rows = []
    for i in range(n):
        label = int(rng.choice(4, p=[0.3, 0.1, 0.3, 0.3]))
        _leaf(rng, label).save(root / "images" / f"{prefix}_{i}.jpg", quality=75)
        rows.append(
            {"image_id": f"{prefix}_{i}", **{t: int(k == label) for k, t in enumerate(TARGETS)}}
        )
    return pd.DataFrame(rows)
