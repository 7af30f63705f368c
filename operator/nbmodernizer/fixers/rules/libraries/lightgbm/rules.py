"""LightGBM drift (2.x/3.x -> 4.x): training controls became callbacks."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rewrite, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    argument,
    callee_is,
    keyword_arg,
    method_name,
    replace_keywords,
    without_keywords,
)
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.imports import (
    ImportingTransformer,
    local_names,
    module_alias,
)
from nbmodernizer.fixers.rules.toolkit.needles import call_to, passes_keyword
from nbmodernizer.fixers.rules.toolkit.nodes import code, dotted_name, qualified
from nbmodernizer.fixers.rules.toolkit.probes import no_parameter
from nbmodernizer.fixers.rules.toolkit.traversal import look

SKLEARN_CLASSES = (
    "lightgbm.LGBMClassifier",
    "lightgbm.LGBMRegressor",
    "lightgbm.LGBMRanker",
    "lightgbm.LGBMModel",
)

TRAINING_FUNCTIONS = (
    "lightgbm.train",
    "lightgbm.cv",
    "lightgbm.engine.train",
    "lightgbm.engine.cv",
)


class _CallbackNaming(ImportingTransformer):
    """Names LightGBM's callback functions the way the cell can: `<prefix>.early_stopping`
    after the module (`lgb.`), else the name the notebook imported it under (`from lightgbm
    import early_stopping`), else `lightgbm.early_stopping` with `import lightgbm` added (never
    a new bare name, which could shadow the notebook's own `early_stopping`)."""

    def callback(self, prefix: str | None, function: str) -> str:
        if prefix is not None:
            return f"{prefix}.{function}"
        bound = local_names(self.aliases, f"lightgbm.{function}")
        if bound:
            return bound[0]
        return f"{self.module_ref('lightgbm')}.{function}"


def _callbacks(
    name: Callable[[str], str],
    rounds: cst.Arg | None,
    verbose: cst.Arg | None,
    record: cst.Arg | None,
) -> list[cst.BaseExpression]:
    """The callbacks that do what `early_stopping_rounds`, `verbose_eval` / `verbose` and
    `evals_result` did (lightgbm 3.x: early stopping reported unless verbosity was off);
    `name("early_stopping")` says how the cell names a callback function."""
    callbacks: list[cst.BaseExpression] = []
    quiet = verbose is not None and (
        (isinstance(verbose.value, cst.Name) and verbose.value.value == "False")
        or (isinstance(verbose.value, cst.Integer) and verbose.value.value == "0")
    )
    if rounds is not None:
        extra = ", verbose=False" if quiet else ""
        callbacks.append(
            cst.parse_expression(f"{name('early_stopping')}({code(rounds.value)}{extra})")
        )
    if verbose is not None and not quiet:
        value = verbose.value
        if isinstance(value, cst.Name) and value.value == "True":
            period = "1"
        elif isinstance(value, cst.Integer):
            period = value.value
        else:
            period = f"int({code(value)})"
        callbacks.append(cst.parse_expression(f"{name('log_evaluation')}({period})"))
    if record is not None:
        callbacks.append(cst.parse_expression(f"{name('record_evaluation')}({code(record.value)})"))
    return callbacks


def _with_callbacks(
    call: cst.Call, dropped: Sequence[str], callbacks: list[cst.BaseExpression]
) -> cst.Call:
    """Drop the legacy keywords; their callbacks go to the `callbacks=[...]` list (after
    `callbacks=cbs`), or to a new `callbacks=` where the first legacy keyword was."""
    space = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    elements = [cst.Element(value, comma=space) for value in callbacks]
    if elements:
        elements[-1] = elements[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    existing = keyword_arg(call, "callbacks")
    if existing is None or not elements:
        new = [("callbacks", cst.List(elements))] if elements else []
        return replace_keywords(call, dropped, new)
    value = existing.value
    if isinstance(value, cst.List):
        old = list(value.elements)
        if old:
            old[-1] = old[-1].with_changes(comma=space)
        new_value: cst.BaseExpression = value.with_changes(elements=[*old, *elements])
    else:
        new_value = cst.List([cst.StarredElement(value, comma=space), *elements])
    args = [arg.with_changes(value=new_value) if arg is existing else arg for arg in call.args]
    return without_keywords(call.with_changes(args=args), dropped)


class _TrainCallbacks(_CallbackNaming):
    """`lgb.train(..., early_stopping_rounds=10, verbose_eval=50, evals_result=log)` ->
    `lgb.train(..., callbacks=[lgb.early_stopping(10), lgb.log_evaluation(50),
    lgb.record_evaluation(log)])`; `lgb.cv` too."""

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if qualified(updated_node.func, self.context.aliases) not in TRAINING_FUNCTIONS:
            return updated_node
        rounds = keyword_arg(updated_node, "early_stopping_rounds")
        verbose = keyword_arg(updated_node, "verbose_eval")
        record = keyword_arg(updated_node, "evals_result")
        if rounds is None and verbose is None and record is None:
            return updated_node
        func = dotted_name(updated_node.func) or ""
        prefix = func.rsplit(".", 1)[0] if "." in func else module_alias(self.context, "lightgbm")
        if prefix is not None and prefix.endswith(".engine"):
            prefix = prefix[: -len(".engine")]
        return _with_callbacks(
            updated_node,
            ["early_stopping_rounds", "verbose_eval", "evals_result"],
            _callbacks(lambda function: self.callback(prefix, function), rounds, verbose, record),
        )


_DATASET_KEYWORDS = {  # keyword -> the Dataset's setter, in the order lightgbm 3.x set them
    "feature_name": "set_feature_name",
    "categorical_feature": "set_categorical_feature",
}


class _TrainDatasetArguments(cst.CSTTransformer):
    """`lgb.train(params, dtrain, categorical_feature=cats, feature_name=names)` ->
    `lgb.train(params, dtrain.set_feature_name(names).set_categorical_feature(cats))`: what
    lightgbm 3.x's train()/cv() did with them (on the training Dataset, in that order; the
    validation sets follow it through `reference`); `lgb.cv` too."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if qualified(updated_node.func, self.context.aliases) not in TRAINING_FUNCTIONS:
            return updated_node
        given = [(keyword_arg(updated_node, k), s) for k, s in _DATASET_KEYWORDS.items()]
        present = [(arg, setter) for arg, setter in given if arg is not None]
        data = argument(updated_node, 1, "train_set")
        if not present or data is None:
            return updated_node
        value = data.value
        if not isinstance(value, cst.Name | cst.Attribute | cst.Call | cst.Subscript):
            value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        for arg, setter in present:
            value = cst.Call(
                func=cst.Attribute(value=value, attr=cst.Name(setter)),
                args=[cst.Arg(arg.value)],
            )
        args = [a.with_changes(value=value) if a is data else a for a in updated_node.args]
        return without_keywords(updated_node.with_changes(args=args), list(_DATASET_KEYWORDS))


def _assigned_models(module: cst.Module, context: RuleContext) -> set[str]:
    """Names that the cell only ever assigns a LightGBM sklearn model."""
    assigned: dict[str, bool] = {}

    class Visitor(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    name = target.target.value
                    is_model = isinstance(node.value, cst.Call) and callee_is(
                        node.value, SKLEARN_CLASSES, context
                    )
                    assigned[name] = assigned.get(name, True) and is_model

    look(module, Visitor())
    return {name for name, only_models in assigned.items() if only_models}


_FIT_KEYWORDS = ("early_stopping_rounds", "verbose")


class _FitCallbacks(_CallbackNaming):
    """`model.fit(X, y, eval_set=..., early_stopping_rounds=10, verbose=50)` on a LightGBM
    model -> `model.fit(X, y, eval_set=..., callbacks=[lgb.early_stopping(10),
    lgb.log_evaluation(50)])`: models built in the cell, or (reactive, `any_receiver`) the
    one such fit of the cell."""

    def __init__(self, context: RuleContext, any_receiver: bool) -> None:
        super().__init__(context)
        self.any_receiver = any_receiver
        self.module = cst.Module(body=())  # the cell's, from `visit_Module`

    def _fit(self, call: cst.Call) -> bool:
        return method_name(call) == "fit" and any(keyword_arg(call, k) for k in _FIT_KEYWORDS)

    def _known(self, receiver: cst.BaseExpression) -> bool:
        if isinstance(receiver, cst.Name):
            return receiver.value in self.models
        return isinstance(receiver, cst.Call) and callee_is(receiver, SKLEARN_CLASSES, self.context)

    @functools.cached_property
    def models(self) -> set[str]:
        """The names the cell only ever assigns a LightGBM sklearn model (read at the first
        fit that needs them: most cells have none)."""
        return _assigned_models(self.module, self.context)

    @functools.cached_property
    def candidates(self) -> int:
        """The cell's fits with those keywords on a receiver not known to be a LightGBM model."""
        fits: list[cst.Call] = []

        class Visitor(cst.CSTVisitor):
            def visit_Call(inner, call: cst.Call) -> None:  # noqa: N805
                if self._fit(call):
                    fits.append(call)

        look(self.module, Visitor())
        return sum(
            1
            for call in fits
            if isinstance(call.func, cst.Attribute) and not self._known(call.func.value)
        )

    def visit_Module(self, node: cst.Module) -> None:
        self.module = node

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self._fit(updated_node) or not isinstance(updated_node.func, cst.Attribute):
            return updated_node
        if not (
            self._known(updated_node.func.value) or (self.any_receiver and self.candidates == 1)
        ):
            return updated_node
        prefix = module_alias(self.context, "lightgbm")
        if prefix in self.models:  # `lgb = LGBMClassifier()` shadows `import lightgbm as lgb`
            prefix = None
        rounds = keyword_arg(updated_node, "early_stopping_rounds")
        verbose = keyword_arg(updated_node, "verbose")
        return _with_callbacks(
            updated_node,
            _FIT_KEYWORDS,
            _callbacks(lambda function: self.callback(prefix, function), rounds, verbose, None),
        )


def _fit_callbacks(any_receiver: bool) -> Rewrite:
    return cst_rewrite(
        lambda context: _FitCallbacks(context, any_receiver),
        _FIT_KEYWORDS,
        passes_keyword(
            _FIT_KEYWORDS, called=("fit",), on_built=() if any_receiver else SKLEARN_CLASSES
        ),
    )


class _DatasetSilent(cst.CSTTransformer):
    """`lgb.Dataset(X, y, silent=True)` -> `lgb.Dataset(X, y)` (its logging follows the
    training params' `verbose` now)."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        name = qualified(updated_node.func, self.context.aliases)
        if name not in ("lightgbm.Dataset", "lightgbm.basic.Dataset"):
            return updated_node
        return without_keywords(updated_node, ["silent"])


class _SilentToVerbose(cst.CSTTransformer):
    """`LGBMClassifier(silent=True)` -> `LGBMClassifier(verbose=-1)`."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        silent = keyword_arg(updated_node, "silent")
        if silent is None or not callee_is(updated_node, SKLEARN_CLASSES, self.context):
            return updated_node
        value = silent.value
        if keyword_arg(updated_node, "verbose") is not None or keyword_arg(
            updated_node, "verbosity"
        ):
            return without_keywords(updated_node, ["silent"])
        if isinstance(value, cst.Name) and value.value == "True":
            level: cst.BaseExpression = cst.parse_expression("-1")
        elif isinstance(value, cst.Name) and value.value == "False":  # the default logging
            return without_keywords(updated_node, ["silent"])
        else:
            level = cst.parse_expression(f"-1 if {code(value)} else 1")
        args = [
            arg.with_changes(keyword=cst.Name("verbose"), value=level) if arg is silent else arg
            for arg in updated_node.args
        ]
        return updated_node.with_changes(args=args)


_DATA = (
    "import numpy as np\n"
    "import lightgbm as lgb\n"
    "rng = np.random.RandomState(0)\n"
    "X = rng.rand(400, 3); y = (X[:, 0] + 0.5 * rng.rand(400) > 0.7).astype(int)\n"
    "train, valid = lgb.Dataset(X[:300], y[:300]), lgb.Dataset(X[300:], y[300:])\n"
    "params = {'objective': 'binary', 'learning_rate': 0.5, 'verbose': -1}\n"
)

_SPLIT = "eval_set=[(X[300:], y[300:])]"

_NAMES_ONLY = (
    "import numpy as np\n"
    "from lightgbm import LGBMClassifier, early_stopping\n"
    "rng = np.random.RandomState(0)\n"
    "X = rng.rand(400, 3); y = (X[:, 0] + 0.5 * rng.rand(400) > 0.7).astype(int)\n"
)

RULES = (
    Rule(
        id="lightgbm.train-callbacks",
        library="lightgbm",
        changed_in="4.0",
        summary="`lgb.train/cv(..., early_stopping_rounds=, verbose_eval=, evals_result=)` -> "
        "`callbacks=[lgb.early_stopping(n), lgb.log_evaluation(m), lgb.record_evaluation(d)]`",
        kind=Kind.API,
        rewrite=cst_rewrite(
            _TrainCallbacks,
            ("early_stopping_rounds", "verbose_eval", "evals_result"),
            call_to(TRAINING_FUNCTIONS),
        ),
        symptoms=(
            Symptom(
                "TypeError",
                r"(train|cv)\(\) got an unexpected keyword argument "
                r"'(early_stopping_rounds|verbose_eval|evals_result)'",
            ),
        ),
        gone=no_parameter("lightgbm.train", "early_stopping_rounds"),
        examples=(
            Example(
                before=(
                    _DATA + "log = {}\n"
                    "booster = lgb.train(params, train, 200, valid_sets=[valid],\n"
                    "                    early_stopping_rounds=5, verbose_eval=False, evals_result=log)\n"
                    "scores = lgb.cv(params, train, 200, nfold=3, early_stopping_rounds=5,\n"
                    "                callbacks=[lgb.reset_parameter(learning_rate=[0.5] * 200)])\n"
                ),
                after=(
                    _DATA + "log = {}\n"
                    "booster = lgb.train(params, train, 200, valid_sets=[valid],\n"
                    "                    callbacks=[lgb.early_stopping(5, verbose=False), "
                    "lgb.record_evaluation(log)])\n"
                    "scores = lgb.cv(params, train, 200, nfold=3,\n"
                    "                callbacks=[lgb.reset_parameter(learning_rate=[0.5] * 200), "
                    "lgb.early_stopping(5)])\n"
                ),
                error="TypeError",
                # stopped 5 rounds after the best one; the log filled in
                check=(
                    "len(log['valid_0']['binary_logloss']) == booster.best_iteration + 5 < 200 "
                    "and len(scores['valid binary_logloss-mean']) < 200"
                ),
            ),
        ),
    ),
    Rule(
        id="lightgbm.train-dataset-arguments",
        library="lightgbm",
        changed_in="4.0",
        summary="`lgb.train/cv(params, dtrain, categorical_feature=c, feature_name=f)` -> "
        "`lgb.train/cv(params, dtrain.set_feature_name(f).set_categorical_feature(c))` "
        "(what lightgbm 3.x did with them)",
        kind=Kind.API,
        rewrite=cst_rewrite(
            _TrainDatasetArguments, tuple(_DATASET_KEYWORDS), call_to(TRAINING_FUNCTIONS)
        ),
        symptoms=(
            Symptom(
                "TypeError",
                r"(train|cv)\(\) got an unexpected keyword argument "
                r"'(categorical_feature|feature_name)'",
            ),
        ),
        gone=no_parameter("lightgbm.train", "categorical_feature"),
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "import lightgbm as lgb\n"
                    "rng = np.random.RandomState(0)\n"
                    "frame = pd.DataFrame({'a': rng.rand(300), 'kind': rng.randint(0, 4, 300)})\n"
                    "y = frame['a'] + (frame['kind'] == 2) + 0.1 * rng.rand(300)\n"
                    "dtrain = lgb.Dataset(frame, y)\n"
                    "params = {'objective': 'regression', 'verbose': -1}\n"
                    "booster = lgb.train(params, dtrain, 20, categorical_feature=['kind'],\n"
                    "                    feature_name=['x', 'kind'])\n"
                    "names = booster.feature_name()\n"
                ),
                after=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "import lightgbm as lgb\n"
                    "rng = np.random.RandomState(0)\n"
                    "frame = pd.DataFrame({'a': rng.rand(300), 'kind': rng.randint(0, 4, 300)})\n"
                    "y = frame['a'] + (frame['kind'] == 2) + 0.1 * rng.rand(300)\n"
                    "dtrain = lgb.Dataset(frame, y)\n"
                    "params = {'objective': 'regression', 'verbose': -1}\n"
                    "booster = lgb.train(params, dtrain.set_feature_name(['x', 'kind'])"
                    ".set_categorical_feature(['kind']), 20)\n"
                    "names = booster.feature_name()\n"
                ),
                error="TypeError",
                check=(
                    "names == ['x', 'kind'] "
                    "and booster.dump_model()['feature_infos']['kind']['values'] != []"
                ),
                era_differences={
                    "params": "lightgbm before 2.2.2 wrote the Dataset's settings into the "
                    "params dict train() was given (categorical_column, max_bin: LightGBM#1706, "
                    "fixed by #1722); later releases leave it alone"
                },
            ),
        ),
    ),
    Rule(
        id="lightgbm.fit-callbacks",
        library="lightgbm",
        changed_in="4.0",
        summary="`LGBMClassifier.fit(..., early_stopping_rounds=n, verbose=m)` -> "
        "`fit(..., callbacks=[lgb.early_stopping(n), lgb.log_evaluation(m)])`",
        kind=Kind.API,
        rewrite=_fit_callbacks(any_receiver=False),
        symptoms=(
            Symptom(
                "TypeError",
                r"LGBM\w*\.fit\(\) got an unexpected keyword argument "
                r"'(early_stopping_rounds|verbose)'",
            ),
        ),
        gone=no_parameter("lightgbm.LGBMModel.fit", "early_stopping_rounds"),
        examples=(
            Example(
                before=(
                    _DATA
                    + "model = lgb.LGBMClassifier(n_estimators=200, learning_rate=0.5, verbose=-1)\n"
                    f"model.fit(X[:300], y[:300], {_SPLIT}, early_stopping_rounds=5, verbose=False)\n"
                    "reg = lgb.LGBMRegressor(n_estimators=200, verbose=-1).fit(\n"
                    f"    X[:300], y[:300], {_SPLIT}, early_stopping_rounds=3, verbose=0,\n"
                    ")\n"
                ),
                after=(
                    _DATA
                    + "model = lgb.LGBMClassifier(n_estimators=200, learning_rate=0.5, verbose=-1)\n"
                    f"model.fit(X[:300], y[:300], {_SPLIT}, callbacks=[lgb.early_stopping(5, verbose=False)])\n"
                    "reg = lgb.LGBMRegressor(n_estimators=200, verbose=-1).fit(\n"
                    f"    X[:300], y[:300], {_SPLIT}, callbacks=[lgb.early_stopping(3, verbose=False)],\n"
                    ")\n"
                ),
                error="TypeError",
                check=(
                    "len(model.evals_result_['valid_0']['binary_logloss']) == model.best_iteration_ + 5"
                    " and len(reg.evals_result_['valid_0']['l2']) == reg.best_iteration_ + 3"
                ),
            ),
            Example(  # lightgbm imported by names only, the model named `lgb` (a real notebook)
                before=(
                    _NAMES_ONLY
                    + "lgb = LGBMClassifier(n_estimators=200, learning_rate=0.5, verbose=-1)\n"
                    f"lgb.fit(X[:300], y[:300], {_SPLIT}, early_stopping_rounds=5, verbose=False)\n"
                ),
                after=(
                    _NAMES_ONLY
                    + "lgb = LGBMClassifier(n_estimators=200, learning_rate=0.5, verbose=-1)\n"
                    f"lgb.fit(X[:300], y[:300], {_SPLIT}, callbacks=[early_stopping(5, verbose=False)])\n"
                ),
                error="TypeError",
                check="len(lgb.evals_result_['valid_0']['binary_logloss']) == lgb.best_iteration_ + 5",
            ),
        ),
    ),
    Rule(
        id="lightgbm.fit-callbacks-any-receiver",
        library="lightgbm",
        changed_in="4.0",
        summary="reactive: the same for the one `.fit(..., early_stopping_rounds=, verbose=)` "
        "of a failing cell whose model was built elsewhere",
        kind=Kind.API,
        rewrite=_fit_callbacks(any_receiver=True),
        symptoms=(
            Symptom(
                "TypeError",
                r"LGBM\w*\.fit\(\) got an unexpected keyword argument "
                r"'(early_stopping_rounds|verbose)'",
            ),
        ),
        examples=(
            Example(
                before=(
                    _DATA + "models = [lgb.LGBMClassifier(n_estimators=200, verbose=-1)]\n"
                    "for model in models:\n"
                    f"    model.fit(X[:300], y[:300], {_SPLIT}, early_stopping_rounds=4,\n"
                    "              verbose=True)\n"
                ),
                after=(
                    _DATA + "models = [lgb.LGBMClassifier(n_estimators=200, verbose=-1)]\n"
                    "for model in models:\n"
                    f"    model.fit(X[:300], y[:300], {_SPLIT}, callbacks=[lgb.early_stopping(4), "
                    "lgb.log_evaluation(1)])\n"
                ),
                error="TypeError",
                check=(
                    "len(models[0].evals_result_['valid_0']['binary_logloss']) "
                    "== models[0].best_iteration_ + 4"
                ),
            ),
        ),
    ),
    Rule(
        id="lightgbm.dataset-silent",
        library="lightgbm",
        changed_in="4.0",
        summary="`lgb.Dataset(..., silent=True)` -> `lgb.Dataset(...)`",
        kind=Kind.API,
        rewrite=cst_rewrite(
            _DatasetSilent, ("silent",), passes_keyword(("silent",), called=("lightgbm.Dataset",))
        ),
        symptoms=(
            Symptom(
                "TypeError", r"Dataset\.__init__\(\) got an unexpected keyword argument 'silent'"
            ),
        ),
        gone=no_parameter("lightgbm.Dataset.__init__", "silent"),
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "from lightgbm import Dataset\n"
                    "import lightgbm\n"
                    "a = Dataset(np.ones((4, 2)), [0, 1, 0, 1], silent=True)\n"
                    "b = lightgbm.Dataset(np.ones((4, 2)), silent=False, label=[1, 0, 1, 0])\n"
                ),
                after=(
                    "import numpy as np\n"
                    "from lightgbm import Dataset\n"
                    "import lightgbm\n"
                    "a = Dataset(np.ones((4, 2)), [0, 1, 0, 1])\n"
                    "b = lightgbm.Dataset(np.ones((4, 2)), label=[1, 0, 1, 0])\n"
                ),
                error="TypeError",
                check="list(a.get_label()) == [0, 1, 0, 1] and list(b.get_label()) == [1, 0, 1, 0]",
            ),
        ),
    ),
    Rule(
        id="lightgbm.silent-to-verbose",
        library="lightgbm",
        changed_in="4.0",
        summary="`LGBMClassifier(silent=True)` -> `verbose=-1` (`silent` is an unknown "
        "parameter now: the model logs)",
        kind=Kind.SILENT,
        rewrite=cst_rewrite(
            _SilentToVerbose, ("silent",), passes_keyword(("silent",), called=SKLEARN_CLASSES)
        ),
        gone=no_parameter("lightgbm.LGBMModel", "silent"),
        examples=(
            Example(
                before=(
                    "from lightgbm import LGBMClassifier, LGBMRegressor\n"
                    "quiet = LGBMClassifier(n_estimators=5, silent=True)\n"
                    "loud = LGBMRegressor(silent=False)\n"
                ),
                after=(
                    "from lightgbm import LGBMClassifier, LGBMRegressor\n"
                    "quiet = LGBMClassifier(n_estimators=5, verbose=-1)\n"
                    "loud = LGBMRegressor()\n"
                ),
                check=(
                    "quiet.get_params().get('verbose') == -1 and 'silent' not in quiet.get_params() "
                    "and 'silent' not in loud.get_params()"
                ),
            ),
        ),
    ),
)
