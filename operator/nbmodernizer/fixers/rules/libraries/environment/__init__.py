"""Environment drift: the notebook assumes an environment it does not get (installs, GPUs, the
Kaggle input layout). Each rule names the library whose import makes it relevant."""

from __future__ import annotations

from nbmodernizer.fixers.rules.libraries.environment import devices, inputs, installs
from nbmodernizer.fixers.rules.model import Library, Rule

LIBRARY = Library("environment", frozenset(), order=20)
RULES: tuple[Rule, ...] = (*installs.RULES, *devices.RULES, *inputs.RULES)
