"""Probes and LibCST transforms for the Keras rules."""

from __future__ import annotations

import functools
import importlib
import importlib.util

import libcst as cst

from nbmodernizer.fixers.rules.arguments import keyword_arg, string_literal
from nbmodernizer.fixers.rules.cells import expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_moves import (
    CallBuilder,
    CallRewriter,
    ImportingTransformer,
    replace_string,
)
from nbmodernizer.fixers.rules.cst_tools import code, new_arg, with_args
from nbmodernizer.fixers.rules.keras_calls import keras_flavor
from nbmodernizer.fixers.rules.keras_common import import_optional


def _module_missing(name: str) -> bool:
    """Whether the submodule `name` is absent (its parent package being importable)."""
    try:
        return importlib.util.find_spec(name) is None
    except (ImportError, ValueError):  # the parent is not a package any more
        return True


def keras_lacks(module: str, attribute: str) -> bool:
    found = import_optional(module)
    return found is not None and not hasattr(found, attribute)


def keras_class_lacks(name: str, attribute: str) -> bool:
    keras = import_optional("keras")
    return keras is not None and not hasattr(getattr(keras, name), attribute)


# --- keras.layers.core & co. ---------------------------------------------------------------

LAYER_MODULES = (
    "core",
    "convolutional",
    "convolutional_recurrent",
    "recurrent",
    "cudnn_recurrent",
    "embeddings",
    "normalization",
    "pooling",
    "merge",
    "advanced_activations",
    "wrappers",
    "noise",
    "local",
)


@functools.cache
def layer_modules_gone() -> bool:
    if import_optional("keras") is None:
        return False
    return _module_missing("keras.layers.core")


# --- np_utils ---------------------------------------------------------------------------------


class UtilsSubmodules(cst.CSTTransformer):
    """`from keras.utils import np_utils` -> `from keras import utils as np_utils`."""

    SUBMODULES = frozenset({"np_utils", "vis_utils"})

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        if updated_node.module is None or updated_node.relative:
            return updated_node
        if qualified(updated_node.module, {}) != "keras.utils":
            return updated_node
        if isinstance(updated_node.names, cst.ImportStar) or len(updated_node.names) != 1:
            return updated_node
        alias = updated_node.names[0]
        if not isinstance(alias.name, cst.Name) or alias.name.value not in self.SUBMODULES:
            return updated_node
        asname = alias.asname or cst.AsName(name=cst.Name(alias.name.value))
        module = expression("keras")
        assert isinstance(module, cst.Name)
        return updated_node.with_changes(
            module=module, names=[alias.with_changes(name=cst.Name("utils"), asname=asname)]
        )


@functools.cache
def np_utils_gone() -> bool:
    if import_optional("keras") is None:
        return False
    return _module_missing("keras.utils.np_utils")


# --- legacy preprocessing -------------------------------------------------------------------

IMAGE_LEGACY = (
    "ImageDataGenerator",
    "Iterator",
    "DirectoryIterator",
    "NumpyArrayIterator",
    "apply_affine_transform",
    "apply_brightness_shift",
    "apply_channel_shift",
    "random_brightness",
    "random_channel_shift",
    "random_rotation",
    "random_shear",
    "random_shift",
    "random_zoom",
)
SEQUENCE_LEGACY = ("TimeseriesGenerator", "make_sampling_table", "skipgrams")


@functools.cache
def preprocessing_gone() -> bool:
    if import_optional("tensorflow.keras.preprocessing.image") is None:
        return False  # without TensorFlow there is nowhere to move them to
    return keras_lacks("keras.preprocessing.image", "ImageDataGenerator")


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


@functools.cache
def lr_keyword_gone() -> bool:
    keras = import_optional("keras")
    if keras is None:
        return False
    try:
        keras.optimizers.SGD(lr=0.1)
    except (TypeError, ValueError):
        return True
    return False


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
        if not _standalone_keras(self.context):
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


def _standalone_keras(context: RuleContext) -> bool:
    return any(
        target == "keras" or target.startswith("keras.") for target in context.aliases.values()
    )


@functools.cache
def default_learning_rates_gone() -> bool:
    keras = import_optional("keras")
    if keras is None:
        return False
    return abs(float(keras.optimizers.Adadelta().learning_rate) - 1.0) > 1e-9


# --- backend image ordering -----------------------------------------------------------------

_ORDERINGS = {"th": "channels_first", "tf": "channels_last"}


def _set_ordering(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    if len(call.args) != 1 or call.args[0].keyword is not None:
        return None
    arg = call.args[0]
    value = string_literal(arg.value)
    if isinstance(arg.value, cst.SimpleString) and value in _ORDERINGS:
        new_value: cst.BaseExpression = replace_string(arg.value, _ORDERINGS[value])
    else:
        new_value = expression(
            f"{{'th': 'channels_first', 'tf': 'channels_last'}}[{code(arg.value)}]"
        )
    func = call.func
    new_func = (
        func.with_changes(attr=cst.Name("set_image_data_format"))
        if isinstance(func, cst.Attribute)
        else cst.Name("set_image_data_format")
    )
    return call.with_changes(func=new_func, args=[arg.with_changes(value=new_value)])


def _get_ordering(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    if call.args or not isinstance(call.func, cst.Attribute):
        return None
    data_format = call.with_changes(func=call.func.with_changes(attr=cst.Name("image_data_format")))
    return expression(f"('th' if {code(data_format)} == 'channels_first' else 'tf')")


def backend_targets() -> dict[str, CallBuilder]:
    targets: dict[str, CallBuilder] = {}
    for backend in ("keras.backend", "tensorflow.keras.backend"):
        targets[f"{backend}.set_image_dim_ordering"] = _set_ordering
        targets[f"{backend}.image_dim_ordering"] = _get_ordering
    return targets


# --- history keys ---------------------------------------------------------------------------

_HISTORY_KEYS = {"acc": "accuracy", "val_acc": "val_accuracy"}


class HistoryKeys(cst.CSTTransformer):
    """`history.history['acc']` -> `history.history['accuracy']` (and `val_acc`)."""

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        value = updated_node.value
        if not (isinstance(value, cst.Attribute) and value.attr.value == "history"):
            return updated_node
        if len(updated_node.slice) != 1:
            return updated_node
        element = updated_node.slice[0]
        index = element.slice
        if not isinstance(index, cst.Index) or not isinstance(index.value, cst.SimpleString):
            return updated_node
        key = string_literal(index.value)
        if key not in _HISTORY_KEYS:
            return updated_node
        new_index = index.with_changes(value=replace_string(index.value, _HISTORY_KEYS[key]))
        return updated_node.with_changes(slice=[element.with_changes(slice=new_index)])


@functools.cache
def keras1_gone() -> bool:
    keras = import_optional("keras")
    if keras is None:
        return False
    try:
        keras.layers.Dense(1, init="zeros")
    except (TypeError, ValueError):
        return True
    return False


@functools.cache
def conv_positional_strides() -> bool:
    keras = import_optional("keras")
    if keras is None:
        return False
    return tuple(keras.layers.Conv2D(1, 3, 3).strides) == (3, 3)


MODEL = (
    "import numpy as np\nimport keras\nfrom keras.models import Sequential\n"
    "from keras.layers import Dense\n"
    "X = np.random.RandomState(0).rand(8, 3)\ny = (X.sum(axis=1) > 1.5).astype(int)\n"
)
