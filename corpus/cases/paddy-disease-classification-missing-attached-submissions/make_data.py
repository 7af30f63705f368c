"""Synthetic paddy-disease-classification data: train.csv and sample_submission.csv in input/,
and, in reference/input/, the three attached datasets the voting kernel read (other kernels'
model_submission_v5.csv: the true label, or a random other label for some 10-15% of images),
which the environment lacks."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.default_rng(2022)
LABELS = [
    "bacterial_leaf_blight",
    "bacterial_leaf_streak",
    "bacterial_panicle_blight",
    "blast",
    "brown_spot",
    "dead_heart",
    "downy_mildew",
    "hispa",
    "normal",
    "tungro",
]
comp = Path("input/paddy-disease-classification")
comp.mkdir(parents=True, exist_ok=True)
n_train, n_test = 300, 400
pd.DataFrame(
    {
        "image_id": [f"{100330 + 3 * i}.jpg" for i in range(n_train)],
        "label": rng.choice(LABELS, n_train),
        "variety": rng.choice(["ADT45", "KarnatakaPonni", "Ponni"], n_train),
        "age": rng.choice([45, 50, 55, 60, 65, 70], n_train),
    }
).to_csv(comp / "train.csv", index=False)
test_ids = [f"{200001 + 7 * i}.jpg" for i in range(n_test)]
truth = rng.choice(LABELS, n_test)
pd.DataFrame({"image_id": test_ids, "label": ""}).to_csv(
    comp / "sample_submission.csv", index=False
)
pd.DataFrame({"image_id": test_ids, "label": truth}).to_csv("answers.csv", index=False)
attached = {
    "paddydocoutputs": 0.15,
    "paddy-doctor-training": 0.13,
    "k/kasunpramodya/paddy-doctor-training": 0.10,
}
for folder, wrong in attached.items():
    pred = truth.copy()
    flip = rng.random(n_test) < wrong
    pred[flip] = rng.choice(LABELS, flip.sum())
    path = Path("reference/input") / folder / "model_submission_v5.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame({"image_id": test_ids, "label": pred}).to_csv(path, index=False)
