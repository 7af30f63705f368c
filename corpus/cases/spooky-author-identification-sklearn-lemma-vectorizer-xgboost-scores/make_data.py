"""Deterministic synthetic Spooky Author data.

Writes input/train.csv (id, text, author), input/test.csv (id, text) and answers.csv.
"""

from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent
AUTHORS = ["EAP", "HPL", "MWS"]
COMMON = [
    "the",
    "of",
    "and",
    "to",
    "a",
    "in",
    "that",
    "it",
    "was",
    "his",
    "he",
    "i",
    "with",
    "as",
    "had",
    "which",
    "for",
    "my",
    "but",
    "at",
    "by",
    "on",
    "not",
    "this",
    "from",
    "be",
    "upon",
    "all",
    "is",
    "were",
    "so",
    "me",
    "when",
    "there",
    "no",
    "one",
    "its",
    "an",
    "been",
    "would",
    "have",
    "her",
    "could",
    "our",
]
OWN = {
    "EAP": [
        "raven",
        "chamber",
        "tomb",
        "nevermore",
        "dream",
        "heart",
        "corpse",
        "lady",
        "mirror",
        "melancholy",
        "gold",
        "bug",
    ],
    "HPL": [
        "cthulhu",
        "eldritch",
        "ancient",
        "cyclopean",
        "nameless",
        "abyss",
        "cult",
        "dagon",
        "arkham",
        "ghoul",
        "ritual",
        "star",
    ],
    "MWS": [
        "creature",
        "wretch",
        "misery",
        "geneva",
        "elizabeth",
        "mountains",
        "lake",
        "father",
        "sorrow",
        "clerval",
        "monster",
        "tears",
    ],
}


def sentence(rng: np.random.Generator, author: str) -> str:
    n = int(rng.integers(8, 18))
    own_share = 0.12 + 0.1 * rng.random()
    words = [
        rng.choice(OWN[author])
        if rng.random() < own_share
        else rng.choice(OWN[rng.choice(AUTHORS)] if rng.random() < 0.15 else COMMON)
        for _ in range(n)
    ]
    return " ".join(words).capitalize() + "."


def main() -> None:
    rng = np.random.default_rng(2018)
    rows = []
    for i in range(800):
        author = AUTHORS[int(rng.integers(0, 3))]
        rows.append({"id": f"id{i:05d}", "text": sentence(rng, author), "author": author})
    frame = pd.DataFrame(rows)
    train, test = frame.iloc[:600], frame.iloc[600:]
    (HERE / "input").mkdir(exist_ok=True)
    train.to_csv(HERE / "input" / "train.csv", index=False)
    test[["id", "text"]].to_csv(HERE / "input" / "test.csv", index=False)
    answers = pd.get_dummies(test.set_index("id")["author"]).reindex(columns=AUTHORS).astype(int)
    answers.reset_index().to_csv(HERE / "answers.csv", index=False)


if __name__ == "__main__":
    main()
