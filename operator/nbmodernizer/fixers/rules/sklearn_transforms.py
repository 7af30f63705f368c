"""LibCST transforms for scikit-learn drift."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import libcst as cst

from nbmodernizer.fixers.rules.arguments import has_star_args, keyword_arg, positional_args
from nbmodernizer.fixers.rules.cells import expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import (
    as_keyword,
    callee_is,
    code,
    method_name,
    new_arg,
    string_value,
    with_args,
)
from nbmodernizer.fixers.rules.sklearn_cst import (
    ImportingTransformer,
    drop_keywords,
    is_constant,
    set_keyword,
)

# ---------------------------------------------------------------- scikit-learn transformers


def _callee(call: cst.Call, context: RuleContext) -> str | None:
    return qualified(call.func, context.aliases)


# Old `sklearn.cross_validation` splitters were iterables built from the data size (or the
# labels); their positional parameters, in order, and the renamed ones.
_OLD_SPLITTERS: dict[str, tuple[str, ...]] = {
    "KFold": ("n", "n_folds", "shuffle", "random_state"),
    "StratifiedKFold": ("y", "n_folds", "shuffle", "random_state"),
    "ShuffleSplit": ("n", "n_iter", "test_size", "train_size", "random_state"),
    "StratifiedShuffleSplit": ("y", "n_iter", "test_size", "train_size", "random_state"),
    "LeaveOneOut": ("n",),
    "LeavePOut": ("n", "p"),
}


def _data_of_size(size: str) -> str:
    """What to split for a splitter built from a size: `len(X)` / `X.shape[0]` -> `X`."""
    node = expression(size)
    if (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "len"
        and len(node.args) == 1
        and node.args[0].keyword is None
        and not node.args[0].star
    ):
        return code(node.args[0].value)
    if (
        isinstance(node, cst.Subscript)
        and isinstance(node.value, cst.Attribute)
        and node.value.attr.value == "shape"
        and len(node.slice) == 1
        and isinstance(node.slice[0].slice, cst.Index)
        and isinstance(node.slice[0].slice.value, cst.Integer)
        and node.slice[0].slice.value.value == "0"
    ):
        return code(node.value.value)
    return f"range({size})"


class OldSplitters(cst.CSTTransformer):
    """`KFold(n, n_folds=k)` (an iterable of folds) -> `list(KFold(n_splits=k).split(X))`."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        name = _callee(original_node, self.context) or ""
        source, _, cls = name.rpartition(".")
        if source != "sklearn.cross_validation" or cls not in _OLD_SPLITTERS:
            return updated_node
        params = _OLD_SPLITTERS[cls]
        given = positional_args(updated_node)
        if has_star_args(updated_node) or len(given) > len(params):
            return updated_node
        if not given and keyword_arg(updated_node, params[0]) is None:
            return updated_node  # not built from the data: not the old API
        bound: dict[str, cst.Arg] = {}
        for param, arg in zip(params, given, strict=False):
            bound[param] = as_keyword(arg, param)
        for arg in updated_node.args:
            if arg.keyword is not None:
                bound[arg.keyword.value] = arg
        data = code(bound.pop(params[0]).value)
        split = f"{data}, {data}" if cls.startswith("Stratified") else _data_of_size(data)
        args: list[cst.Arg] = []
        if cls == "LeavePOut":
            args.append(bound.pop("p").with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT))
        for old, new in (("n_folds", "n_splits"), ("n_iter", "n_splits")):
            if old in bound:
                bound[new] = bound.pop(old).with_changes(keyword=cst.Name(new))
        if cls in ("KFold", "StratifiedKFold"):
            bound.setdefault("n_splits", new_arg("n_splits", "3"))  # the old default
            if not is_constant(bound.get("shuffle"), "True") and "random_state" in bound:
                shuffle = bound.get("shuffle")
                if shuffle is None or is_constant(shuffle, "False"):
                    del bound["random_state"]  # it had no effect; it is an error today
        if "train_size" in bound and "test_size" not in bound:
            bound["test_size"] = new_arg("test_size", "0.1")  # the old default
        order = ("n_splits", "shuffle", "test_size", "train_size", "random_state")
        args += [bound.pop(key) for key in order if key in bound]
        args += list(bound.values())
        splitter = with_args(updated_node.with_changes(args=[]), args)
        split_call = f"list({code(splitter)}.split({split}))"
        return expression(split_call).with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


