"""scikit-learn drift: removed parameters (`multi_class`, `normalize`, `presort`, `iid`, ...)."""

from __future__ import annotations

import functools
import inspect

import libcst as cst

from nbmodernizer.fixers.rules.arguments import keyword_arg
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import (
    calls_to,
    cst_rewrite,
    drop,
    edit_keywords,
    string_value,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.sklearn_common import DATA, into, no_parameter, trees
from nbmodernizer.fixers.rules.sklearn_cst import add_keywords, only_if
from nbmodernizer.fixers.rules.sklearn_transforms import LinearNormalize, OneVsRestWrapper


@functools.cache
def _default_solver_not_liblinear() -> bool:
    from sklearn.linear_model import LogisticRegression

    default: object = inspect.signature(LogisticRegression).parameters["solver"].default
    return default != "liblinear"


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
        gone=lambda: no_parameter("sklearn.linear_model.LogisticRegression", "multi_class"),
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
            "l1", rewrite=add_keywords(_l1_without_solver, [("solver", "'liblinear'")])
        ),
        symptoms=(
            Symptom("ValueError", r"Solver lbfgs supports only 'l2' or None penalties, got l1"),
        ),
        gone=_default_solver_not_liblinear,
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
        gone=lambda: no_parameter("sklearn.linear_model.LinearRegression", "normalize"),
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
        gone=lambda: no_parameter("sklearn.tree.DecisionTreeClassifier", "min_impurity_split"),
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
        gone=lambda: no_parameter("sklearn.tree.DecisionTreeClassifier", "presort"),
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
        gone=lambda: no_parameter("sklearn.model_selection.GridSearchCV", "iid"),
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
