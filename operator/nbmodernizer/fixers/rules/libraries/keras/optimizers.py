"""Optimizer arguments and defaults (`lr`, `decay`, Keras 2's learning rates)."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.keras.common import MODEL, keras_flavor
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    keyword_arg,
    new_arg,
    with_args,
)
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.examples import TF_QUIET
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer, imports_module
from nbmodernizer.fixers.rules.toolkit.nodes import (
    code,
    expression,
    qualified,
    string_literal,
)
from nbmodernizer.fixers.rules.toolkit.probes import rejects

# --- optimizers -----------------------------------------------------------------------------

_OPTIMIZERS = ("SGD", "RMSprop", "Adagrad", "Adadelta", "Adam", "Adamax", "Nadam")

# standalone Keras 2.2 defaults (Keras 3 uses 0.001 for all but SGD)
_KERAS2_LEARNING_RATES = {
    "SGD": "0.01",
    "RMSprop": "0.001",
    "Adagrad": "0.01",
    "Adadelta": "1.0",
    "Adam": "0.001",
    "Adamax": "0.002",
    "Nadam": "0.002",
}

_CHANGED_DEFAULTS = {"Adagrad", "Adadelta", "Adamax", "Nadam"}

_STRING_OPTIMIZERS = {name.lower(): name for name in _OPTIMIZERS}


def _optimizer_class(call: cst.Call, context: RuleContext) -> tuple[str, str] | None:
    flavor = keras_flavor(call, context)
    if flavor is None or flavor[1] not in _OPTIMIZERS:
        return None
    name = qualified(call.func, context.aliases) or ""
    if "." in name and ".optimizers." not in f".{name}":
        return None
    return flavor


def _is_zero(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Integer | cst.Float) and float(node.value) == 0.0


class OptimizerLearningRate(ImportingTransformer):
    """`Adam(lr=0.01, decay=1e-6)` -> `Adam(learning_rate=InverseTimeDecay(0.01, 1, 1e-6))`.

    Keras 2 applied `decay` as lr / (1 + decay * iterations); Keras 3 ignores `decay` (with a
    warning), so it becomes the schedule that computes exactly that.
    """

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        found = _optimizer_class(original_node, self.context)
        if found is None:
            return updated_node
        flavor, name = found
        lr, decay = keyword_arg(updated_node, "lr"), keyword_arg(updated_node, "decay")
        if lr is None and decay is None:
            return updated_node
        if keyword_arg(updated_node, "learning_rate") is not None:
            return updated_node
        initial: cst.BaseExpression | None = lr.value if lr is not None else None
        if initial is None and not _positional_learning_rate(updated_node):
            initial = expression(_KERAS2_LEARNING_RATES[name])
        if decay is None or _is_zero(decay.value):
            value = initial
        elif initial is None:
            return updated_node  # a positional learning rate and a decay: left alone
        else:
            package = "keras" if flavor == "keras" else "tensorflow.keras"
            schedules = self.module_ref(package)
            value = expression(
                f"{schedules}.optimizers.schedules.InverseTimeDecay("
                f"{code(initial)}, decay_steps=1, decay_rate={code(decay.value)})"
            )
        # `learning_rate=` where `lr=` was (else where `decay=` was)
        anchor = lr if lr is not None else decay
        args: list[cst.Arg] = []
        for arg in updated_node.args:
            if arg is anchor and value is not None:
                args.append(arg.with_changes(keyword=cst.Name("learning_rate"), value=value))
            elif arg is not lr and arg is not decay:
                args.append(arg)
        return with_args(updated_node, args)


def _positional_learning_rate(call: cst.Call) -> bool:
    return any(arg.keyword is None for arg in call.args)


class DefaultLearningRates(ImportingTransformer):
    """Spell out standalone Keras 2's learning rate where Keras 3 changed the default."""

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        found = _optimizer_class(original_node, self.context)
        if found is not None:
            return self._spelled(updated_node, *found)
        func = updated_node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "compile":
            return self._compile(updated_node)
        return updated_node

    @staticmethod
    def _spelled(call: cst.Call, flavor: str, name: str) -> cst.Call:
        if flavor != "keras" or name not in _CHANGED_DEFAULTS:
            return call
        if any(arg.keyword is None for arg in call.args) or any(
            keyword_arg(call, keyword) is not None for keyword in ("lr", "learning_rate")
        ):
            return call
        extra = [new_arg("learning_rate", _KERAS2_LEARNING_RATES[name])]
        if name == "Adagrad" and keyword_arg(call, "initial_accumulator_value") is None:
            extra.append(new_arg("initial_accumulator_value", "0.0"))
        return with_args(call, [*extra, *call.args])

    def _compile(self, call: cst.Call) -> cst.Call:
        if not imports_module(self.context, "keras"):
            return call
        optimizer = keyword_arg(call, "optimizer")
        if optimizer is None:
            positional = [arg for arg in call.args if arg.keyword is None]
            optimizer = positional[0] if positional else None
        value = string_literal(optimizer.value) if optimizer is not None else None
        name = _STRING_OPTIMIZERS.get(value or "")
        if optimizer is None or name not in _CHANGED_DEFAULTS:
            return call
        assert name is not None
        keras = self.module_ref("keras")
        arguments = f"learning_rate={_KERAS2_LEARNING_RATES[name]}"
        if name == "Adagrad":
            arguments += ", initial_accumulator_value=0.0"
        replacement = expression(f"{keras}.optimizers.{name}({arguments})")
        args = [
            arg.with_changes(value=replacement) if arg is optimizer else arg for arg in call.args
        ]
        return call.with_changes(args=args)


