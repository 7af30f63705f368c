"""scikit-learn drift: renamed parameter values (loss and criterion names, `'auto'`) and the metrics they named."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.sklearn.common import DATA, SGD, trees
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    callee_is,
    calls_to,
    edit_keywords,
    keyword_arg,
    map_value,
    rename_to,
    set_keyword,
    with_args,
    without_keywords,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite, only_if
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer
from nbmodernizer.fixers.rules.toolkit.needles import passes_keyword
from nbmodernizer.fixers.rules.toolkit.nodes import is_constant, qualified
from nbmodernizer.fixers.rules.toolkit.probes import Probe, no_parameter, rejects

_ROOT_METRICS = {
    "mean_squared_error": "root_mean_squared_error",
    "mean_squared_log_error": "root_mean_squared_log_error",
}


class RootMetrics(ImportingTransformer):
    """`mean_squared_error(a, b, squared=False)` -> `root_mean_squared_error(a, b)`."""

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        name = qualified(original_node.func, self.context.aliases) or ""
        last = name.rpartition(".")[2]
        if last not in _ROOT_METRICS or name != f"sklearn.metrics.{last}":
            return updated_node
        squared = keyword_arg(updated_node, "squared")
        if is_constant(squared, "True"):
            return without_keywords(updated_node, ["squared"])
        if not is_constant(squared, "False"):
            return updated_node
        call = without_keywords(updated_node, ["squared"])
        root = _ROOT_METRICS[last]
        func = call.func
        if isinstance(func, cst.Attribute):
            return call.with_changes(func=func.with_changes(attr=cst.Name(root)))
        return call.with_changes(func=cst.Name(self.local_name(f"sklearn.metrics.{root}")))


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


# max_features='auto' is refused when the forest is fitted
_FOREST_REJECTS_AUTO = rejects(
    "from sklearn.ensemble import RandomForestClassifier\n"
    "model = RandomForestClassifier(n_estimators=1, max_features='auto')\n"
    "model.fit([[0.0], [1.0]], [0, 1])"
)


def _estimator_rejects(
    path: str, parameter: str, value: object, target: str = "regression"
) -> Probe:
    """The estimator at `path` refuses `parameter=value` when it is fitted."""
    module, _, name = path.rpartition(".")
    y = [0.0, 1.0, 2.0, 3.0] if target == "regression" else [0, 1, 0, 1]
    return rejects(
        f"from {module} import {name}\n"
        f"{name}(**{{{parameter!r}: {value!r}}}).fit([[0.0], [1.0], [2.0], [3.0]], {y!r})"
    )


_REGRESSION_TREES = tuple(name for name in trees("Regressor") if "GradientBoosting" not in name)

RULES = (
    Rule(
        id="sklearn.onehotencoder-sparse",
        library="scikit-learn",
        changed_in="1.4",
        summary="`OneHotEncoder(sparse=...)` -> `OneHotEncoder(sparse_output=...)`",
        kind=Kind.API,
        rewrite=only_if(
            "sparse",
            rewrite=edit_keywords(
                calls_to("sklearn.preprocessing.OneHotEncoder"),
                {"sparse": rename_to("sparse_output")},
            ),
        ),
        symptoms=(
            Symptom(
                "TypeError",
                r"OneHotEncoder\.__init__\(\) got an unexpected keyword argument 'sparse'",
            ),
        ),
        gone=no_parameter("sklearn.preprocessing.OneHotEncoder", "sparse"),
        examples=(
            Example(
                before=(
                    "from sklearn.preprocessing import OneHotEncoder\n"
                    "dense = OneHotEncoder(sparse=False).fit_transform([['a'], ['b']])\n"
                    "sparse = OneHotEncoder(handle_unknown='ignore', sparse=True).fit_transform([['a']])\n"
                ),
                after=(
                    "from sklearn.preprocessing import OneHotEncoder\n"
                    "dense = OneHotEncoder(sparse_output=False).fit_transform([['a'], ['b']])\n"
                    "sparse = OneHotEncoder(handle_unknown='ignore', sparse_output=True).fit_transform([['a']])\n"
                ),
                error="TypeError",
                check="dense.tolist() == [[1.0, 0.0], [0.0, 1.0]] and hasattr(sparse, 'toarray')",
            ),
        ),
    ),
    Rule(
        id="sklearn.max-features-auto",
        library="scikit-learn",
        changed_in="1.3",
        summary=(
            "`max_features='auto'` -> `'sqrt'` for tree/forest/boosting classifiers, `1.0` (all "
            "features) for regressors: what 'auto' meant for each"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "auto",
            rewrite=chain(
                edit_keywords(
                    calls_to(*trees("Classifier")),
                    {"max_features": map_value({"auto": "'sqrt'"}, keep_quotes=True)},
                ),
                edit_keywords(
                    calls_to(*trees("Regressor")),
                    {"max_features": map_value({"auto": "1.0"}, keep_quotes=True)},
                ),
            ),
        ),
        symptoms=(
            Symptom(
                "InvalidParameterError",
                r"The 'max_features' parameter of \w+ must be .* Got 'auto' instead",
            ),
        ),
        gone=_FOREST_REJECTS_AUTO,
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor\n"
                    "from sklearn.tree import DecisionTreeRegressor\n"
                    "clf = RandomForestClassifier(n_estimators=3, max_features='auto', random_state=0).fit(X, y)\n"
                    'reg = RandomForestRegressor(n_estimators=3, max_features="auto", random_state=0).fit(X, X[:, 0])\n'
                    "tree = DecisionTreeRegressor(max_features='auto').fit(X, X[:, 0])\n"
                ),
                after=DATA
                + (
                    "from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor\n"
                    "from sklearn.tree import DecisionTreeRegressor\n"
                    "clf = RandomForestClassifier(n_estimators=3, max_features='sqrt', random_state=0).fit(X, y)\n"
                    "reg = RandomForestRegressor(n_estimators=3, max_features=1.0, random_state=0).fit(X, X[:, 0])\n"
                    "tree = DecisionTreeRegressor(max_features=1.0).fit(X, X[:, 0])\n"
                ),
                error="InvalidParameterError",
                check=(
                    "clf.estimators_[0].max_features_ == 2 and reg.estimators_[0].max_features_ == 4"
                    " and tree.max_features_ == 4"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.gradient-boosting-loss-names",
        library="scikit-learn",
        changed_in="1.2",
        summary=(
            "gradient boosting `loss='ls'` / `'lad'` / `'deviance'` -> `'squared_error'` / "
            "`'absolute_error'` / `'log_loss'`; HistGradientBoosting `'least_squares'`, "
            "`'least_absolute_deviation'`, `'binary_crossentropy'`, `'categorical_crossentropy'`, "
            "`'auto'` likewise"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "loss",
            rewrite=chain(
                edit_keywords(
                    calls_to(
                        "sklearn.ensemble.GradientBoostingRegressor",
                        "sklearn.ensemble.HistGradientBoostingRegressor",
                    ),
                    {
                        "loss": map_value(
                            {
                                "ls": "'squared_error'",
                                "lad": "'absolute_error'",
                                "least_squares": "'squared_error'",
                                "least_absolute_deviation": "'absolute_error'",
                            },
                            keep_quotes=True,
                        )
                    },
                ),
                edit_keywords(
                    calls_to("sklearn.ensemble.GradientBoostingClassifier"),
                    {"loss": map_value({"deviance": "'log_loss'"}, keep_quotes=True)},
                ),
                edit_keywords(
                    calls_to("sklearn.ensemble.HistGradientBoostingClassifier"),
                    {
                        "loss": map_value(
                            {
                                "binary_crossentropy": "'log_loss'",
                                "categorical_crossentropy": "'log_loss'",
                                "auto": "'log_loss'",
                            },
                            keep_quotes=True,
                        )
                    },
                ),
            ),
        ),
        symptoms=(
            Symptom(
                "InvalidParameterError",
                r"The 'loss' parameter of (Hist)?GradientBoosting(Regressor|Classifier) must be .* "
                r"Got '(ls|lad|deviance|least_squares|least_absolute_deviation|binary_crossentropy|"
                r"categorical_crossentropy|auto)' instead",
            ),
        ),
        gone=_estimator_rejects("sklearn.ensemble.GradientBoostingRegressor", "loss", "ls"),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.ensemble import GradientBoostingClassifier, GradientBoostingRegressor\n"
                    "ls = GradientBoostingRegressor(loss='ls', n_estimators=5).fit(X, X[:, 0])\n"
                    "lad = GradientBoostingRegressor(loss='lad', n_estimators=5).fit(X, X[:, 0])\n"
                    "clf = GradientBoostingClassifier(loss='deviance', n_estimators=5).fit(X, y)\n"
                ),
                after=DATA
                + (
                    "from sklearn.ensemble import GradientBoostingClassifier, GradientBoostingRegressor\n"
                    "ls = GradientBoostingRegressor(loss='squared_error', n_estimators=5).fit(X, X[:, 0])\n"
                    "lad = GradientBoostingRegressor(loss='absolute_error', n_estimators=5).fit(X, X[:, 0])\n"
                    "clf = GradientBoostingClassifier(loss='log_loss', n_estimators=5).fit(X, y)\n"
                ),
                error="InvalidParameterError",
                check=(
                    # least squares starts from the mean, least absolute deviation from the median
                    "np.isclose(ls.init_.constant_[0, 0], X[:, 0].mean())"
                    " and np.isclose(lad.init_.constant_[0, 0], np.median(X[:, 0]))"
                    " and clf.predict_proba(X).shape == (30, 2)"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.criterion-mse-mae",
        library="scikit-learn",
        changed_in="1.2",
        summary=(
            "regression trees/forests `criterion='mse'` / `'mae'` -> `'squared_error'` / "
            "`'absolute_error'`; gradient boosting `criterion='mse'` -> `'squared_error'` (its "
            "`'mae'` has no successor and is left for a person)"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "criterion",
            rewrite=chain(
                edit_keywords(
                    calls_to(*_REGRESSION_TREES),
                    {
                        "criterion": map_value(
                            {"mse": "'squared_error'", "mae": "'absolute_error'"}, keep_quotes=True
                        )
                    },
                ),
                edit_keywords(
                    calls_to(
                        "sklearn.ensemble.GradientBoostingRegressor",
                        "sklearn.ensemble.GradientBoostingClassifier",
                    ),
                    {"criterion": map_value({"mse": "'squared_error'"}, keep_quotes=True)},
                ),
            ),
        ),
        symptoms=(
            Symptom(
                "InvalidParameterError",
                r"The 'criterion' parameter of \w+ must be .* Got '(mse|mae)' instead",
            ),
        ),
        gone=_estimator_rejects("sklearn.tree.DecisionTreeRegressor", "criterion", "mse"),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.tree import DecisionTreeRegressor\n"
                    "from sklearn.ensemble import GradientBoostingClassifier, RandomForestRegressor\n"
                    "mse = DecisionTreeRegressor(criterion='mse', max_depth=1).fit(X, X[:, 0])\n"
                    "mae = RandomForestRegressor(n_estimators=2, criterion='mae', max_depth=1).fit(X, X[:, 0])\n"
                    "boost = GradientBoostingClassifier(n_estimators=2, criterion='mse').fit(X, y)\n"
                ),
                after=DATA
                + (
                    "from sklearn.tree import DecisionTreeRegressor\n"
                    "from sklearn.ensemble import GradientBoostingClassifier, RandomForestRegressor\n"
                    "mse = DecisionTreeRegressor(criterion='squared_error', max_depth=1).fit(X, X[:, 0])\n"
                    "mae = RandomForestRegressor(n_estimators=2, criterion='absolute_error', max_depth=1).fit(X, X[:, 0])\n"
                    "boost = GradientBoostingClassifier(n_estimators=2, criterion='squared_error').fit(X, y)\n"
                ),
                error="InvalidParameterError",
                check=(
                    # an L2 leaf predicts the mean of its samples
                    "np.allclose(mse.predict(X), [X[mse.apply(X) == leaf, 0].mean()"
                    " for leaf in mse.apply(X)]) and len(mae.estimators_) == 2"
                    " and boost.estimators_.shape == (2, 1)"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.sgd-loss-names",
        library="scikit-learn",
        changed_in="1.3",
        summary="SGD `loss='log'` -> `'log_loss'`, `loss='squared_loss'` -> `'squared_error'`",
        kind=Kind.API,
        rewrite=only_if(
            "loss",
            rewrite=edit_keywords(
                calls_to("sklearn.linear_model.SGDClassifier", "sklearn.linear_model.SGDRegressor"),
                {
                    "loss": map_value(
                        {"log": "'log_loss'", "squared_loss": "'squared_error'"}, keep_quotes=True
                    )
                },
            ),
        ),
        symptoms=(
            Symptom(
                "InvalidParameterError",
                r"The 'loss' parameter of SGD(Classifier|Regressor) must be .* "
                r"Got '(log|squared_loss)' instead",
            ),
        ),
        gone=_estimator_rejects(
            "sklearn.linear_model.SGDClassifier", "loss", "log", target="classification"
        ),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.linear_model import SGDClassifier, SGDRegressor\n"
                    "clf = SGDClassifier(loss='log', random_state=0).fit(X, y)\n"
                    "reg = SGDRegressor(loss='squared_loss', random_state=0).fit(X, X[:, 0])\n"
                ),
                after=DATA
                + (
                    "from sklearn.linear_model import SGDClassifier, SGDRegressor\n"
                    "clf = SGDClassifier(loss='log_loss', random_state=0).fit(X, y)\n"
                    "reg = SGDRegressor(loss='squared_error', random_state=0).fit(X, X[:, 0])\n"
                ),
                error="InvalidParameterError",
                check="clf.predict_proba(X).shape == (30, 2) and reg.score(X, X[:, 0]) > 0",
            ),
        ),
    ),
    Rule(
        id="sklearn.sgd-n-iter",
        library="scikit-learn",
        changed_in="0.21",
        summary=(
            "SGD/Perceptron/PassiveAggressive `n_iter=N` -> `max_iter=N, tol=None` (exactly N "
            "epochs, no early stop: what `n_iter` did)"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(
            lambda context: SgdEpochs(context, SGD),
            ("n_iter",),
            passes_keyword(("n_iter",), called=SGD),  # not TSNE's, RandomizedSearchCV's
        ),
        symptoms=(
            Symptom(
                "TypeError",
                r"(SGDClassifier|SGDRegressor|Perceptron|PassiveAggressiveClassifier|"
                r"PassiveAggressiveRegressor)\.__init__\(\) got an unexpected keyword argument "
                r"'n_iter'",
            ),
        ),
        gone=no_parameter("sklearn.linear_model.SGDClassifier", "n_iter"),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.linear_model import SGDClassifier, Perceptron\n"
                    "clf = SGDClassifier(n_iter=7, random_state=0).fit(X, y)\n"
                    "perceptron = Perceptron(n_iter=3, tol=1e-3).fit(X, y)\n"
                ),
                after=DATA
                + (
                    "from sklearn.linear_model import SGDClassifier, Perceptron\n"
                    "clf = SGDClassifier(max_iter=7, random_state=0, tol=None).fit(X, y)\n"
                    "perceptron = Perceptron(max_iter=3, tol=None).fit(X, y)\n"
                ),
                error="TypeError",
                check="clf.n_iter_ == 7 and perceptron.n_iter_ == 3",
            ),
        ),
    ),
    Rule(
        id="sklearn.root-mean-squared-error",
        library="scikit-learn",
        changed_in="1.6",
        summary=(
            "`mean_squared_error(..., squared=False)` -> `root_mean_squared_error(...)` (import "
            "added), likewise `mean_squared_log_error`; `squared=True` dropped"
        ),
        kind=Kind.API,
        rewrite=only_if("squared", rewrite=cst_rewrite(RootMetrics)),
        symptoms=(Symptom("TypeError", r"got an unexpected keyword argument 'squared'"),),
        gone=no_parameter("sklearn.metrics.mean_squared_error", "squared"),
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "from sklearn.metrics import mean_squared_error\n"
                    "y_true, y_pred = np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 5.0])\n"
                    "rmse = mean_squared_error(y_true, y_pred, squared=False)\n"
                    "mse = mean_squared_error(y_true, y_pred, squared=True)\n"
                    "per_fold = [mean_squared_error(y_true, y_pred * k, squared=False) for k in (1, 2)]\n"
                ),
                after=(
                    "import numpy as np\n"
                    "from sklearn.metrics import mean_squared_error, root_mean_squared_error\n"
                    "y_true, y_pred = np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 5.0])\n"
                    "rmse = root_mean_squared_error(y_true, y_pred)\n"
                    "mse = mean_squared_error(y_true, y_pred)\n"
                    "per_fold = [root_mean_squared_error(y_true, y_pred * k) for k in (1, 2)]\n"
                ),
                error="TypeError",
                check=(
                    "np.isclose(rmse, np.sqrt(4 / 3)) and np.isclose(mse, 4 / 3)"
                    " and np.isclose(per_fold[1], np.sqrt((1 + 4 + 49) / 3))"
                ),
            ),
            Example(
                before=(
                    "from sklearn import metrics\n"
                    "rmsle = metrics.mean_squared_log_error([1.0, 3.0], [3.0, 1.0], squared=False)\n"
                ),
                after=(
                    "from sklearn import metrics\n"
                    "rmsle = metrics.root_mean_squared_log_error([1.0, 3.0], [3.0, 1.0])\n"
                ),
                error="TypeError",
                check="abs(rmsle - __import__('math').log(2)) < 1e-12",
            ),
        ),
    ),
)
