"""Synthetic siim-isic-melanoma-classification data: the competition's train/test/sample
submission in input/, and, in reference/input/, the attached dataset the blending kernel read
(`siim3reorg`: six other kernels' out-of-fold predictions and submissions), which the
environment lacks. Each model's score is the truth plus noise of its own size."""

from pathlib import Path

import numpy as np
import pandas as pd

from corpus.data.siim_isic_melanoma_classification import write_images_metadata

rng = np.random.default_rng(2020)
n_train, n_test = 400, 200
sites = ["torso", "head/neck", "lower extremity"]
train, test, y_train, y_test = write_images_metadata(rng, n_train, n_test, sites, share=0.2)

models = {
    "384-E6-with-2018": 2.5,
    "512-E6": 3.0,
    "768-E2": 4.0,
    "512-E5": 3.2,
    "effb2-fulldata-upsample": 4.5,
    "effb1-fulldata-upsample": 5.0,
}
for model, noise in models.items():
    folder = Path("reference/input/siim3reorg") / model
    folder.mkdir(parents=True, exist_ok=True)
    oof = 1 / (1 + np.exp(-(2.0 * y_train - 1.0 + rng.normal(0, noise, n_train))))
    pd.DataFrame(
        {
            "image_name": train.image_name,
            "target": y_train,
            "pred": oof.round(5),
            "fold": np.arange(n_train) % 5,
        }
    ).to_csv(folder / "oof.csv", index=False)
    sub = 1 / (1 + np.exp(-(2.0 * y_test - 1.0 + rng.normal(0, noise, n_test))))
    pd.DataFrame({"image_name": test.image_name, "target": sub.round(5)}).to_csv(
        folder / "submission.csv", index=False
    )
