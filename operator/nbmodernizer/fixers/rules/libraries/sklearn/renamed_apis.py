"""scikit-learn drift: renamed and removed classes and functions."""

from __future__ import annotations

from typing import ClassVar

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.sklearn.common import DATA
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    as_keyword,
    has_star_args,
    new_arg,
    string_value,
    with_args,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite, only_if
from nbmodernizer.fixers.rules.toolkit.moves import Move, move_names
from nbmodernizer.fixers.rules.toolkit.needles import call_to, parts
from nbmodernizer.fixers.rules.toolkit.nodes import code, expression, qualified
from nbmodernizer.fixers.rules.toolkit.probes import all_of, lacks, module_gone

_IMPUTER_PARAMS = ("missing_values", "strategy", "axis", "verbose", "copy")

_IMPUTERS = ("sklearn.preprocessing.Imputer", "sklearn.preprocessing.imputation.Imputer")


class ImputerArguments(cst.CSTTransformer):
    """`Imputer(missing_values='NaN', strategy=s, axis=0, verbose=v)` -> SimpleImputer's."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context
        numpy = next((k for k, v in context.aliases.items() if v == "numpy"), None)
        self.nan = f"{numpy}.nan" if numpy else 'float("nan")'

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if qualified(original_node.func, self.context.aliases) not in _IMPUTERS or has_star_args(
            updated_node
        ):
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


class CurveKeywords(cst.CSTTransformer):
    """`plot_roc_curve(..., color='r')`: matplotlib keywords -> `curve_kwargs={...}`."""

    KNOWN: ClassVar[frozenset[str]] = frozenset(
        {"sample_weight", "drop_intermediate", "response_method", "name", "ax", "pos_label"}
    )

    def __init__(self, context: RuleContext, function: str) -> None:
        self.context, self.function = context, function

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if qualified(original_node.func, self.context.aliases) != self.function or has_star_args(
            updated_node
        ):
            return updated_node
        extra = [a for a in updated_node.args if a.keyword and a.keyword.value not in self.KNOWN]
        if not extra:
            return updated_node
        items = ", ".join(f"{a.keyword.value!r}: {code(a.value)}" for a in extra if a.keyword)
        kept = [a for a in updated_node.args if not any(a is e for e in extra)]
        curve_kwargs = new_arg("curve_kwargs", f"{{{items}}}")
        return with_args(updated_node, [*kept, curve_kwargs], keep_trailing_comma=True)


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

RULES = (
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
            cst_rewrite(ImputerArguments, parts(*_IMPUTERS), call_to(_IMPUTERS)),
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
        gone=lacks("sklearn.preprocessing", "Imputer"),
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
        gone=all_of(module_gone("sklearn.lda"), module_gone("sklearn.qda")),
        examples=(
            Example(
                before=DATA
                + (
                    "from sklearn.lda import LDA\n"
                    "from sklearn.qda import QDA\n"
                    "lda = LDA(n_components=1).fit(X, y)\n"
                    "qda = QDA().fit(X, y)\n"
                    "reduced = LDA(n_components=1).fit_transform(X, y)\n"
                ),
                after=DATA
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
        gone=lacks("sklearn.neighbors", "DistanceMetric"),
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
            "calinski_harabaz_score",
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
        gone=lacks("sklearn.metrics", "calinski_harabaz_score"),
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
            cst_rewrite(
                lambda context: CurveKeywords(context, "sklearn.metrics.plot_roc_curve"),
                ("plot_roc_curve",),
            ),
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
        gone=lacks("sklearn.metrics", "plot_confusion_matrix"),
        examples=(
            Example(
                before=DATA
                + (
                    "import matplotlib\n"
                    "matplotlib.use('Agg')\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "from sklearn.metrics import confusion_matrix, plot_confusion_matrix, plot_roc_curve\n"
                    "clf = LogisticRegression().fit(X, y)\n"
                    "cm = plot_confusion_matrix(clf, X, y, normalize='true')\n"
                    "roc = plot_roc_curve(clf, X, y, name='lr', color='red', lw=2)\n"
                ),
                after=DATA
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
)
