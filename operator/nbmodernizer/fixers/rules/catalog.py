"""Every rule module's rules, in one list (ids are unique)."""

from __future__ import annotations

from nbmodernizer.fixers.rules import (
    lib_catboost,
    lib_environment,
    lib_keras,
    lib_lightgbm,
    lib_matplotlib,
    lib_numpy,
    lib_pandas_calls,
    lib_pandas_cow,
    lib_pandas_removed,
    lib_pandas_renamed,
    lib_pandas_str_dtype,
    lib_pillow,
    lib_python2_names,
    lib_python2_syntax,
    lib_scipy,
    lib_seaborn,
    lib_sklearn_defaults,
    lib_sklearn_modules,
    lib_sklearn_removed_parameters,
    lib_sklearn_renamed_apis,
    lib_sklearn_renamed_parameters,
    lib_sklearn_values,
    lib_tensorflow,
    lib_torch,
    lib_xgboost,
)
from nbmodernizer.fixers.rules.model import Rule

MODULES = (
    lib_python2_syntax,
    lib_python2_names,
    lib_environment,
    lib_pandas_removed,
    lib_pandas_calls,
    lib_pandas_cow,
    lib_pandas_str_dtype,
    lib_pandas_renamed,
    lib_numpy,
    lib_sklearn_modules,
    lib_sklearn_renamed_apis,
    lib_sklearn_values,
    lib_sklearn_removed_parameters,
    lib_sklearn_renamed_parameters,
    lib_sklearn_defaults,
    lib_scipy,
    lib_matplotlib,
    lib_seaborn,
    lib_pillow,
    lib_xgboost,
    lib_lightgbm,
    lib_catboost,
    lib_keras,
    lib_tensorflow,
    lib_torch,
)

RULES: tuple[Rule, ...] = tuple(rule for module in MODULES for rule in module.RULES)
