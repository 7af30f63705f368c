"""Deterministic synthetic Spooky Author data.

Writes input/train.csv (id, text, author), input/test.csv (id, text) and answers.csv.
"""

from corpus.data.spooky_author_identification import write_sentences

write_sentences(seed=2018, rows=800)
