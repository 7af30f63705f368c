"""Training and prediction arguments that moved (`fit(early_stopping_rounds=)`,
`predict(ntree_limit=)`, `best_ntree_limit`)."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.xgboost.common import (
    BOOSTER_SETTINGS,
    DATA,
    PREDICT_METHODS,
    SETTINGS,
    SKLEARN_CLASSES,
    SPLIT,
    Assignments,
    is_booster_factory,
    is_literal,
    is_xgb_model,
    receiver_of,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rewrite, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    keyword_arg,
    method_name,
    with_keywords,
    without_keywords,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite
from nbmodernizer.fixers.rules.toolkit.needles import passes_keyword
from nbmodernizer.fixers.rules.toolkit.nodes import code
from nbmodernizer.fixers.rules.toolkit.probes import all_of, lacks_attribute, no_parameter
from nbmodernizer.fixers.rules.toolkit.traversal import look

# fit() keywords that moved to the constructor in 2.0 (removed from fit in 3.0)
MOVED_TO_CONSTRUCTOR = ("early_stopping_rounds", "eval_metric", "callbacks")


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


def _is_plain_fit(call: cst.Call) -> bool:
    """`.fit(...)` without any keyword that moved to the constructor."""
    return method_name(call) == "fit" and not any(
        arg.keyword and arg.keyword.value in MOVED_TO_CONSTRUCTOR for arg in call.args
    )


class _Fits(cst.CSTVisitor):
    """`.fit(...)` calls with keywords to move: by receiver name, and how many others; and
    the fits of a named receiver without such keywords."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context
        self.by_name: dict[str, list[list[cst.Arg]]] = {}
        self.plain: dict[str, int] = {}
        self.other_receivers = 0

    def visit_Call(self, node: cst.Call) -> None:
        moved = _moved_fit_keywords(node)
        receiver = receiver_of(node)
        if receiver is None:
            return
        if moved is None:
            if isinstance(receiver, cst.Name) and _is_plain_fit(node):
                self.plain[receiver.value] = self.plain.get(receiver.value, 0) + 1
            return
        if isinstance(receiver, cst.Name):
            self.by_name.setdefault(receiver.value, []).append(moved)
        elif not is_xgb_model(receiver, self.context):
            self.other_receivers += 1


