"""Synthetic learning-agency-lab-automated-essay-scoring-2 data: train.csv/test.csv of essays
(essay_id, full_text, score 1-6) in input/, and, in reference/input/auto-scoring/lgbm/, what
the kernel loads from another kernel's attached dataset, which the environment lacks: a fitted
TfidfVectorizer (tfidfvectorizer.pkl) and fifteen LightGBM boosters (fold_1.txt ..
fold_15.txt) that regress score - 2.948 on its features, each trained on its own fold split."""

import re
from pathlib import Path

import joblib
import lightgbm as lgb
import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.model_selection import KFold

from corpus.data.learning_agency_lab_automated_essay_scoring_2 import essays, sentence

rng = np.random.default_rng(2024)


def essay(score):
    sentences = []
    for _ in range(2 + int(score) // 2):
        sentences.append(sentence(rng, score))
    return " ".join(sentences)


def preprocess(x):
    """The kernel's dataPreprocessing (what the vectorizer sees)."""
    x = x.lower()
    x = re.sub(r"<.*?>", "", x)
    x = re.sub(r"\s+", " ", x)
    x = re.sub(r"\.+", ".", x)
    return x.strip()


comp = Path("input/learning-agency-lab-automated-essay-scoring-2")
comp.mkdir(parents=True, exist_ok=True)
train, test = essays(rng, 200, 0x1000000, essay), essays(rng, 120, 0x2000000, essay)
train.to_csv(comp / "train.csv", index=False)
test[["essay_id", "full_text"]].to_csv(comp / "test.csv", index=False)
test[["essay_id", "score"]].to_csv("answers.csv", index=False)

folder = Path("reference/input/auto-scoring/lgbm")
folder.mkdir(parents=True, exist_ok=True)
texts = train["full_text"].map(preprocess)
vectorizer = TfidfVectorizer(ngram_range=(1, 2), max_features=30)
X = vectorizer.fit_transform(texts).toarray().astype(np.float32)
vectorizer.stop_words_ = None  # the pruned terms: not needed to transform
joblib.dump(vectorizer, folder / "tfidfvectorizer.pkl")
y = train["score"].to_numpy(np.float32) - 2.948
params = {"objective": "regression", "learning_rate": 0.5, "num_leaves": 4, "verbose": -1}
for fold, (idx, _) in enumerate(KFold(15, shuffle=True, random_state=42).split(X), start=1):
    booster = lgb.train(params, lgb.Dataset(X[idx], y[idx]), num_boost_round=10)
    booster.save_model(folder / f"fold_{fold}.txt")
