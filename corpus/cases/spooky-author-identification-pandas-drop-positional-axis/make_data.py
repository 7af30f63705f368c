"""Deterministic synthetic Spooky Author data.

Writes input/train.csv (id, text, author), input/test.csv (id, text), input/sample_submission.csv
and answers.csv.
"""

from corpus.data.spooky_author_identification import write_sentences

write_sentences(seed=2019, longer={"EAP": 7, "HPL": 3}, sample_submission=True)
