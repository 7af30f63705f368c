"""Synthetic lmsys-chatbot-arena data: train.csv/test.csv in the competition's folder in input/,
and, in reference/input/training-v0-lmsys/, the LSTMClassifier state_dict another kernel
trained (lstm_classifier_0.pth), which the environment lacks. The winner depends on words the
responses use; the weights are trained on train.csv with the vocabulary the kernel builds from
it (20 epochs, Adam) and stored as float16 to stay small."""

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
train = write_worded_conversations(2025, 240, 100, sample_submission=False)


class LSTMClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim=64, hidden_dim=128, hidden_dim2=64, num_classes=3):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.lstm = nn.LSTM(embed_dim, hidden_dim, batch_first=True)
        self.fc = nn.Linear(hidden_dim, hidden_dim2)
        self.fc2 = nn.Linear(hidden_dim2, num_classes)

    def forward(self, x):
        x = self.embedding(x)
        _, (h_n, _) = self.lstm(x)
        return self.fc2(self.fc(h_n[-1]))


text = prompt_text(train)
vocab, x = encode(text)
y = torch.tensor(winner_index(train))
model = LSTMClassifier(len(vocab))
fit(model, x, y)
folder = Path("reference/input/training-v0-lmsys")
folder.mkdir(parents=True, exist_ok=True)
torch.save({k: v.half() for k, v in model.state_dict().items()}, folder / "lstm_classifier_0.pth")
