"""Synthetic h-and-m-personalized-fashion-recommendations data: sample_submission.csv in the
competition's folder in input/, and, in reference/input/fashions/, the nine submissions of other
kernels the blending kernel read, which the environment lacks. Each customer has 12 articles
they buy (answers.csv, in order); each submission is that list with some articles replaced by
others, and swapped neighbours, more for the weaker submissions."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.default_rng(2022)
n = 100
customers = [f"{rng.integers(0, 2**62):016x}" for _ in range(n)]
articles = [f"0{rng.integers(108775015, 959461001)}" for _ in range(400)]
truth = [list(rng.choice(articles, 12, replace=False)) for _ in range(n)]
comp = Path("input/h-and-m-personalized-fashion-recommendations")
comp.mkdir(parents=True, exist_ok=True)
pd.DataFrame({"customer_id": customers, "prediction": "0706016001 0706016002 0372860001"}).to_csv(
    comp / "sample_submission.csv", index=False
)
pd.DataFrame({"customer_id": customers, "prediction": [" ".join(t) for t in truth]}).to_csv(
    "answers.csv", index=False
)

noise = {
    "submission231.csv": 0.03,
    "sub-age.csv": 0.05,
    "sub-weekly.csv": 0.06,
    "submission225.csv": 0.06,
    "submission224.csv": 0.07,
    "sub-lstm.csv": 0.08,
    "sub-time.csv": 0.09,
    "sub-decay.csv": 0.10,
    "sub-parq.csv": 0.04,
}
folder = Path("reference/input/fashions")
folder.mkdir(parents=True, exist_ok=True)
for name, p in noise.items():
    rows = []
    for items in truth:
        items = list(items)
        for k in range(12):
            if rng.random() < p:
                items[k] = str(rng.choice(articles))
        for k in range(11):
            if rng.random() < p / 2:
                items[k], items[k + 1] = items[k + 1], items[k]
        rows.append(" ".join(items))
    frame = pd.DataFrame({"customer_id": customers, "prediction": rows}).sample(
        frac=1.0, random_state=int(p * 1000)
    )
    frame.to_csv(folder / name, index=False)
