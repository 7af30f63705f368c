"""Probes, LibCST transforms and example data for the XGBoost rules."""

from __future__ import annotations

import inspect
from functools import cache

import libcst as cst

from nbmodernizer.fixers.rules.arguments import keyword_arg
from nbmodernizer.fixers.rules.cells import qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import callee_is, code, cst_rewrite, method_name
from nbmodernizer.fixers.rules.model import Rewrite
from nbmodernizer.fixers.rules.text_tools import is_literal, with_keywords, without_keywords

SKLEARN_CLASSES = (
    "xgboost.XGBClassifier",
    "xgboost.XGBRegressor",
    "xgboost.XGBRanker",
    "xgboost.XGBRFClassifier",
    "xgboost.XGBRFRegressor",
    "xgboost.XGBModel",
)
BOOSTER_FACTORIES = ("xgboost.train", "xgboost.Booster")

# fit() keywords that moved to the constructor in 2.0 (removed from fit in 3.0)
MOVED_TO_CONSTRUCTOR = ("early_stopping_rounds", "eval_metric", "callbacks")
PREDICT_METHODS = ("predict", "predict_proba", "predict_margin")


@cache
def fit_lacks(keyword: str) -> bool:
    import xgboost

    return keyword not in inspect.signature(xgboost.XGBModel.fit).parameters


@cache
def predict_lacks_ntree_limit() -> bool:
    import xgboost

    return all(
        "ntree_limit" not in inspect.signature(method).parameters
        for method in (xgboost.XGBModel.predict, xgboost.Booster.predict)
    )


@cache
def best_ntree_limit_gone() -> bool:
    import xgboost

    return not any(hasattr(cls, "best_ntree_limit") for cls in (xgboost.XGBModel, xgboost.Booster))


@cache
def gpu_hist_rejected() -> bool:
    import numpy as np
    import xgboost

    try:
        xgboost.train({"tree_method": "gpu_hist"}, xgboost.DMatrix(np.zeros((2, 1))), 1)
    except xgboost.core.XGBoostError:
        return True
    return False


@cache
def silent_ignored() -> bool:
    import xgboost

    return "silent" not in inspect.signature(xgboost.XGBModel.__init__).parameters


def _is_xgb_model(call: cst.BaseExpression, context: RuleContext) -> bool:
    return isinstance(call, cst.Call) and callee_is(call, SKLEARN_CLASSES, context)


def _is_booster_factory(call: cst.BaseExpression, context: RuleContext) -> bool:
    return isinstance(call, cst.Call) and qualified(call.func, context.aliases) in BOOSTER_FACTORIES


class _Assignments(cst.CSTVisitor):
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


def _receiver(call: cst.Call) -> cst.BaseExpression | None:
    return call.func.value if isinstance(call.func, cst.Attribute) else None


def _moved_fit_keywords(call: cst.Call) -> list[cst.Arg] | None:
    """The keywords of a `.fit(...)` call that belong to the constructor now."""
    if method_name(call) != "fit":
        return None
    moved = [arg for arg in call.args if arg.keyword and arg.keyword.value in MOVED_TO_CONSTRUCTOR]
    metric = keyword_arg(call, "eval_metric")
    if not moved or (metric is not None and not is_literal(metric.value)):
        return None  # a callable eval_metric changed its signature: not for a rule
    return moved


def _keywords(args: list[cst.Arg]) -> list[tuple[str, cst.BaseExpression]]:
    return [(arg.keyword.value, arg.value) for arg in args if arg.keyword]


