"""Synthetic stand-in for playground-series-s3e18 (enzyme substrates): the competition's
descriptor columns and the six EC targets; 400 rows (300 train, 100 test), twelve of the
31 descriptor columns."""

from corpus.data.playground_series_s3e18 import DESCRIPTORS, write_enzymes

write_enzymes(
    2023,
    400,
    DESCRIPTORS[:12],
    ec1_from=(0, 4, 10, 8),
    ec2_from=(2, 9, 11),
    folder="input/playground-series-s3e18",
)
