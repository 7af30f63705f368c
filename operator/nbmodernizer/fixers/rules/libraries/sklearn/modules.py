"""scikit-learn drift: moved and private modules."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.sklearn.common import DATA, into
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    as_keyword,
    has_star_args,
    keyword_arg,
    new_arg,
    positional_args,
    with_args,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite, only_if
from nbmodernizer.fixers.rules.toolkit.moves import Move, move_modules, move_names
from nbmodernizer.fixers.rules.toolkit.needles import call_to
from nbmodernizer.fixers.rules.toolkit.nodes import code, expression, is_constant, qualified
from nbmodernizer.fixers.rules.toolkit.probes import all_of, module_gone

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
        name = qualified(original_node.func, self.context.aliases) or ""
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


# -------------------------------------------------------------------------------- tables

# private modules deprecated in 0.22 and removed in 0.24 (plus older ones), -> public package
_PRIVATE_MODULES: dict[str, str] = {
    **into(
        "sklearn.linear_model",
        "base bayes coordinate_descent huber least_angle logistic omp passive_aggressive "
        "perceptron ransac ridge sag stochastic_gradient theil_sen",
    ),
    **into(
        "sklearn.ensemble",
        "bagging base forest gradient_boosting iforest voting voting_classifier weight_boosting",
    ),
    **into("sklearn.tree", "tree export"),
    **into("sklearn.metrics", "scorer classification regression ranking base"),
    **into("sklearn.preprocessing", "data label"),
    **into(
        "sklearn.datasets",
        "samples_generator base california_housing covtype kddcup99 lfw olivetti_faces openml "
        "rcv1 species_distributions svmlight_format twenty_newsgroups",
    ),
    **into(
        "sklearn.cluster",
        "affinity_propagation_ bicluster birch dbscan_ hierarchical k_means_ mean_shift_ "
        "optics_ spectral",
    ),
    # not `dict_learning`: the package's public function of that name shadowed the module, so
    # `from sklearn.decomposition import dict_learning` was and is the function
    **into(
        "sklearn.decomposition",
        "base factor_analysis fastica_ incremental_pca kernel_pca nmf online_lda "
        "pca sparse_pca truncated_svd",
    ),
    **into(
        "sklearn.feature_selection",
        "base from_model mutual_info_ rfe univariate_selection variance_threshold",
    ),
    **into("sklearn.svm", "base classes"),
    **into(
        "sklearn.neighbors",
        "base classification regression unsupervised kde nca lof nearest_centroid graph "
        "ball_tree kd_tree",
    ),
    "sklearn.neighbors.dist_metrics": "sklearn.metrics",
    **into("sklearn.feature_extraction", "dict_vectorizer hashing"),
    "sklearn.feature_extraction.stop_words": "sklearn.feature_extraction.text",
    **into("sklearn.mixture", "base bayesian_mixture gaussian_mixture"),
    **into("sklearn.manifold", "isomap locally_linear mds spectral_embedding_ t_sne"),
    **into("sklearn.semi_supervised", "label_propagation"),
    **into("sklearn.neural_network", "multilayer_perceptron rbm"),
    **into(
        "sklearn.covariance",
        "elliptic_envelope empirical_covariance_ graph_lasso_ robust_covariance shrunk_covariance_",
    ),
    **into("sklearn.gaussian_process", "gpc gpr"),
    **into("sklearn.cross_decomposition", "pls_ cca_"),
    "sklearn.utils.testing": "sklearn.utils._testing",
}

_PRIVATE_MOVES: dict[str, Move] = {
    **{old: Move(new, module=True) for old, new in _PRIVATE_MODULES.items()},
    "sklearn.utils.testing.all_estimators": Move("sklearn.utils.all_estimators"),
}

# a cell that needs the move names one of these (the old module, or `sklearn`)
_PRIVATE_NEEDLES = ("sklearn", *sorted({old.rpartition(".")[2] for old in _PRIVATE_MODULES}))


RULES = (
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
            cst_rewrite(
                OldSplitters,
                tuple(_OLD_SPLITTERS),
                call_to([f"sklearn.cross_validation.{name}" for name in _OLD_SPLITTERS]),
            ),
            move_modules({"sklearn.cross_validation": "sklearn.model_selection"}),
        ),
        symptoms=(
            Symptom("ModuleNotFoundError", r"No module named 'sklearn\.cross_validation'"),
            Symptom("ImportError", r"cannot import name 'cross_validation' from 'sklearn'"),
        ),
        gone=module_gone("sklearn.cross_validation"),
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
                    "scores = cross_val_score(LogisticRegression(solver='liblinear'), X, y, cv=strata)\n"
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
                    "scores = cross_val_score(LogisticRegression(solver='liblinear'), X, y, cv=strata)\n"
                ),
                error="ModuleNotFoundError",
                check=(
                    "[list(f) for f in folds] == [list(range(i, i + 5)) for i in (0, 5, 10, 15)]"
                    " and len(scores) == 5 and len(X_te) == 5"
                    " and all(sorted(y[test]) == [0, 0, 1, 1] for train, test in strata)"
                ),
                era_differences={
                    "scores": "a shuffled StratifiedKFold draws other folds from the same seed "
                    "since `model_selection` (0.18: one seed per class where the old class "
                    "shared one generator), and again since 0.22 (another allocation): no "
                    "argument of today's API reproduces the old draw; unshuffled, the folds "
                    "agree (the next example)"
                },
            ),
            Example(
                before=(
                    "from sklearn import cross_validation\n"
                    "kf = cross_validation.KFold(9, random_state=1)\n"
                    "sizes = [len(test) for train, test in kf]\n"
                    "splits = cross_validation.ShuffleSplit(9, n_iter=4, train_size=0.5, random_state=0)\n"
                    "tests = [list(test) for train, test in splits]\n"
                    "strata = [list(test) for train, test in cross_validation.StratifiedKFold([0, 1] * 6, n_folds=3)]\n"
                ),
                after=(
                    "from sklearn import model_selection\n"
                    "kf = list(model_selection.KFold(n_splits=3).split(range(9)))\n"
                    "sizes = [len(test) for train, test in kf]\n"
                    "splits = list(model_selection.ShuffleSplit(n_splits=4, test_size=0.1, train_size=0.5, random_state=0).split(range(9)))\n"
                    "tests = [list(test) for train, test in splits]\n"
                    "strata = [list(test) for train, test in list(model_selection.StratifiedKFold(n_splits=3).split([0, 1] * 6, [0, 1] * 6))]\n"
                ),
                error="ImportError",
                check="sizes == [3, 3, 3] and len(kf) == 3 and [len(t) for t in tests] == [1] * 4"
                " and strata == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]",
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
        gone=module_gone("sklearn.grid_search"),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.grid_search import GridSearchCV\n"
                    "import sklearn.grid_search\n"
                    "from sklearn.svm import SVC\n"
                    "search = GridSearchCV(SVC(), {'C': [0.1, 10.0]}, cv=3).fit(X, y)\n"
                    "grid = list(sklearn.grid_search.ParameterGrid({'C': [1, 2]}))\n"
                ),
                after=DATA
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
        gone=module_gone("sklearn.learning_curve"),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.learning_curve import learning_curve\n"
                    "from sklearn.tree import DecisionTreeClassifier\n"
                    "sizes, train, test = learning_curve(DecisionTreeClassifier(max_depth=2), X, y,"
                    " train_sizes=[0.5, 1.0], cv=3)\n"
                ),
                after=DATA
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
        gone=module_gone("sklearn.externals.joblib"),
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
        gone=module_gone("sklearn.externals.six"),
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
        # a module imported by name keeps it (`from sklearn.feature_extraction import text as
        # stop_words`): its new name (`text`) is often a name the notebook uses for another thing
        rewrite=only_if(*_PRIVATE_NEEDLES, rewrite=move_names(_PRIVATE_MOVES, keep_local=True)),
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
        gone=all_of(*(module_gone(old) for old in _PRIVATE_MODULES)),
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
)
