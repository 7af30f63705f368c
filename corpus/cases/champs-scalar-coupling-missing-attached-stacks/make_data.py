"""Synthetic champs-scalar-coupling data: test.csv in input/, and, in reference/input/champstacks/,
the attached dataset the stacking kernel read (six other kernels' submissions: the truth plus
noise of different sizes), which the environment lacks."""

from corpus.data.champs_scalar_coupling import write_blended_submissions

write_blended_submissions(
    400,
    {"1JHC": 94.0, "2JHH": -10.0, "3JHC": 3.0, "2JHC": -1.0, "3JHH": 4.5, "1JHN": 48.0},
    "input/champs-scalar-coupling",
    {
        "champstacks/submission-giba-1 (2).csv": 0.8,
        "champstacks/lgb-1.406.csv": 1.5,
        "champstacks/mpnn-1.69.csv": 1.9,
        "champstacks/schnet-1.52.csv": 1.6,
        "champstacks/keras-nn-1.31.csv": 1.2,
        "champstacks/blend-1.63.csv": 1.8,
    },
)
