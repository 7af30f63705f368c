"""lmsys-chatbot-arena: conversations (a prompt and two responses) and which response won, in
the competition's folder input/lmsys-chatbot-arena/. The cases train their kernel's own model on
them; what they share is written here."""

from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import torch
from torch.nn import Module, functional
from torch.nn.utils.rnn import pad_sequence

COLUMNS = [
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
WINNERS = ["winner_model_a", "winner_model_b", "winner_tie"]


def write_split(train: pd.DataFrame, test: pd.DataFrame, sample_submission: bool = False) -> None:
    """train.csv and test.csv (and with `sample_submission`, an even sample submission) in the
    competition's folder; answers.csv holds the test's winners."""
    comp = Path("input/lmsys-chatbot-arena")
    comp.mkdir(parents=True, exist_ok=True)
    train[COLUMNS].to_csv(comp / "train.csv", index=False)
    test[["id", "prompt", "response_a", "response_b"]].to_csv(comp / "test.csv", index=False)
    if sample_submission:
        pd.DataFrame(
            {"id": test.id, "winner_model_a": 1 / 3, "winner_model_b": 1 / 3, "winner_tie": 1 / 3}
        ).to_csv(comp / "sample_submission.csv", index=False)
    test[["id", *WINNERS]].to_csv("answers.csv", index=False)


def prompt_text(train: pd.DataFrame) -> pd.Series:
    """The text the kernels train on: the prompt and both responses, as they join them."""
    return (
        "User prompt: "
        + train["prompt"]
        + "\n\nModel A :\n"
        + train["response_a"]
        + "\n\n--------\n\nModel B:\n"
        + train["response_b"]
    )


def winner_index(train: pd.DataFrame) -> np.ndarray:
    """0, 1 or 2: model A, model B or a tie, for each training row."""
    index: np.ndarray = np.argmax(train[WINNERS].values, axis=1)
    return index


def encode(text: pd.Series) -> tuple[dict[str, int], torch.Tensor]:
    """The kernels' vocabulary (padding 0, unknown 1, then each word as first met) and the
    texts as padded rows of word indices."""
    tokenized = [t.split() for t in text]
    vocab = {"<pad>": 0, "<unk>": 1}
    for word in Counter(w for sent in tokenized for w in sent):
        if word not in vocab:
            vocab[word] = len(vocab)
    rows = [torch.tensor([vocab.get(w, 1) for w in s]) for s in tokenized]
    return vocab, pad_sequence(rows, batch_first=True)


def fit(model: Module, x: torch.Tensor, y: torch.Tensor, epochs: int = 20) -> None:
    """Adam (learning rate 3e-3), cross-entropy, batches of 16 in order."""
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _epoch in range(epochs):
        for i in range(0, len(x), 16):
            loss = functional.cross_entropy(model(x[i : i + 16]), y[i : i + 16])
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()


def write_worded_conversations(
    seed: int, train_rows: int, test_rows: int, sample_submission: bool = False
) -> pd.DataFrame:
    """Conversations whose winner used good words ("sure", "here", ...) where the loser used bad
    ones ("sorry", "cannot", ...), from `default_rng(seed)`; written with `write_split`.
    Returns the training frame."""
    rng = np.random.default_rng(seed)
    train = _conversations(rng, train_rows, 30192, True)
    test = _conversations(rng, test_rows, 136060, False)
    write_split(train, test, sample_submission)
    return train


GOOD = ["sure", "here", "code", "example", "because"]
BAD = ["sorry", "cannot", "unsure", "maybe", "error"]
PLAIN = ["the", "is", "a", "it", "python", "answer", "model"]


def _response(rng: np.random.Generator, good: bool) -> str:
    words = list(rng.choice(PLAIN, int(rng.integers(3, 9))))
    words += list(rng.choice(GOOD if good else BAD, int(rng.integers(1, 3))))
    rng.shuffle(words)
    return " ".join(words)


def _conversations(rng: np.random.Generator, n: int, start: int, labelled: bool) -> pd.DataFrame:
    rows = []
    for i in range(n):
        label = int(rng.choice(3, p=[0.38, 0.38, 0.24]))
        a_good, b_good = {0: (True, False), 1: (False, True), 2: (True, True)}[label]
        if rng.random() < 0.2:
            a_good, b_good = b_good, a_good
        row = {
            "id": start + i,
            "prompt": " ".join(rng.choice(PLAIN, 4)),
            "response_a": _response(rng, a_good),
            "response_b": _response(rng, b_good),
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
