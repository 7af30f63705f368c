"""How faithful a revision stayed to the original notebook (see `assess`)."""

from nbmodernizer.fidelity.assess import assess

__all__ = ["assess"]
