"""XGBoost drift (0.x/1.x -> 3.x)."""

from __future__ import annotations

from nbmodernizer.fixers.rules.cst_tools import chain, cst_rewrite
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.xgboost_transforms import (
    DATA,
    SPLIT,
    BestNtreeLimit,
    GpuParams,
    best_ntree_limit_gone,
    fit_keywords,
    fit_lacks,
    gpu_hist_rejected,
    ntree_limit,
    predict_lacks_ntree_limit,
    silent_ignored,
    silent_to_verbosity,
)

RULES = (
    Rule(
        id="xgboost.fit-early-stopping",
        library="xgboost",
        changed_in="2.0",
        summary="`model.fit(..., early_stopping_rounds=, eval_metric=, callbacks=)` -> the "
        "keywords move to `model = XGBClassifier(...)` of the cell (else `model.set_params(...)`)",
        kind=Kind.API,
        rewrite=fit_keywords(any_receiver=False),
        symptoms=(
            Symptom(
                "TypeError",
                r"XGB\w*\.fit\(\) got an unexpected keyword argument "
                r"'(early_stopping_rounds|eval_metric|callbacks)'",
            ),
        ),
        gone=lambda: fit_lacks("early_stopping_rounds"),
        examples=(
            Example(
                before=(
                    DATA + "from xgboost import XGBClassifier, XGBRegressor\n"
                    "model = XGBClassifier(n_estimators=100, learning_rate=0.5)\n"
                    f"model.fit(X[:200], y[:200], {SPLIT},\n"
                    "          early_stopping_rounds=3, eval_metric='logloss', verbose=False)\n"
                    "reg = XGBRegressor(n_estimators=100).fit(\n"
                    f"    X[:200], y[:200], {SPLIT}, early_stopping_rounds=2,\n"
                    "    verbose=False)\n"
                    "history = model.evals_result()['validation_0']['logloss']\n"
                ),
                after=(
                    DATA + "from xgboost import XGBClassifier, XGBRegressor\n"
                    "model = XGBClassifier(n_estimators=100, learning_rate=0.5, "
                    "early_stopping_rounds=3, eval_metric='logloss')\n"
                    f"model.fit(X[:200], y[:200], {SPLIT}, verbose=False)\n"
                    "reg = XGBRegressor(n_estimators=100, early_stopping_rounds=2).fit(\n"
                    f"    X[:200], y[:200], {SPLIT},\n"
                    "    verbose=False)\n"
                    "history = model.evals_result()['validation_0']['logloss']\n"
                ),
                error="TypeError",
                # stopped 3 rounds after the best one, on the metric asked for
                check=(
                    "len(history) == model.best_iteration + 4 < 100 "
                    "and min(history) == history[model.best_iteration] "
                    "and len(reg.evals_result()['validation_0']['rmse']) == reg.best_iteration + 3"
                ),
            ),
            Example(
                before=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.XGBClassifier(n_estimators=100, learning_rate=0.5)\n"
                    "for rounds in (2, 3):  # refits with other settings: set_params\n"
                    f"    model.fit(X[:200], y[:200], {SPLIT}, early_stopping_rounds=rounds,\n"
                    "              verbose=False)\n"
                    "    extra = len(model.evals_result()['validation_0']['logloss']) - 1\n"
                    "    assert extra - model.best_iteration == rounds\n"
                    f"model.fit(X[:200], y[:200], {SPLIT}, eval_metric=['error'], verbose=0)\n"
                ),
                after=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.XGBClassifier(n_estimators=100, learning_rate=0.5)\n"
                    "for rounds in (2, 3):  # refits with other settings: set_params\n"
                    f"    model.set_params(early_stopping_rounds=rounds).fit(X[:200], y[:200], {SPLIT},\n"
                    "              verbose=False)\n"
                    "    extra = len(model.evals_result()['validation_0']['logloss']) - 1\n"
                    "    assert extra - model.best_iteration == rounds\n"
                    "model.set_params(eval_metric=['error']).fit(X[:200], y[:200], "
                    f"{SPLIT}, verbose=0)\n"
                ),
                error="TypeError",
                check="list(model.evals_result()['validation_0']) == ['error']",
            ),
        ),
    ),
    Rule(
        id="xgboost.predict-ntree-limit",
        library="xgboost",
        changed_in="2.0",
        summary="`predict(X, ntree_limit=n)` -> `predict(X, iteration_range=(0, n))` on XGBoost "
        "models and boosters built in the cell",
        kind=Kind.API,
        rewrite=ntree_limit(any_receiver=False),
        symptoms=(
            Symptom(
                "TypeError",
                r"(XGB\w*|Booster)\.predict(_proba)?\(\) got an unexpected keyword argument "
                r"'ntree_limit'",
            ),
        ),
        gone=predict_lacks_ntree_limit,
        examples=(
            Example(
                before=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.XGBClassifier(n_estimators=20, max_depth=2).fit(X, y)\n"
                    "first5 = model.predict_proba(X, ntree_limit=5)\n"
                    "booster = xgb.train({'max_depth': 2}, xgb.DMatrix(X, label=y), 20)\n"
                    "margin = booster.predict(xgb.DMatrix(X), ntree_limit=5, output_margin=True)\n"
                    "every = booster.predict(xgb.DMatrix(X), ntree_limit=0)\n"
                ),
                after=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.XGBClassifier(n_estimators=20, max_depth=2).fit(X, y)\n"
                    "first5 = model.predict_proba(X, iteration_range=(0, 5))\n"
                    "booster = xgb.train({'max_depth': 2}, xgb.DMatrix(X, label=y), 20)\n"
                    "margin = booster.predict(xgb.DMatrix(X), iteration_range=(0, 5), "
                    "output_margin=True)\n"
                    "every = booster.predict(xgb.DMatrix(X), iteration_range=(0, 0))\n"
                ),
                error="TypeError",
                # the first 5 trees: what a 5-tree model predicts
                check=(
                    "np.allclose(first5, xgb.XGBClassifier(n_estimators=5, max_depth=2)"
                    ".fit(X, y).predict_proba(X)) and np.allclose(margin, "
                    "xgb.train({'max_depth': 2}, xgb.DMatrix(X, label=y), 5)"
                    ".predict(xgb.DMatrix(X), output_margin=True)) "
                    "and np.allclose(every, booster.predict(xgb.DMatrix(X)))"
                ),
            ),
        ),
    ),
    Rule(
        id="xgboost.best-ntree-limit",
        library="xgboost",
        changed_in="2.0",
        summary="`model.best_ntree_limit` -> `model.best_iteration + 1`",
        kind=Kind.API,
        rewrite=cst_rewrite(BestNtreeLimit),
        symptoms=(Symptom("AttributeError", r"object has no attribute 'best_ntree_limit'"),),
        gone=best_ntree_limit_gone,
        examples=(
            Example(
                before=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.XGBClassifier(n_estimators=100, learning_rate=0.5, "
                    "early_stopping_rounds=3)\n"
                    f"model.fit(X[:200], y[:200], {SPLIT}, verbose=False)\n"
                    "trees = model.best_ntree_limit\n"
                    "span = (0, model.best_ntree_limit)\n"
                    "double = 2 * model.best_ntree_limit\n"
                ),
                after=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.XGBClassifier(n_estimators=100, learning_rate=0.5, "
                    "early_stopping_rounds=3)\n"
                    f"model.fit(X[:200], y[:200], {SPLIT}, verbose=False)\n"
                    "trees = model.best_iteration + 1\n"
                    "span = (0, model.best_iteration + 1)\n"
                    "double = 2 * (model.best_iteration + 1)\n"
                ),
                error="AttributeError",
                # the trees up to the best round: all but the 3 rounds of patience
                check=(
                    "trees == model.get_booster().num_boosted_rounds() - 3 "
                    "and span == (0, trees) and double == 2 * trees"
                ),
            ),
        ),
    ),
    Rule(
        id="xgboost.gpu-params",
        library="xgboost",
        changed_in="2.0",
        summary="`tree_method='gpu_hist'` -> `'hist'` (+ `device='cuda'` with a GPU), `gpu_id` -> "
        "`device`, `predictor` dropped",
        kind=Kind.API,
        rewrite=cst_rewrite(GpuParams),
        symptoms=(
            Symptom("XGBoostError", r"Invalid Input: 'gpu_(hist|exact)'"),
            Symptom("XGBoostError", r"`gpu_id` has been removed"),
        ),
        gone=gpu_hist_rejected,
        examples=(
            Example(
                before=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.XGBClassifier(n_estimators=5, tree_method='gpu_hist', gpu_id=0,\n"
                    "                          predictor='gpu_predictor').fit(X, y)\n"
                    "params = {'max_depth': 2, \"tree_method\": \"gpu_hist\", 'gpu_id': 0}\n"
                    "booster = xgb.train(params, xgb.DMatrix(X, label=y), 5)\n"
                    "params['tree_method'] = 'gpu_hist'\n"
                ),
                after=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.XGBClassifier(n_estimators=5, tree_method='hist').fit(X, y)\n"
                    'params = {\'max_depth\': 2, "tree_method": "hist"}\n'
                    "booster = xgb.train(params, xgb.DMatrix(X, label=y), 5)\n"
                    "params['tree_method'] = 'hist'\n"
                ),
                error="XGBoostError",
                check=(
                    "np.allclose(model.predict_proba(X), xgb.XGBClassifier(n_estimators=5, "
                    "tree_method='hist').fit(X, y).predict_proba(X)) "
                    "and booster.num_boosted_rounds() == 5"
                ),
            ),
        ),
    ),
    Rule(
        id="xgboost.silent-to-verbosity",
        library="xgboost",
        changed_in="1.0",
        summary="`XGBClassifier(silent=True)` -> `verbosity=0` (`silent` is ignored now)",
        kind=Kind.SILENT,
        rewrite=silent_to_verbosity,
        gone=silent_ignored,
        examples=(
            Example(
                before=(
                    DATA + "from xgboost import XGBClassifier, XGBRegressor\n"
                    "quiet = XGBClassifier(n_estimators=2, silent=True).fit(X, y)\n"
                    "loud = XGBRegressor(n_estimators=2, silent=False)\n"
                ),
                after=(
                    DATA + "from xgboost import XGBClassifier, XGBRegressor\n"
                    "quiet = XGBClassifier(n_estimators=2, verbosity=0).fit(X, y)\n"
                    "loud = XGBRegressor(n_estimators=2, verbosity=1)\n"
                ),
                check=(
                    "quiet.get_params()['verbosity'] == 0 and loud.get_params()['verbosity'] == 1 "
                    "and 'silent' not in quiet.get_params()"
                ),
            ),
        ),
    ),
    Rule(
        id="xgboost.fit-predict-any-receiver",
        library="xgboost",
        changed_in="2.0",
        summary="reactive: the same two fixes for a model the cell did not build "
        "(`model.set_params(early_stopping_rounds=...).fit(...)`, `iteration_range`)",
        kind=Kind.API,
        rewrite=chain(fit_keywords(any_receiver=True), ntree_limit(any_receiver=True)),
        symptoms=(
            Symptom(
                "TypeError",
                r"XGB\w*\.fit\(\) got an unexpected keyword argument "
                r"'(early_stopping_rounds|eval_metric|callbacks)'",
            ),
            Symptom(
                "TypeError",
                r"(XGB\w*|Booster)\.predict(_proba)?\(\) got an unexpected keyword argument "
                r"'ntree_limit'",
            ),
        ),
        examples=(
            Example(
                before=(
                    DATA + "import xgboost as xgb\n"
                    "models = {'xgb': xgb.XGBClassifier(n_estimators=100, learning_rate=0.5)}\n"
                    "model = models['xgb']\n"
                    f"model.fit(X[:200], y[:200], {SPLIT}, early_stopping_rounds=3, verbose=False)\n"
                    "proba = model.predict_proba(X, ntree_limit=4)\n"
                ),
                after=(
                    DATA + "import xgboost as xgb\n"
                    "models = {'xgb': xgb.XGBClassifier(n_estimators=100, learning_rate=0.5)}\n"
                    "model = models['xgb']\n"
                    f"model.set_params(early_stopping_rounds=3).fit(X[:200], y[:200], {SPLIT}, "
                    "verbose=False)\n"
                    "proba = model.predict_proba(X, iteration_range=(0, 4))\n"
                ),
                error="TypeError",
                check=(
                    "len(model.evals_result()['validation_0']['logloss']) == model.best_iteration + 4"
                    " and np.allclose(proba, xgb.XGBClassifier(n_estimators=4, learning_rate=0.5)"
                    ".fit(X[:200], y[:200]).predict_proba(X))"
                ),
            ),
        ),
    ),
)
