"""nbmodernizer: bring legacy machine-learning notebooks back to life."""

__version__ = "0.1.0"
