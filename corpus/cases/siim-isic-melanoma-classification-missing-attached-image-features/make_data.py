"""Synthetic siim-isic-melanoma-classification data: the competition's train/test/sample
submission in input/, and, in reference/input/, the attached dataset the kernel read
(`radtorch-challenges-data`: AlexNet image features precomputed by another kernel, keyed by
IMAGE_PATH, with IMAGE_LABEL on the train file), which the environment lacks. A few of the
features carry the target."""

from pathlib import Path

import numpy as np
import pandas as pd

from corpus.data.siim_isic_melanoma_classification import write_images_metadata

rng = np.random.default_rng(2020)
n_train, n_test, n_features = 300, 200, 12
root = "../input/siim-isic-melanoma-classification"
sites = ["torso", "head/neck", "lower extremity", "upper extremity", "palms/soles", "oral/genital"]


def features(names, y, folder):
    signal = 2.0 * y - 1.0
    cols = {"IMAGE_PATH": [f"{root}/jpeg/{folder}/{x}.jpg" for x in names]}
    if folder == "train":
        cols["IMAGE_LABEL"] = y
    for k in range(n_features):
        weight = 1.0 if k < 4 else 0.0
        cols[str(k)] = (weight * signal + rng.normal(0, 1.5, len(names))).round(4)
    return pd.DataFrame(cols)


train, test, y_train, y_test = write_images_metadata(rng, n_train, n_test, sites, share=0.25)

attached = Path("reference/input/radtorch-challenges-data")
attached.mkdir(parents=True, exist_ok=True)
features(train.image_name, y_train, "train").to_csv(
    attached / "train_imaging_features_alexnet.csv", index=False
)
features(test.image_name, y_test, "test").to_csv(
    attached / "test_imaging_features_alexnet.csv", index=False
)