class _Fits(cst.CSTVisitor):
    """`.fit(...)` calls with keywords to move: by receiver name, and how many others."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context
        self.by_name: dict[str, list[list[cst.Arg]]] = {}
        self.other_receivers = 0

    def visit_Call(self, node: cst.Call) -> None:
        moved = _moved_fit_keywords(node)
        receiver = _receiver(node)
        if moved is None or receiver is None:
            return
        if isinstance(receiver, cst.Name):
            self.by_name.setdefault(receiver.value, []).append(moved)
        elif not _is_xgb_model(receiver, self.context):
            self.other_receivers += 1


class _FitKeywords(cst.CSTTransformer):
    """`model.fit(X, y, early_stopping_rounds=10, eval_metric='auc', eval_set=...)`: the
    keywords move into `model = XGBClassifier(...)` of the same cell, or, where that cannot
    be (refit with other values, constructor elsewhere), to
    `model.set_params(early_stopping_rounds=10, ...).fit(X, y, eval_set=...)`.

    Receivers built from an XGBoost class in the cell only; with `any_receiver` (reactive:
    the cell failed with XGBoost's error) also one unknown receiver, when it is the only fit
    with such keywords in the cell."""

    def __init__(self, context: RuleContext, any_receiver: bool) -> None:
        self.context, self.any_receiver = context, any_receiver
        self.known: set[str] = set()
        self.into_constructor: dict[str, list[cst.Arg]] = {}
        self.constructors: dict[int, str] = {}  # id of the constructor call -> model name
        self.unknown_ok = False

    def visit_Module(self, node: cst.Module) -> None:
        assignments = _Assignments()
        node.visit(assignments)
        fits = _Fits(self.context)
        node.visit(fits)
        for name, moved_lists in fits.by_name.items():
            calls = assignments.calls.get(name, [])
            if not calls or name in assignments.other:
                continue
            if not all(_is_xgb_model(call, self.context) for call in calls):
                continue
            self.known.add(name)
            if (
                len(calls) == 1
                and len(moved_lists) == 1
                and not any(keyword_arg(calls[0], key) for key, _ in _keywords(moved_lists[0]))
            ):
                self.into_constructor[name] = moved_lists[0]
                self.constructors[id(calls[0])] = name
        unknown = sum(len(v) for k, v in fits.by_name.items() if k not in self.known)
        self.unknown_ok = self.any_receiver and unknown + fits.other_receivers == 1

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if id(original_node) in self.constructors:
            moved = self.into_constructor[self.constructors[id(original_node)]]
            return with_keywords(updated_node, _keywords(moved))
        moved_original = _moved_fit_keywords(original_node)
        receiver = _receiver(updated_node)
        if moved_original is None or receiver is None:
            return updated_node
        moved = [
            arg
            for arg in updated_node.args
            if arg.keyword and arg.keyword.value in MOVED_TO_CONSTRUCTOR
        ]
        fit = without_keywords(updated_node, [key for key, _ in _keywords(moved)])
        assert isinstance(fit.func, cst.Attribute)
        if _is_xgb_model(receiver, self.context):  # XGBClassifier(...).fit(...)
            assert isinstance(receiver, cst.Call)
            constructor = with_keywords(receiver, _keywords(moved))
            return fit.with_changes(func=fit.func.with_changes(value=constructor))
        name = receiver.value if isinstance(receiver, cst.Name) else None
        if name in self.into_constructor:
            return fit
        if name in self.known or self.unknown_ok:
            set_params = with_keywords(
                cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name("set_params"))),
                _keywords(moved),
            )
            return fit.with_changes(func=fit.func.with_changes(value=set_params))
        return updated_node


def fit_keywords(any_receiver: bool) -> Rewrite:
    return cst_rewrite(lambda context: _FitKeywords(context, any_receiver))


class _NtreeLimit(cst.CSTTransformer):
    """`predict(X, ntree_limit=n)` -> `predict(X, iteration_range=(0, n))` on XGBoost models
    and boosters built in the cell (any receiver when `any_receiver`)."""

    def __init__(self, context: RuleContext, any_receiver: bool) -> None:
        self.context, self.any_receiver = context, any_receiver
        self.models: set[str] = set()

    def visit_Module(self, node: cst.Module) -> None:
        assignments = _Assignments()
        node.visit(assignments)
        for name, calls in assignments.calls.items():
            if name in assignments.other:
                continue
            if all(self._builds_model(call) for call in calls):
                self.models.add(name)

    def _builds_model(self, call: cst.Call) -> bool:
        if _is_xgb_model(call, self.context) or _is_booster_factory(call, self.context):
            return True
        receiver = _receiver(call)  # XGBClassifier(...).fit(X, y)
        return (
            method_name(call) == "fit"
            and receiver is not None
            and _is_xgb_model(receiver, self.context)
        )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        limit = keyword_arg(updated_node, "ntree_limit")
        receiver = _receiver(updated_node)
        if limit is None or receiver is None or method_name(updated_node) not in PREDICT_METHODS:
            return updated_node
        known = (isinstance(receiver, cst.Name) and receiver.value in self.models) or (
            isinstance(receiver, cst.Call) and self._builds_model(receiver)
        )
        if not (known or self.any_receiver):
            return updated_node
        span = cst.Tuple(
            elements=[
                cst.Element(
                    cst.Integer("0"), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                ),
                cst.Element(limit.value),
            ]
        )
        args = [
            arg.with_changes(keyword=cst.Name("iteration_range"), value=span)
            if arg is limit
            else arg
            for arg in updated_node.args
        ]
        return updated_node.with_changes(args=args)


class BestNtreeLimit(cst.CSTTransformer):
    """`model.best_ntree_limit` -> `model.best_iteration + 1` (parenthesized in expressions)."""

    def __init__(self, _context: RuleContext) -> None:
        self.bare: set[int] = set()

    def visit_Element(self, node: cst.Element) -> None:
        self.bare.add(id(node.value))

    def visit_Arg(self, node: cst.Arg) -> None:
        self.bare.add(id(node.value))

    def visit_Assign(self, node: cst.Assign) -> None:
        self.bare.add(id(node.value))

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if updated_node.attr.value != "best_ntree_limit":
            return updated_node
        plus = cst.BinaryOperation(
            left=updated_node.with_changes(attr=cst.Name("best_iteration"), lpar=[], rpar=[]),
            operator=cst.Add(),
            right=cst.Integer("1"),
        )
        if id(original_node) in self.bare and not updated_node.lpar:
            return plus
        return plus.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


class GpuParams(cst.CSTTransformer):
    """`tree_method='gpu_hist'` -> `'hist'` (+ `device='cuda'` on a GPU), `gpu_id=n` ->
    `device='cuda:n'` on a GPU (else dropped), `predictor=...` dropped: in XGBoost model
    constructors, in params dicts that set `tree_method`, and in `params['tree_method'] = ...`."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context

    def _device(self, gpu_id: cst.BaseExpression | None) -> cst.BaseExpression | None:
        if not self.context.gpu_available:
            return None
        if gpu_id is None:
            return cst.SimpleString("'cuda'")
        if isinstance(gpu_id, cst.Integer):
            return cst.SimpleString(f"'cuda:{gpu_id.value}'")
        return cst.parse_expression(f"f'cuda:{{{code(gpu_id)}}}'")

    @staticmethod
    def _cpu_method(node: cst.BaseExpression) -> cst.BaseExpression | None:
        value = node.evaluated_value if isinstance(node, cst.SimpleString) else None
        if value in ("gpu_hist", "gpu_exact"):
            assert isinstance(node, cst.SimpleString)
            return cst.SimpleString(f"{node.quote}{value[4:]}{node.quote}")
        return None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not _is_xgb_model(updated_node, self.context):
            return updated_node
        method = keyword_arg(updated_node, "tree_method")
        cpu = self._cpu_method(method.value) if method else None
        gpu_id = keyword_arg(updated_node, "gpu_id")
        predictor = keyword_arg(updated_node, "predictor")
        if cpu is None and gpu_id is None and predictor is None:
            return updated_node
        args = [
            arg.with_changes(value=cpu) if arg is method and cpu is not None else arg
            for arg in updated_node.args
        ]
        call = without_keywords(updated_node.with_changes(args=args), ["gpu_id", "predictor"])
        device = self._device(gpu_id.value if gpu_id else None) if (cpu or gpu_id) else None
        if device is not None and keyword_arg(call, "device") is None:
            call = with_keywords(call, [("device", device)])
        return call

    def leave_Dict(self, original_node: cst.Dict, updated_node: cst.Dict) -> cst.BaseExpression:
        entries = {
            key: element
            for element in updated_node.elements
            if isinstance(element, cst.DictElement)
            and isinstance(element.key, cst.SimpleString)
            and isinstance(key := element.key.evaluated_value, str)
        }
        method = entries.get("tree_method")
        if method is None:
            return updated_node
        cpu = self._cpu_method(method.value)
        gpu_id = entries.get("gpu_id")
        if cpu is None and gpu_id is None and "predictor" not in entries:
            return updated_node
        elements: list[cst.BaseDictElement] = []
        for element in updated_node.elements:
            if element is entries.get("gpu_id") or element is entries.get("predictor"):
                continue
            elements.append(
                element.with_changes(value=cpu) if element is method and cpu else element
            )
        device = self._device(gpu_id.value if gpu_id else None) if (cpu or gpu_id) else None
        if device is not None and "device" not in entries:
            quote = method.key.quote if isinstance(method.key, cst.SimpleString) else "'"
            elements.append(cst.DictElement(cst.SimpleString(f"{quote}device{quote}"), device))
        fixed = [
            element.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            for element in elements[:-1]
        ]
        last = elements[-1].with_changes(comma=updated_node.elements[-1].comma)
        return updated_node.with_changes(elements=[*fixed, last])

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        """`params['tree_method'] = 'gpu_hist'` -> `'hist'` (no device on a CPU)."""
        target = updated_node.targets[0].target if len(updated_node.targets) == 1 else None
        if not isinstance(target, cst.Subscript) or len(target.slice) != 1:
            return updated_node
        index = target.slice[0].slice
        key = index.value if isinstance(index, cst.Index) else None
        if not isinstance(key, cst.SimpleString) or key.evaluated_value != "tree_method":
            return updated_node
        cpu = self._cpu_method(updated_node.value)
        return updated_node if cpu is None else updated_node.with_changes(value=cpu)


def silent_to_verbosity(source: str, context: RuleContext) -> str:
    class Silent(cst.CSTTransformer):
        def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
            silent = keyword_arg(updated_node, "silent")
            if silent is None or not _is_xgb_model(updated_node, context):
                return updated_node
            if keyword_arg(updated_node, "verbosity") is not None:
                return without_keywords(updated_node, ["silent"])
            value = silent.value
            if isinstance(value, cst.Name) and value.value in ("True", "False"):
                level: cst.BaseExpression = cst.Integer("0" if value.value == "True" else "1")
            elif isinstance(value, cst.Integer):
                level = cst.Integer("0" if value.value != "0" else "1")
            else:
                level = cst.parse_expression(f"0 if {code(value)} else 1")
            args = [
                arg.with_changes(keyword=cst.Name("verbosity"), value=level)
                if arg is silent
                else arg
                for arg in updated_node.args
            ]
            return updated_node.with_changes(args=args)

    return cst_rewrite(lambda _context: Silent())(source, context)


def ntree_limit(any_receiver: bool) -> Rewrite:
    return cst_rewrite(lambda context: _NtreeLimit(context, any_receiver))


DATA = (
    "import numpy as np\n"
    "rng = np.random.RandomState(0)\n"
    "X = rng.rand(300, 3); y = (X[:, 0] + 0.5 * rng.rand(300) > 0.7).astype(int)\n"
)
SPLIT = "eval_set=[(X[200:], y[200:])]"
