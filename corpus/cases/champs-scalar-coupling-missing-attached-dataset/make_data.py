"""Synthetic champs-scalar-coupling data: the competition's test.csv in input/, and, in
reference/input/, the attached datasets the blending kernel read (other kernels'
submissions: the truth plus noise of different sizes), which the environment lacks."""

from corpus.data.champs_scalar_coupling import write_blended_submissions

write_blended_submissions(
    300,
    {"1JHC": 94.0, "2JHH": -10.0, "3JHC": 3.0, "2JHC": -1.0, "3JHH": 4.5},
    "input",
    {
        "champs-blending-tutorial/1.csv": 2.0,
        "champs-blending-tutorial/2.csv": 1.2,
        "champs-blending-tutorial/3.csv": 1.0,
        "otherkernelsadded/submission-2.csv": 1.5,
        "otherkernelsadded/submission-giba-1.csv": 1.1,
        "otherkernelsadded/workingsubmission-test.csv": 2.5,
        "otherkernelsadded/LGB_2019-07-18_-1.2243.csv": 1.4,
    },
)
