"""How faithful a revision stayed to the original notebook (see `assess`)."""

from nbmodernizer.fidelity.assess import align, assess
from nbmodernizer.fidelity.kinds import BLOCKING

__all__ = ["BLOCKING", "align", "assess"]
