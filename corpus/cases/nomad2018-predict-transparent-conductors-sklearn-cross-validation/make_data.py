"""Synthetic nomad2018-predict-transparent-conductors data (the competition's columns)."""

from corpus.data.nomad2018_predict_transparent_conductors import write_materials_940

write_materials_940()
