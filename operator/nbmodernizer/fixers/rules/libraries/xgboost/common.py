"""What the XGBoost rules share: its model classes, probes, example data."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.toolkit.calls import callee_is
from nbmodernizer.fixers.rules.toolkit.nodes import qualified


def is_literal(node: cst.BaseExpression) -> bool:
    """Strings, numbers, booleans, None, and lists/tuples of them."""
    if isinstance(node, cst.SimpleString | cst.ConcatenatedString | cst.Integer | cst.Float):
        return True
    if isinstance(node, cst.Name):
        return node.value in ("True", "False", "None")
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return is_literal(node.expression)
    if isinstance(node, cst.List | cst.Tuple):
        return all(is_literal(element.value) for element in node.elements)
    return False


SKLEARN_CLASSES = (
    "xgboost.XGBClassifier",
    "xgboost.XGBRegressor",
    "xgboost.XGBRanker",
    "xgboost.XGBRFClassifier",
    "xgboost.XGBRFRegressor",
    "xgboost.XGBModel",
)

BOOSTER_FACTORIES = ("xgboost.train", "xgboost.Booster")

PREDICT_METHODS = ("predict", "predict_proba", "predict_margin")


def is_xgb_model(call: cst.BaseExpression, context: RuleContext) -> bool:
    return isinstance(call, cst.Call) and callee_is(call, SKLEARN_CLASSES, context)


def is_booster_factory(call: cst.BaseExpression, context: RuleContext) -> bool:
    return isinstance(call, cst.Call) and qualified(call.func, context.aliases) in BOOSTER_FACTORIES


class Assignments(cst.CSTVisitor):
    """Every `name = <call>` of the cell: name -> the calls assigned to it."""

    def __init__(self) -> None:
        self.calls: dict[str, list[cst.Call]] = {}
        self.other: set[str] = set()  # names also assigned something else

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                if isinstance(node.value, cst.Call):
                    self.calls.setdefault(target.target.value, []).append(node.value)
                else:
                    self.other.add(target.target.value)


def receiver_of(call: cst.Call) -> cst.BaseExpression | None:
    return call.func.value if isinstance(call.func, cst.Attribute) else None


DATA = (
    "import numpy as np\n"
    "rng = np.random.RandomState(0)\n"
    "X = rng.rand(300, 3); y = (X[:, 0] + 0.5 * rng.rand(300) > 0.7).astype(int)\n"
)

SPLIT = "eval_set=[(X[200:], y[200:])]"

# The model settings the examples spell out, so that XGBoost 0.90 (the 2019 era, issue #22) and
# today's grow the same trees from the same data: their defaults differ, a drift of its own
# that no rule here is about (0.90's scikit-learn classes: max_depth=3, learning_rate=0.1;
# base_score 0.5 then, estimated from the labels since 2.0; the exact tree method then on small
# data, hist since 2.0).
SETTINGS = "max_depth=2, base_score=0.5, tree_method='exact'"
BOOSTER_SETTINGS = "{'max_depth': 2, 'base_score': 0.5, 'tree_method': 'exact'}"
