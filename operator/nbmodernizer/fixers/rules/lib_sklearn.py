"""scikit-learn drift."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
from collections.abc import Callable

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import (
    calls_to,
    chain,
    cst_rewrite,
    drop,
    rename_to,
    string_value,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.sklearn_transforms import (
    CurveKeywords,
    FeatureNamesOut,
    ImputerArguments,
    LinearNormalize,
    Move,
    OldSplitters,
    OneVsRestWrapper,
    RootMetrics,
    ScorerResponse,
    SgdEpochs,
    add_keywords,
    drop_keywords,
    edit_keywords,
    is_constant,
    keep_quotes,
    keyword,
    move_modules,
    move_names,
    only_if,
)

CALIBRATION = frozenset({"score-calibration"})

# ------------------------------------------------------------------------------------ probes


@functools.cache
def _module_gone(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is None
    except ModuleNotFoundError:
        return True


@functools.cache
def _lacks(module: str, name: str) -> bool:
    return not hasattr(importlib.import_module(module), name)


@functools.cache
def _no_parameter(path: str, parameter: str) -> bool:
    module, _, name = path.rpartition(".")
    return (
        parameter
        not in inspect.signature(getattr(importlib.import_module(module), name)).parameters
    )


def _rejects(attempt: Callable[[], object]) -> bool:
    """Whether today's library refuses the legacy call (InvalidParameterError is both)."""
    try:
        attempt()
    except (ValueError, TypeError):
        return True
    return False


@functools.cache
def _forest_rejects_auto() -> bool:
    from sklearn.ensemble import RandomForestClassifier

    model = RandomForestClassifier(n_estimators=1, max_features="auto")
    return _rejects(lambda: model.fit([[0.0], [1.0]], [0, 1]))


@functools.cache
def _estimator_rejects(
    path: str, parameter: str, value: object, target: str = "regression"
) -> bool:
    module, _, name = path.rpartition(".")
    estimator = getattr(importlib.import_module(module), name)(**{parameter: value})
    y = [0.0, 1.0, 2.0, 3.0] if target == "regression" else [0, 1, 0, 1]
    return _rejects(lambda: estimator.fit([[0.0], [1.0], [2.0], [3.0]], y))


@functools.cache
def _vectorizers_lack_get_feature_names() -> bool:
    from sklearn.feature_extraction.text import CountVectorizer

    return not hasattr(CountVectorizer, "get_feature_names")


@functools.cache
def _default_solver_not_liblinear() -> bool:
    from sklearn.linear_model import LogisticRegression

    default: object = inspect.signature(LogisticRegression).parameters["solver"].default
    return default != "liblinear"


@functools.cache
def _kfold_rejects_random_state() -> bool:
    from sklearn.model_selection import KFold

    return _rejects(lambda: KFold(n_splits=3, random_state=0))


@functools.cache
def _legacy_scorer_names_gone() -> bool:
    from sklearn.metrics import get_scorer_names

    return "mean_squared_error" not in get_scorer_names()


# ---------------------------------------------------------------------------- call matchers


def _calls_without(names: tuple[str, ...], *absent: str) -> Callable[[cst.Call, RuleContext], bool]:
    """Calls to `names` that pass none of the keywords `absent`."""
    applies = calls_to(*names)
    return lambda call, context: (
        applies(call, context) and all(keyword(call, name) is None for name in absent)
    )


def _into(package: str, modules: str) -> dict[str, str]:
    """`package.module` -> `package` for each of the space-separated `modules`."""
    return {f"{package}.{module}": package for module in modules.split()}


def _forests(kind: str) -> tuple[str, ...]:
    return (f"sklearn.ensemble.RandomForest{kind}", f"sklearn.ensemble.ExtraTrees{kind}")


def _trees(kind: str) -> tuple[str, ...]:
    return (
        *_forests(kind),
        f"sklearn.tree.DecisionTree{kind}",
        f"sklearn.tree.ExtraTree{kind}",
        f"sklearn.ensemble.GradientBoosting{kind}",
    )


_REGRESSION_TREES = tuple(name for name in _trees("Regressor") if "GradientBoosting" not in name)
ALL_TREES = (*_trees("Classifier"), *_trees("Regressor"))

_LINEAR_NORMALIZED = tuple(
    _into(
        "sklearn.linear_model",
        "LinearRegression Ridge RidgeCV RidgeClassifier RidgeClassifierCV Lasso LassoCV "
        "ElasticNet ElasticNetCV MultiTaskLasso MultiTaskLassoCV MultiTaskElasticNet "
        "MultiTaskElasticNetCV Lars LarsCV LassoLars LassoLarsCV LassoLarsIC "
        "OrthogonalMatchingPursuit OrthogonalMatchingPursuitCV BayesianRidge ARDRegression",
    )
)