class _FitKeywords(cst.CSTTransformer):
    """`model.fit(X, y, early_stopping_rounds=10, eval_metric='auc', eval_set=...)`: the
    keywords move into `model = XGBClassifier(...)` of the same cell, or, where that cannot
    be (refit with other values, or without them, constructor elsewhere), to
    `model.set_params(early_stopping_rounds=10, ...).fit(X, y, eval_set=...)`.

    A setting made by `set_params` stays for the model's later fits, where a fit keyword
    applied to its own fit only: each fit of that model in the cell sets every keyword the
    cell's fits moved, to None where it did not pass it (its default then), so that a refit
    without early stopping does not stop early.

    Receivers built from an XGBoost class in the cell only; with `any_receiver` (reactive:
    the cell failed with XGBoost's error) also one unknown receiver, when it is the only fit
    with such keywords in the cell."""

    def __init__(self, context: RuleContext, any_receiver: bool) -> None:
        self.context, self.any_receiver = context, any_receiver
        self.known: set[str] = set()
        self.moved_keys: dict[str, list[str]] = {}  # model -> the keywords its fits moved
        self.into_constructor: dict[str, list[cst.Arg]] = {}
        self.constructors: dict[int, str] = {}  # id of the constructor call -> model name
        self.unknown_ok = False

    def visit_Module(self, node: cst.Module) -> None:
        assignments = Assignments()
        look(node, assignments)
        fits = _Fits(self.context)
        look(node, fits)
        for name, moved_lists in fits.by_name.items():
            calls = assignments.calls.get(name, [])
            if not calls or name in assignments.other:
                continue
            if not all(is_xgb_model(call, self.context) for call in calls):
                continue
            self.known.add(name)
            keys = [key for moved in moved_lists for key, _ in _keywords(moved)]
            self.moved_keys[name] = list(dict.fromkeys(keys))
            if (
                len(calls) == 1
                and len(moved_lists) == 1
                and not fits.plain.get(name)
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
        receiver = receiver_of(updated_node)
        if receiver is None:
            return updated_node
        if moved_original is None:
            return self._reset(updated_node, receiver)
        moved = [
            arg
            for arg in updated_node.args
            if arg.keyword and arg.keyword.value in MOVED_TO_CONSTRUCTOR
        ]
        fit = without_keywords(updated_node, [key for key, _ in _keywords(moved)])
        assert isinstance(fit.func, cst.Attribute)
        if is_xgb_model(receiver, self.context):  # XGBClassifier(...).fit(...)
            assert isinstance(receiver, cst.Call)
            constructor = with_keywords(receiver, _keywords(moved))
            return fit.with_changes(func=fit.func.with_changes(value=constructor))
        name = receiver.value if isinstance(receiver, cst.Name) else None
        if name in self.into_constructor:
            return fit
        if name in self.known or self.unknown_ok:
            passed = _keywords(moved)
            unset = [key for key in self.moved_keys.get(name or "", []) if key not in dict(passed)]
            return self._set_params(fit, receiver, passed + [(key, _NONE) for key in unset])
        return updated_node

    def _reset(self, call: cst.Call, receiver: cst.BaseExpression) -> cst.BaseExpression:
        """A fit without moved keywords of a model whose other fits set them: with their
        defaults (`model.set_params(early_stopping_rounds=None).fit(...)`)."""
        name = receiver.value if isinstance(receiver, cst.Name) else None
        if (
            name is None
            or name not in self.known
            or name in self.into_constructor
            or not _is_plain_fit(call)
        ):
            return call
        return self._set_params(call, receiver, [(key, _NONE) for key in self.moved_keys[name]])

    @staticmethod
    def _set_params(
        fit: cst.Call, receiver: cst.BaseExpression, keywords: list[tuple[str, cst.BaseExpression]]
    ) -> cst.Call:
        set_params = with_keywords(
            cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name("set_params"))), keywords
        )
        assert isinstance(fit.func, cst.Attribute)
        return fit.with_changes(func=fit.func.with_changes(value=set_params))


_NONE = cst.Name("None")


def fit_keywords(any_receiver: bool) -> Rewrite:
    return cst_rewrite(
        lambda context: _FitKeywords(context, any_receiver),
        MOVED_TO_CONSTRUCTOR,
        passes_keyword(
            MOVED_TO_CONSTRUCTOR,
            called=("fit",),
            on_built=() if any_receiver else SKLEARN_CLASSES,
        ),
    )


class _NtreeLimit(cst.CSTTransformer):
    """`predict(X, ntree_limit=n)` -> `predict(X, iteration_range=(0, n))` on XGBoost models
    and boosters built in the cell (any receiver when `any_receiver`)."""

    def __init__(self, context: RuleContext, any_receiver: bool) -> None:
        self.context, self.any_receiver = context, any_receiver
        self.models: set[str] = set()

    def visit_Module(self, node: cst.Module) -> None:
        assignments = Assignments()
        look(node, assignments)
        for name, calls in assignments.calls.items():
            if name in assignments.other:
                continue
            if all(self._builds_model(call) for call in calls):
                self.models.add(name)

    def _builds_model(self, call: cst.Call) -> bool:
        if is_xgb_model(call, self.context) or is_booster_factory(call, self.context):
            return True
        receiver = receiver_of(call)  # XGBClassifier(...).fit(X, y)
        return (
            method_name(call) == "fit"
            and receiver is not None
            and is_xgb_model(receiver, self.context)
        )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        limit = keyword_arg(updated_node, "ntree_limit")
        receiver = receiver_of(updated_node)
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


