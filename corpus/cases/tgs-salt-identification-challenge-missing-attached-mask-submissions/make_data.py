"""Synthetic tgs-salt-identification-challenge data: the competition's sample submission in
input/, and, in reference/input/submission/, the attached dataset the blending kernel read
(four other kernels' submissions: crf_c_1.csv, crf_c.csv, crf_c_2.csv, sub.csv), which the
environment lacks. Each test image's true mask is a rectangle of salt on the 101x101 image;
each submission is the truth with a few pixels of its own flipped (and, on some images, two
of them a row too low), run-length encoded as the
kernel encodes (row-major, 1-based starts). The answers are the true masks' encodings, so the
score (accuracy) is the share of images whose blend is exactly right."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.default_rng(2018)
n_test, size, flips = 120, 101, 8
comp = Path("input/tgs-salt-identification-challenge")
comp.mkdir(parents=True, exist_ok=True)


def rle_encode(im):
    pixels = np.concatenate([[0], im.flatten(), [0]])
    runs = np.where(pixels[1:] != pixels[:-1])[0] + 1
    runs[1::2] -= runs[::2]
    return " ".join(str(x) for x in runs)


ids = [f"{rng.integers(0, 16**10):010x}" for _ in range(n_test)]
truth = []
for _ in range(n_test):
    mask = np.zeros((size, size), dtype=np.uint8)
    r0, c0 = rng.integers(0, 60, 2)
    h, w = rng.integers(10, 40, 2)
    mask[r0 : r0 + h, c0 : c0 + w] = 1
    truth.append(mask)
pd.DataFrame({"id": ids, "rle_mask": "1 1"}).to_csv(comp / "sample_submission.csv", index=False)
pd.DataFrame({"id": ids, "rle_mask": [rle_encode(m) for m in truth]}).to_csv(
    "answers.csv", index=False
)

attached = Path("reference/input/submission")
attached.mkdir(parents=True, exist_ok=True)
# On some images two of the four kernels put the mask a row too low, so the vote (more than
# two) loses a row there.
shifted = [set(rng.choice(4, 2, replace=False)) if rng.random() < 0.15 else set() for _ in ids]
for k, name in enumerate(["crf_c_1.csv", "crf_c.csv", "crf_c_2.csv", "sub.csv"]):
    masks = []
    for mask, wrong in zip(truth, shifted, strict=True):
        noisy = (np.roll(mask, 1, axis=0) if k in wrong else mask).reshape(-1).copy()
        where = rng.choice(size * size, flips, replace=False)
        noisy[where] = 1 - noisy[where]
        masks.append(rle_encode(noisy.reshape(size, size)))
    pd.DataFrame({"id": ids, "rle_mask": masks}).to_csv(attached / name, index=False)
