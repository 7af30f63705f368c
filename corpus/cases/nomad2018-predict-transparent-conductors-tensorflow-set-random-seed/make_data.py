"""Synthetic stand-in for nomad2018-predict-transparent-conductors: the competition's columns,
600 materials (450 train, 150 test), the sample submission; answers.csv holds the test targets."""

from corpus.data.nomad2018_predict_transparent_conductors import write_materials_600

write_materials_600(sample_submission=True)
