"""The kinds of risk flag: what a revision changed that can change what the notebook means."""

from __future__ import annotations

SUBSAMPLING = "subsampling"
FEWER_ESTIMATORS = "fewer-estimators"
FEWER_EPOCHS = "fewer-epochs"
FEWER_FOLDS = "fewer-folds"
MODEL_CLASS_CHANGED = "model-class-changed"
CELL_REMOVED = "cell-removed"
REACHES_OUTSIDE = "reaches-outside"  # credentials, the network, /proc, the answers, outside files

# Kinds that block a fix: the revision is not kept (the LLM fixer rejects the reply).
BLOCKING = frozenset({REACHES_OUTSIDE})
