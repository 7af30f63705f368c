"""Synthetic google-quest-challenge data in the competition's folder: questions and answers
from a few Q&A hosts, two of the 30 target columns."""
from pathlib import Path

import numpy as np
import pandas as pd

folder = Path("input/google-quest-challenge")
folder.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(2019)
hosts = {
    "TECHNOLOGY": ["superuser.com", "stackoverflow.com", "serverfault.com", "askubuntu.com"],
    "SCIENCE": ["physics.stackexchange.com", "math.stackexchange.com"],
    "CULTURE": ["english.stackexchange.com", "rpg.stackexchange.com"],
    "LIFE_ARTS": ["cooking.stackexchange.com", "photo.stackexchange.com"],
    "STACKOVERFLOW": ["stackoverflow.com"],
}
words = {
    "TECHNOLOGY": "server install driver kernel network disk boot update".split(),
    "SCIENCE": "energy proof theorem particle field integral matrix force".split(),
    "CULTURE": "word meaning grammar dice campaign phrase usage character".split(),
    "LIFE_ARTS": "recipe oven lens exposure flavor camera bake light".split(),
    "STACKOVERFLOW": "python function array error class loop string list".split(),
}
common = "how why what is the a to in of does can my with for".split()


def text(category, n):
    pool = words[category] * 2 + common
    return " ".join(rng.choice(pool, n))


def frame(n, start):
    category = rng.choice(list(hosts), n, p=[0.35, 0.15, 0.15, 0.15, 0.2])
    rows = {
        "qa_id": np.arange(start, start + n),
        "question_title": [text(c, 6).capitalize() + "?" for c in category],
        "question_body": [text(c, 25) for c in category],
        "answer": [text(c, 30) for c in category],
        "category": category,
        "host": [rng.choice(hosts[c]) for c in category],
    }
    frame = pd.DataFrame(rows)
    quality = np.array([len(set(b.split()) & set(words[c])) for b, c in zip(frame.answer, category)])
    frame["question_asker_intent_understanding"] = (0.6 + 0.05 * quality + rng.normal(0, 0.05, n)).clip(0, 1).round(6)
    frame["answer_helpful"] = (0.5 + 0.06 * quality + 0.1 * (category == "STACKOVERFLOW") + rng.normal(0, 0.05, n)).clip(0, 1).round(6)
    return frame


targets = ["question_asker_intent_understanding", "answer_helpful"]
train, test = frame(500, 0), frame(150, 5000)
train.to_csv(folder / "train.csv", index=False)
test.drop(columns=targets).to_csv(folder / "test.csv", index=False)
test[["qa_id"]].assign(**{t: 0.5 for t in targets}).to_csv(folder / "sample_submission.csv", index=False)
test[["qa_id", *targets]].to_csv("answers.csv", index=False)
