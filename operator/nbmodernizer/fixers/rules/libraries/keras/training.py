"""Model methods that went (`fit_generator`, `predict_classes`)."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.libraries.keras.common import MODEL
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    has_star_args,
    keyword_arg,
    keywordize,
    new_arg,
    positional_args,
    with_args,
)
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.examples import TF_QUIET
from nbmodernizer.fixers.rules.toolkit.nodes import code, expression
from nbmodernizer.fixers.rules.toolkit.probes import lacks_attribute

# `fit_generator(generator, steps_per_epoch, epochs, verbose, callbacks, validation_data,
# validation_steps, class_weight, max_queue_size, workers, use_multiprocessing, shuffle,
# initial_epoch)` and friends (Keras 2.2)
_GENERATOR_METHODS: dict[str, tuple[str, tuple[str | None, ...]]] = {
    "fit_generator": (
        "fit",
        (
            None,
            "steps_per_epoch",
            "epochs",
            "verbose",
            "callbacks",
            "validation_data",
            "validation_steps",
            "class_weight",
            "max_queue_size",
            "workers",
            "use_multiprocessing",
            "shuffle",
            "initial_epoch",
        ),
    ),
    "predict_generator": (
        "predict",
        (None, "steps", "max_queue_size", "workers", "use_multiprocessing", "verbose"),
    ),
    "evaluate_generator": (
        "evaluate",
        (None, "steps", "max_queue_size", "workers", "use_multiprocessing", "verbose"),
    ),
}

# keywords Keras 3's fit/predict/evaluate do not take (they only tuned the feeding threads)
_QUEUE_KEYWORDS = frozenset(
    {"max_queue_size", "workers", "use_multiprocessing", "nb_worker", "pickle_safe"}
)

_GENERATOR_RENAMES = {
    "generator": "x",  # fit_generator(generator=...) -> fit(x=...)
    "nb_epoch": "epochs",
    "nb_val_samples": "validation_steps",
    "val_samples": "steps",
}


# Keras 2 counted steps with a float (`np.ceil(n / batch)`); Keras 3 takes only an int
_STEP_KEYWORDS = frozenset({"steps_per_epoch", "validation_steps", "steps"})


def _is_ceil(node: cst.BaseExpression) -> bool:
    """`np.ceil(...)` / `math.ceil(...)`-like: a whole number in a float, so int() keeps it."""
    return isinstance(node, cst.Call) and code(node.func).split(".")[-1] == "ceil"


class FitGenerator(cst.CSTTransformer):
    """`model.fit_generator(gen, 100, 5)` -> `model.fit(gen, steps_per_epoch=100, epochs=5)`."""

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in _GENERATOR_METHODS:
            return updated_node
        if has_star_args(updated_node) or keyword_arg(updated_node, "samples_per_epoch"):
            return updated_node  # Keras 1 counted samples, not batches: left to a person
        new_name, names = _GENERATOR_METHODS[func.attr.value]
        if len(positional_args(updated_node)) > len(names):
            return updated_node
        call = keywordize(updated_node, names, start=1)
        args: list[cst.Arg] = []
        for arg in call.args:
            keyword = arg.keyword.value if arg.keyword is not None else None
            if keyword in _QUEUE_KEYWORDS:
                continue
            if keyword in _GENERATOR_RENAMES:
                arg = arg.with_changes(keyword=cst.Name(_GENERATOR_RENAMES[keyword]))
            if keyword in _STEP_KEYWORDS and _is_ceil(arg.value):
                arg = arg.with_changes(value=expression(f"int({code(arg.value)})"))
            args.append(arg)
        if new_name != "fit" and keyword_arg(call, "verbose") is None:
            args.append(new_arg("verbose", "0"))  # the generator methods' quiet default
        call = with_args(call, args)
        return call.with_changes(func=func.with_changes(attr=cst.Name(new_name)))


class PredictClasses(cst.CSTTransformer):
    """`model.predict_classes(x)` -> Keras 2's own definition, on `model.predict(x)`:
    argmax over the last axis for several outputs, `> 0.5` for a single (sigmoid) output."""

    TEMPLATE = (
        "(lambda proba: proba.argmax(axis=-1) if proba.shape[-1] > 1 "
        "else (proba > 0.5).astype('int32'))(PREDICT)"
    )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "predict_classes":
            return updated_node
        predict = updated_node.with_changes(func=func.with_changes(attr=cst.Name("predict")))
        if keyword_arg(predict, "verbose") is None and len(positional_args(predict)) < 3:
            # predict_classes(x, batch_size=32, verbose=0) was quiet by default
            predict = with_args(predict, [*predict.args, new_arg("verbose", "0")])
        template = expression(self.TEMPLATE)
        assert isinstance(template, cst.Call)
        return template.with_changes(args=[cst.Arg(value=predict)])


class PredictProba(cst.CSTTransformer):
    """`model.predict_proba(x)` -> `model.predict(x, verbose=0)`: Keras 2's `predict_proba`
    was `predict` (quiet by default), warning only when outputs were not in [0, 1]. Reactive
    and cautious: scikit-learn models keep their own `predict_proba`, so a call is rewritten
    only when it is the cell's one `predict_proba` receiver (the one the error named)."""

    def __init__(self) -> None:
        self.receivers: set[str] = set()

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "predict_proba":
            self.receivers.add(code(func.value))

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "predict_proba":
            return updated_node
        if len(self.receivers) != 1:
            return updated_node
        predict = updated_node.with_changes(func=func.with_changes(attr=cst.Name("predict")))
        if keyword_arg(predict, "verbose") is None and len(positional_args(predict)) < 3:
            predict = with_args(predict, [*predict.args, new_arg("verbose", "0")])
        return predict


