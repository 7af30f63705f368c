"""Synthetic stand-in for playground-series-s3e18 (enzyme substrates): the competition's
descriptor columns and the six EC targets; 1200 rows (900 train, 300 test)."""

from corpus.data.playground_series_s3e18 import DESCRIPTORS, write_enzymes

write_enzymes(318, 1200, DESCRIPTORS, ec1_from=(0, 4, 10, 20), ec2_from=(2, 18, 25))
