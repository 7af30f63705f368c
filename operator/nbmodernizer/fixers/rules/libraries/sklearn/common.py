"""What the scikit-learn rules share: estimator families and example data."""

from __future__ import annotations


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
