"""scikit-learn silent drift: legacy defaults restored for score calibration."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.sklearn.common import DATA, SGD, forests
from nbmodernizer.fixers.rules.model import Example, Kind, Rule
from nbmodernizer.fixers.rules.toolkit.calls import (
    add_keywords,
    calls_to,
    keyword_arg,
    string_value,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain

CALIBRATION = frozenset({"score-calibration"})


# ---------------------------------------------------------------------------- call matchers


def _calls_without(names: tuple[str, ...], *absent: str) -> Callable[[cst.Call, RuleContext], bool]:
    """Calls to `names` that pass none of the keywords `absent`."""
    applies = calls_to(*names)
    return lambda call, context: (
        applies(call, context) and all(keyword_arg(call, name) is None for name in absent)
    )


_CV_USERS = {  # function -> how many positional parameters it takes today
    "sklearn.model_selection.cross_val_score": 3,
    "sklearn.model_selection.cross_val_predict": 3,
    "sklearn.model_selection.cross_validate": 3,
    "sklearn.model_selection.learning_curve": 3,
    "sklearn.model_selection.validation_curve": 3,
    "sklearn.model_selection.permutation_test_score": 3,
    "sklearn.model_selection.GridSearchCV": 2,
    "sklearn.model_selection.RandomizedSearchCV": 2,
}


def _not_linear_kernel(call: cst.Call, context: RuleContext) -> bool:
    kernel = keyword_arg(call, "kernel")
    return kernel is None or string_value(kernel) != "linear"


RULES = (
    Rule(
        id="sklearn.forest-n-estimators-10",
        library="scikit-learn",
        changed_in="0.22",
        summary=(
            "random/extra-trees forests without `n_estimators` had 10 trees (100 today): "
            "`n_estimators=10` spelled out when the target score calls for it"
        ),
        kind=Kind.SILENT,
        rewrite=add_keywords(
            calls_to(*forests("Classifier"), *forests("Regressor")),
            [("n_estimators", "10")],
            position=0,
        ),
        gone=None,
        tags=CALIBRATION,
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.ensemble import RandomForestClassifier, ExtraTreesRegressor\n"
                    "clf = RandomForestClassifier(random_state=0).fit(X, y)\n"
                    "reg = ExtraTreesRegressor(max_depth=2).fit(X, X[:, 0])\n"
                ),
                after=DATA
                + (
                    "from sklearn.ensemble import RandomForestClassifier, ExtraTreesRegressor\n"
                    "clf = RandomForestClassifier(random_state=0, n_estimators=10).fit(X, y)\n"
                    "reg = ExtraTreesRegressor(max_depth=2, n_estimators=10).fit(X, X[:, 0])\n"
                ),
                check="len(clf.estimators_) == 10 and len(reg.estimators_) == 10",
            ),
        ),
    ),
    Rule(
        id="sklearn.logistic-liblinear-default",
        library="scikit-learn",
        changed_in="0.22",
        summary=(
            "`LogisticRegression()` without a solver used liblinear (lbfgs today, which does not "
            "penalize the intercept): `solver='liblinear'` spelled out when the target score "
            "calls for it"
        ),
        kind=Kind.SILENT,
        rewrite=add_keywords(
            _calls_without(("sklearn.linear_model.LogisticRegression",), "solver"),
            [("solver", "'liblinear'")],
        ),
        gone=None,
        tags=CALIBRATION,
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.linear_model import LogisticRegression\n"
                    "clf = LogisticRegression(C=0.5).fit(X, y)\n"
                    "default = LogisticRegression().fit(X, y)\n"
                ),
                after=DATA
                + (
                    "from sklearn.linear_model import LogisticRegression\n"
                    "clf = LogisticRegression(C=0.5, solver='liblinear').fit(X, y)\n"
                    "default = LogisticRegression(solver='liblinear').fit(X, y)\n"
                ),
                check=(
                    "np.allclose(clf.coef_, LogisticRegression(C=0.5, solver='liblinear')"
                    ".fit(X, y).coef_) and np.allclose(default.intercept_,"
                    " LogisticRegression(solver='liblinear').fit(X, y).intercept_)"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.kmeans-n-init-10",
        library="scikit-learn",
        changed_in="1.4",
        summary=(
            "`KMeans()` without `n_init` ran 10 initializations (1 today, 'auto'); "
            "`MiniBatchKMeans` 3: spelled out when the target score calls for it"
        ),
        kind=Kind.SILENT,
        rewrite=chain(
            add_keywords(calls_to("sklearn.cluster.KMeans"), [("n_init", "10")]),
            add_keywords(calls_to("sklearn.cluster.MiniBatchKMeans"), [("n_init", "3")]),
        ),
        gone=None,
        tags=CALIBRATION,
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "from sklearn.cluster import KMeans\n"
                    "points = np.random.RandomState(1).rand(60, 2)\n"
                    "km = KMeans(8, random_state=0).fit(points)\n"
                    "labels = KMeans(n_clusters=8, random_state=3).fit_predict(points)\n"
                ),
                after=(
                    "import numpy as np\n"
                    "from sklearn.cluster import KMeans\n"
                    "points = np.random.RandomState(1).rand(60, 2)\n"
                    "km = KMeans(8, random_state=0, n_init=10).fit(points)\n"
                    "labels = KMeans(n_clusters=8, random_state=3, n_init=10).fit_predict(points)\n"
                ),
                check=(
                    "km.n_init == 10 and np.isclose(km.inertia_,"
                    " KMeans(8, n_init=10, random_state=0).fit(points).inertia_)"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.svm-gamma-auto",
        library="scikit-learn",
        changed_in="0.22",
        summary=(
            "kernel SVMs without `gamma` used `'auto'` (1 / n_features; `'scale'` today): "
            "spelled out when the target score calls for it"
        ),
        kind=Kind.SILENT,
        rewrite=add_keywords(
            lambda call, context: (
                calls_to(
                    "sklearn.svm.SVC",
                    "sklearn.svm.SVR",
                    "sklearn.svm.NuSVC",
                    "sklearn.svm.NuSVR",
                    "sklearn.svm.OneClassSVM",
                )(call, context)
                and _not_linear_kernel(call, context)
            ),
            [("gamma", "'auto'")],
            position=0,
        ),
        gone=None,
        tags=CALIBRATION,
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.svm import SVC, SVR\n"
                    "X = X * 3\n"
                    "clf = SVC(C=10).fit(X, y)\n"
                    "reg = SVR().fit(X, X[:, 0])\n"
                    "linear = SVC(kernel='linear').fit(X, y)\n"
                ),
                after=DATA
                + (
                    "from sklearn.svm import SVC, SVR\n"
                    "X = X * 3\n"
                    "clf = SVC(C=10, gamma='auto').fit(X, y)\n"
                    "reg = SVR(gamma='auto').fit(X, X[:, 0])\n"
                    "linear = SVC(kernel='linear').fit(X, y)\n"
                ),
                check=(
                    "np.allclose(clf.decision_function(X), SVC(C=10, gamma=1 / 4).fit(X, y)"
                    ".decision_function(X)) and np.allclose(reg.predict(X), SVR(gamma=0.25)"
                    ".fit(X, X[:, 0]).predict(X))"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.cv-default-3-folds",
        library="scikit-learn",
        changed_in="0.22",
        summary=(
            "cross-validation helpers and searches without `cv` used 3 folds (5 today): `cv=3` "
            "spelled out when the target score calls for it"
        ),
        kind=Kind.SILENT,
        rewrite=chain(
            *(
                add_keywords(calls_to(name), [("cv", "3")], position=count)
                for name, count in _CV_USERS.items()
            )
        ),
        gone=None,
        tags=CALIBRATION,
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.model_selection import GridSearchCV, cross_val_score\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "scores = cross_val_score(DecisionTreeClassifier(max_depth=1), X, y)\n"
                    "search = GridSearchCV(DecisionTreeClassifier(), {'max_depth': [1, 2]}).fit(X, y)\n"
                ),
                after=DATA
                + (
                    "from sklearn.model_selection import GridSearchCV, cross_val_score\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "scores = cross_val_score(DecisionTreeClassifier(max_depth=1), X, y, cv=3)\n"
                    "search = GridSearchCV(DecisionTreeClassifier(), {'max_depth': [1, 2]}, cv=3).fit(X, y)\n"
                ),
                check="len(scores) == 3 and search.n_splits_ == 3",
            ),
        ),
    ),
    Rule(
        id="sklearn.sgd-default-epochs",
        library="scikit-learn",
        changed_in="0.21",
        summary=(
            "SGD/Perceptron/PassiveAggressive without `max_iter`/`n_iter`/`tol` ran exactly 5 "
            "epochs (up to 1000 with early stop today): `max_iter=5, tol=None` spelled out when "
            "the target score calls for it"
        ),
        kind=Kind.SILENT,
        rewrite=add_keywords(
            _calls_without(SGD, "max_iter", "n_iter", "tol"), [("max_iter", "5"), ("tol", "None")]
        ),
        gone=None,
        tags=CALIBRATION,
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.linear_model import SGDClassifier, Perceptron\n"
                    "clf = SGDClassifier(random_state=0).fit(X, y)\n"
                    "perceptron = Perceptron().fit(X, y)\n"
                ),
                after=DATA
                + (
                    "from sklearn.linear_model import SGDClassifier, Perceptron\n"
                    "clf = SGDClassifier(random_state=0, max_iter=5, tol=None).fit(X, y)\n"
                    "perceptron = Perceptron(max_iter=5, tol=None).fit(X, y)\n"
                ),
                check="clf.n_iter_ == 5 and perceptron.n_iter_ == 5",
            ),
        ),
    ),
)
