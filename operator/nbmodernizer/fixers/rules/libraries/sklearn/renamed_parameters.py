"""scikit-learn drift: renamed parameters and methods, and arguments now rejected."""

from __future__ import annotations

import ast
from typing import ClassVar

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.sklearn.common import DATA
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    callee_is,
    calls_to,
    drop,
    edit_keywords,
    keyword_arg,
    map_value,
    method_name,
    rename_to,
    with_args,
    without_keywords,
)
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite, only_if
from nbmodernizer.fixers.rules.toolkit.needles import has_string, passes_keyword
from nbmodernizer.fixers.rules.toolkit.nodes import expression, is_constant
from nbmodernizer.fixers.rules.toolkit.probes import lacks_attribute, no_parameter, rejects


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


_LEGACY_SCORERS = {
    "mean_squared_error": "'neg_mean_squared_error'",
    "mean_absolute_error": "'neg_mean_absolute_error'",
    "median_absolute_error": "'neg_median_absolute_error'",
    "log_loss": "'neg_log_loss'",
    "brier_score_loss": "'neg_brier_score'",
}


class _ScorerNames(cst.CSTTransformer):
    """`scoring='mean_squared_error'` (a negated score) -> `scoring='neg_mean_squared_error'`."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context
        self.edit = map_value(_LEGACY_SCORERS, keep_quotes=True)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        args = []
        for n, arg in enumerate(updated_node.args):
            name = arg.keyword.value if arg.keyword else None
            by_name = name == "scoring"
            first_of_get_scorer = (
                n == 0
                and name is None
                and calls_to("sklearn.metrics.get_scorer")(original_node, self.context)
            )
            args.append(self.edit(arg) if by_name or first_of_get_scorer else arg)
        if all(a is b for a, b in zip(args, updated_node.args, strict=True)):
            return updated_node
        return updated_node.with_changes(args=args)


_SHUFFLING_SPLITTERS = ("sklearn.model_selection.KFold", "sklearn.model_selection.StratifiedKFold")


def _shuffle_off(call: ast.Call) -> bool:
    """The trigger's side of `_RandomStateWithoutShuffle`: no `shuffle=`, or a literal False."""
    shuffle = next((k.value for k in call.keywords if k.arg == "shuffle"), None)
    return shuffle is None or (isinstance(shuffle, ast.Constant) and shuffle.value is False)


