"""What a rule may know beyond the cell it rewrites."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class RuleContext:
    # local name -> qualified name, from every import in the notebook (`np` -> `numpy`,
    # `train_test_split` -> `sklearn.model_selection.train_test_split`)
    aliases: dict[str, str] = field(default_factory=dict)
    gpu_available: bool = False
    input_dir: Path | None = None
    notes: list[str] = field(default_factory=list)  # what rules report (e.g. removed installs)
    # the names the notebook binds only to DataFrames / Series (`toolkit.bindings`); None: not
    # read from the notebook, a rule reads the cell it rewrites
    frames: frozenset[str] | None = None
    # the lines (1-based) of the cell being rewritten that raised the errors its reactive
    # rules answer (the innermost notebook frame); empty for proactive rewrites and `scan`
    raising_lines: frozenset[int] = frozenset()
