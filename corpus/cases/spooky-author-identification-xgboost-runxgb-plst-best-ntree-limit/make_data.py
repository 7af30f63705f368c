"""Synthetic stand-in for spooky-author-identification: sentences from three authors'
overlapping vocabularies, each author with a style the meta features can see (EAP: commas
and semicolons, HPL: long sentences, MWS: short ones with an upper-case "I"); 800 rows
(600 train, 200 test); answers one-hot per author."""

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
    length = {"EAP": (7, 13), "HPL": (10, 18), "MWS": (4, 10)}[author]
    words = list(rng.choice(common, rng.randint(*length))) + list(own) + list(other)
    rng.shuffle(words)
    if author == "EAP":
        for k in rng.choice(len(words) - 1, rng.randint(1, 4), replace=False):
            words[k] = words[k] + rng.choice([",", ";"])
    if author == "MWS" and rng.rand() < 0.7:
        words.insert(rng.randint(len(words)), "I")
    rows.append({"id": f"id{i:05d}", "text": " ".join(words).capitalize() + ".", "author": author})
frame = pd.DataFrame(rows)
train, test = frame.iloc[:600], frame.iloc[600:]
Path("input").mkdir(exist_ok=True)
train.to_csv("input/train.csv", index=False)
test[["id", "text"]].to_csv("input/test.csv", index=False)
answers = pd.get_dummies(test["author"]).astype(int)[authors]
answers.insert(0, "id", test["id"].values)
answers.to_csv("answers.csv", index=False)