class _RandomStateWithoutShuffle(cst.CSTTransformer):
    """`KFold(n_splits=k, random_state=r)` without `shuffle=True`: `random_state` dropped."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context
        self.applies = calls_to(*_SHUFFLING_SPLITTERS)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self.applies(original_node, self.context):
            return updated_node
        shuffle = keyword_arg(updated_node, "shuffle")
        if shuffle is None or is_constant(shuffle, "False"):
            return without_keywords(updated_node, ["random_state"])
        return updated_node


RULES = (
    Rule(
        id="sklearn.fit-params-renamed",
        library="scikit-learn",
        changed_in="1.6",
        summary=(
            "`cross_val_score(..., fit_params=...)` (and cross_validate, cross_val_predict, "
            "learning_curve, validation_curve, permutation_test_score) -> `params=`"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "fit_params",
            rewrite=edit_keywords(
                calls_to(
                    "sklearn.model_selection.cross_val_score",
                    "sklearn.model_selection.cross_validate",
                    "sklearn.model_selection.cross_val_predict",
                    "sklearn.model_selection.learning_curve",
                    "sklearn.model_selection.validation_curve",
                    "sklearn.model_selection.permutation_test_score",
                ),
                {"fit_params": rename_to("params")},
            ),
        ),
        symptoms=(Symptom("TypeError", r"got an unexpected keyword argument 'fit_params'"),),
        gone=no_parameter("sklearn.model_selection.cross_val_score", "fit_params"),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.model_selection import KFold, cross_val_score, cross_val_predict\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "w = np.where(y == 1, 5.0, 1.0)\n"
                    "model = DecisionTreeClassifier(max_depth=1, random_state=0)\n"
                    "scores = cross_val_score(model, X, y, cv=KFold(3), fit_params={'sample_weight': w})\n"
                    "predicted = cross_val_predict(model, X, y, cv=KFold(3), fit_params={'sample_weight': w})\n"
                ),
                after=DATA
                + (
                    "from sklearn.model_selection import KFold, cross_val_score, cross_val_predict\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "w = np.where(y == 1, 5.0, 1.0)\n"
                    "model = DecisionTreeClassifier(max_depth=1, random_state=0)\n"
                    "scores = cross_val_score(model, X, y, cv=KFold(3), params={'sample_weight': w})\n"
                    "predicted = cross_val_predict(model, X, y, cv=KFold(3), params={'sample_weight': w})\n"
                ),
                error="TypeError",
                check=(
                    "np.allclose(scores, [DecisionTreeClassifier(max_depth=1, random_state=0)"
                    ".fit(X[tr], y[tr], sample_weight=w[tr]).score(X[te], y[te])"
                    " for tr, te in KFold(3).split(X)]) and len(predicted) == 30"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.base-estimator-renamed",
        library="scikit-learn",
        changed_in="1.4",
        summary=(
            "`base_estimator=` -> `estimator=` in Bagging*, AdaBoost*, CalibratedClassifierCV, "
            "RANSACRegressor"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "base_estimator",
            rewrite=edit_keywords(
                calls_to(
                    "sklearn.ensemble.BaggingClassifier",
                    "sklearn.ensemble.BaggingRegressor",
                    "sklearn.ensemble.AdaBoostClassifier",
                    "sklearn.ensemble.AdaBoostRegressor",
                    "sklearn.calibration.CalibratedClassifierCV",
                    "sklearn.linear_model.RANSACRegressor",
                ),
                {"base_estimator": rename_to("estimator")},
            ),
        ),
        symptoms=(
            Symptom(
                "TypeError",
                r"\w+\.__init__\(\) got an unexpected keyword argument 'base_estimator'",
            ),
        ),
        gone=no_parameter("sklearn.ensemble.BaggingClassifier", "base_estimator"),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.ensemble import AdaBoostClassifier, BaggingClassifier\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "bag = BaggingClassifier(base_estimator=DecisionTreeClassifier(max_depth=1), n_estimators=3).fit(X, y)\n"
                    "ada = AdaBoostClassifier(base_estimator=DecisionTreeClassifier(max_depth=2), n_estimators=3).fit(X, y)\n"
                ),
                after=DATA
                + (
                    "from sklearn.ensemble import AdaBoostClassifier, BaggingClassifier\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "bag = BaggingClassifier(estimator=DecisionTreeClassifier(max_depth=1), n_estimators=3).fit(X, y)\n"
                    "ada = AdaBoostClassifier(estimator=DecisionTreeClassifier(max_depth=2), n_estimators=3).fit(X, y)\n"
                ),
                error="TypeError",
                check="bag.estimators_[0].max_depth == 1 and ada.estimators_[0].max_depth == 2",
            ),
        ),
    ),
    Rule(
        id="sklearn.agglomerative-affinity",
        library="scikit-learn",
        changed_in="1.4",
        summary="`AgglomerativeClustering(affinity=...)` / `FeatureAgglomeration` -> `metric=`",
        kind=Kind.API,
        rewrite=only_if(
            "affinity",
            rewrite=edit_keywords(
                calls_to(
                    "sklearn.cluster.AgglomerativeClustering",
                    "sklearn.cluster.FeatureAgglomeration",
                ),
                {"affinity": rename_to("metric")},
            ),
        ),
        symptoms=(
            Symptom(
                "TypeError",
                r"(AgglomerativeClustering|FeatureAgglomeration)\.__init__\(\) got an unexpected keyword argument 'affinity'",
            ),
        ),
        gone=no_parameter("sklearn.cluster.AgglomerativeClustering", "affinity"),
        examples=(
            Example(
                before=(
                    "from sklearn.cluster import AgglomerativeClustering\n"
                    "points = [[0, 0], [0, 1], [10, 0], [10, 1]]\n"
                    "labels = AgglomerativeClustering(n_clusters=2, affinity='manhattan', linkage='average').fit_predict(points)\n"
                ),
                after=(
                    "from sklearn.cluster import AgglomerativeClustering\n"
                    "points = [[0, 0], [0, 1], [10, 0], [10, 1]]\n"
                    "labels = AgglomerativeClustering(n_clusters=2, metric='manhattan', linkage='average').fit_predict(points)\n"
                ),
                error="TypeError",
                check="labels[0] == labels[1] != labels[2] == labels[3]",
            ),
        ),
    ),
    Rule(
        id="sklearn.tsne-n-iter",
        library="scikit-learn",
        changed_in="1.7",
        summary="`TSNE(n_iter=...)` -> `TSNE(max_iter=...)`",
        kind=Kind.API,
        rewrite=only_if(
            "n_iter",
            rewrite=edit_keywords(
                calls_to("sklearn.manifold.TSNE"), {"n_iter": rename_to("max_iter")}
            ),
        ),
        symptoms=(
            Symptom("TypeError", r"TSNE\.__init__\(\) got an unexpected keyword argument 'n_iter'"),
        ),
        gone=no_parameter("sklearn.manifold.TSNE", "n_iter"),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.manifold import TSNE\n"
                    "tsne = TSNE(n_components=2, perplexity=5, n_iter=300, random_state=0)\n"
                    "embedded = tsne.fit_transform(X)\n"
                    "iterations = tsne.n_iter_\n"
                ),
                after=DATA
                + (
                    "from sklearn.manifold import TSNE\n"
                    "tsne = TSNE(n_components=2, perplexity=5, max_iter=300, random_state=0)\n"
                    "embedded = tsne.fit_transform(X)\n"
                    "iterations = tsne.n_iter_\n"
                ),
                error="TypeError",
                check="embedded.shape == (30, 2) and iterations == 299",
                era_differences={
                    "embedded": "t-SNE's layout is not reproducible across releases: its "
                    "Barnes-Hut optimiser changed between 0.19 and 0.22 (the two eras disagree "
                    "with each other), its defaults in 1.2 (init='pca', learning_rate='auto'), "
                    "and with the old ones spelled out today's exact method still draws "
                    "another layout; the iterations run agree"
                },
            ),
        ),
    ),
    Rule(
        id="sklearn.get-feature-names",
        library="scikit-learn",
        changed_in="1.2",
        summary=(
            "`est.get_feature_names()` (a list) -> `list(est.get_feature_names_out())` (an array "
            "today; `list()` keeps list arithmetic working)"
        ),
        kind=Kind.API,
        rewrite=only_if("get_feature_names(", rewrite=cst_rewrite(FeatureNamesOut)),
        symptoms=(Symptom("AttributeError", r"object has no attribute 'get_feature_names'"),),
        gone=lacks_attribute(
            "sklearn.feature_extraction.text.CountVectorizer", "get_feature_names"
        ),
        examples=(
            Example(
                before=(
                    "from sklearn.feature_extraction.text import CountVectorizer\n"
                    "from sklearn.feature_extraction import DictVectorizer\n"
                    "vec = CountVectorizer().fit(['red apple', 'green apple'])\n"
                    "names = vec.get_feature_names() + ['bias']\n"
                    "keys = list(DictVectorizer().fit([{'b': 1, 'a': 2}]).get_feature_names())\n"
                ),
                after=(
                    "from sklearn.feature_extraction.text import CountVectorizer\n"
                    "from sklearn.feature_extraction import DictVectorizer\n"
                    "vec = CountVectorizer().fit(['red apple', 'green apple'])\n"
                    "names = list(vec.get_feature_names_out()) + ['bias']\n"
                    "keys = list(DictVectorizer().fit([{'b': 1, 'a': 2}]).get_feature_names_out())\n"
                ),
                error="AttributeError",
                check="names == ['apple', 'green', 'red', 'bias'] and keys == ['a', 'b']",
            ),
        ),
    ),
    Rule(
        id="sklearn.kmeans-removed-params",
        library="scikit-learn",
        changed_in="1.1",
        summary=(
            "`KMeans(n_jobs=..., precompute_distances=...)` dropped (speed only); "
            "`algorithm='full'` / `'auto'` -> `'lloyd'` (elkan, which 'auto' picked, finds the "
            "same clusters)"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "n_jobs",
            "precompute_distances",
            "algorithm",
            rewrite=edit_keywords(
                calls_to("sklearn.cluster.KMeans"),
                {
                    "n_jobs": drop(),
                    "precompute_distances": drop(),
                    "algorithm": map_value(
                        {"full": "'lloyd'", "auto": "'lloyd'"}, keep_quotes=True
                    ),
                },
                called=("sklearn.cluster.KMeans",),
            ),
        ),
        symptoms=(
            Symptom(
                "TypeError",
                r"KMeans\.__init__\(\) got an unexpected keyword argument "
                r"'(n_jobs|precompute_distances)'",
            ),
            Symptom(
                "InvalidParameterError",
                r"The 'algorithm' parameter of KMeans must be .* Got '(full|auto)' instead",
            ),
        ),
        gone=no_parameter("sklearn.cluster.KMeans", "n_jobs"),
        examples=(
            Example(
                before=(
                    "from sklearn.cluster import KMeans\n"
                    "points = [[0, 0], [0, 1], [10, 0], [10, 1]]\n"
                    "km = KMeans(n_clusters=2, n_init=10, n_jobs=-1, precompute_distances=True, algorithm='full', random_state=0).fit(points)\n"
                    "km2 = KMeans(n_clusters=2, n_init=10, algorithm='auto', n_jobs=2).fit(points)\n"
                ),
                after=(
                    "from sklearn.cluster import KMeans\n"
                    "points = [[0, 0], [0, 1], [10, 0], [10, 1]]\n"
                    "km = KMeans(n_clusters=2, n_init=10, algorithm='lloyd', random_state=0).fit(points)\n"
                    "km2 = KMeans(n_clusters=2, n_init=10, algorithm='lloyd').fit(points)\n"
                ),
                error="TypeError",
                check="km.inertia_ == 1.0 and km2.inertia_ == 1.0",
            ),
        ),
    ),
    Rule(
        id="sklearn.kfold-random-state-without-shuffle",
        library="scikit-learn",
        changed_in="0.24",
        summary=(
            "`KFold(..., random_state=r)` / `StratifiedKFold` without `shuffle=True`: "
            "`random_state` dropped (it had no effect; it is an error today)"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "random_state",
            rewrite=cst_rewrite(
                _RandomStateWithoutShuffle,
                trigger=passes_keyword(
                    ("random_state",), called=_SHUFFLING_SPLITTERS, where=_shuffle_off
                ),
            ),
        ),
        symptoms=(
            Symptom("ValueError", r"Setting a random_state has no effect since shuffle is False"),
        ),
        gone=rejects(
            "from sklearn.model_selection import KFold\nKFold(n_splits=3, random_state=0)"
        ),
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "from sklearn.model_selection import KFold, StratifiedKFold\n"
                    "y = np.array([0, 1] * 6)\n"
                    "folds = [test.tolist() for _, test in KFold(n_splits=3, random_state=0).split(y)]\n"
                    "skf = StratifiedKFold(n_splits=2, shuffle=False, random_state=42)\n"
                    "strata = [test.tolist() for _, test in skf.split(y, y)]\n"
                ),
                after=(
                    "import numpy as np\n"
                    "from sklearn.model_selection import KFold, StratifiedKFold\n"
                    "y = np.array([0, 1] * 6)\n"
                    "folds = [test.tolist() for _, test in KFold(n_splits=3).split(y)]\n"
                    "skf = StratifiedKFold(n_splits=2, shuffle=False)\n"
                    "strata = [test.tolist() for _, test in skf.split(y, y)]\n"
                ),
                error="ValueError",
                check=(
                    "folds == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]"
                    " and strata == [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]]"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.scoring-names",
        library="scikit-learn",
        changed_in="0.20",
        summary=(
            "`scoring='mean_squared_error'` (already the negated score) -> "
            "`'neg_mean_squared_error'`; likewise mean/median absolute error, log loss, Brier"
        ),
        kind=Kind.API,
        rewrite=only_if(
            *_LEGACY_SCORERS, rewrite=cst_rewrite(_ScorerNames, trigger=has_string(_LEGACY_SCORERS))
        ),
        symptoms=(
            Symptom(
                "InvalidParameterError",
                r"The 'scoring' parameter of \w+ must be .* Got '(mean_squared_error|"
                r"mean_absolute_error|median_absolute_error|log_loss|brier_score_loss)' instead",
            ),
            Symptom(
                "ValueError",
                r"'(mean_squared_error|mean_absolute_error|median_absolute_error|log_loss|"
                r"brier_score_loss)' is not a valid scoring value",
            ),
        ),
        gone=rejects(
            "from sklearn.metrics import get_scorer_names\n"
            "if 'mean_squared_error' not in get_scorer_names():\n"
            "    raise ValueError('no scorer mean_squared_error')"
        ),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.model_selection import KFold, cross_val_score\n"
                    "from sklearn.linear_model import LinearRegression\n"
                    "target = X[:, 0] + rng.rand(30)\n"
                    "mse = cross_val_score(LinearRegression(), X, target, cv=KFold(3), scoring='mean_squared_error')\n"
                    'mae = cross_val_score(LinearRegression(), X, target, cv=KFold(3), scoring="mean_absolute_error")\n'
                ),
                after=DATA
                + (
                    "from sklearn.model_selection import KFold, cross_val_score\n"
                    "from sklearn.linear_model import LinearRegression\n"
                    "target = X[:, 0] + rng.rand(30)\n"
                    "mse = cross_val_score(LinearRegression(), X, target, cv=KFold(3), scoring='neg_mean_squared_error')\n"
                    'mae = cross_val_score(LinearRegression(), X, target, cv=KFold(3), scoring="neg_mean_absolute_error")\n'
                ),
                error="InvalidParameterError",
                check=(
                    # the legacy scorers already returned the negated error
                    "np.allclose(mse, [-np.mean((LinearRegression().fit(X[tr], target[tr])"
                    ".predict(X[te]) - target[te]) ** 2) for tr, te in KFold(3).split(X)])"
                    " and (mae < 0).all()"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.make-scorer-response-method",
        library="scikit-learn",
        changed_in="1.6",
        summary=(
            "`make_scorer(f, needs_proba=True)` -> `response_method='predict_proba'`; "
            "`needs_threshold=True` -> `response_method=('decision_function', 'predict_proba')`"
            " (today the old flag is passed on to `f`, so every score is NaN)"
        ),
        kind=Kind.API,
        rewrite=only_if("needs_proba", "needs_threshold", rewrite=cst_rewrite(ScorerResponse)),
        symptoms=(
            Symptom("TypeError", r"got an unexpected keyword argument 'needs_(proba|threshold)'"),
        ),
        gone=no_parameter("sklearn.metrics.make_scorer", "needs_proba"),
        # LogisticRegression(solver='liblinear'): the default of the eras (until 0.22), so that
        # the proof against the past compares the scorers, not the solvers
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.metrics import make_scorer, roc_auc_score, log_loss\n"
                    "from sklearn.model_selection import KFold, cross_val_score\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "auc = make_scorer(roc_auc_score, needs_threshold=True)\n"
                    "loss = make_scorer(log_loss, greater_is_better=False, needs_proba=True)\n"
                    "scores = cross_val_score(LogisticRegression(solver='liblinear'), X, y, cv=KFold(3), scoring=loss)\n"
                    "aucs = cross_val_score(LogisticRegression(solver='liblinear'), X, y, cv=KFold(3), scoring=auc)\n"
                ),
                after=DATA
                + (
                    "from sklearn.metrics import make_scorer, roc_auc_score, log_loss\n"
                    "from sklearn.model_selection import KFold, cross_val_score\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "auc = make_scorer(roc_auc_score, response_method=('decision_function', 'predict_proba'))\n"
                    "loss = make_scorer(log_loss, greater_is_better=False, response_method='predict_proba')\n"
                    "scores = cross_val_score(LogisticRegression(solver='liblinear'), X, y, cv=KFold(3), scoring=loss)\n"
                    "aucs = cross_val_score(LogisticRegression(solver='liblinear'), X, y, cv=KFold(3), scoring=auc)\n"
                ),
                check=(
                    "np.allclose(scores, [-log_loss(y[te], LogisticRegression(solver='liblinear').fit(X[tr], y[tr])"
                    ".predict_proba(X[te])) for tr, te in KFold(3).split(X)])"
                    " and not np.isnan(aucs).any()"
                ),
            ),
        ),
    ),
)
