"""Synthetic stand-in for spooky-author-identification: sentences from three authors'
overlapping vocabularies; 800 rows (600 train, 200 test); answers one-hot per author."""

from corpus.data.spooky_author_identification import write_sentences_1818

write_sentences_1818()
