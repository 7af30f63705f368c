"""Every rule module's rules, in one list (ids are unique)."""

from __future__ import annotations

from nbmodernizer.fixers.rules import (
    lib_catboost,
    lib_environment,
    lib_keras,
    lib_lightgbm,
    lib_matplotlib,
    lib_numpy,
    lib_pandas,
    lib_pillow,
    lib_python2,
    lib_scipy,
    lib_seaborn,
    lib_sklearn,
    lib_torch,
    lib_xgboost,
)
from nbmodernizer.fixers.rules.model import Rule

MODULES = (
    lib_python2,
    lib_environment,
    lib_pandas,
    lib_numpy,
    lib_sklearn,
    lib_scipy,
    lib_matplotlib,
    lib_seaborn,
    lib_pillow,
    lib_xgboost,
    lib_lightgbm,
    lib_catboost,
    lib_keras,
    lib_torch,
)

RULES: tuple[Rule, ...] = tuple(rule for module in MODULES for rule in module.RULES)
