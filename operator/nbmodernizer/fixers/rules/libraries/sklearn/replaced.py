"""scikit-learn parameters and names replaced by another construct: OneHotEncoder's
`categorical_features` (a ColumnTransformer), AdaBoost's `algorithm='SAMME'`, `SCORERS`."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.sklearn.common import DATA
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    CallRewriter,
    calls_to,
    edit_keywords,
    keyword_arg,
    rewrite_calls,
    string_value,
    without_keywords,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite, only_if
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer
from nbmodernizer.fixers.rules.toolkit.nodes import code, expression, qualified
from nbmodernizer.fixers.rules.toolkit.probes import lacks, no_parameter
from nbmodernizer.fixers.rules.toolkit.statements import drop_imported_names

# --- OneHotEncoder(categorical_features=cols) ------------------------------------------------


def _categorical_features(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`OneHotEncoder(categorical_features=cols, ...)` -> `ColumnTransformer([('onehot',
    OneHotEncoder(...), cols)], remainder='passthrough', sparse_threshold=1.0)`: the encoded
    columns first, then the others unchanged, sparse when the encoder is (as it was).
    `categorical_features='all'` (the default) is dropped."""
    arg = keyword_arg(call, "categorical_features")
    if arg is None or any(a.star for a in call.args):
        return None
    encoder = without_keywords(call, ["categorical_features"])
    if string_value(arg) == "all":
        return encoder
    transformer = rewriter.local_name("sklearn.compose.ColumnTransformer")
    return expression(
        f"{transformer}([('onehot', {code(encoder)}, {code(arg.value)})], "
        "remainder='passthrough', sparse_threshold=1.0)"
    )


# --- AdaBoost(algorithm='SAMME') ---------------------------------------------------------------

_ADABOOST = calls_to("sklearn.ensemble.AdaBoostClassifier")


def _samme_only(arg: cst.Arg) -> cst.Arg | None:
    """SAMME is the only algorithm left: `algorithm='SAMME'` is dropped; 'SAMME.R' (real
    boosting on probabilities, which no estimator computes any more) is left for a person."""
    return None if string_value(arg) == "SAMME" else arg


# --- sklearn.metrics.SCORERS -------------------------------------------------------------------


class _Scorers(ImportingTransformer):
    """`SCORERS.keys()` -> `get_scorer_names()`, `SCORERS[name]` -> `get_scorer(name)`
    (`sorted(SCORERS)` too: the names were the keys)."""

    def _is_scorers(self, node: cst.BaseExpression) -> bool:
        return qualified(node, self.aliases) == "sklearn.metrics.SCORERS"

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = original_node.func
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value == "keys"
            and not original_node.args
            and self._is_scorers(func.value)
        ):
            return expression(f"{self.local_name('sklearn.metrics.get_scorer_names')}()")
        if isinstance(func, cst.Name) and func.value in ("sorted", "list"):
            args = original_node.args
            if len(args) == 1 and args[0].keyword is None and self._is_scorers(args[0].value):
                names = self.local_name("sklearn.metrics.get_scorer_names")
                return updated_node.with_changes(args=[cst.Arg(value=expression(f"{names}()"))])
        return updated_node

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        if not self._is_scorers(original_node.value) or len(original_node.slice) != 1:
            return updated_node
        index = original_node.slice[0].slice
        if not isinstance(index, cst.Index):
            return updated_node
        getter = self.local_name("sklearn.metrics.get_scorer")
        return expression(f"{getter}({code(index.value)})")


def _scorers(context: RuleContext) -> cst.CSTTransformer:
    return _Scorers(context)


