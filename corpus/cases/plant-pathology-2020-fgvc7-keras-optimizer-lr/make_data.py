"""Synthetic stand-in for plant-pathology-2020-fgvc7: 24x24 JPEG apple leaves (green; rust gives
orange spots, scab dark brown ones, multiple diseases both) as images/Train_<n>.jpg and
images/Test_<n>.jpg, train.csv (image_id and the four one-hot columns) and test.csv."""

from corpus.data.plant_pathology_2020_fgvc7 import write_leaves

write_leaves(seed=2020)
