"""CatBoost drift (0.x -> 1.2): feature importances are always there now."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    callee_is,
    keyword_arg,
    method_name,
    without_keywords,
)
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.probes import lacks_attribute, no_parameter

CLASSES = (
    "catboost.CatBoostClassifier",
    "catboost.CatBoostRegressor",
    "catboost.CatBoostRanker",
    "catboost.CatBoost",
)


class _CalcFeatureImportance(cst.CSTTransformer):
    """`CatBoostClassifier(..., calc_feature_importance=True)` -> without it."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if keyword_arg(updated_node, "calc_feature_importance") is None:
            return updated_node
        if not callee_is(updated_node, CLASSES, self.context):
            return updated_node
        return without_keywords(updated_node, ["calc_feature_importance"])


class _FeatureImportances(cst.CSTTransformer):
    """`model.feature_importance_` and `model.feature_importances(X, y)` (computed on the
    training pool, PredictionValuesChange) -> `model.feature_importances_`."""

    def __init__(self, _context: RuleContext) -> None:
        pass

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if updated_node.attr.value == "feature_importance_":
            return updated_node.with_changes(attr=cst.Name("feature_importances_"))
        return updated_node

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if method_name(updated_node) != "feature_importances" or not updated_node.args:
            return updated_node
        assert isinstance(func, cst.Attribute)
        return func.with_changes(attr=cst.Name("feature_importances_"))


_DATA = (
    "import numpy as np\n"
    "rng = np.random.RandomState(0)\n"
    "X = rng.rand(100, 3); y = (X[:, 0] + 0.3 * rng.rand(100) > 0.6).astype(int)\n"
)

RULES = (
    Rule(
        id="catboost.calc-feature-importance-param",
        library="catboost",
        changed_in="0.6",
        summary="`CatBoostClassifier(calc_feature_importance=True)` -> the keyword dropped "
        "(importances are always computed)",
        kind=Kind.API,
        rewrite=cst_rewrite(_CalcFeatureImportance),
        symptoms=(
            Symptom(
                "TypeError",
                r"CatBoost\w*\.__init__\(\) got an unexpected keyword argument "
                r"'calc_feature_importance'",
            ),
        ),
        gone=no_parameter("catboost.CatBoostClassifier.__init__", "calc_feature_importance"),
        examples=(
            Example(
                before=(
                    _DATA + "from catboost import CatBoostClassifier, CatBoostRegressor\n"
                    "clf = CatBoostClassifier(iterations=10, calc_feature_importance=True,\n"
                    "                         verbose=0).fit(X, y)\n"
                    "reg = CatBoostRegressor(iterations=10, verbose=0, calc_feature_importance=True)\n"
                ),
                after=(
                    _DATA + "from catboost import CatBoostClassifier, CatBoostRegressor\n"
                    "clf = CatBoostClassifier(iterations=10,\n"
                    "                         verbose=0).fit(X, y)\n"
                    "reg = CatBoostRegressor(iterations=10, verbose=0)\n"
                ),
                error="TypeError",
                check="len(clf.feature_importances_) == 3 and reg.get_params()['iterations'] == 10",
            ),
        ),
    ),
    Rule(
        id="catboost.feature-importances",
        library="catboost",
        changed_in="0.6",
        summary="`model.feature_importance_` / `model.feature_importances(X, y)` -> "
        "`model.feature_importances_`",
        kind=Kind.API,
        rewrite=cst_rewrite(_FeatureImportances),
        symptoms=(
            Symptom(
                "AttributeError",
                r"'CatBoost\w*' object has no attribute 'feature_importances?_?'",
            ),
        ),
        gone=lacks_attribute("catboost.CatBoost", "feature_importance_", "feature_importances"),
        examples=(
            Example(
                before=(
                    _DATA + "import catboost\n"
                    "model = catboost.CatBoostClassifier(iterations=10, verbose=0).fit(X, y)\n"
                    "stored = model.feature_importance_\n"
                    "computed = model.feature_importances(X, y)\n"
                ),
                after=(
                    _DATA + "import catboost\n"
                    "model = catboost.CatBoostClassifier(iterations=10, verbose=0).fit(X, y)\n"
                    "stored = model.feature_importances_\n"
                    "computed = model.feature_importances_\n"
                ),
                error="AttributeError",
                # what 0.x computed: the importances on the training pool
                check=(
                    "np.allclose(stored, model.get_feature_importance(catboost.Pool(X, y))) "
                    "and np.allclose(computed, stored)"
                ),
            ),
        ),
    ),
)
