"""spooky-author-identification: sentences from three authors' overlapping vocabularies (EAP,
HPL, MWS), with the competition's files. Two generators, each shared by several cases (their
make_data.py name one and its variant); the data of each is fixed by its seed."""

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

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


def _sentence(rng: np.random.Generator, author: str, longer: Mapping[str, int]) -> str:
    n = int(rng.integers(8, 18)) + longer.get(author, 0)
    own_share = 0.12 + 0.1 * rng.random()
    words = [
        rng.choice(OWN[author])
        if rng.random() < own_share
        else rng.choice(OWN[rng.choice(AUTHORS)] if rng.random() < 0.15 else COMMON)
        for _ in range(n)
    ]
    return " ".join(words).capitalize() + "."


def write_sentences(
    seed: int,
    rows: int = 1200,
    longer: Mapping[str, int] | None = None,
    sample_submission: bool = False,
) -> None:
    """`rows` sentences (three quarters train, the rest test) from `np.random.default_rng(seed)`:
    input/train.csv
    (id, text, author), input/test.csv (id, text) and answers.csv (one-hot per author);
    `longer` adds words to each author's sentences; with `sample_submission`,
    input/sample_submission.csv too."""
    rng = np.random.default_rng(seed)
    written = []
    for i in range(rows):
        author = AUTHORS[int(rng.integers(0, 3))]
        text = _sentence(rng, author, longer or {})
        written.append({"id": f"id{i:05d}", "text": text, "author": author})
    frame = pd.DataFrame(written)
    train, test = frame.iloc[: rows * 3 // 4], frame.iloc[rows * 3 // 4 :]
    Path("input").mkdir(exist_ok=True)
    train.to_csv(Path("input") / "train.csv", index=False)
    test[["id", "text"]].to_csv(Path("input") / "test.csv", index=False)
    answers = pd.get_dummies(test.set_index("id")["author"]).reindex(columns=AUTHORS).astype(int)
    answers.reset_index().to_csv("answers.csv", index=False)
    if sample_submission:
        sample = answers.reset_index().assign(EAP=0.4, HPL=0.3, MWS=0.3)
        sample.to_csv(Path("input") / "sample_submission.csv", index=False)


COMMON_1818 = [
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
VOCAB_1818 = {
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


def write_sentences_1818(styled: bool = False) -> None:
    """800 sentences (600 train, 200 test) from `np.random.RandomState(1818)`: input/train.csv,
    input/test.csv and answers.csv (one-hot per author). `styled` gives each author a style
    meta features can see (EAP: commas and semicolons, HPL: long sentences, MWS: short ones
    with an upper-case "I")."""
    rng = np.random.RandomState(1818)
    authors = list(VOCAB_1818)
    rows = []
    for i in range(800):
        author = authors[rng.randint(3)]
        own = rng.choice(VOCAB_1818[author], rng.randint(2, 5))
        other = rng.choice(VOCAB_1818[authors[rng.randint(3)]], rng.randint(0, 3))
        length = {"EAP": (7, 13), "HPL": (10, 18), "MWS": (4, 10)}[author] if styled else (6, 12)
        words = list(rng.choice(COMMON_1818, rng.randint(*length))) + list(own) + list(other)
        rng.shuffle(words)
        if styled and author == "EAP":
            for k in rng.choice(len(words) - 1, rng.randint(1, 4), replace=False):
                words[k] = words[k] + rng.choice([",", ";"])
        if styled and author == "MWS" and rng.rand() < 0.7:
            words.insert(rng.randint(len(words)), "I")
        text = " ".join(words).capitalize() + "."
        rows.append({"id": f"id{i:05d}", "text": text, "author": author})
    frame = pd.DataFrame(rows)
    train, test = frame.iloc[:600], frame.iloc[600:]
    Path("input").mkdir(exist_ok=True)
    train.to_csv("input/train.csv", index=False)
    test[["id", "text"]].to_csv("input/test.csv", index=False)
    answers = pd.get_dummies(test["author"]).astype(int)[authors]
    answers.insert(0, "id", test["id"].values)
    answers.to_csv("answers.csv", index=False)
