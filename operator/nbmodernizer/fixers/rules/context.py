"""What a rule may know beyond the cell it rewrites."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from nbmodernizer.facts import EnvironmentFacts


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
    # a run of the rewritten notebook follows (the loop): a rule whose reading only the data
    # decides (`.ix`) may write its guess, as `amend` takes the other reading where it raises;
    # False for `nbmod scan` / `nbmod fix`, after which nothing runs to check a guess
    run_follows: bool = False
    # what envprobe.py found where the notebook runs: the answers of the probes and the
    # signatures a rewrite reads (`Rule.reads`, `Rule.signatures`); None: no facts
    environment: EnvironmentFacts | None = None

    def gone(self, probe: str) -> bool:
        """The answer of a probe a rule reads (False without facts)."""
        return self.environment is not None and self.environment.gone(probe)

    def parameters(self, path: str) -> tuple[tuple[str, str], ...] | None:
        """The parameters of the environment's callable at `path` (None: unknown there)."""
        return None if self.environment is None else self.environment.parameters(path)

    def public_names(self, module: str) -> frozenset[str] | None:
        """The public names of the environment's `module` (None: unknown there)."""
        return None if self.environment is None else self.environment.public_names(module)