RULES = (
    Rule(
        id="keras.predict-proba",
        library="keras",
        changed_in="2.6",
        summary="reactive: `model.predict_proba(x)` of a Keras model -> `model.predict(x, "
        "verbose=0)` (what Keras 2 did); only the failing cell's one `predict_proba` "
        "receiver, since scikit-learn models keep theirs",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: PredictProba()),
        symptoms=(
            Symptom(
                "AttributeError",
                r"'(Sequential|Functional|Model)' object has no attribute 'predict_proba'",
            ),
        ),
        examples=(
            Example(
                before=TF_QUIET
                + MODEL
                + "model = Sequential([keras.Input((3,)), Dense(2, activation='softmax')])\n"
                + "proba = model.predict_proba(X)\n",
                after=TF_QUIET
                + MODEL
                + "model = Sequential([keras.Input((3,)), Dense(2, activation='softmax')])\n"
                + "proba = model.predict(X, verbose=0)\n",
                error="AttributeError",
                check="proba.shape == (8, 2) and np.allclose(proba, model.predict(X, verbose=0))",
            ),
        ),
    ),
    Rule(
        id="keras.fit-generator",
        library="keras",
        changed_in="3.0",
        summary="`model.fit_generator(gen, steps, epochs)` -> "
        "`model.fit(gen, steps_per_epoch=steps, epochs=epochs)`; `predict_generator` / "
        "`evaluate_generator` -> `predict` / `evaluate` (`workers`, `max_queue_size`, "
        "`use_multiprocessing` dropped, their quiet `verbose=0` default spelled out, "
        "`generator=` -> `x=`, a step count given as `np.ceil(...)` made an int; Keras 1 "
        "`samples_per_epoch` calls are left alone)",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: FitGenerator()),
        symptoms=(
            Symptom(
                "AttributeError", r"object has no attribute '(fit|predict|evaluate)_generator'"
            ),
        ),
        gone=lacks_attribute("keras.Model", "fit_generator"),
        examples=(
            Example(
                before=TF_QUIET
                + MODEL
                + "def batches():\n"
                + "    while True:\n"
                + "        yield X[:4], y[:4]\n"
                + "model = Sequential([keras.Input((3,)), Dense(1, activation='sigmoid')])\n"
                + "model.compile(loss='binary_crossentropy', optimizer='sgd')\n"
                + "history = model.fit_generator(batches(), 2, 3, verbose=0, workers=2)\n"
                + "loss = model.evaluate_generator(batches(), 1)\n"
                + "proba = model.predict_generator(generator=batches(), steps=np.ceil(8 / 4))\n",
                after=TF_QUIET
                + MODEL
                + "def batches():\n"
                + "    while True:\n"
                + "        yield X[:4], y[:4]\n"
                + "model = Sequential([keras.Input((3,)), Dense(1, activation='sigmoid')])\n"
                + "model.compile(loss='binary_crossentropy', optimizer='sgd')\n"
                + "history = model.fit(batches(), steps_per_epoch=2, epochs=3, verbose=0)\n"
                + "loss = model.evaluate(batches(), steps=1, verbose=0)\n"
                + "proba = model.predict(x=batches(), steps=int(np.ceil(8 / 4)), verbose=0)\n",
                error="AttributeError",
                check="len(history.history['loss']) == 3 and loss > 0 and proba.shape == (8, 1)",
            ),
        ),
    ),
    Rule(
        id="keras.predict-classes",
        library="keras",
        changed_in="2.6",
        summary="`model.predict_classes(x)` -> Keras 2's own definition on `model.predict(x)`: "
        "argmax over classes for a multi-unit output, `> 0.5` for a single sigmoid unit",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: PredictClasses()),
        symptoms=(Symptom("AttributeError", r"object has no attribute 'predict_classes'"),),
        gone=lacks_attribute("keras.Sequential", "predict_classes"),
        examples=(
            Example(
                before=TF_QUIET
                + MODEL
                + "binary = Sequential([keras.Input((3,)), Dense(1, activation='sigmoid')])\n"
                + "multi = Sequential([keras.Input((3,)), Dense(4, activation='softmax')])\n"
                + "labels = binary.predict_classes(X, verbose=0)\n"
                + "classes = multi.predict_classes(X, batch_size=4)\n",
                after=TF_QUIET
                + MODEL
                + "binary = Sequential([keras.Input((3,)), Dense(1, activation='sigmoid')])\n"
                + "multi = Sequential([keras.Input((3,)), Dense(4, activation='softmax')])\n"
                + "labels = (lambda proba: proba.argmax(axis=-1) if proba.shape[-1] > 1 "
                + "else (proba > 0.5).astype('int32'))(binary.predict(X, verbose=0))\n"
                + "classes = (lambda proba: proba.argmax(axis=-1) if proba.shape[-1] > 1 "
                + "else (proba > 0.5).astype('int32'))(multi.predict(X, batch_size=4, verbose=0))\n",
                error="AttributeError",
                check="labels.shape == (8, 1) and labels.dtype == np.int32 "
                "and (labels[:, 0] == (binary.predict(X, verbose=0)[:, 0] > 0.5)).all() "
                "and classes.shape == (8,) "
                "and (classes == multi.predict(X, verbose=0).argmax(axis=1)).all()",
            ),
        ),
    ),
)
