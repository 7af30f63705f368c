"""Synthetic lmsys-chatbot-arena data: train.csv/test.csv/sample_submission.csv in the
competition's folder in input/, and, in reference/input/training-lstm-lmsys/, the checkpoint
another kernel trained (lstm_classifier.pth: the LSTMClassifier's state_dict and its vocab),
which the environment lacks. The winner depends on words the responses use; the checkpoint is
trained on train.csv (20 epochs, Adam) and stored as float16 to stay small."""

from pathlib import Path

import torch
import torch.nn as nn

from corpus.data.lmsys_chatbot_arena import (
    encode,
    fit,
    prompt_text,
    winner_index,
    write_worded_conversations,
)

torch.manual_seed(2024)
train = write_worded_conversations(2024, 240, 100, sample_submission=True)


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


text = prompt_text(train)
vocab, x = encode(text)
y = torch.tensor(winner_index(train))
model = LSTMClassifier(len(vocab))
fit(model, x, y)
folder = Path("reference/input/training-lstm-lmsys")
folder.mkdir(parents=True, exist_ok=True)
state = {k: v.half() for k, v in model.state_dict().items()}
torch.save({"state_dict": state, "vocab": vocab}, folder / "lstm_classifier.pth")
