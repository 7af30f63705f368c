"""Synthetic spooky-author-identification data: id, text, author (EAP, HPL, MWS)."""
from pathlib import Path

import numpy as np
import pandas as pd

Path("input").mkdir(exist_ok=True)
rng = np.random.default_rng(2017)
common = "the of and to a in that it was his with as had for which but upon my this at from".split()
own = {
    "EAP": "raven dream nevermore chamber lenore ghastly tomb heart corpse midnight".split(),
    "HPL": "eldritch cyclopean abyss ancient nameless cult gibbous unutterable tentacle ocean".split(),
    "MWS": "creature misery affection geneva wretched father feelings despair friend tears".split(),
}
authors = list(own)

def sentence(author):
    words = []
    for _ in range(rng.integers(8, 20)):
        r = rng.random()
        if r < 0.55:
            words.append(rng.choice(common))
        elif r < 0.85:
            words.append(rng.choice(own[author]))
        else:
            words.append(rng.choice(own[rng.choice(authors)]))
    return " ".join(words).capitalize() + "."

def frame(n, prefix):
    who = rng.choice(authors, size=n, p=[0.4, 0.29, 0.31])
    return pd.DataFrame({"id": [f"{prefix}{i:05d}" for i in range(n)], "text": [sentence(a) for a in who], "author": who})

train, test = frame(900, "id1"), frame(300, "id0")
train.to_csv("input/train.csv", index=False)
test[["id", "text"]].to_csv("input/test.csv", index=False)
answers = pd.get_dummies(test.set_index("id")["author"]).astype(int)[authors].reset_index()
answers.to_csv("answers.csv", index=False)