_SGD = tuple(
    f"sklearn.linear_model.{name}"
    for name in (
        "SGDClassifier",
        "SGDRegressor",
        "Perceptron",
        "PassiveAggressiveClassifier",
        "PassiveAggressiveRegressor",
    )
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

# -------------------------------------------------------------------------------- tables

# private modules deprecated in 0.22 and removed in 0.24 (plus older ones), -> public package
_PRIVATE_MODULES: dict[str, str] = {
    **_into(
        "sklearn.linear_model",
        "base bayes coordinate_descent huber least_angle logistic omp passive_aggressive "
        "perceptron ransac ridge sag stochastic_gradient theil_sen",
    ),
    **_into(
        "sklearn.ensemble",
        "bagging base forest gradient_boosting iforest voting voting_classifier weight_boosting",
    ),
    **_into("sklearn.tree", "tree export"),
    **_into("sklearn.metrics", "scorer classification regression ranking base"),
    **_into("sklearn.preprocessing", "data label"),
    **_into(
        "sklearn.datasets",
        "samples_generator base california_housing covtype kddcup99 lfw olivetti_faces openml "
        "rcv1 species_distributions svmlight_format twenty_newsgroups",
    ),
    **_into(
        "sklearn.cluster",
        "affinity_propagation_ bicluster birch dbscan_ hierarchical k_means_ mean_shift_ "
        "optics_ spectral",
    ),
    **_into(
        "sklearn.decomposition",
        "base dict_learning factor_analysis fastica_ incremental_pca kernel_pca nmf online_lda "
        "pca sparse_pca truncated_svd",
    ),
    **_into(
        "sklearn.feature_selection",
        "base from_model mutual_info_ rfe univariate_selection variance_threshold",
    ),
    **_into("sklearn.svm", "base classes"),
    **_into(
        "sklearn.neighbors",
        "base classification regression unsupervised kde nca lof nearest_centroid graph "
        "ball_tree kd_tree",
    ),
    "sklearn.neighbors.dist_metrics": "sklearn.metrics",
    **_into("sklearn.feature_extraction", "dict_vectorizer hashing"),
    "sklearn.feature_extraction.stop_words": "sklearn.feature_extraction.text",
    **_into("sklearn.mixture", "base bayesian_mixture gaussian_mixture"),
    **_into("sklearn.manifold", "isomap locally_linear mds spectral_embedding_ t_sne"),
    **_into("sklearn.semi_supervised", "label_propagation"),
    **_into("sklearn.neural_network", "multilayer_perceptron rbm"),
    **_into(
        "sklearn.covariance",
        "elliptic_envelope empirical_covariance_ graph_lasso_ robust_covariance shrunk_covariance_",
    ),
    **_into("sklearn.gaussian_process", "gpc gpr"),
    **_into("sklearn.cross_decomposition", "pls_ cca_"),
    "sklearn.utils.testing": "sklearn.utils._testing",
}

_PRIVATE_MOVES: dict[str, Move] = {
    **{old: Move(new, module=True) for old, new in _PRIVATE_MODULES.items()},
    "sklearn.utils.testing.all_estimators": Move("sklearn.utils.all_estimators"),
}


# a cell that needs the move names one of these (the old module, or `sklearn`)
_PRIVATE_NEEDLES = ("sklearn", *sorted({old.rpartition(".")[2] for old in _PRIVATE_MODULES}))


@functools.cache
def _private_modules_gone() -> bool:
    return all(_module_gone(old) for old in _PRIVATE_MODULES)


_PLOTS: dict[str, Move] = {
    "sklearn.metrics.plot_confusion_matrix": Move(
        "sklearn.metrics.ConfusionMatrixDisplay", member="from_estimator"
    ),
    "sklearn.metrics.plot_roc_curve": Move(
        "sklearn.metrics.RocCurveDisplay", member="from_estimator"
    ),
    "sklearn.metrics.plot_precision_recall_curve": Move(
        "sklearn.metrics.PrecisionRecallDisplay", member="from_estimator"
    ),
    "sklearn.metrics.plot_det_curve": Move(
        "sklearn.metrics.DetCurveDisplay", member="from_estimator"
    ),
    "sklearn.inspection.plot_partial_dependence": Move(
        "sklearn.inspection.PartialDependenceDisplay", member="from_estimator"
    ),
}

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
        self.edit = keep_quotes(_LEGACY_SCORERS)

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


def _drop_if_none(arg: cst.Arg) -> cst.Arg | None:
    return None if isinstance(arg.value, cst.Name) and arg.value.value == "None" else arg


class _RandomStateWithoutShuffle(cst.CSTTransformer):
    """`KFold(n_splits=k, random_state=r)` without `shuffle=True`: `random_state` dropped."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context
        self.applies = calls_to(
            "sklearn.model_selection.KFold", "sklearn.model_selection.StratifiedKFold"
        )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self.applies(original_node, self.context):
            return updated_node
        shuffle = keyword(updated_node, "shuffle")
        if shuffle is None or is_constant(shuffle, "False"):
            return drop_keywords(updated_node, ["random_state"])
        return updated_node


def _l1_without_solver(call: cst.Call, context: RuleContext) -> bool:
    penalty = keyword(call, "penalty")
    return (
        calls_to("sklearn.linear_model.LogisticRegression")(call, context)
        and penalty is not None
        and string_value(penalty) == "l1"
        and keyword(call, "solver") is None
    )


def _not_linear_kernel(call: cst.Call, context: RuleContext) -> bool:
    kernel = keyword(call, "kernel")
    return kernel is None or string_value(kernel) != "linear"


# ---------------------------------------------------------------------------- the examples

_DATA = (
    "import numpy as np\n"
    "rng = np.random.RandomState(0)\n"
    "X = rng.rand(30, 4)\n"
    "y = (X[:, 0] + X[:, 1] > 1).astype(int)\n"
)

RULES = (
    # ------------------------------------------------------------------ moved modules
    Rule(
        id="sklearn.cross-validation-module",
        library="scikit-learn",
        changed_in="0.20",
        summary=(
            "`sklearn.cross_validation` -> `sklearn.model_selection`; the old splitters built "
            "from the data (`KFold(n, n_folds=k)`, `StratifiedKFold(y, ...)`, `ShuffleSplit(n, "
            "n_iter=...)`) become the same folds, materialized: `list(KFold(n_splits=k)"
            ".split(X))` (old default `n_folds=3` spelled out)"
        ),
        kind=Kind.API,
        rewrite=chain(
            cst_rewrite(OldSplitters),
            move_modules({"sklearn.cross_validation": "sklearn.model_selection"}),
        ),
        symptoms=(
            Symptom("ModuleNotFoundError", r"No module named 'sklearn\.cross_validation'"),
            Symptom("ImportError", r"cannot import name 'cross_validation' from 'sklearn'"),
        ),
        gone=lambda: _module_gone("sklearn.cross_validation"),
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "from sklearn.cross_validation import KFold, StratifiedKFold, cross_val_score, train_test_split\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "\n"
                    "X = np.arange(40, dtype=float).reshape(20, 2)\n"
                    "y = np.array([0, 1] * 10)\n"
                    "X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=0)\n"
                    "folds = [test for train, test in KFold(len(X), n_folds=4)]\n"
                    "strata = StratifiedKFold(y, n_folds=5, shuffle=True, random_state=0)\n"
                    "scores = cross_val_score(LogisticRegression(), X, y, cv=strata)\n"
                ),
                after=(
                    "import numpy as np\n"
                    "from sklearn.model_selection import KFold, StratifiedKFold, cross_val_score, train_test_split\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "\n"
                    "X = np.arange(40, dtype=float).reshape(20, 2)\n"
                    "y = np.array([0, 1] * 10)\n"
                    "X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=0)\n"
                    "folds = [test for train, test in list(KFold(n_splits=4).split(X))]\n"
                    "strata = list(StratifiedKFold(n_splits=5, shuffle=True, random_state=0).split(y, y))\n"
                    "scores = cross_val_score(LogisticRegression(), X, y, cv=strata)\n"
                ),
                error="ModuleNotFoundError",
                check=(
                    "[list(f) for f in folds] == [list(range(i, i + 5)) for i in (0, 5, 10, 15)]"
                    " and len(scores) == 5 and len(X_te) == 5"
                    " and all(sorted(y[test]) == [0, 0, 1, 1] for train, test in strata)"
                ),
            ),
            Example(
                before=(
                    "from sklearn import cross_validation\n"
                    "kf = cross_validation.KFold(9, random_state=1)\n"
                    "sizes = [len(test) for train, test in kf]\n"
                    "splits = cross_validation.ShuffleSplit(9, n_iter=4, train_size=0.5, random_state=0)\n"
                    "tests = [len(test) for train, test in splits]\n"
                ),
                after=(
                    "from sklearn import model_selection\n"
                    "kf = list(model_selection.KFold(n_splits=3).split(range(9)))\n"
                    "sizes = [len(test) for train, test in kf]\n"
                    "splits = list(model_selection.ShuffleSplit(n_splits=4, test_size=0.1, train_size=0.5, random_state=0).split(range(9)))\n"
                    "tests = [len(test) for train, test in splits]\n"
                ),
                error="ImportError",
                check="sizes == [3, 3, 3] and len(kf) == 3 and tests == [1, 1, 1, 1]",
            ),
        ),
    ),
    Rule(
        id="sklearn.grid-search-module",
        library="scikit-learn",
        changed_in="0.20",
        summary="`sklearn.grid_search` -> `sklearn.model_selection`",
        kind=Kind.API,
        rewrite=only_if(
            "grid_search",
            rewrite=move_modules({"sklearn.grid_search": "sklearn.model_selection"}),
        ),
        symptoms=(
            Symptom("ModuleNotFoundError", r"No module named 'sklearn\.grid_search'"),
            Symptom("ImportError", r"cannot import name 'grid_search' from 'sklearn'"),
        ),
        gone=lambda: _module_gone("sklearn.grid_search"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.grid_search import GridSearchCV\n"
                    "import sklearn.grid_search\n"
                    "from sklearn.svm import SVC\n"
                    "search = GridSearchCV(SVC(), {'C': [0.1, 10.0]}, cv=3).fit(X, y)\n"
                    "grid = list(sklearn.grid_search.ParameterGrid({'C': [1, 2]}))\n"
                ),
                after=_DATA
                + (
                    "from sklearn.model_selection import GridSearchCV\n"
                    "import sklearn.model_selection\n"
                    "from sklearn.svm import SVC\n"
                    "search = GridSearchCV(SVC(), {'C': [0.1, 10.0]}, cv=3).fit(X, y)\n"
                    "grid = list(sklearn.model_selection.ParameterGrid({'C': [1, 2]}))\n"
                ),
                error="ModuleNotFoundError",
                check="search.best_params_['C'] in (0.1, 10.0) and grid == [{'C': 1}, {'C': 2}]",
            ),
        ),
    ),
    Rule(
        id="sklearn.learning-curve-module",
        library="scikit-learn",
        changed_in="0.20",
        summary="`sklearn.learning_curve` -> `sklearn.model_selection`",
        kind=Kind.API,
        rewrite=only_if(
            "learning_curve",
            rewrite=move_modules({"sklearn.learning_curve": "sklearn.model_selection"}),
        ),
        symptoms=(
            Symptom("ModuleNotFoundError", r"No module named 'sklearn\.learning_curve'"),
            Symptom("ImportError", r"cannot import name 'learning_curve' from 'sklearn' "),
        ),
        gone=lambda: _module_gone("sklearn.learning_curve"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.learning_curve import learning_curve\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "sizes, train, test = learning_curve(DecisionTreeClassifier(max_depth=2), X, y,"
                    " train_sizes=[0.5, 1.0], cv=3)\n"
                ),
                after=_DATA
                + (
                    "from sklearn.model_selection import learning_curve\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "sizes, train, test = learning_curve(DecisionTreeClassifier(max_depth=2), X, y,"
                    " train_sizes=[0.5, 1.0], cv=3)\n"
                ),
                error="ModuleNotFoundError",
                check="list(sizes) == [10, 20] and test.shape == (2, 3)",
            ),
        ),
    ),
    Rule(
        id="sklearn.externals-joblib",
        library="scikit-learn",
        changed_in="0.23",
        summary="`from sklearn.externals import joblib` -> `import joblib` (the same package)",
        kind=Kind.API,
        rewrite=only_if("joblib", rewrite=move_modules({"sklearn.externals.joblib": "joblib"})),
        symptoms=(
            Symptom("ImportError", r"cannot import name 'joblib' from 'sklearn\.externals'"),
            Symptom("ModuleNotFoundError", r"No module named 'sklearn\.externals\.joblib'"),
        ),
        gone=lambda: _module_gone("sklearn.externals.joblib"),
        examples=(
            Example(
                before=(
                    "from sklearn.externals import joblib\n"
                    "joblib.dump({'C': 1.0}, 'model.pkl')\n"
                    "restored = joblib.load('model.pkl')\n"
                ),
                after=(
                    "import joblib\n"
                    "joblib.dump({'C': 1.0}, 'model.pkl')\n"
                    "restored = joblib.load('model.pkl')\n"
                ),
                error="ImportError",
                check="restored == {'C': 1.0}",
            ),
            Example(
                before=(
                    "from sklearn.externals.joblib import Parallel, delayed\n"
                    "squares = Parallel(n_jobs=1)(delayed(pow)(i, 2) for i in range(4))\n"
                ),
                after=(
                    "from joblib import Parallel, delayed\n"
                    "squares = Parallel(n_jobs=1)(delayed(pow)(i, 2) for i in range(4))\n"
                ),
                error="ModuleNotFoundError",
                check="squares == [0, 1, 4, 9]",
            ),
        ),
    ),
    Rule(
        id="sklearn.externals-six",
        library="scikit-learn",
        changed_in="0.23",
        summary="`sklearn.externals.six` -> the `six` package",
        kind=Kind.API,
        rewrite=only_if("six", rewrite=move_modules({"sklearn.externals.six": "six"})),
        symptoms=(
            Symptom("ImportError", r"cannot import name 'six' from 'sklearn\.externals'"),
            Symptom("ModuleNotFoundError", r"No module named 'sklearn\.externals\.six'"),
        ),
        gone=lambda: _module_gone("sklearn.externals.six"),
        examples=(
            Example(
                before=(
                    "from sklearn.externals import six\n"
                    "from sklearn.externals.six.moves import range as xrange\n"
                    "names = [k for k, v in six.iteritems({'a': 1})] + list(xrange(2))\n"
                ),
                after=(
                    "import six\n"
                    "from six.moves import range as xrange\n"
                    "names = [k for k, v in six.iteritems({'a': 1})] + list(xrange(2))\n"
                ),
                error="ImportError",
                check="names == ['a', 0, 1]",
            ),
        ),
    ),
    Rule(
        id="sklearn.private-modules",
        library="scikit-learn",
        changed_in="0.24",
        summary=(
            "private module paths (`sklearn.linear_model.logistic`, `sklearn.ensemble.forest`, "
            "`sklearn.tree.tree`, `sklearn.metrics.scorer`, `sklearn.preprocessing.data`, "
            "`sklearn.datasets.samples_generator`, `sklearn.utils.testing`, ...) -> the public "
            "package"
        ),
        kind=Kind.API,
        rewrite=only_if(*_PRIVATE_NEEDLES, rewrite=move_names(_PRIVATE_MOVES)),
        symptoms=(
            Symptom(
                "ModuleNotFoundError",
                r"No module named 'sklearn\.("
                + "|".join(
                    old.removeprefix("sklearn.").replace(".", r"\.") for old in _PRIVATE_MODULES
                )
                + r")'",
            ),
            Symptom(
                "ImportError",
                r"cannot import name '("
                + "|".join(sorted({old.rpartition(".")[2] for old in _PRIVATE_MODULES}))
                + r")' from 'sklearn\.",
            ),
        ),
        gone=_private_modules_gone,
        examples=(
            Example(
                before=(
                    "from sklearn.linear_model.logistic import LogisticRegression\n"
                    "from sklearn.ensemble.forest import RandomForestClassifier\n"
                    "from sklearn.datasets.samples_generator import make_blobs\n"
                    "from sklearn.metrics.scorer import make_scorer\n"
                    "from sklearn.metrics.classification import accuracy_score\n"
                    "X, y = make_blobs(n_samples=30, centers=2, random_state=0)\n"
                    "model = LogisticRegression().fit(X, y)\n"
                    "forest = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)\n"
                    "scorer = make_scorer(accuracy_score)\n"
                ),
                after=(
                    "from sklearn.linear_model import LogisticRegression\n"
                    "from sklearn.ensemble import RandomForestClassifier\n"
                    "from sklearn.datasets import make_blobs\n"
                    "from sklearn.metrics import make_scorer\n"
                    "from sklearn.metrics import accuracy_score\n"
                    "X, y = make_blobs(n_samples=30, centers=2, random_state=0)\n"
                    "model = LogisticRegression().fit(X, y)\n"
                    "forest = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)\n"
                    "scorer = make_scorer(accuracy_score)\n"
                ),
                error="ModuleNotFoundError",
                check=(
                    "scorer(model, X, y) == accuracy_score(y, model.predict(X))"
                    " and len(forest.estimators_) == 3"
                ),
            ),
            Example(
                before=(
                    "import sklearn.tree.tree\n"
                    "from sklearn.utils.testing import ignore_warnings, all_estimators\n"
                    "from sklearn.preprocessing.data import StandardScaler\n"
                    "tree = sklearn.tree.tree.DecisionTreeClassifier(max_depth=1)\n"
                    "with ignore_warnings():\n"
                    "    scaled = StandardScaler().fit_transform([[0.0], [2.0]])\n"
                ),
                after=(
                    "import sklearn.tree\n"
                    "from sklearn.utils._testing import ignore_warnings\n"
                    "from sklearn.utils import all_estimators\n"
                    "from sklearn.preprocessing import StandardScaler\n"
                    "tree = sklearn.tree.DecisionTreeClassifier(max_depth=1)\n"
                    "with ignore_warnings():\n"
                    "    scaled = StandardScaler().fit_transform([[0.0], [2.0]])\n"
                ),
                error="ModuleNotFoundError",
                check=(
                    "tree.max_depth == 1 and all_estimators.__module__.startswith('sklearn.utils')"
                    " and scaled.ravel().tolist() == [-1.0, 1.0]"
                ),
            ),
        ),
    ),
    Rule(
        id="sklearn.imputer",
        library="scikit-learn",
        changed_in="0.22",
        summary=(
            "`sklearn.preprocessing.Imputer(missing_values='NaN', strategy=..., axis=0)` -> "
            "`sklearn.impute.SimpleImputer(missing_values=np.nan, strategy=...)` (`axis=1` is "
            "left for a person: SimpleImputer only imputes columns)"
        ),
        kind=Kind.API,
        rewrite=chain(
            cst_rewrite(ImputerArguments),
            move_names(
                {
                    "sklearn.preprocessing.Imputer": Move("sklearn.impute.SimpleImputer"),
                    "sklearn.preprocessing.imputation": Move("sklearn.impute", module=True),
                    "sklearn.preprocessing.imputation.Imputer": Move(
                        "sklearn.impute.SimpleImputer"
                    ),
                }
            ),
        ),
        symptoms=(
            Symptom("ImportError", r"cannot import name 'Imputer' from 'sklearn\.preprocessing'"),
            Symptom(
                "AttributeError", r"module 'sklearn\.preprocessing' has no attribute 'Imputer'"
            ),
            Symptom("ModuleNotFoundError", r"No module named 'sklearn\.preprocessing\.imputation'"),
        ),
        gone=lambda: _lacks("sklearn.preprocessing", "Imputer"),
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "from sklearn.preprocessing import StandardScaler, Imputer\n"
                    "X = np.array([[1.0, np.nan], [3.0, 4.0], [np.nan, 8.0], [4.0, 8.0]])\n"
                    "means = Imputer(missing_values='NaN', strategy='mean', axis=0).fit_transform(X)\n"
                    'medians = Imputer(strategy="median").fit_transform(X)\n'
                    "scaled = StandardScaler().fit_transform(means)\n"
                ),
                after=(
                    "import numpy as np\n"
                    "from sklearn.preprocessing import StandardScaler\n"
                    "from sklearn.impute import SimpleImputer\n"
                    "X = np.array([[1.0, np.nan], [3.0, 4.0], [np.nan, 8.0], [4.0, 8.0]])\n"
                    "means = SimpleImputer(missing_values=np.nan, strategy='mean').fit_transform(X)\n"
                    'medians = SimpleImputer(strategy="median").fit_transform(X)\n'
                    "scaled = StandardScaler().fit_transform(means)\n"
                ),
                error="ImportError",
                check=(
                    "means.tolist() == [[1.0, 20 / 3], [3.0, 4.0], [8 / 3, 8.0], [4.0, 8.0]]"
                    " and medians.tolist() == [[1.0, 8.0], [3.0, 4.0], [3.0, 8.0], [4.0, 8.0]]"
                ),
            ),
            Example(
                before=(
                    "from sklearn import preprocessing\n"
                    "imputer = preprocessing.Imputer('NaN', 'most_frequent', 0)\n"
                    "filled = imputer.fit_transform([[1.0], [float('nan')], [1.0], [2.0]])\n"
                ),
                after=(
                    "from sklearn import preprocessing\n"
                    "from sklearn.impute import SimpleImputer\n"
                    "imputer = SimpleImputer(missing_values=float(\"nan\"), strategy='most_frequent')\n"
                    "filled = imputer.fit_transform([[1.0], [float('nan')], [1.0], [2.0]])\n"
                ),
                error="AttributeError",
                check="filled.ravel().tolist() == [1.0, 1.0, 1.0, 2.0]",
            ),
        ),
    ),
    Rule(
        id="sklearn.lda-qda-modules",
        library="scikit-learn",
        changed_in="0.19",
        summary=(
            "`sklearn.lda.LDA` / `sklearn.qda.QDA` -> `sklearn.discriminant_analysis."
            "LinearDiscriminantAnalysis` / `QuadraticDiscriminantAnalysis`"
        ),
        kind=Kind.API,
        rewrite=only_if(
            "lda",
            "qda",
            "LDA",
            "QDA",
            rewrite=move_names(
                {
                    "sklearn.lda": Move("sklearn.discriminant_analysis", module=True),
                    "sklearn.qda": Move("sklearn.discriminant_analysis", module=True),
                    "sklearn.lda.LDA": Move(
                        "sklearn.discriminant_analysis.LinearDiscriminantAnalysis"
                    ),
                    "sklearn.qda.QDA": Move(
                        "sklearn.discriminant_analysis.QuadraticDiscriminantAnalysis"
                    ),
                }
            ),
        ),
        symptoms=(Symptom("ModuleNotFoundError", r"No module named 'sklearn\.(lda|qda)'"),),
        gone=lambda: _module_gone("sklearn.lda") and _module_gone("sklearn.qda"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.lda import LDA\n"
                    "from sklearn.qda import QDA\n"
                    "lda = LDA(n_components=1).fit(X, y)\n"
                    "qda = QDA().fit(X, y)\n"
                    "reduced = LDA(n_components=1).fit_transform(X, y)\n"
                ),
                after=_DATA
                + (
                    "from sklearn.discriminant_analysis import LinearDiscriminantAnalysis\n"
                    "from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis\n"
                    "lda = LinearDiscriminantAnalysis(n_components=1).fit(X, y)\n"
                    "qda = QuadraticDiscriminantAnalysis().fit(X, y)\n"
                    "reduced = LinearDiscriminantAnalysis(n_components=1).fit_transform(X, y)\n"
                ),
                error="ModuleNotFoundError",
                check="reduced.shape == (30, 1) and lda.score(X, y) > 0.9 and qda.score(X, y) > 0.9",
            ),
        ),
    ),
    Rule(
        id="sklearn.neighbors-distance-metric",
        library="scikit-learn",
        changed_in="1.3",
        summary="`sklearn.neighbors.DistanceMetric` -> `sklearn.metrics.DistanceMetric`",
        kind=Kind.API,
        rewrite=only_if(
            "DistanceMetric",
            rewrite=move_names(
                {"sklearn.neighbors.DistanceMetric": Move("sklearn.metrics.DistanceMetric")}
            ),
        ),
        symptoms=(
            Symptom(
                "ImportError", r"cannot import name 'DistanceMetric' from 'sklearn\.neighbors'"
            ),
            Symptom(
                "AttributeError", r"module 'sklearn\.neighbors' has no attribute 'DistanceMetric'"
            ),
        ),
        gone=lambda: _lacks("sklearn.neighbors", "DistanceMetric"),
        examples=(
            Example(
                before=(
                    "from sklearn.neighbors import DistanceMetric, KNeighborsClassifier\n"
                    "distances = DistanceMetric.get_metric('euclidean').pairwise([[0, 0], [3, 4]])\n"
                ),
                after=(
                    "from sklearn.neighbors import KNeighborsClassifier\n"
                    "from sklearn.metrics import DistanceMetric\n"
                    "distances = DistanceMetric.get_metric('euclidean').pairwise([[0, 0], [3, 4]])\n"
                ),
                error="ImportError",
                check="distances[0, 1] == 5.0",
            ),
        ),
    ),
    Rule(
        id="sklearn.calinski-harabaz-score",
        library="scikit-learn",
        changed_in="0.23",
        summary="`calinski_harabaz_score` -> `calinski_harabasz_score` (spelling fixed)",
        kind=Kind.API,
        rewrite=only_if(
            "calinski_harabaz",
            rewrite=move_names(
                {
                    "sklearn.metrics.calinski_harabaz_score": Move(
                        "sklearn.metrics.calinski_harabasz_score"
                    )
                }
            ),
        ),
        symptoms=(
            Symptom("ImportError", r"cannot import name 'calinski_harabaz_score'"),
            Symptom("AttributeError", r"has no attribute 'calinski_harabaz_score'"),
        ),
        gone=lambda: _lacks("sklearn.metrics", "calinski_harabaz_score"),
        examples=(
            Example(
                before=(
                    "from sklearn import metrics\n"
                    "from sklearn.metrics import calinski_harabaz_score\n"
                    "X = [[0.0], [0.1], [5.0], [5.1]]\n"
                    "a = calinski_harabaz_score(X, [0, 0, 1, 1])\n"
                    "b = metrics.calinski_harabaz_score(X, [0, 1, 0, 1])\n"
                ),
                after=(
                    "from sklearn import metrics\n"
                    "from sklearn.metrics import calinski_harabasz_score\n"
                    "X = [[0.0], [0.1], [5.0], [5.1]]\n"
                    "a = calinski_harabasz_score(X, [0, 0, 1, 1])\n"
                    "b = metrics.calinski_harabasz_score(X, [0, 1, 0, 1])\n"
                ),
                error="ImportError",
                check="a > 1000 and b < 1",
            ),
        ),
    ),
    Rule(
        id="sklearn.plot-functions",
        library="scikit-learn",
        changed_in="1.2",
        summary=(
            "`plot_confusion_matrix(est, X, y)` / `plot_roc_curve` / `plot_precision_recall_curve`"
            " / `plot_det_curve` / `plot_partial_dependence` -> `ConfusionMatrixDisplay"
            ".from_estimator(est, X, y)` etc. (`plot_roc_curve`'s line keywords -> "
            "`curve_kwargs`)"
        ),
        kind=Kind.API,
        rewrite=chain(
            cst_rewrite(lambda context: CurveKeywords(context, "sklearn.metrics.plot_roc_curve")),
            move_names(_PLOTS),
        ),
        symptoms=(
            Symptom(
                "ImportError",
                r"cannot import name 'plot_(confusion_matrix|roc_curve|precision_recall_curve|"
                r"det_curve|partial_dependence)'",
            ),
            Symptom(
                "AttributeError",
                r"has no attribute 'plot_(confusion_matrix|roc_curve|precision_recall_curve|"
                r"det_curve|partial_dependence)'",
            ),
        ),
        gone=lambda: _lacks("sklearn.metrics", "plot_confusion_matrix"),
        examples=(
            Example(
                before=_DATA
                + (
                    "import matplotlib\n"
                    "matplotlib.use('Agg')\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "from sklearn.metrics import confusion_matrix, plot_confusion_matrix, plot_roc_curve\n"
                    "clf = LogisticRegression().fit(X, y)\n"
                    "cm = plot_confusion_matrix(clf, X, y, normalize='true')\n"
                    "roc = plot_roc_curve(clf, X, y, name='lr', color='red', lw=2)\n"
                ),
                after=_DATA
                + (
                    "import matplotlib\n"
                    "matplotlib.use('Agg')\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "from sklearn.metrics import confusion_matrix, ConfusionMatrixDisplay, RocCurveDisplay\n"
                    "clf = LogisticRegression().fit(X, y)\n"
                    "cm = ConfusionMatrixDisplay.from_estimator(clf, X, y, normalize='true')\n"
                    "roc = RocCurveDisplay.from_estimator(clf, X, y, name='lr', curve_kwargs={'color': 'red', 'lw': 2})\n"
                ),
                error="ImportError",
                check=(
                    "np.allclose(cm.confusion_matrix, confusion_matrix(y, clf.predict(X),"
                    " normalize='true')) and roc.line_.get_color() == 'red'"
                    " and roc.line_.get_linewidth() == 2"
                ),
            ),
        ),
    ),
    # ---------------------------------------------------------- renamed parameters/values
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
        gone=lambda: _no_parameter("sklearn.preprocessing.OneHotEncoder", "sparse"),
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
                    calls_to(*_trees("Classifier")),
                    {"max_features": keep_quotes({"auto": "'sqrt'"})},
                ),
                edit_keywords(
                    calls_to(*_trees("Regressor")), {"max_features": keep_quotes({"auto": "1.0"})}
                ),
            ),
        ),
        symptoms=(
            Symptom(
                "InvalidParameterError",
                r"The 'max_features' parameter of \w+ must be .* Got 'auto' instead",
            ),
        ),
        gone=_forest_rejects_auto,
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor\n"
                    "from sklearn.tree import DecisionTreeRegressor\n"
                    "clf = RandomForestClassifier(n_estimators=3, max_features='auto', random_state=0).fit(X, y)\n"
                    'reg = RandomForestRegressor(n_estimators=3, max_features="auto", random_state=0).fit(X, X[:, 0])\n'
                    "tree = DecisionTreeRegressor(max_features='auto').fit(X, X[:, 0])\n"
                ),
                after=_DATA
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
                        "loss": keep_quotes(
                            {
                                "ls": "'squared_error'",
                                "lad": "'absolute_error'",
                                "least_squares": "'squared_error'",
                                "least_absolute_deviation": "'absolute_error'",
                            }
                        )
                    },
                ),
                edit_keywords(
                    calls_to("sklearn.ensemble.GradientBoostingClassifier"),
                    {"loss": keep_quotes({"deviance": "'log_loss'"})},
                ),
                edit_keywords(
                    calls_to("sklearn.ensemble.HistGradientBoostingClassifier"),
                    {
                        "loss": keep_quotes(
                            {
                                "binary_crossentropy": "'log_loss'",
                                "categorical_crossentropy": "'log_loss'",
                                "auto": "'log_loss'",
                            }
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
        gone=lambda: _estimator_rejects("sklearn.ensemble.GradientBoostingRegressor", "loss", "ls"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.ensemble import GradientBoostingClassifier, GradientBoostingRegressor\n"
                    "ls = GradientBoostingRegressor(loss='ls', n_estimators=5).fit(X, X[:, 0])\n"
                    "lad = GradientBoostingRegressor(loss='lad', n_estimators=5).fit(X, X[:, 0])\n"
                    "clf = GradientBoostingClassifier(loss='deviance', n_estimators=5).fit(X, y)\n"
                ),
                after=_DATA
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
                        "criterion": keep_quotes(
                            {"mse": "'squared_error'", "mae": "'absolute_error'"}
                        )
                    },
                ),
                edit_keywords(
                    calls_to(
                        "sklearn.ensemble.GradientBoostingRegressor",
                        "sklearn.ensemble.GradientBoostingClassifier",
                    ),
                    {"criterion": keep_quotes({"mse": "'squared_error'"})},
                ),
            ),
        ),
        symptoms=(
            Symptom(
                "InvalidParameterError",
                r"The 'criterion' parameter of \w+ must be .* Got '(mse|mae)' instead",
            ),
        ),
        gone=lambda: _estimator_rejects("sklearn.tree.DecisionTreeRegressor", "criterion", "mse"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.tree import DecisionTreeRegressor\n"
                    "from sklearn.ensemble import GradientBoostingClassifier, RandomForestRegressor\n"
                    "mse = DecisionTreeRegressor(criterion='mse', max_depth=1).fit(X, X[:, 0])\n"
                    "mae = RandomForestRegressor(n_estimators=2, criterion='mae', max_depth=1).fit(X, X[:, 0])\n"
                    "boost = GradientBoostingClassifier(n_estimators=2, criterion='mse').fit(X, y)\n"
                ),
                after=_DATA
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
                {"loss": keep_quotes({"log": "'log_loss'", "squared_loss": "'squared_error'"})},
            ),
        ),
        symptoms=(
            Symptom(
                "InvalidParameterError",
                r"The 'loss' parameter of SGD(Classifier|Regressor) must be .* "
                r"Got '(log|squared_loss)' instead",
            ),
        ),
        gone=lambda: _estimator_rejects(
            "sklearn.linear_model.SGDClassifier", "loss", "log", target="classification"
        ),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.linear_model import SGDClassifier, SGDRegressor\n"
                    "clf = SGDClassifier(loss='log', random_state=0).fit(X, y)\n"
                    "reg = SGDRegressor(loss='squared_loss', random_state=0).fit(X, X[:, 0])\n"
                ),
                after=_DATA
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
        rewrite=only_if("n_iter", rewrite=cst_rewrite(lambda context: SgdEpochs(context, _SGD))),
        symptoms=(
            Symptom(
                "TypeError",
                r"(SGDClassifier|SGDRegressor|Perceptron|PassiveAggressiveClassifier|"
                r"PassiveAggressiveRegressor)\.__init__\(\) got an unexpected keyword argument "
                r"'n_iter'",
            ),
        ),
        gone=lambda: _no_parameter("sklearn.linear_model.SGDClassifier", "n_iter"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.linear_model import SGDClassifier, Perceptron\n"
                    "clf = SGDClassifier(n_iter=7, random_state=0).fit(X, y)\n"
                    "perceptron = Perceptron(n_iter=3, tol=1e-3).fit(X, y)\n"
                ),
                after=_DATA
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
        gone=lambda: _no_parameter("sklearn.metrics.mean_squared_error", "squared"),
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
        gone=lambda: _no_parameter("sklearn.linear_model.LogisticRegression", "multi_class"),
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
                before=_DATA
                + (
                    "from sklearn.linear_model import LogisticRegression\n"
                    "sparse = LogisticRegression(penalty='l1', C=0.5).fit(X, y)\n"
                    "sparser = LogisticRegression(C=0.1, penalty='l1').fit(X, y)\n"
                ),
                after=_DATA
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
        gone=lambda: _no_parameter("sklearn.linear_model.LinearRegression", "normalize"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.linear_model import LinearRegression, Ridge, Lasso\n"
                    "target = X @ [1.0, -2.0, 0.5, 3.0] + 0.3\n"
                    "ols = LinearRegression(normalize=True).fit(X, target)\n"
                    "ridge = Ridge(alpha=0.5, normalize=False).fit(X, y)\n"
                    "lasso = Lasso(alpha=0.01, fit_intercept=False, normalize=True).fit(X, y)\n"
                ),
                after=_DATA
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
        gone=lambda: _no_parameter("sklearn.tree.DecisionTreeClassifier", "min_impurity_split"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "from sklearn.ensemble import RandomForestClassifier\n"
                    "tree = DecisionTreeClassifier(max_depth=2, min_impurity_split=None).fit(X, y)\n"
                    "forest = RandomForestClassifier(n_estimators=2, min_impurity_split=None, random_state=0).fit(X, y)\n"
                ),
                after=_DATA
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
        gone=lambda: _no_parameter("sklearn.tree.DecisionTreeClassifier", "presort"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "from sklearn.ensemble import GradientBoostingClassifier\n"
                    "tree = DecisionTreeClassifier(presort=True, random_state=0).fit(X, y)\n"
                    "boost = GradientBoostingClassifier(n_estimators=3, presort='auto').fit(X, y)\n"
                ),
                after=_DATA
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
        gone=lambda: _no_parameter("sklearn.model_selection.GridSearchCV", "iid"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.model_selection import GridSearchCV, RandomizedSearchCV\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "grid = GridSearchCV(DecisionTreeClassifier(random_state=0), {'max_depth': [1, 2]}, cv=3, iid=False).fit(X, y)\n"
                    "rand = RandomizedSearchCV(DecisionTreeClassifier(random_state=0), {'max_depth': [1, 2]}, n_iter=2, cv=3, iid=False).fit(X, y)\n"
                ),
                after=_DATA
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
        gone=lambda: _no_parameter("sklearn.model_selection.cross_val_score", "fit_params"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.model_selection import KFold, cross_val_score, cross_val_predict\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "w = np.where(y == 1, 5.0, 1.0)\n"
                    "model = DecisionTreeClassifier(max_depth=1, random_state=0)\n"
                    "scores = cross_val_score(model, X, y, cv=KFold(3), fit_params={'sample_weight': w})\n"
                    "predicted = cross_val_predict(model, X, y, cv=KFold(3), fit_params={'sample_weight': w})\n"
                ),
                after=_DATA
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
        gone=lambda: _no_parameter("sklearn.ensemble.BaggingClassifier", "base_estimator"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.ensemble import AdaBoostClassifier, BaggingClassifier\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "bag = BaggingClassifier(base_estimator=DecisionTreeClassifier(max_depth=1), n_estimators=3).fit(X, y)\n"
                    "ada = AdaBoostClassifier(base_estimator=DecisionTreeClassifier(max_depth=2), n_estimators=3).fit(X, y)\n"
                ),
                after=_DATA
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
        gone=lambda: _no_parameter("sklearn.cluster.AgglomerativeClustering", "affinity"),
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
        gone=lambda: _no_parameter("sklearn.manifold.TSNE", "n_iter"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.manifold import TSNE\n"
                    "tsne = TSNE(n_components=2, perplexity=5, n_iter=250, random_state=0)\n"
                    "embedded = tsne.fit_transform(X)\n"
                ),
                after=_DATA
                + (
                    "from sklearn.manifold import TSNE\n"
                    "tsne = TSNE(n_components=2, perplexity=5, max_iter=250, random_state=0)\n"
                    "embedded = tsne.fit_transform(X)\n"
                ),
                error="TypeError",
                check="embedded.shape == (30, 2) and tsne.n_iter_ <= 250",
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
        gone=_vectorizers_lack_get_feature_names,
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
                    "algorithm": keep_quotes({"full": "'lloyd'", "auto": "'lloyd'"}),
                },
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
        gone=lambda: _no_parameter("sklearn.cluster.KMeans", "n_jobs"),
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
        rewrite=only_if("random_state", rewrite=cst_rewrite(_RandomStateWithoutShuffle)),
        symptoms=(
            Symptom("ValueError", r"Setting a random_state has no effect since shuffle is False"),
        ),
        gone=_kfold_rejects_random_state,
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
        rewrite=only_if(*_LEGACY_SCORERS, rewrite=cst_rewrite(_ScorerNames)),
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
        gone=_legacy_scorer_names_gone,
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.model_selection import KFold, cross_val_score\n"
                    "from sklearn.linear_model import LinearRegression\n"
                    "target = X[:, 0] + rng.rand(30)\n"
                    "mse = cross_val_score(LinearRegression(), X, target, cv=KFold(3), scoring='mean_squared_error')\n"
                    'mae = cross_val_score(LinearRegression(), X, target, cv=KFold(3), scoring="mean_absolute_error")\n'
                ),
                after=_DATA
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
        rewrite=only_if("needs_", rewrite=cst_rewrite(ScorerResponse)),
        symptoms=(
            Symptom("TypeError", r"got an unexpected keyword argument 'needs_(proba|threshold)'"),
        ),
        gone=lambda: _no_parameter("sklearn.metrics.make_scorer", "needs_proba"),
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.metrics import make_scorer, roc_auc_score, log_loss\n"
                    "from sklearn.model_selection import KFold, cross_val_score\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "auc = make_scorer(roc_auc_score, needs_threshold=True)\n"
                    "loss = make_scorer(log_loss, greater_is_better=False, needs_proba=True)\n"
                    "scores = cross_val_score(LogisticRegression(), X, y, cv=KFold(3), scoring=loss)\n"
                    "aucs = cross_val_score(LogisticRegression(), X, y, cv=KFold(3), scoring=auc)\n"
                ),
                after=_DATA
                + (
                    "from sklearn.metrics import make_scorer, roc_auc_score, log_loss\n"
                    "from sklearn.model_selection import KFold, cross_val_score\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "auc = make_scorer(roc_auc_score, response_method=('decision_function', 'predict_proba'))\n"
                    "loss = make_scorer(log_loss, greater_is_better=False, response_method='predict_proba')\n"
                    "scores = cross_val_score(LogisticRegression(), X, y, cv=KFold(3), scoring=loss)\n"
                    "aucs = cross_val_score(LogisticRegression(), X, y, cv=KFold(3), scoring=auc)\n"
                ),
                check=(
                    "np.allclose(scores, [-log_loss(y[te], LogisticRegression().fit(X[tr], y[tr])"
                    ".predict_proba(X[te])) for tr, te in KFold(3).split(X)])"
                    " and not np.isnan(aucs).any()"
                ),
            ),
        ),
    ),
    # ------------------------------------------------- silent defaults (score calibration)
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
            calls_to(*_forests("Classifier"), *_forests("Regressor")),
            [("n_estimators", "10")],
            position=0,
        ),
        gone=None,
        tags=CALIBRATION,
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.ensemble import RandomForestClassifier, ExtraTreesRegressor\n"
                    "clf = RandomForestClassifier(random_state=0).fit(X, y)\n"
                    "reg = ExtraTreesRegressor(max_depth=2).fit(X, X[:, 0])\n"
                ),
                after=_DATA
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
                before=_DATA
                + (
                    "from sklearn.linear_model import LogisticRegression\n"
                    "clf = LogisticRegression(C=0.5).fit(X, y)\n"
                    "default = LogisticRegression().fit(X, y)\n"
                ),
                after=_DATA
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
                before=_DATA
                + (
                    "from sklearn.svm import SVC, SVR\n"
                    "X = X * 3\n"
                    "clf = SVC(C=10).fit(X, y)\n"
                    "reg = SVR().fit(X, X[:, 0])\n"
                    "linear = SVC(kernel='linear').fit(X, y)\n"
                ),
                after=_DATA
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
                before=_DATA
                + (
                    "from sklearn.model_selection import GridSearchCV, cross_val_score\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "scores = cross_val_score(DecisionTreeClassifier(max_depth=1), X, y)\n"
                    "search = GridSearchCV(DecisionTreeClassifier(), {'max_depth': [1, 2]}).fit(X, y)\n"
                ),
                after=_DATA
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
            _calls_without(_SGD, "max_iter", "n_iter", "tol"), [("max_iter", "5"), ("tol", "None")]
        ),
        gone=None,
        tags=CALIBRATION,
        examples=(
            Example(
                before=_DATA
                + (
                    "from sklearn.linear_model import SGDClassifier, Perceptron\n"
                    "clf = SGDClassifier(random_state=0).fit(X, y)\n"
                    "perceptron = Perceptron().fit(X, y)\n"
                ),
                after=_DATA
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