def ntree_limit(any_receiver: bool) -> Rewrite:
    return cst_rewrite(lambda context: _NtreeLimit(context, any_receiver), ("ntree_limit",))


class BestNtreeLimit(cst.CSTTransformer):
    """`model.best_ntree_limit` -> `model.best_iteration + 1` (parenthesized in expressions).

    XGBoost 1.4+ set `best_ntree_limit` without early stopping too (every round), while
    `best_iteration` exists only after early stopping: as a prediction's tree limit
    (`ntree_limit=` / `iteration_range=`) it becomes `model.best_iteration + 1 if
    hasattr(model, 'best_iteration') else 0`, where 0 is every tree in both APIs."""

    _LIMITS = frozenset({"ntree_limit", "iteration_range"})

    def __init__(self, _context: RuleContext) -> None:
        self.bare: set[int] = set()
        self.limit_args = 0

    def visit_Element(self, node: cst.Element) -> None:
        self.bare.add(id(node.value))

    def visit_Arg(self, node: cst.Arg) -> None:
        self.bare.add(id(node.value))
        if node.keyword is not None and node.keyword.value in self._LIMITS:
            self.limit_args += 1

    def leave_Arg(self, original_node: cst.Arg, updated_node: cst.Arg) -> cst.Arg:
        if original_node.keyword is not None and original_node.keyword.value in self._LIMITS:
            self.limit_args -= 1
        return updated_node

    def visit_Assign(self, node: cst.Assign) -> None:
        self.bare.add(id(node.value))

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if updated_node.attr.value != "best_ntree_limit":
            return updated_node
        best = updated_node.with_changes(attr=cst.Name("best_iteration"), lpar=[], rpar=[])
        plus = cst.BinaryOperation(left=best, operator=cst.Add(), right=cst.Integer("1"))
        value: cst.BaseExpression = plus
        if self.limit_args:
            owner = code(updated_node.value)
            value = cst.parse_expression(
                f"{code(plus)} if hasattr({owner}, 'best_iteration') else 0"
            )
        if id(original_node) in self.bare and not updated_node.lpar:
            return value
        return value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


