"""Synthetic learning-agency-lab-automated-essay-scoring-2 data: test.csv of essays (essay_id,
full_text) in input/, and, in reference/input/c24-lal-m1-xgb/, what the kernel loads from
another kernel's attached dataset, which the environment lacks: a fitted RobustScaler and
LabelEncoder (joblib) and four XGBoost boosters (model_xgb_0.json .. model_xgb_3.json) that
regress the encoded score on the scaled features, each trained on its own fold with early
stopping (so each keeps a best_iteration)."""

from pathlib import Path

import joblib
import numpy as np
import pandas as pd
import xgboost as xgb
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import LabelEncoder, RobustScaler

from corpus.data.learning_agency_lab_automated_essay_scoring_2 import essays, sentence

rng = np.random.default_rng(2024)


def essay(score):
    sentences = []
    for _ in range(2 + int(score) + rng.integers(0, 2)):
        sentences.append(sentence(rng, score))
    return " ".join(sentences)


def features(frame):
    """The notebook's reduced features (its first cell after the imports)."""
    words = frame["full_text"].str.split()
    return pd.DataFrame(
        {
            "char_cnt": frame["full_text"].str.len(),
            "word_cnt": words.map(len),
            "sentence_cnt": frame["full_text"].str.count(r"\."),
            "word_len_mean": words.map(lambda ws: np.mean([len(w) for w in ws])),
            "long_word_cnt": words.map(lambda ws: sum(len(w) >= 8 for w in ws)),
        }
    )


comp = Path("input/learning-agency-lab-automated-essay-scoring-2")
comp.mkdir(parents=True, exist_ok=True)
train, test = essays(rng, 300, 0x1000000, essay), essays(rng, 150, 0x2000000, essay)
test[["essay_id", "full_text"]].to_csv(comp / "test.csv", index=False)
test[["essay_id", "score"]].to_csv("answers.csv", index=False)

folder = Path("reference/input/c24-lal-m1-xgb")
folder.mkdir(parents=True, exist_ok=True)
rs = RobustScaler().fit(features(train))
le = LabelEncoder().fit(train["score"])
X, y = rs.transform(features(train)), le.transform(train["score"])
params = {"objective": "reg:squarederror", "eta": 0.3, "max_depth": 2, "seed": 42}
folds = StratifiedKFold(4, shuffle=True, random_state=42).split(X, y)
for i, (fit, valid) in enumerate(folds):
    booster = xgb.train(
        params,
        xgb.DMatrix(X[fit], y[fit]),
        num_boost_round=200,
        evals=[(xgb.DMatrix(X[valid], y[valid]), "valid")],
        early_stopping_rounds=5,
        verbose_eval=False,
    )
    booster.save_model(folder / f"model_xgb_{i}.json")
joblib.dump(rs, folder / "robust_scaler.joblib")
joblib.dump(le, folder / "label_encoder.joblib")
