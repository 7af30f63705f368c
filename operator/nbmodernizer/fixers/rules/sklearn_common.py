"""scikit-learn probes, call matchers and example data shared by its rule modules."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
from collections.abc import Callable

# ------------------------------------------------------------------------------------ probes


@functools.cache
def module_gone(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is None
    except ModuleNotFoundError:
        return True


@functools.cache
def no_parameter(path: str, parameter: str) -> bool:
    module, _, name = path.rpartition(".")
    return (
        parameter
        not in inspect.signature(getattr(importlib.import_module(module), name)).parameters
    )


def rejects(attempt: Callable[[], object]) -> bool:
    """Whether today's library refuses the legacy call (InvalidParameterError is both)."""
    try:
        attempt()
    except (ValueError, TypeError):
        return True
    return False


def into(package: str, modules: str) -> dict[str, str]:
    """`package.module` -> `package` for each of the space-separated `modules`."""
    return {f"{package}.{module}": package for module in modules.split()}


def forests(kind: str) -> tuple[str, ...]:
    return (f"sklearn.ensemble.RandomForest{kind}", f"sklearn.ensemble.ExtraTrees{kind}")


def trees(kind: str) -> tuple[str, ...]:
    return (
        *forests(kind),
        f"sklearn.tree.DecisionTree{kind}",
        f"sklearn.tree.ExtraTree{kind}",
        f"sklearn.ensemble.GradientBoosting{kind}",
    )


SGD = tuple(
    f"sklearn.linear_model.{name}"
    for name in (
        "SGDClassifier",
        "SGDRegressor",
        "Perceptron",
        "PassiveAggressiveClassifier",
        "PassiveAggressiveRegressor",
    )
)


# ---------------------------------------------------------------------------- the examples

DATA = (
    "import numpy as np\n"
    "rng = np.random.RandomState(0)\n"
    "X = rng.rand(30, 4)\n"
    "y = (X[:, 0] + X[:, 1] > 1).astype(int)\n"
)