RULES = (
    Rule(
        id="sklearn.onehotencoder-categorical-features",
        library="scikit-learn",
        changed_in="0.22",
        summary="`OneHotEncoder(categorical_features=cols)` -> `ColumnTransformer([('onehot', "
        "OneHotEncoder(), cols)], remainder='passthrough', sparse_threshold=1.0)` (encoded "
        "columns first, the rest after, as it was); `categorical_features='all'` dropped",
        kind=Kind.API,
        rewrite=only_if(
            "categorical_features",
            rewrite=rewrite_calls({"sklearn.preprocessing.OneHotEncoder": _categorical_features}),
        ),
        symptoms=(
            Symptom(
                "TypeError",
                r"OneHotEncoder\.__init__\(\) got an unexpected keyword argument "
                r"'categorical_features'",
            ),
        ),
        gone=no_parameter("sklearn.preprocessing.OneHotEncoder", "categorical_features"),
        examples=(
            Example(
                before="import numpy as np\nfrom sklearn.preprocessing import OneHotEncoder\n"
                "X = np.array([[5.0, 0, 1.5], [6.0, 2, 2.5], [7.0, 0, 3.5]])\n"
                "enc = OneHotEncoder(categorical_features=[1])\n"
                "out = enc.fit_transform(X).toarray()\n"
                "same = OneHotEncoder(categorical_features='all').fit_transform(X[:, [1]])\n",
                after="import numpy as np\nfrom sklearn.preprocessing import OneHotEncoder\n"
                "from sklearn.compose import ColumnTransformer\n"
                "X = np.array([[5.0, 0, 1.5], [6.0, 2, 2.5], [7.0, 0, 3.5]])\n"
                "enc = ColumnTransformer([('onehot', OneHotEncoder(), [1])], "
                "remainder='passthrough', sparse_threshold=1.0)\n"
                "out = enc.fit_transform(X).toarray()\n"
                "same = OneHotEncoder().fit_transform(X[:, [1]])\n",
                error="TypeError",
                check="out.tolist() == [[1, 0, 5.0, 1.5], [0, 1, 6.0, 2.5], [1, 0, 7.0, 3.5]] "
                "and same.shape == (3, 2)",
            ),
        ),
    ),
    Rule(
        id="sklearn.adaboost-algorithm",
        library="scikit-learn",
        changed_in="1.8",
        summary="`AdaBoostClassifier(algorithm='SAMME')` -> the keyword dropped (SAMME is the "
        "only algorithm left); `algorithm='SAMME.R'` is left for a person: nothing computes "
        "it any more",
        kind=Kind.API,
        rewrite=only_if("algorithm", rewrite=edit_keywords(_ADABOOST, {"algorithm": _samme_only})),
        symptoms=(
            Symptom(
                "TypeError",
                r"AdaBoostClassifier\.__init__\(\) got an unexpected keyword argument 'algorithm'",
            ),
        ),
        gone=no_parameter("sklearn.ensemble.AdaBoostClassifier", "algorithm"),
        examples=(
            Example(
                before=DATA + "from sklearn.ensemble import AdaBoostClassifier\n"
                "a = AdaBoostClassifier(n_estimators=5, algorithm='SAMME', random_state=0)"
                ".fit(X, y)\n",
                after=DATA + "from sklearn.ensemble import AdaBoostClassifier\n"
                "a = AdaBoostClassifier(n_estimators=5, random_state=0).fit(X, y)\n",
                error="TypeError",
                check="len(a.estimators_) == 5 and a.score(X, y) > 0.8",
            ),
        ),
    ),
    Rule(
        id="sklearn.metrics-scorers",
        library="scikit-learn",
        changed_in="1.3",
        summary="`sklearn.metrics.SCORERS.keys()` -> `get_scorer_names()`, `SCORERS[name]` -> "
        "`get_scorer(name)`",
        kind=Kind.API,
        rewrite=chain(
            cst_rewrite(_scorers, ("SCORERS",)),
            drop_imported_names("sklearn.metrics", ["SCORERS"]),
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'sklearn\.metrics' has no attribute 'SCORERS'"),
            Symptom("ImportError", r"cannot import name 'SCORERS' from 'sklearn\.metrics'"),
        ),
        gone=lacks("sklearn.metrics", "SCORERS"),
        examples=(
            Example(
                # scikit-learn adds scorers in every release: the names compared are some of
                # the oldest, and the value a scorer computes
                before=DATA + "import sklearn.metrics\nfrom sklearn.metrics import SCORERS\n"
                "from sklearn.linear_model import LogisticRegression\n"
                "known = sorted(set(SCORERS.keys()) & {'accuracy', 'roc_auc', 'neg_log_loss'})\n"
                "auc = sklearn.metrics.SCORERS['roc_auc']\n"
                "value = auc(LogisticRegression(solver='liblinear').fit(X, y), X, y)\n",
                after=DATA
                + "import sklearn.metrics\nfrom sklearn.metrics import get_scorer_names, "
                "get_scorer\n"
                "from sklearn.linear_model import LogisticRegression\n"
                "known = sorted(set(get_scorer_names()) & {'accuracy', 'roc_auc', 'neg_log_loss'})\n"
                "auc = get_scorer('roc_auc')\n"
                "value = auc(LogisticRegression(solver='liblinear').fit(X, y), X, y)\n",
                error="ImportError",
                check="known == ['accuracy', 'neg_log_loss', 'roc_auc'] "
                "and auc._score_func.__name__ == 'roc_auc_score' and 0.5 < value <= 1",
            ),
        ),
    ),
)
