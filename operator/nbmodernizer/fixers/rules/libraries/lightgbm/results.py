"""LightGBM 4's `cv()` result keys (`'auc-mean'` -> `'valid auc-mean'`)."""

from __future__ import annotations

import re

import libcst as cst

from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite

_CV_KEY = re.compile(r"[\w@:.]+-(mean|stdv)")


class _CvResultKeys(cst.CSTTransformer):
    """`results['auc-mean']` -> `results['valid auc-mean']`: lightgbm 4's `cv()` names its
    metrics after the data set (`valid`, and `train` with `eval_train_metric`). Reactive: only
    in the cell whose subscript raised KeyError on such a key, only string subscripts of that
    shape, and not when the key already names a set."""

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        if len(updated_node.slice) != 1:
            return updated_node
        index = updated_node.slice[0].slice
        if not isinstance(index, cst.Index) or not isinstance(index.value, cst.SimpleString):
            return updated_node
        key = index.value.evaluated_value
        if not isinstance(key, str) or not _CV_KEY.fullmatch(key):
            return updated_node
        quote = index.value.quote
        value = cst.SimpleString(f"{index.value.prefix}{quote}valid {key}{quote}")
        element = updated_node.slice[0].with_changes(slice=index.with_changes(value=value))
        return updated_node.with_changes(slice=[element])


_DATA = (
    "import numpy as np\n"
    "import lightgbm as lgb\n"
    "rng = np.random.RandomState(0)\n"
    "X = rng.rand(300, 3); y = (X[:, 0] + 0.5 * rng.rand(300) > 0.7).astype(int)\n"
    "train = lgb.Dataset(X, y)\n"
    "params = {'objective': 'binary', 'learning_rate': 0.5, 'verbose': -1}\n"
)

RULES = (
    Rule(
        id="lightgbm.cv-result-keys",
        library="lightgbm",
        changed_in="4.0",
        summary="reactive: `cv_results['auc-mean']` (KeyError) -> `cv_results['valid auc-mean']` "
        "(lightgbm 4's `cv()` prefixes each metric with its data set); only string keys ending "
        "in `-mean` / `-stdv` of the failing cell",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: _CvResultKeys()),
        symptoms=(Symptom("KeyError", r"^'[\w@:.]+-(mean|stdv)'$"),),
        examples=(
            Example(
                # two rounds: from the third on, LightGBM 4 grows other trees than 2.3 did from
                # the same data and parameters (its own change), and the proof against the past
                # compares the series the keys name
                before=(
                    _DATA + "results = lgb.cv(params, train, 2, nfold=3, stratified=False)\n"
                    "best = len(results['binary_logloss-mean'])\n"
                    "spread = results['binary_logloss-stdv'][-1]\n"
                ),
                after=(
                    _DATA + "results = lgb.cv(params, train, 2, nfold=3, stratified=False)\n"
                    "best = len(results['valid binary_logloss-mean'])\n"
                    "spread = results['valid binary_logloss-stdv'][-1]\n"
                ),
                error="KeyError",
                check="best == 2 and spread >= 0",
                era_differences={
                    "results": "the keys of the dict cv() returns name the data set since "
                    "lightgbm 4 ('valid binary_logloss-mean'): the rename the rule follows; the "
                    "series they name agree"
                },
            ),
        ),
    ),
)