RULES = (
    Rule(
        id="keras.optimizer-lr-decay",
        library="keras",
        changed_in="3.0",
        summary="`Adam(lr=0.01)` -> `Adam(learning_rate=0.01)`; `decay=d` (silently ignored "
        "by Keras 3) -> `learning_rate=keras.optimizers.schedules.InverseTimeDecay(lr, "
        "decay_steps=1, decay_rate=d)`, Keras 2's lr / (1 + d * iterations)",
        kind=Kind.API,
        rewrite=cst_rewrite(OptimizerLearningRate),
        symptoms=(Symptom("ValueError", r"Argument\(s\) not recognized: \{'lr'"),),
        gone=rejects("import keras\nkeras.optimizers.SGD(lr=0.1)"),
        examples=(
            Example(
                before=TF_QUIET
                + "import keras\nfrom keras.optimizers import SGD\n"
                + "adam = keras.optimizers.Adam(lr=0.01)\n"
                + "sgd = SGD(lr=0.1, decay=0.05, momentum=0.9)\n"
                + "sgd.iterations.assign(10)\n",
                after=TF_QUIET
                + "import keras\nfrom keras.optimizers import SGD\n"
                + "adam = keras.optimizers.Adam(learning_rate=0.01)\n"
                + "sgd = SGD(learning_rate=keras.optimizers.schedules."
                + "InverseTimeDecay(0.1, decay_steps=1, decay_rate=0.05), momentum=0.9)\n"
                + "sgd.iterations.assign(10)\n",
                error="ValueError",
                # Keras 2: lr * 1 / (1 + decay * iterations) after 10 updates
                check="abs(float(adam.learning_rate) - 0.01) < 1e-7 "
                "and abs(float(sgd.learning_rate) - 0.1 / (1 + 0.05 * 10)) < 1e-7",
            ),
        ),
    ),
    Rule(
        id="keras.optimizer-default-learning-rates",
        library="keras",
        changed_in="3.0",
        summary="standalone Keras 2 `Adadelta()` (lr 1.0), `Adagrad()` (lr 0.01, "
        "accumulators from 0), `Adamax()`/`Nadam()` (lr 0.002), also as "
        "`compile(optimizer='adadelta')`: the old defaults spelled out (Keras 3 uses 0.001)",
        kind=Kind.SILENT,
        rewrite=cst_rewrite(DefaultLearningRates),
        gone=rejects(
            "import keras\n"
            "if abs(float(keras.optimizers.Adadelta().learning_rate) - 1.0) > 1e-9:\n"
            "    raise ValueError('the default learning rates changed')"
        ),
        examples=(
            Example(
                before=TF_QUIET
                + MODEL
                + "model = Sequential([keras.Input((3,)), Dense(1)])\n"
                + "model.compile(loss='mse', optimizer='adadelta')\n"
                + "opt = keras.optimizers.Adagrad()\n",
                after=TF_QUIET
                + MODEL
                + "model = Sequential([keras.Input((3,)), Dense(1)])\n"
                + "model.compile(loss='mse', optimizer=keras.optimizers.Adadelta("
                + "learning_rate=1.0))\n"
                + "opt = keras.optimizers.Adagrad(learning_rate=0.01, "
                + "initial_accumulator_value=0.0)\n",
                check="float(model.optimizer.learning_rate) == 1.0 "
                "and abs(float(opt.learning_rate) - 0.01) < 1e-7",
            ),
        ),
    ),
)
