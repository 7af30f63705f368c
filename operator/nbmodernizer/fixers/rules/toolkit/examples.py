"""Preambles that several libraries' examples share (`Example.before` / `after` start with
them)."""

from __future__ import annotations

# matplotlib without a display
AGG = "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"

# TensorFlow (and Keras on it) without its start-up logging
TF_QUIET = "import os\nos.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'\n"
