"""Synthetic lmsys-chatbot-arena data: train.csv/test.csv (prompt and two responses) in the
competition's folder in input/, and, in reference/input/training-v1-lmsys/, the RNNClassifier
checkpoint another kernel trained (rnn_classifier_2.pth), which the environment lacks. The kernel
encodes every token as 1, so the model sees only the text's length; here longer conversations
tend to be won by model A, short ones tie. The checkpoint is trained on that (30 epochs, Adam),
vocabulary 2 (the padding and the one token), stored as float16 to stay small."""

from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.nn import functional

from corpus.data.lmsys_chatbot_arena import prompt_text, winner_index, write_split

rng = np.random.default_rng(2024)
torch.manual_seed(2024)
WORDS = ["the", "answer", "is", "because", "model", "python", "code", "sure", "here", "why"]


def frame(n, start, labelled):
    rows = []
    for i in range(n):
        length = int(rng.integers(3, 40))
        label = 2 if length < 12 else (0 if rng.random() < 0.3 + length / 80 else 1)
        if rng.random() < 0.25:
            label = int(rng.integers(0, 3))
        row = {
            "id": start + i,
            "prompt": " ".join(rng.choice(WORDS, 3)),
            "response_a": " ".join(rng.choice(WORDS, length)),
            "response_b": " ".join(rng.choice(WORDS, length // 2 + 1)),
        }
        if labelled:
            row.update({"model_a": "gpt-4", "model_b": "llama-2-70b-chat"})
        row.update(
            {
                "winner_model_a": int(label == 0),
                "winner_model_b": int(label == 1),
                "winner_tie": int(label == 2),
            }
        )
        rows.append(row)
    return pd.DataFrame(rows)


train, test = frame(200, 30192, True), frame(120, 136060, False)
write_split(train, test)


class RNNClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim=256, hidden_dim=128, hidden_dim2=64, num_classes=3):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.rnn = nn.RNN(embed_dim, hidden_dim, batch_first=True)
        self.fc = nn.Linear(hidden_dim, hidden_dim2)
        self.fc2 = nn.Linear(hidden_dim2, num_classes)

    def forward(self, x):
        x = self.embedding(x)
        _, h_n = self.rnn(x)
        out = self.fc(h_n.squeeze(0))
        return self.fc2(out)


text = prompt_text(train)
labels = torch.tensor(winner_index(train))
model = RNNClassifier(vocab_size=2)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for _epoch in range(30):
    for t, y in zip(text, labels, strict=True):
        logits = model(torch.ones(1, len(t.split()), dtype=torch.long))
        loss = functional.cross_entropy(logits, y.view(1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
folder = Path("reference/input/training-v1-lmsys")
folder.mkdir(parents=True, exist_ok=True)
torch.save({k: v.half() for k, v in model.state_dict().items()}, folder / "rnn_classifier_2.pth")