RULES = (
    Rule(
        id="xgboost.fit-early-stopping",
        library="xgboost",
        changed_in="2.0",
        summary="`model.fit(..., early_stopping_rounds=, eval_metric=, callbacks=)` -> the "
        "keywords move to `model = XGBClassifier(...)` of the cell (else `model.set_params(...)`, "
        "which each fit of that model in the cell then makes, with None for what it did not pass)",
        kind=Kind.API,
        rewrite=fit_keywords(any_receiver=False),
        symptoms=(
            Symptom(
                "TypeError",
                r"XGB\w*\.fit\(\) got an unexpected keyword argument "
                r"'(early_stopping_rounds|eval_metric|callbacks)'",
            ),
        ),
        gone=no_parameter("xgboost.XGBModel.fit", "early_stopping_rounds"),
        examples=(
            Example(
                before=(
                    DATA + "from xgboost import XGBClassifier, XGBRegressor\n"
                    f"model = XGBClassifier(n_estimators=100, learning_rate=0.5, {SETTINGS})\n"
                    f"model.fit(X[:200], y[:200], {SPLIT},\n"
                    "          early_stopping_rounds=3, eval_metric='logloss', verbose=False)\n"
                    f"reg = XGBRegressor(n_estimators=100, learning_rate=0.3, {SETTINGS}).fit(\n"
                    f"    X[:200], y[:200], {SPLIT}, early_stopping_rounds=2,\n"
                    "    verbose=False)\n"
                    "# the best round and the rounds grown (XGBoost < 1.3 did not log the last one)\n"
                    "stopped = [(m.best_iteration, len(m.get_booster().get_dump())) for m in (model, reg)]\n"
                    "metrics = list(model.evals_result()['validation_0'])\n"
                ),
                after=(
                    DATA + "from xgboost import XGBClassifier, XGBRegressor\n"
                    f"model = XGBClassifier(n_estimators=100, learning_rate=0.5, {SETTINGS}, "
                    "early_stopping_rounds=3, eval_metric='logloss')\n"
                    f"model.fit(X[:200], y[:200], {SPLIT}, verbose=False)\n"
                    f"reg = XGBRegressor(n_estimators=100, learning_rate=0.3, {SETTINGS}, "
                    "early_stopping_rounds=2).fit(\n"
                    f"    X[:200], y[:200], {SPLIT},\n"
                    "    verbose=False)\n"
                    "# the best round and the rounds grown (XGBoost < 1.3 did not log the last one)\n"
                    "stopped = [(m.best_iteration, len(m.get_booster().get_dump())) for m in (model, reg)]\n"
                    "metrics = list(model.evals_result()['validation_0'])\n"
                ),
                error="TypeError",
                # stopped 3 rounds after the best one, on the metric asked for
                check=(
                    "stopped == [(model.best_iteration, model.best_iteration + 4), "
                    "(reg.best_iteration, reg.best_iteration + 3)] and stopped[0][1] < 100 "
                    "and metrics == ['logloss'] and min(model.evals_result()['validation_0']"
                    "['logloss']) == model.evals_result()['validation_0']['logloss']"
                    "[model.best_iteration]"
                ),
            ),
            Example(
                before=(
                    DATA + "import xgboost as xgb\n"
                    f"model = xgb.XGBClassifier(n_estimators=100, learning_rate=0.5, {SETTINGS})\n"
                    "for rounds in (2, 3):  # refits with other settings: set_params\n"
                    f"    model.fit(X[:200], y[:200], {SPLIT}, early_stopping_rounds=rounds,\n"
                    "              eval_metric='logloss', verbose=False)\n"
                    "    extra = len(model.get_booster().get_dump()) - 1\n"
                    "    assert extra - model.best_iteration == rounds\n"
                    f"model.fit(X[:200], y[:200], {SPLIT}, eval_metric=['error'], verbose=0)\n"
                    "metrics = list(model.evals_result()['validation_0'])\n"
                    "model.fit(X, y)  # every row, no early stopping: every round\n"
                    "trees = len(model.get_booster().get_dump())\n"
                ),
                after=(
                    DATA + "import xgboost as xgb\n"
                    f"model = xgb.XGBClassifier(n_estimators=100, learning_rate=0.5, {SETTINGS})\n"
                    "for rounds in (2, 3):  # refits with other settings: set_params\n"
                    "    model.set_params(early_stopping_rounds=rounds, eval_metric='logloss')"
                    f".fit(X[:200], y[:200], {SPLIT}, verbose=False)\n"
                    "    extra = len(model.get_booster().get_dump()) - 1\n"
                    "    assert extra - model.best_iteration == rounds\n"
                    "model.set_params(eval_metric=['error'], early_stopping_rounds=None)"
                    f".fit(X[:200], y[:200], {SPLIT}, verbose=0)\n"
                    "metrics = list(model.evals_result()['validation_0'])\n"
                    "model.set_params(early_stopping_rounds=None, eval_metric=None).fit(X, y)"
                    "  # every row, no early stopping: every round\n"
                    "trees = len(model.get_booster().get_dump())\n"
                ),
                error="TypeError",
                check="metrics == ['error'] and trees == 100",
            ),
            Example(  # a later fit of the model without early stopping: not the constructor
                before=(
                    DATA + "import xgboost as xgb\n"
                    f"model = xgb.XGBClassifier(n_estimators=50, learning_rate=0.5, {SETTINGS})\n"
                    f"model.fit(X[:200], y[:200], {SPLIT}, early_stopping_rounds=3, verbose=False)\n"
                    "model.fit(X, y)  # then every row, every round\n"
                    "trees = len(model.get_booster().get_dump())\n"
                ),
                after=(
                    DATA + "import xgboost as xgb\n"
                    f"model = xgb.XGBClassifier(n_estimators=50, learning_rate=0.5, {SETTINGS})\n"
                    f"model.set_params(early_stopping_rounds=3).fit(X[:200], y[:200], {SPLIT}, "
                    "verbose=False)\n"
                    "model.set_params(early_stopping_rounds=None).fit(X, y)  # then every row, "
                    "every round\n"
                    "trees = len(model.get_booster().get_dump())\n"
                ),
                error="TypeError",
                check="trees == 50",
            ),
        ),
    ),
    Rule(
        id="xgboost.predict-ntree-limit",
        library="xgboost",
        changed_in="2.0",
        summary="`predict(X, ntree_limit=n)` -> `predict(X, iteration_range=(0, n))` on XGBoost "
        "models and boosters built in the cell",
        kind=Kind.API,
        rewrite=ntree_limit(any_receiver=False),
        symptoms=(
            Symptom(
                "TypeError",
                r"(XGB\w*|Booster)\.predict(_proba)?\(\) got an unexpected keyword argument "
                r"'ntree_limit'",
            ),
        ),
        gone=all_of(
            no_parameter("xgboost.XGBModel.predict", "ntree_limit"),
            no_parameter("xgboost.Booster.predict", "ntree_limit"),
        ),
        examples=(
            Example(
                before=(
                    DATA + "import xgboost as xgb\n"
                    f"model = xgb.XGBClassifier(n_estimators=20, learning_rate=0.3, {SETTINGS}).fit(X, y)\n"
                    "first5 = model.predict_proba(X, ntree_limit=5)\n"
                    f"booster = xgb.train({BOOSTER_SETTINGS}, xgb.DMatrix(X, label=y), 20)\n"
                    "margin = booster.predict(xgb.DMatrix(X), ntree_limit=5, output_margin=True)\n"
                    "every = booster.predict(xgb.DMatrix(X), ntree_limit=0)\n"
                ),
                after=(
                    DATA + "import xgboost as xgb\n"
                    f"model = xgb.XGBClassifier(n_estimators=20, learning_rate=0.3, {SETTINGS}).fit(X, y)\n"
                    "first5 = model.predict_proba(X, iteration_range=(0, 5))\n"
                    f"booster = xgb.train({BOOSTER_SETTINGS}, xgb.DMatrix(X, label=y), 20)\n"
                    "margin = booster.predict(xgb.DMatrix(X), iteration_range=(0, 5), "
                    "output_margin=True)\n"
                    "every = booster.predict(xgb.DMatrix(X), iteration_range=(0, 0))\n"
                ),
                error="TypeError",
                # the first 5 trees: what a 5-tree model predicts
                check=(
                    f"np.allclose(first5, xgb.XGBClassifier(n_estimators=5, learning_rate=0.3, {SETTINGS})"
                    ".fit(X, y).predict_proba(X)) and np.allclose(margin, "
                    f"xgb.train({BOOSTER_SETTINGS}, xgb.DMatrix(X, label=y), 5)"
                    ".predict(xgb.DMatrix(X), output_margin=True)) "
                    "and np.allclose(every, booster.predict(xgb.DMatrix(X)))"
                ),
            ),
        ),
    ),
    Rule(
        id="xgboost.best-ntree-limit",
        library="xgboost",
        changed_in="2.0",
        summary="`model.best_ntree_limit` -> `model.best_iteration + 1`; as a prediction's "
        "tree limit `... if hasattr(model, 'best_iteration') else 0` (every tree when the "
        "model did not stop early, as `best_ntree_limit` was)",
        kind=Kind.API,
        rewrite=cst_rewrite(BestNtreeLimit, ("best_ntree_limit",)),
        symptoms=(Symptom("AttributeError", r"object has no attribute 'best_ntree_limit'"),),
        gone=all_of(
            lacks_attribute("xgboost.XGBModel", "best_ntree_limit"),
            lacks_attribute("xgboost.Booster", "best_ntree_limit"),
        ),
        examples=(
            Example(
                before=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.XGBClassifier(n_estimators=100, learning_rate=0.5, "
                    "early_stopping_rounds=3)\n"
                    f"model.fit(X[:200], y[:200], {SPLIT}, verbose=False)\n"
                    "trees = model.best_ntree_limit\n"
                    "span = (0, model.best_ntree_limit)\n"
                    "double = 2 * model.best_ntree_limit\n"
                ),
                after=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.XGBClassifier(n_estimators=100, learning_rate=0.5, "
                    "early_stopping_rounds=3)\n"
                    f"model.fit(X[:200], y[:200], {SPLIT}, verbose=False)\n"
                    "trees = model.best_iteration + 1\n"
                    "span = (0, model.best_iteration + 1)\n"
                    "double = 2 * (model.best_iteration + 1)\n"
                ),
                error="AttributeError",
                # the trees up to the best round: all but the 3 rounds of patience
                check=(
                    "trees == model.get_booster().num_boosted_rounds() - 3 "
                    "and span == (0, trees) and double == 2 * trees"
                ),
            ),
            Example(  # no early stopping: best_ntree_limit was every tree (a real notebook)
                before=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.train({'max_depth': 2}, xgb.DMatrix(X, label=y), 20)\n"
                    "probs = model.predict(xgb.DMatrix(X), iteration_range=(0, model.best_ntree_limit))\n"
                ),
                after=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.train({'max_depth': 2}, xgb.DMatrix(X, label=y), 20)\n"
                    "probs = model.predict(xgb.DMatrix(X), iteration_range=(0, "
                    "model.best_iteration + 1 if hasattr(model, 'best_iteration') else 0))\n"
                ),
                error="AttributeError",
                check="np.allclose(probs, model.predict(xgb.DMatrix(X)))",
            ),
        ),
    ),
)

