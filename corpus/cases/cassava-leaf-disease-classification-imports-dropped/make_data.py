"""Synthetic cassava-leaf-disease-classification data: train.csv (image_id, label 0-4), tiny
test images and the sample submission; the answers are the
test labels."""
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

root = Path("input/cassava-leaf-disease-classification")
rng = np.random.default_rng(1338)

# every class at least as frequent as the notebook's TARGET_SCORE (0.14), so that its dummy model
# takes the deterministic single-class branch (the mixing branch depends on glob order)
counts = [64, 68, 72, 128, 68]
train = pd.DataFrame({"image_id": [f"{i}.jpg" for i in rng.choice(10**9, 400, replace=False)],
                      "label": rng.permutation(np.repeat(np.arange(5), counts))})
root.mkdir(parents=True, exist_ok=True)
train.to_csv(root / "train.csv", index=False)
(root / "test_images").mkdir(exist_ok=True)
test = pd.DataFrame({"image_id": [f"{i}.jpg" for i in rng.choice(10**9, 80, replace=False)],
                     "label": rng.choice(5, 80, p=np.array(counts) / sum(counts))})
for name in test["image_id"]:
    Image.fromarray(rng.integers(0, 255, (4, 4, 3), dtype=np.uint8)).save(root / "test_images" / name)
test[["image_id"]].assign(label=4).to_csv(root / "sample_submission.csv", index=False)
test.to_csv("answers.csv", index=False)
