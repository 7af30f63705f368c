"""scikit-learn drift: removed parameters (`multi_class`, `normalize`, `presort`, `iid`, ...)."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.sklearn.common import DATA, into, trees
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    add_keywords,
    argument,
    callee_is,
    calls_to,
    drop,
    edit_keywords,
    keyword_arg,
    string_value,
    without_keywords,
)
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite, only_if
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer
from nbmodernizer.fixers.rules.toolkit.needles import passes_keyword
from nbmodernizer.fixers.rules.toolkit.nodes import is_constant
from nbmodernizer.fixers.rules.toolkit.probes import no_parameter, rejects

_OVR = "sklearn.multiclass.OneVsRestClassifier"

_LOGISTIC = ("sklearn.linear_model.LogisticRegression", "sklearn.linear_model.LogisticRegressionCV")

_SEARCHES = (
    "sklearn.model_selection.GridSearchCV",
    "sklearn.model_selection.RandomizedSearchCV",
    "sklearn.model_selection.HalvingGridSearchCV",
    "sklearn.model_selection.HalvingRandomSearchCV",
)


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
            estimator = argument(node, 0, "estimator")
            grid = argument(node, 1, "param_grid", "param_distributions")
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
        dropped = without_keywords(updated, ["multi_class"])
        wrap = value in ("ovr", "warn") or (value == "auto" and solver == "liblinear")
        return wrap, dropped

    def _leave_search(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        estimator = argument(original, 0, "estimator")
        grid = argument(updated, 1, "param_grid", "param_distributions")
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
            return without_keywords(updated_node, ["normalize"])
        return updated_node


ALL_TREES = (*trees("Classifier"), *trees("Regressor"))

_LINEAR_NORMALIZED = tuple(
    into(
        "sklearn.linear_model",
        "LinearRegression Ridge RidgeCV RidgeClassifier RidgeClassifierCV Lasso LassoCV "
        "ElasticNet ElasticNetCV MultiTaskLasso MultiTaskLassoCV MultiTaskElasticNet "
        "MultiTaskElasticNetCV Lars LarsCV LassoLars LassoLarsCV LassoLarsIC "
        "OrthogonalMatchingPursuit OrthogonalMatchingPursuitCV BayesianRidge ARDRegression",
    )
)


def _drop_if_none(arg: cst.Arg) -> cst.Arg | None:
    return None if isinstance(arg.value, cst.Name) and arg.value.value == "None" else arg


def _l1_without_solver(call: cst.Call, context: RuleContext) -> bool:
    penalty = keyword_arg(call, "penalty")
    return (
        calls_to("sklearn.linear_model.LogisticRegression")(call, context)
        and penalty is not None
        and string_value(penalty) == "l1"
        and keyword_arg(call, "solver") is None
    )


RULES = (
    Rule(
        id="sklearn.logistic-multi-class",
        library="scikit-learn",
        changed_in="1.8",
        summary=(
            "`LogisticRegression(multi_class='ovr')` -> `OneVsRestClassifier(LogisticRegression"
            "(...))` (import added); `multi_class='multinomial'` / `'auto'` dropped (today's "
            "behaviour; 'auto' with liblinear meant one-vs-rest)"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "multi_class",
            rewrite=cst_rewrite(lambda context: OneVsRestWrapper(context, "multi_class")),
        ),
        symptoms=(
            Symptom(
                "TypeError",
                r"LogisticRegression(CV)?\.__init__\(\) got an unexpected keyword argument "
                r"'multi_class'",
            ),
        ),
        gone=no_parameter("sklearn.linear_model.LogisticRegression", "multi_class"),
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "from sklearn.datasets import make_blobs\n"
                    "X, y = make_blobs(n_samples=60, centers=3, random_state=0)\n"
                    "\n"
                    "def make_model(C=1.0):\n"
                    "    return LogisticRegression(C=C, solver='liblinear', multi_class='ovr', random_state=42)\n"
                    "\n"
                    "clf = make_model(0.1).fit(X, y)\n"
                    "soft = LogisticRegression(multi_class='multinomial', max_iter=500).fit(X, y)\n"
                ),
                after=(
                    "import numpy as np\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "from sklearn.datasets import make_blobs\n"
                    "from sklearn.multiclass import OneVsRestClassifier\n"
                    "X, y = make_blobs(n_samples=60, centers=3, random_state=0)\n"
                    "\n"
                    "def make_model(C=1.0):\n"
                    "    return OneVsRestClassifier(LogisticRegression(C=C, solver='liblinear', random_state=42))\n"
                    "\n"
                    "clf = make_model(0.1).fit(X, y)\n"
                    "soft = LogisticRegression(max_iter=500).fit(X, y)\n"
                ),
                error="TypeError",
                check=(
                    # one binary liblinear model per class, the most confident one wins
                    "(clf.predict(X) == np.array([LogisticRegression(C=0.1, solver='liblinear',"
                    " random_state=42).fit(X, y == k).decision_function(X) for k in range(3)])"
                    ".argmax(0)).all()"
                    # multinomial: probabilities are the softmax of the decision function
                    " and np.allclose(soft.predict_proba(X), np.exp(soft.decision_function(X))"
                    " / np.exp(soft.decision_function(X)).sum(1, keepdims=True))"
                ),
            ),
            Example(
                before=(
                    "import numpy as np\n"
                    "from sklearn.datasets import make_blobs\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "from sklearn.model_selection import GridSearchCV\n"
                    "X, y = make_blobs(n_samples=60, centers=3, random_state=0)\n"
                    "model = LogisticRegression(solver='liblinear', multi_class='ovr')\n"
                    "search = GridSearchCV(LogisticRegression(solver='liblinear', multi_class='ovr'),"
                    " {'C': [0.01, 1.0]}, cv=3).fit(X, y)\n"
                ),
                after=(
                    "import numpy as np\n"
                    "from sklearn.datasets import make_blobs\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "from sklearn.model_selection import GridSearchCV\n"
                    "from sklearn.multiclass import OneVsRestClassifier\n"
                    "X, y = make_blobs(n_samples=60, centers=3, random_state=0)\n"
                    "model = OneVsRestClassifier(LogisticRegression(solver='liblinear'))\n"
                    "search = GridSearchCV(OneVsRestClassifier(LogisticRegression(solver='liblinear')),"
                    " {'estimator__C': [0.01, 1.0]}, cv=3).fit(X, y)\n"
                ),
                error="TypeError",
                check=(
                    "(search.predict(X) == np.array([LogisticRegression(C=search.best_params_"
                    "['estimator__C'], solver='liblinear').fit(X, y == k).decision_function(X)"
                    " for k in range(3)]).argmax(0)).all()"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.logistic-liblinear-multiclass",
        library="scikit-learn",
        changed_in="1.8",
        summary=(
            "`LogisticRegression(solver='liblinear')` on 3+ classes (then one-vs-rest) -> "
            "`OneVsRestClassifier(LogisticRegression(solver='liblinear'))`; reactive only"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "liblinear", rewrite=cst_rewrite(lambda context: OneVsRestWrapper(context, "liblinear"))
        ),
        symptoms=(
            Symptom(
                "ValueError",
                r"The 'liblinear' solver does not support multiclass classification",
            ),
        ),
        gone=None,
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "from sklearn.datasets import make_blobs\n"
                    "X, y = make_blobs(n_samples=60, centers=3, random_state=1)\n"
                    "clf = LogisticRegression(solver='liblinear').fit(X, y)\n"
                ),
                after=(
                    "import numpy as np\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "from sklearn.datasets import make_blobs\n"
                    "from sklearn.multiclass import OneVsRestClassifier\n"
                    "X, y = make_blobs(n_samples=60, centers=3, random_state=1)\n"
                    "clf = OneVsRestClassifier(LogisticRegression(solver='liblinear')).fit(X, y)\n"
                ),
                error="ValueError",
                check=(
                    "(clf.predict(X) == np.array([LogisticRegression(solver='liblinear')"
                    ".fit(X, y == k).decision_function(X) for k in range(3)]).argmax(0)).all()"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.logistic-l1-default-solver",
        library="scikit-learn",
        changed_in="0.22",
        summary=(
            "`LogisticRegression(penalty='l1')` without a solver -> `solver='liblinear'` (the "
            "default then; lbfgs cannot do L1)"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "l1",
            rewrite=add_keywords(_l1_without_solver, [("solver", "'liblinear'")]),
            trigger=passes_keyword(("penalty",), ("sklearn.linear_model.LogisticRegression",)),
        ),
        symptoms=(
            Symptom("ValueError", r"Solver lbfgs supports only 'l2' or None penalties, got l1"),
        ),
        gone=rejects(
            "import inspect\n"
            "from sklearn.linear_model import LogisticRegression\n"
            "if inspect.signature(LogisticRegression).parameters['solver'].default != 'liblinear':\n"
            "    raise ValueError('the default solver is not liblinear')"
        ),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.linear_model import LogisticRegression\n"
                    "sparse = LogisticRegression(penalty='l1', C=0.5).fit(X, y)\n"
                    "sparser = LogisticRegression(C=0.1, penalty='l1').fit(X, y)\n"
                ),
                after=DATA
                + (
                    "from sklearn.linear_model import LogisticRegression\n"
                    "sparse = LogisticRegression(penalty='l1', C=0.5, solver='liblinear').fit(X, y)\n"
                    "sparser = LogisticRegression(C=0.1, penalty='l1', solver='liblinear').fit(X, y)\n"
                ),
                error="ValueError",
                check=(
                    "np.allclose(sparse.coef_, LogisticRegression(penalty='l1', C=0.5,"
                    " solver='liblinear').fit(X, y).coef_) and (sparser.coef_ == 0).any()"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.linear-model-normalize",
        library="scikit-learn",
        changed_in="1.2",
        summary=(
            "linear models' `normalize=False` dropped; `normalize=True` dropped only where it "
            "changed nothing (LinearRegression: least squares does not depend on column scale; "
            "any model with `fit_intercept=False`: it was ignored). Penalized models with "
            "`normalize=True` are left for a person: the equivalent penalty depends on n_samples"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "normalize",
            rewrite=cst_rewrite(lambda context: LinearNormalize(context, _LINEAR_NORMALIZED)),
        ),
        symptoms=(
            Symptom(
                "TypeError", r"\w+\.__init__\(\) got an unexpected keyword argument 'normalize'"
            ),
        ),
        gone=no_parameter("sklearn.linear_model.LinearRegression", "normalize"),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.linear_model import LinearRegression, Ridge, Lasso\n"
                    "target = X @ [1.0, -2.0, 0.5, 3.0] + 0.3\n"
                    "ols = LinearRegression(normalize=True).fit(X, target)\n"
                    "ridge = Ridge(alpha=0.5, normalize=False).fit(X, y)\n"
                    "lasso = Lasso(alpha=0.01, fit_intercept=False, normalize=True).fit(X, y)\n"
                ),
                after=DATA
                + (
                    "from sklearn.linear_model import LinearRegression, Ridge, Lasso\n"
                    "target = X @ [1.0, -2.0, 0.5, 3.0] + 0.3\n"
                    "ols = LinearRegression().fit(X, target)\n"
                    "ridge = Ridge(alpha=0.5).fit(X, y)\n"
                    "lasso = Lasso(alpha=0.01, fit_intercept=False).fit(X, y)\n"
                ),
                error="TypeError",
                check=(
                    "np.allclose(ols.coef_, [1.0, -2.0, 0.5, 3.0]) and np.isclose(ols.intercept_, 0.3)"
                    " and np.allclose(ridge.coef_, np.linalg.solve((X - X.mean(0)).T @ (X - X.mean(0))"
                    " + 0.5 * np.eye(4), (X - X.mean(0)).T @ (y - y.mean())))"
                    " and lasso.intercept_ == 0.0"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.min-impurity-split",
        library="scikit-learn",
        changed_in="1.0",
        summary=(
            "trees' `min_impurity_split=None` (the default) dropped; other values are left for a "
            "person (`min_impurity_decrease` is a different criterion)"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "min_impurity_split",
            rewrite=edit_keywords(calls_to(*ALL_TREES), {"min_impurity_split": _drop_if_none}),
        ),
        symptoms=(
            Symptom(
                "TypeError",
                r"\w+\.__init__\(\) got an unexpected keyword argument 'min_impurity_split'",
            ),
        ),
        gone=no_parameter("sklearn.tree.DecisionTreeClassifier", "min_impurity_split"),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "from sklearn.ensemble import RandomForestClassifier\n"
                    "tree = DecisionTreeClassifier(max_depth=2, min_impurity_split=None).fit(X, y)\n"
                    "forest = RandomForestClassifier(n_estimators=2, min_impurity_split=None, random_state=0).fit(X, y)\n"
                ),
                after=DATA
                + (
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "from sklearn.ensemble import RandomForestClassifier\n"
                    "tree = DecisionTreeClassifier(max_depth=2).fit(X, y)\n"
                    "forest = RandomForestClassifier(n_estimators=2, random_state=0).fit(X, y)\n"
                ),
                error="TypeError",
                check="tree.get_depth() == 2 and len(forest.estimators_) == 2",
            ),
        ),
    ),
    Rule(
        id="sklearn.presort",
        library="scikit-learn",
        changed_in="0.24",
        summary="trees' and gradient boosting's `presort=` dropped (it only changed the speed)",
        kind=Kind.API,
        rewrite=only_if(
            "presort", rewrite=edit_keywords(calls_to(*ALL_TREES), {"presort": drop()})
        ),
        symptoms=(
            Symptom("TypeError", r"\w+\.__init__\(\) got an unexpected keyword argument 'presort'"),
        ),
        gone=no_parameter("sklearn.tree.DecisionTreeClassifier", "presort"),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "from sklearn.ensemble import GradientBoostingClassifier\n"
                    "tree = DecisionTreeClassifier(presort=True, random_state=0).fit(X, y)\n"
                    "boost = GradientBoostingClassifier(n_estimators=3, presort='auto').fit(X, y)\n"
                ),
                after=DATA
                + (
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "from sklearn.ensemble import GradientBoostingClassifier\n"
                    "tree = DecisionTreeClassifier(random_state=0).fit(X, y)\n"
                    "boost = GradientBoostingClassifier(n_estimators=3).fit(X, y)\n"
                ),
                error="TypeError",
                check="tree.score(X, y) == 1.0 and len(boost.estimators_) == 3",
            ),
        ),
    ),
    Rule(
        id="sklearn.search-iid",
        library="scikit-learn",
        changed_in="0.24",
        summary=(
            "`GridSearchCV(iid=...)` / `RandomizedSearchCV(iid=...)` dropped: scores are now the "
            "plain mean over folds (`iid=False`; with `iid=True` folds were weighted by size, "
            "which differ by at most one sample)"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "iid",
            rewrite=edit_keywords(
                calls_to(
                    "sklearn.model_selection.GridSearchCV",
                    "sklearn.model_selection.RandomizedSearchCV",
                ),
                {"iid": drop()},
            ),
        ),
        symptoms=(
            Symptom(
                "TypeError",
                r"(GridSearchCV|RandomizedSearchCV)\.__init__\(\) got an unexpected keyword argument 'iid'",
            ),
        ),
        gone=no_parameter("sklearn.model_selection.GridSearchCV", "iid"),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.model_selection import GridSearchCV, RandomizedSearchCV\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "grid = GridSearchCV(DecisionTreeClassifier(random_state=0), {'max_depth': [1, 2]}, cv=3, iid=False).fit(X, y)\n"
                    "rand = RandomizedSearchCV(DecisionTreeClassifier(random_state=0), {'max_depth': [1, 2]}, n_iter=2, cv=3, iid=False).fit(X, y)\n"
                ),
                after=DATA
                + (
                    "from sklearn.model_selection import GridSearchCV, RandomizedSearchCV\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "grid = GridSearchCV(DecisionTreeClassifier(random_state=0), {'max_depth': [1, 2]}, cv=3).fit(X, y)\n"
                    "rand = RandomizedSearchCV(DecisionTreeClassifier(random_state=0), {'max_depth': [1, 2]}, n_iter=2, cv=3).fit(X, y)\n"
                ),
                error="TypeError",
                check=(
                    "np.isclose(grid.best_score_, np.mean([grid.cv_results_[f'split{i}_test_score']"
                    "[grid.best_index_] for i in range(3)])) and rand.best_score_ == grid.best_score_"
                ),
            ),
        ),
    ),
)
