"""Synthetic stand-in for spooky-author-identification: sentences from three authors'
overlapping vocabularies; 800 rows (600 train, 200 test); answers one-hot per author."""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.RandomState(1818)
common = [
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
    "her",
    "with",
    "as",
    "for",
    "had",
    "i",
    "my",
    "on",
    "which",
    "at",
    "not",
    "be",
]
vocab = {
    "EAP": [
        "raven",
        "midnight",
        "chamber",
        "dreary",
        "lenore",
        "shadow",
        "dread",
        "whisper",
        "door",
        "tomb",
        "heart",
        "beating",
    ],
    "HPL": [
        "eldritch",
        "cyclopean",
        "ancient",
        "cult",
        "abyss",
        "nameless",
        "horror",
        "sunken",
        "stars",
        "madness",
        "whateley",
    ],
    "MWS": [
        "creature",
        "wretch",
        "victor",
        "geneva",
        "misery",
        "despair",
        "affection",
        "mountains",
        "elizabeth",
        "father",
    ],
}
authors = list(vocab)
rows = []
for i in range(800):
    author = authors[rng.randint(3)]
    own = rng.choice(vocab[author], rng.randint(2, 5))
    other = rng.choice(vocab[authors[rng.randint(3)]], rng.randint(0, 3))
    words = list(rng.choice(common, rng.randint(6, 12))) + list(own) + list(other)
    rng.shuffle(words)
    rows.append({"id": f"id{i:05d}", "text": " ".join(words).capitalize() + ".", "author": author})
frame = pd.DataFrame(rows)
train, test = frame.iloc[:600], frame.iloc[600:]
Path("input").mkdir(exist_ok=True)
train.to_csv("input/train.csv", index=False)
test[["id", "text"]].to_csv("input/test.csv", index=False)
answers = pd.get_dummies(test["author"]).astype(int)[authors]
answers.insert(0, "id", test["id"].values)
answers.to_csv("answers.csv", index=False)
