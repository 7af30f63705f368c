"""A model class swapped: the revision no longer instantiates a model the original did."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from nbmodernizer.fidelity.kinds import MODEL_CLASS_CHANGED
from nbmodernizer.fidelity.syntax import callee, words
from nbmodernizer.notebook import CodeCell
from nbmodernizer.status import RiskFlag

# A called CamelCase name is a model class if it ends with one of these or is a known one.
_MODEL_SUFFIXES = words(
    "Classifier Regressor Regression Model SVC SVR Net Boost Forest Trees NB KMeans"
)
_MODELS = frozenset(
    words(
        """LogisticRegression LogisticRegressionCV Ridge RidgeCV Lasso LassoCV ElasticNet
    ElasticNetCV Perceptron Sequential XGBClassifier XGBRegressor LGBMClassifier LGBMRegressor
    CatBoostClassifier CatBoostRegressor LinearDiscriminantAnalysis QuadraticDiscriminantAnalysis
    GaussianMixture DBSCAN AgglomerativeClustering OneClassSVM Prophet ARIMA SARIMAX OLS GLM"""
    )
)
_CAMEL = re.compile(r"[A-Z][A-Za-z0-9]*")


def _is_model_class(name: str) -> bool:
    """Whether a called name looks like an estimator or model class."""
    return bool(_CAMEL.fullmatch(name)) and (name in _MODELS or name.endswith(_MODEL_SUFFIXES))


def _model_classes(cells: Iterable[CodeCell]) -> dict[str, int]:
    """Instantiated model class -> index of the first cell that instantiates it."""
    found: dict[str, int] = {}
    for cell in cells:
        if cell.tree is None:
            continue
        for node in ast.walk(cell.tree):
            if isinstance(node, ast.Call):
                name = callee(node)
                if name is not None and _is_model_class(name):
                    found.setdefault(name, cell.index)
    return found


def model_class_flags(
    old: Sequence[CodeCell], new: Sequence[CodeCell], pairs: Sequence[tuple[int | None, int | None]]
) -> list[RiskFlag]:
    """Model classes the revision no longer instantiates (a wrapper added around one is fine)."""
    before, after = _model_classes(old), _model_classes(new)
    added = [name for name in after if name not in before]
    into = {old[i].index: new[j].index for i, j in pairs if i is not None and j is not None}
    by_cell: dict[int, list[str]] = defaultdict(list)
    for name in added:
        by_cell[after[name]].append(name)
    flags: list[RiskFlag] = []
    for name, cell in before.items():
        if name in after:
            continue
        target = into.get(cell)
        replacements = by_cell.get(target, []) if target is not None else []
        replacements = replacements or added
        if target is None and replacements:
            target = after[replacements[0]]
        detail = (
            f"{name} → {', '.join(replacements)}"
            if replacements
            else f"{name} no longer instantiated"
        )
        flags.append(RiskFlag(kind=MODEL_CLASS_CHANGED, cell=target, detail=detail))
    return flags
