"""learning-agency-lab-automated-essay-scoring-2: essays (essay_id, full_text, score 1-6) whose
higher scores use more of the long words. The cases that train a model the kernel loads share the
vocabulary, the sentences and the essays' frame; each shapes its essays (sentences, paragraphs)
as its kernel's features expect."""

from collections.abc import Callable

import numpy as np
import pandas as pd

VOCAB = [
    "the",
    "a",
    "students",
    "should",
    "because",
    "technology",
    "important",
    "however",
    "community",
    "opportunity",
    "responsibility",
    "environment",
    "furthermore",
    "we",
    "it",
]


def sentence(rng: np.random.Generator, score: int) -> str:
    """5 to 7 + score words, long words more likely the higher the score."""
    n = rng.integers(5, 8 + int(score))
    p = np.array([3.0 if len(w) >= 8 else 1.0 for w in VOCAB]) ** (score / 3)
    return " ".join(rng.choice(VOCAB, n, p=p / p.sum())).capitalize() + "."


def essays(
    rng: np.random.Generator, n: int, start: int, essay: Callable[[int], str]
) -> pd.DataFrame:
    """`n` essays with scores drawn as the competition's are distributed, ids from `start`."""
    scores = rng.choice([1, 2, 3, 4, 5, 6], n, p=[0.07, 0.27, 0.36, 0.22, 0.06, 0.02])
    return pd.DataFrame(
        {
            "essay_id": [f"{start + i:07x}" for i in range(n)],
            "full_text": [essay(s) for s in scores],
            "score": scores,
        }
    )
