"""Synthetic stand-in for plant-seedlings-classification: 32x32 PNG seedlings (a green blob
whose size and place depend on the species) in train/<species>/ and test/; 12 species."""

from corpus.data.plant_seedlings_classification import write_seedlings

write_seedlings(per_species=10, tests=60)