_IMPUTER_PARAMS = ("missing_values", "strategy", "axis", "verbose", "copy")
_IMPUTERS = ("sklearn.preprocessing.Imputer", "sklearn.preprocessing.imputation.Imputer")


class ImputerArguments(cst.CSTTransformer):
    """`Imputer(missing_values='NaN', strategy=s, axis=0, verbose=v)` -> SimpleImputer's."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context
        numpy = next((k for k, v in context.aliases.items() if v == "numpy"), None)
        self.nan = f"{numpy}.nan" if numpy else 'float("nan")'

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if _callee(original_node, self.context) not in _IMPUTERS or has_star_args(updated_node):
            return updated_node
        args: list[cst.Arg] = []
        index = 0
        changed = False
        for arg in updated_node.args:
            name = arg.keyword.value if arg.keyword else _IMPUTER_PARAMS[min(index, 4)]
            if arg.keyword is None:
                index += 1
                arg = as_keyword(arg, name)
                changed = True
            if name == "verbose" or (
                name == "axis" and isinstance(arg.value, cst.Integer) and arg.value.value == "0"
            ):
                changed = True
                continue
            if name == "missing_values" and string_value(arg) in ("NaN", "nan"):
                arg = arg.with_changes(value=expression(self.nan))
                changed = True
            args.append(arg)
        return with_args(updated_node, args, keep_trailing_comma=True) if changed else updated_node


_OVR = "sklearn.multiclass.OneVsRestClassifier"


_LOGISTIC = ("sklearn.linear_model.LogisticRegression", "sklearn.linear_model.LogisticRegressionCV")
_SEARCHES = (
    "sklearn.model_selection.GridSearchCV",
    "sklearn.model_selection.RandomizedSearchCV",
    "sklearn.model_selection.HalvingGridSearchCV",
    "sklearn.model_selection.HalvingRandomSearchCV",
)


def _argument(call: cst.Call, index: int, *names: str) -> cst.Arg | None:
    """The argument passed as the `index`-th positional one or by one of these keywords."""
    given = positional_args(call)
    if len(given) > index:
        return given[index]
    return next((a for a in call.args if a.keyword and a.keyword.value in names), None)


def _literal_grid(node: cst.BaseExpression) -> bool:
    """A dict (or list of dicts) whose keys are all plain strings."""
    if isinstance(node, cst.List):
        return all(isinstance(e, cst.Element) and _literal_grid(e.value) for e in node.elements)
    return isinstance(node, cst.Dict) and all(
        isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
        for e in node.elements
    )


def _prefix_grid(node: cst.BaseExpression, prefix: str) -> cst.BaseExpression:
    if isinstance(node, cst.List):
        items = [
            e.with_changes(value=_prefix_grid(e.value, prefix))
            for e in node.elements
            if isinstance(e, cst.Element)
        ]
        return node.with_changes(elements=items)
    if not isinstance(node, cst.Dict):
        return node
    elements: list[cst.BaseDictElement] = []
    for element in node.elements:
        if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString):
            key = element.key
            body = key.value[len(key.prefix) + len(key.quote) : -len(key.quote)]
            new_key = key.with_changes(value=f"{key.prefix}{key.quote}{prefix}{body}{key.quote}")
            elements.append(element.with_changes(key=new_key))
        else:
            elements.append(element)
    return node.with_changes(elements=elements)


class OneVsRestWrapper(ImportingTransformer):
    """Wrap logistic regressions that meant one-vs-rest in `OneVsRestClassifier(...)`.

    `multi_class` mode: `multi_class='ovr'` (or 'warn', or 'auto' with liblinear) -> wrapped,
    'multinomial' / 'auto' -> dropped. `liblinear` mode: `solver='liblinear'` -> wrapped.
    A model searched over by a GridSearchCV-like call in the same expression has its literal
    parameter grid re-keyed (`'C'` -> `'estimator__C'`); with a grid that is not a literal, it
    is left alone (for a person).
    """

    def __init__(self, context: RuleContext, mode: str) -> None:
        super().__init__(context)
        self.mode = mode
        self.calls: list[bool] = []  # for each enclosing call: is it a OneVsRestClassifier?
        self.searched: dict[int, bool] = {}  # LR call searched over -> is its grid literal?
        self.wrapped: set[int] = set()  # LR calls wrapped

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(callee_is(node, [_OVR], self.context))
        if callee_is(node, _SEARCHES, self.context):
            estimator = _argument(node, 0, "estimator")
            grid = _argument(node, 1, "param_grid", "param_distributions")
            if estimator is not None and isinstance(estimator.value, cst.Call):
                self.searched[id(estimator.value)] = grid is None or _literal_grid(grid.value)

    def _wrap(self, updated: cst.Call) -> tuple[bool, cst.Call]:
        solver = string_value(keyword_arg(updated, "solver") or cst.Arg(cst.Name("None")))
        if self.mode == "liblinear":
            return solver == "liblinear", updated
        multi = keyword_arg(updated, "multi_class")
        value = string_value(multi) if multi is not None else None
        if value not in ("ovr", "warn", "multinomial", "auto"):
            return False, updated
        dropped = drop_keywords(updated, ["multi_class"])
        wrap = value in ("ovr", "warn") or (value == "auto" and solver == "liblinear")
        return wrap, dropped

    def _leave_search(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        estimator = _argument(original, 0, "estimator")
        grid = _argument(updated, 1, "param_grid", "param_distributions")
        if estimator is None or id(estimator.value) not in self.wrapped or grid is None:
            return updated
        prefixed = grid.with_changes(value=_prefix_grid(grid.value, "estimator__"))
        return updated.with_changes(args=[prefixed if a is grid else a for a in updated.args])

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        self.calls.pop()
        if callee_is(original_node, _SEARCHES, self.context):
            return self._leave_search(original_node, updated_node)
        if not callee_is(original_node, _LOGISTIC, self.context):
            return updated_node
        wrap, call = self._wrap(updated_node)
        if not wrap or (self.calls and self.calls[-1]):  # already inside a OneVsRestClassifier
            return call
        if self.searched.get(id(original_node)) is False:
            return updated_node  # its grid's keys would need `estimator__`: left for a person
        self.wrapped.add(id(original_node))
        inner = call.with_changes(lpar=[], rpar=[])
        return cst.Call(
            func=cst.Name(self.local_name(_OVR)),
            args=[cst.Arg(inner)],
            lpar=call.lpar,
            rpar=call.rpar,
        )


_ROOT_METRICS = {
    "mean_squared_error": "root_mean_squared_error",
    "mean_squared_log_error": "root_mean_squared_log_error",
}


class RootMetrics(ImportingTransformer):
    """`mean_squared_error(a, b, squared=False)` -> `root_mean_squared_error(a, b)`."""

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        name = _callee(original_node, self.context) or ""
        last = name.rpartition(".")[2]
        if last not in _ROOT_METRICS or name != f"sklearn.metrics.{last}":
            return updated_node
        squared = keyword_arg(updated_node, "squared")
        if is_constant(squared, "True"):
            return drop_keywords(updated_node, ["squared"])
        if not is_constant(squared, "False"):
            return updated_node
        call = drop_keywords(updated_node, ["squared"])
        root = _ROOT_METRICS[last]
        func = call.func
        if isinstance(func, cst.Attribute):
            return call.with_changes(func=func.with_changes(attr=cst.Name(root)))
        return call.with_changes(func=cst.Name(self.local_name(f"sklearn.metrics.{root}")))


class FeatureNamesOut(cst.CSTTransformer):
    """`x.get_feature_names(...)` (a list) -> `list(x.get_feature_names_out(...))`."""

    def __init__(self, context: RuleContext) -> None:
        self.list_calls: list[bool] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.list_calls.append(isinstance(node.func, cst.Name) and node.func.value == "list")

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        self.list_calls.pop()
        func = updated_node.func
        if method_name(updated_node) != "get_feature_names" or not isinstance(func, cst.Attribute):
            return updated_node
        call = updated_node.with_changes(
            func=func.with_changes(attr=cst.Name("get_feature_names_out")), lpar=[], rpar=[]
        )
        if self.list_calls and self.list_calls[-1]:
            return call.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
        return cst.Call(
            func=cst.Name("list"),
            args=[cst.Arg(call)],
            lpar=updated_node.lpar,
            rpar=updated_node.rpar,
        )


class CurveKeywords(cst.CSTTransformer):
    """`plot_roc_curve(..., color='r')`: matplotlib keywords -> `curve_kwargs={...}`."""

    KNOWN: ClassVar[frozenset[str]] = frozenset(
        {"sample_weight", "drop_intermediate", "response_method", "name", "ax", "pos_label"}
    )

    def __init__(self, context: RuleContext, function: str) -> None:
        self.context, self.function = context, function

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if _callee(original_node, self.context) != self.function or has_star_args(updated_node):
            return updated_node
        extra = [a for a in updated_node.args if a.keyword and a.keyword.value not in self.KNOWN]
        if not extra:
            return updated_node
        items = ", ".join(f"{a.keyword.value!r}: {code(a.value)}" for a in extra if a.keyword)
        kept = [a for a in updated_node.args if not any(a is e for e in extra)]
        curve_kwargs = new_arg("curve_kwargs", f"{{{items}}}")
        return with_args(updated_node, [*kept, curve_kwargs], keep_trailing_comma=True)


class ScorerResponse(cst.CSTTransformer):
    """`make_scorer(f, needs_proba=True)` -> `make_scorer(f, response_method='predict_proba')`."""

    METHODS: ClassVar[dict[str, str]] = {
        "needs_proba": "'predict_proba'",
        "needs_threshold": "('decision_function', 'predict_proba')",
    }

    def __init__(self, context: RuleContext) -> None:
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not callee_is(original_node, ["sklearn.metrics.make_scorer"], self.context):
            return updated_node
        flags = [keyword_arg(updated_node, name) for name in self.METHODS]
        if all(flag is None for flag in flags):
            return updated_node
        literal = (
            is_constant(flag, "True") or is_constant(flag, "False") for flag in flags if flag
        )
        if not all(literal):
            return updated_node  # not a literal: leave it to a person
        args: list[cst.Arg] = []
        for arg in updated_node.args:
            name = arg.keyword.value if arg.keyword else None
            if name not in self.METHODS:
                args.append(arg)
            elif is_constant(arg, "True") and keyword_arg(updated_node, "response_method") is None:
                method = expression(self.METHODS[name])
                args.append(arg.with_changes(keyword=cst.Name("response_method"), value=method))
        return with_args(updated_node, args, keep_trailing_comma=True)


class LinearNormalize(cst.CSTTransformer):
    """Drop `normalize=` where today's model computes the same thing without it."""

    def __init__(self, context: RuleContext, models: Sequence[str]) -> None:
        self.context, self.models = context, models

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not callee_is(original_node, self.models, self.context):
            return updated_node
        normalize = keyword_arg(updated_node, "normalize")
        if normalize is None:
            return updated_node
        ordinary_least_squares = callee_is(
            original_node, ["sklearn.linear_model.LinearRegression"], self.context
        )
        no_intercept = is_constant(keyword_arg(updated_node, "fit_intercept"), "False")
        if is_constant(normalize, "False") or (
            is_constant(normalize, "True") and (ordinary_least_squares or no_intercept)
        ):
            return drop_keywords(updated_node, ["normalize"])
        return updated_node


class SgdEpochs(cst.CSTTransformer):
    """`SGDClassifier(n_iter=N)` -> `SGDClassifier(max_iter=N, tol=None)` (N epochs, as then)."""

    def __init__(self, context: RuleContext, models: Sequence[str]) -> None:
        self.context, self.models = context, models

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not callee_is(original_node, self.models, self.context):
            return updated_node
        epochs = keyword_arg(updated_node, "n_iter")
        if epochs is None:
            return updated_node
        args = [
            a.with_changes(keyword=cst.Name("max_iter")) if a is epochs else a
            for a in updated_node.args
            if a.keyword is None or a.keyword.value != "max_iter"
        ]
        call = with_args(updated_node, args, keep_trailing_comma=True)
        return set_keyword(call, "tol", "None")
