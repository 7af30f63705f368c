"""Synthetic siim-isic-melanoma-classification data: the competition's train/test/sample
submission in input/, and, in reference/input/, the attached dataset the kernel read
(`radtorch-challenges-data`: AlexNet image features precomputed by another kernel, keyed by
IMAGE_PATH, with IMAGE_LABEL on the train file), which the environment lacks. A few of the
features carry the target."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.default_rng(2020)
n_train, n_test, n_features = 300, 200, 12
root = "../input/siim-isic-melanoma-classification"
comp = Path("input/siim-isic-melanoma-classification")
comp.mkdir(parents=True, exist_ok=True)
sites = ["torso", "head/neck", "lower extremity", "upper extremity", "palms/soles", "oral/genital"]


def frame(n, start):
    return pd.DataFrame(
        {
            "image_name": [f"ISIC_{start + i:07d}" for i in range(n)],
            "patient_id": [f"IP_{rng.integers(1000000, 9999999)}" for _ in range(n)],
            "sex": rng.choice(["male", "female"], n),
            "age_approx": rng.choice([30.0, 45.0, 60.0, 75.0], n),
            "anatom_site_general_challenge": rng.choice(sites, n),
        }
    )


def features(names, y, folder):
    signal = 2.0 * y - 1.0
    cols = {"IMAGE_PATH": [f"{root}/jpeg/{folder}/{x}.jpg" for x in names]}
    if folder == "train":
        cols["IMAGE_LABEL"] = y
    for k in range(n_features):
        weight = 1.0 if k < 4 else 0.0
        cols[str(k)] = (weight * signal + rng.normal(0, 1.5, len(names))).round(4)
    return pd.DataFrame(cols)


train, test = frame(n_train, 15719), frame(n_test, 52212)
y_train = (rng.random(n_train) < 0.25).astype(int)
y_test = (rng.random(n_test) < 0.25).astype(int)
train["diagnosis"] = np.where(y_train == 1, "melanoma", "nevus")
train["benign_malignant"] = np.where(y_train == 1, "malignant", "benign")
train["target"] = y_train
train.to_csv(comp / "train.csv", index=False)
test.to_csv(comp / "test.csv", index=False)
pd.DataFrame({"image_name": test.image_name, "target": 0.0}).to_csv(
    comp / "sample_submission.csv", index=False
)
pd.DataFrame({"image_name": test.image_name, "target": y_test}).to_csv("answers.csv", index=False)

attached = Path("reference/input/radtorch-challenges-data")
attached.mkdir(parents=True, exist_ok=True)
features(train.image_name, y_train, "train").to_csv(
    attached / "train_imaging_features_alexnet.csv", index=False
)
features(test.image_name, y_test, "test").to_csv(
    attached / "test_imaging_features_alexnet.csv", index=False
)
