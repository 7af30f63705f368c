"""Synthetic learning-agency-lab-automated-essay-scoring-2 data: train.csv/test.csv of essays
(essay_id, full_text, score 1-6) in input/, and, in reference/input/lgbm-model/, the pickled
LGBMRegressor the kernel loads instead of training (its `if_train = False` branch), which the
environment lacks. The model is trained here by the kernel's own `if_train` branch: the same
features, objective, hyperparameters and split."""

import pickle
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd
from lightgbm import early_stopping, log_evaluation
from sklearn.metrics import cohen_kappa_score
from sklearn.model_selection import train_test_split

from corpus.data.learning_agency_lab_automated_essay_scoring_2 import essays, sentence

rng = np.random.default_rng(2024)


def essay(score):
    paragraphs = []
    for _ in range(int(score) + rng.integers(0, 2)):
        sentences = []
        for _ in range(1 + int(score) // 3):
            sentences.append(sentence(rng, score))
        paragraphs.append(" ".join(sentences))
    return "\n\n".join(paragraphs)


comp = Path("input/learning-agency-lab-automated-essay-scoring-2")
comp.mkdir(parents=True, exist_ok=True)
train, test = essays(rng, 240, 0x1000000, essay), essays(rng, 120, 0x2000000, essay)
train.to_csv(comp / "train.csv", index=False)
test[["essay_id", "full_text"]].to_csv(comp / "test.csv", index=False)
test[["essay_id", "score"]].to_csv("answers.csv", index=False)


def features(frame):
    """The notebook's features (its cell 1), to train the model the attachment holds."""
    feats = pd.DataFrame({"essay_id": frame["essay_id"]})
    paragraphs = frame["full_text"].str.split("\n\n")
    feats["paragraph_cnt"] = paragraphs.map(len)
    feats["paragraph_len_mean"] = paragraphs.map(lambda ps: np.mean([len(p) for p in ps]))
    feats["sentence_cnt"] = frame["full_text"].str.count(r"\.")
    words = frame["full_text"].str.split()
    feats["word_cnt"] = words.map(len)
    feats["word_len_mean"] = words.map(lambda ws: np.mean([len(w) for w in ws]))
    feats["word_len_max"] = words.map(lambda ws: max(len(w) for w in ws))
    feats["long_word_cnt"] = words.map(lambda ws: sum(len(w) >= 8 for w in ws))
    return feats


a, b = 2.948, 1.092


def quadratic_weighted_kappa(y_true, y_pred):
    y_true = y_true + a
    y_pred = (y_pred + a).clip(1, 6).round()
    qwk = cohen_kappa_score(y_true, y_pred, weights="quadratic")
    return "QWK", qwk, True


def qwk_obj(y_true, y_pred):
    labels = y_true + a
    preds = y_pred + a
    preds = preds.clip(1, 6)
    f = 1 / 2 * np.sum((preds - labels) ** 2)
    g = 1 / 2 * np.sum((preds - a) ** 2 + b)
    df = preds - labels
    dg = preds - a
    grad = (df / g - f * dg / g**2) * len(labels)
    hess = np.ones(len(labels))
    return grad, hess


train_feats = features(train)
train_feats["score"] = train["score"]
feature_names = list(filter(lambda x: x not in ["essay_id", "score"], train_feats.columns))
X = train_feats[feature_names].astype(np.float32).values
y_split = train_feats["score"].astype(int).values
y = train_feats["score"].astype(np.float32).values - a
callbacks = [log_evaluation(period=25), early_stopping(stopping_rounds=75, first_metric_only=True)]
X_train, X_val, y_train, y_val, y_train_int, y_val_int = train_test_split(
    X, y, y_split, test_size=0.2, random_state=52, stratify=train_feats["score"]
)
model = lgb.LGBMRegressor(
    objective=qwk_obj,
    metrics="None",
    learning_rate=0.05,
    max_depth=5,
    num_leaves=10,
    colsample_bytree=0.3,
    reg_alpha=0.7,
    reg_lambda=0.1,
    n_estimators=700,
    random_state=42,
    extra_trees=True,
    class_weight="balanced",
    verbosity=-1,
)
predictor = model.fit(
    X_train,
    y_train,
    eval_names=["train", "valid"],
    eval_set=[(X_train, y_train), (X_val, y_val)],
    eval_metric=quadratic_weighted_kappa,
    callbacks=callbacks,
)
folder = Path("reference/input/lgbm-model")
folder.mkdir(parents=True, exist_ok=True)
with open(folder / "lgbm_model.pkl", "wb") as fp:
    pickle.dump(predictor, fp)
