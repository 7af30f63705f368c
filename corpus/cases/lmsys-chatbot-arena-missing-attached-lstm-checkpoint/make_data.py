"""Synthetic lmsys-chatbot-arena data: train.csv/test.csv/sample_submission.csv in the
competition's folder in input/, and, in reference/input/training-lstm-lmsys/, the checkpoint
another kernel trained (lstm_classifier.pth: the LSTMClassifier's state_dict and its vocab),
which the environment lacks. The winner depends on words the responses use; the checkpoint is
trained on train.csv (20 epochs, Adam) and stored as float16 to stay small."""

from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.nn import functional
from torch.nn.utils.rnn import pad_sequence

rng = np.random.default_rng(2024)
torch.manual_seed(2024)
GOOD = ["sure", "here", "code", "example", "because"]
BAD = ["sorry", "cannot", "unsure", "maybe", "error"]
PLAIN = ["the", "is", "a", "it", "python", "answer", "model"]


def response(good):
    words = list(rng.choice(PLAIN, int(rng.integers(3, 9))))
    words += list(rng.choice(GOOD if good else BAD, int(rng.integers(1, 3))))
    rng.shuffle(words)
    return " ".join(words)


def frame(n, start, labelled):
    rows = []
    for i in range(n):
        label = int(rng.choice(3, p=[0.38, 0.38, 0.24]))
        a_good, b_good = {0: (True, False), 1: (False, True), 2: (True, True)}[label]
        if rng.random() < 0.2:
            a_good, b_good = b_good, a_good
        row = {
            "id": start + i,
            "prompt": " ".join(rng.choice(PLAIN, 4)),
            "response_a": response(a_good),
            "response_b": response(b_good),
        }
        if labelled:
            row.update({"model_a": "gpt-4", "model_b": "vicuna-13b"})
        row.update(
            {
                "winner_model_a": int(label == 0),
                "winner_model_b": int(label == 1),
                "winner_tie": int(label == 2),
            }
        )
        rows.append(row)
    return pd.DataFrame(rows)


comp = Path("input/lmsys-chatbot-arena")
comp.mkdir(parents=True, exist_ok=True)
train, test = frame(240, 30192, True), frame(100, 136060, False)
cols = [
    "id",
    "model_a",
    "model_b",
    "prompt",
    "response_a",
    "response_b",
    "winner_model_a",
    "winner_model_b",
    "winner_tie",
]
train[cols].to_csv(comp / "train.csv", index=False)
test[["id", "prompt", "response_a", "response_b"]].to_csv(comp / "test.csv", index=False)
pd.DataFrame(
    {"id": test.id, "winner_model_a": 1 / 3, "winner_model_b": 1 / 3, "winner_tie": 1 / 3}
).to_csv(comp / "sample_submission.csv", index=False)
test[["id", "winner_model_a", "winner_model_b", "winner_tie"]].to_csv("answers.csv", index=False)


class LSTMClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim=64, hidden_dim=128, num_classes=3):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.lstm = nn.LSTM(embed_dim, hidden_dim, batch_first=True)
        self.fc = nn.Linear(hidden_dim, num_classes)

    def forward(self, x):
        x = self.embedding(x)
        _, (h_n, _) = self.lstm(x)
        return self.fc(h_n[-1])


text = (
    "User prompt: "
    + train["prompt"]
    + "\n\nModel A :\n"
    + train["response_a"]
    + "\n\n--------\n\nModel B:\n"
    + train["response_b"]
)
tokenized = [t.split() for t in text]
vocab = {"<pad>": 0, "<unk>": 1}
for word in Counter(w for sent in tokenized for w in sent):
    vocab[word] = len(vocab)
x = pad_sequence([torch.tensor([vocab.get(w, 1) for w in s]) for s in tokenized], batch_first=True)
y = torch.tensor(
    np.argmax(train[["winner_model_a", "winner_model_b", "winner_tie"]].values, axis=1)
)
model = LSTMClassifier(len(vocab))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for _epoch in range(20):
    for i in range(0, len(x), 16):
        loss = functional.cross_entropy(model(x[i : i + 16]), y[i : i + 16])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
folder = Path("reference/input/training-lstm-lmsys")
folder.mkdir(parents=True, exist_ok=True)
state = {k: v.half() for k, v in model.state_dict().items()}
torch.save({"state_dict": state, "vocab": vocab}, folder / "lstm_classifier.pth")
