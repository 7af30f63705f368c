"""Synthetic stand-in for spooky-author-identification: sentences from three authors'
overlapping vocabularies, each author with a style the meta features can see (EAP: commas
and semicolons, HPL: long sentences, MWS: short ones with an upper-case "I"); 800 rows
(600 train, 200 test); answers one-hot per author."""

from corpus.data.spooky_author_identification import write_sentences_1818

write_sentences_1818(styled=True)
