"""Synthetic champs-scalar-coupling data: structures (atom coordinates per molecule) and
atom pairs whose coupling constant follows their type and distance."""

from corpus.data.champs_scalar_coupling import write_couplings

write_couplings(seed=2024, folder="input/champs-scalar-coupling")