# after the other XGBoost rules (catalog order)
REACTIVE = (
    Rule(
        id="xgboost.fit-predict-any-receiver",
        library="xgboost",
        changed_in="2.0",
        summary="reactive: the same two fixes for a model the cell did not build "
        "(`model.set_params(early_stopping_rounds=...).fit(...)`, `iteration_range`)",
        kind=Kind.API,
        rewrite=chain(fit_keywords(any_receiver=True), ntree_limit(any_receiver=True)),
        symptoms=(
            Symptom(
                "TypeError",
                r"XGB\w*\.fit\(\) got an unexpected keyword argument "
                r"'(early_stopping_rounds|eval_metric|callbacks)'",
            ),
            Symptom(
                "TypeError",
                r"(XGB\w*|Booster)\.predict(_proba)?\(\) got an unexpected keyword argument "
                r"'ntree_limit'",
            ),
        ),
        examples=(
            Example(
                before=(
                    DATA + "import xgboost as xgb\n"
                    "models = {'xgb': xgb.XGBClassifier(n_estimators=100, learning_rate=0.5, "
                    f"{SETTINGS})}}\n"
                    "model = models['xgb']\n"
                    f"model.fit(X[:200], y[:200], {SPLIT}, early_stopping_rounds=3, verbose=False)\n"
                    "proba = model.predict_proba(X, ntree_limit=4)\n"
                ),
                after=(
                    DATA + "import xgboost as xgb\n"
                    "models = {'xgb': xgb.XGBClassifier(n_estimators=100, learning_rate=0.5, "
                    f"{SETTINGS})}}\n"
                    "model = models['xgb']\n"
                    f"model.set_params(early_stopping_rounds=3).fit(X[:200], y[:200], {SPLIT}, "
                    "verbose=False)\n"
                    "proba = model.predict_proba(X, iteration_range=(0, 4))\n"
                ),
                error="TypeError",
                check=(
                    "len(model.evals_result()['validation_0']['logloss']) == model.best_iteration + 4"
                    " and np.allclose(proba, xgb.XGBClassifier(n_estimators=4, learning_rate=0.5, "
                    f"{SETTINGS}).fit(X[:200], y[:200]).predict_proba(X))"
                ),
            ),
        ),
    ),
)
