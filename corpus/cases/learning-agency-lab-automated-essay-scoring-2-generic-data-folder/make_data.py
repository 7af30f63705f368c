"""Synthetic learning-agency-lab-automated-essay-scoring-2 data: train.csv and test.csv of essays
(essay_id, full_text, score 1-6) in the competition's folder under input/. Higher scores use
more of the long words, so a bag of words can tell them apart."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.default_rng(2024)
SHORT = ["the", "a", "we", "it", "is", "good", "bad", "phone", "car", "school", "kids", "fun"]
LONG = [
    "technology",
    "responsibility",
    "furthermore",
    "opportunity",
    "environment",
    "consequently",
    "perspective",
    "nevertheless",
    "significant",
    "communities",
]


def essay(score):
    n = int(rng.integers(20, 35))
    share = (score - 1) / 6
    words = [rng.choice(LONG) if rng.random() < share else rng.choice(SHORT) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def frame(n, start):
    scores = rng.choice([1, 2, 3, 4, 5, 6], n, p=[0.08, 0.25, 0.33, 0.22, 0.09, 0.03])
    return pd.DataFrame(
        {
            "essay_id": [f"{start + i:07x}" for i in range(n)],
            "full_text": [essay(s) for s in scores],
            "score": scores,
        }
    )


comp = Path("input/learning-agency-lab-automated-essay-scoring-2")
comp.mkdir(parents=True, exist_ok=True)
train, test = frame(150, 0x1000000), frame(80, 0x2000000)
train.to_csv(comp / "train.csv", index=False)
test[["essay_id", "full_text"]].to_csv(comp / "test.csv", index=False)
test[["essay_id", "score"]].to_csv("answers.csv", index=False)
