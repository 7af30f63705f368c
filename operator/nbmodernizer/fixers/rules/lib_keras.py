"""Keras (standalone Keras 1/2 -> Keras 3) and TensorFlow 1.x drift."""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Callable
from types import ModuleType

import libcst as cst

from nbmodernizer.fixers.rules.cells import expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import (
    chain,
    cst_rewrite,
    edit_keywords,
    move_module,
    rename_to,
)
from nbmodernizer.fixers.rules.dl_transforms import (
    CallBuilder,
    CallRewriter,
    ConvKernelPositional,
    FitGenerator,
    ImportingTransformer,
    Keras1Arguments,
    PredictClasses,
    Tf1Compat,
    code,
    keras_flavor,
    keyword_arg,
    move_names,
    new_arg,
    replace_string,
    rewrite_calls,
    string_literal,
    with_args,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom


@functools.cache
def _import(name: str) -> ModuleType | None:
    """The installed module, or None when it is not installed (probes then say "not gone")."""
    root = name.split(".")[0]
    if importlib.util.find_spec(root) is None:
        return None
    try:
        return importlib.import_module(name)
    except Exception:  # a missing or broken install: the probes then say "not gone"
        return None


def _module_missing(name: str) -> bool:
    """Whether the submodule `name` is absent (its parent package being importable)."""
    try:
        return importlib.util.find_spec(name) is None
    except (ImportError, ValueError):  # the parent is not a package any more
        return True


def _keras_lacks(module: str, attribute: str) -> bool:
    found = _import(module)
    return found is not None and not hasattr(found, attribute)


def _keras_class_lacks(name: str, attribute: str) -> bool:
    keras = _import("keras")
    return keras is not None and not hasattr(getattr(keras, name), attribute)


# --- keras.layers.core & co. ---------------------------------------------------------------

_LAYER_MODULES = (
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
def _layer_modules_gone() -> bool:
    if _import("keras") is None:
        return False
    return _module_missing("keras.layers.core")


# --- np_utils ---------------------------------------------------------------------------------


class _UtilsSubmodules(cst.CSTTransformer):
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
def _np_utils_gone() -> bool:
    if _import("keras") is None:
        return False
    return _module_missing("keras.utils.np_utils")


# --- legacy preprocessing -------------------------------------------------------------------

_IMAGE_LEGACY = (
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
_SEQUENCE_LEGACY = ("TimeseriesGenerator", "make_sampling_table", "skipgrams")


@functools.cache
def _preprocessing_gone() -> bool:
    if _import("tensorflow.keras.preprocessing.image") is None:
        return False  # without TensorFlow there is nowhere to move them to
    return _keras_lacks("keras.preprocessing.image", "ImageDataGenerator")


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


class _OptimizerLearningRate(ImportingTransformer):
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
def _lr_keyword_gone() -> bool:
    keras = _import("keras")
    if keras is None:
        return False
    try:
        keras.optimizers.SGD(lr=0.1)
    except (TypeError, ValueError):
        return True
    return False


class _DefaultLearningRates(ImportingTransformer):
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
def _default_learning_rates_gone() -> bool:
    keras = _import("keras")
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


def _backend_targets() -> dict[str, CallBuilder]:
    targets: dict[str, CallBuilder] = {}
    for backend in ("keras.backend", "tensorflow.keras.backend"):
        targets[f"{backend}.set_image_dim_ordering"] = _set_ordering
        targets[f"{backend}.image_dim_ordering"] = _get_ordering
    return targets


# --- history keys ---------------------------------------------------------------------------

_HISTORY_KEYS = {"acc": "accuracy", "val_acc": "val_accuracy"}


class _HistoryKeys(cst.CSTTransformer):
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


# --- TensorFlow 1.x -------------------------------------------------------------------------


def _tf1_compat(source: str, context: RuleContext) -> str:
    if not any(target.split(".")[0] == "tensorflow" for target in context.aliases.values()):
        return source  # the notebook never imports TensorFlow: do not import it here either
    tensorflow = _import("tensorflow")
    if tensorflow is None:
        return source
    compat = tensorflow.compat.v1
    return cst_rewrite(lambda ctx: Tf1Compat(ctx, tensorflow, compat))(source, context)


@functools.cache
def _tf1_gone() -> bool:
    tensorflow = _import("tensorflow")
    return tensorflow is not None and not hasattr(tensorflow, "Session")


_REDUCTIONS = tuple(
    f"{module}.reduce_{name}"
    for module in ("tensorflow", "tensorflow.math")
    for name in ("sum", "mean", "max", "min", "prod", "any", "all", "logsumexp")
)


def _tf_call(*names: str) -> Callable[[cst.Call, RuleContext], bool]:
    def applies(call: cst.Call, context: RuleContext) -> bool:
        return qualified(call.func, context.aliases) in names

    return applies


@functools.cache
def _reduce_keywords_gone() -> bool:
    import inspect

    tensorflow = _import("tensorflow")
    if tensorflow is None:
        return False
    return "keep_dims" not in inspect.signature(tensorflow.reduce_sum).parameters


@functools.cache
def _keras1_gone() -> bool:
    keras = _import("keras")
    if keras is None:
        return False
    try:
        keras.layers.Dense(1, init="zeros")
    except (TypeError, ValueError):
        return True
    return False


@functools.cache
def _conv_positional_strides() -> bool:
    keras = _import("keras")
    if keras is None:
        return False
    return tuple(keras.layers.Conv2D(1, 3, 3).strides) == (3, 3)


_TF_QUIET = "import os\nos.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'\n"
_MODEL = (
    "import numpy as np\nimport keras\nfrom keras.models import Sequential\n"
    "from keras.layers import Dense\n"
    "X = np.random.RandomState(0).rand(8, 3)\ny = (X.sum(axis=1) > 1.5).astype(int)\n"
)

RULES = (
    Rule(
        id="keras.layer-submodules",
        library="keras",
        changed_in="3.0",
        summary="`from keras.layers.core import Dense` (also `.convolutional`, `.recurrent`, "
        "`.embeddings`, `.normalization`, `.pooling`, `.merge`, `.advanced_activations`, "
        "`.wrappers`, `.noise`) -> `from keras.layers import Dense`",
        kind=Kind.API,
        rewrite=chain(
            *(move_module(f"keras.layers.{module}", "keras.layers") for module in _LAYER_MODULES)
        ),
        symptoms=(Symptom("ModuleNotFoundError", r"No module named 'keras\.layers\.\w+'"),),
        gone=_layer_modules_gone,
        examples=(
            Example(
                before="import keras\nfrom keras.layers.core import Dense, Dropout, Flatten\n"
                "from keras.layers.convolutional import Conv2D, MaxPooling2D\n"
                "from keras.layers.normalization import BatchNormalization\n"
                "from keras.layers.advanced_activations import LeakyReLU\n",
                after="import keras\nfrom keras.layers import Dense, Dropout, Flatten\n"
                "from keras.layers import Conv2D, MaxPooling2D\n"
                "from keras.layers import BatchNormalization\n"
                "from keras.layers import LeakyReLU\n",
                error="ModuleNotFoundError",
                check="Dense is keras.layers.Dense and MaxPooling2D is keras.layers.MaxPooling2D "
                "and LeakyReLU is keras.layers.LeakyReLU",
            ),
        ),
    ),
    Rule(
        id="keras.utils-np-utils",
        library="keras",
        changed_in="3.0",
        summary="`keras.utils.np_utils.to_categorical` / `from keras.utils import np_utils` "
        "-> `keras.utils.to_categorical` (also `vis_utils`); the one-hot values are the same, "
        "the dtype is float64 now (Keras casts targets when training)",
        kind=Kind.API,
        rewrite=chain(
            move_module("keras.utils.np_utils", "keras.utils"),
            move_module("keras.utils.vis_utils", "keras.utils"),
            cst_rewrite(lambda _context: _UtilsSubmodules()),
        ),
        symptoms=(
            Symptom("ModuleNotFoundError", r"No module named 'keras\.utils\.(np|vis)_utils'"),
            Symptom("ImportError", r"cannot import name '(np|vis)_utils' from 'keras\.utils'"),
        ),
        gone=_np_utils_gone,
        examples=(
            Example(
                before="import numpy as np\nfrom keras.utils import np_utils\n"
                "from keras.utils.np_utils import to_categorical\n"
                "Y = np_utils.to_categorical([0, 2, 1])\nY2 = to_categorical(np.array([1, 0]), 3)\n",
                after="import numpy as np\nfrom keras import utils as np_utils\n"
                "from keras.utils import to_categorical\n"
                "Y = np_utils.to_categorical([0, 2, 1])\nY2 = to_categorical(np.array([1, 0]), 3)\n",
                error="ImportError",
                check="Y.tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]] "
                "and Y2.tolist() == [[0, 1, 0], [1, 0, 0]]",
            ),
        ),
    ),
    Rule(
        id="keras.legacy-preprocessing",
        library="keras",
        changed_in="3.0",
        summary="`keras.preprocessing.image.ImageDataGenerator` and `keras.preprocessing.text` "
        "-> the same legacy classes under `tensorflow.keras.preprocessing` (Keras 3 dropped "
        "them; TensorFlow still ships them and Keras 3 models train on their iterators)",
        kind=Kind.API,
        rewrite=chain(
            move_names(
                "keras.preprocessing.image",
                "tensorflow.keras.preprocessing.image",
                _IMAGE_LEGACY,
            ),
            move_names(
                "keras.preprocessing.sequence",
                "tensorflow.keras.preprocessing.sequence",
                _SEQUENCE_LEGACY,
            ),
            move_module("keras.preprocessing.text", "tensorflow.keras.preprocessing.text"),
        ),
        symptoms=(
            Symptom("ImportError", r"cannot import name '\w+' from 'keras\.preprocessing\.\w+'"),
            Symptom("ModuleNotFoundError", r"No module named 'keras\.preprocessing\.text'"),
            Symptom(
                "AttributeError", r"module 'keras\.preprocessing(\.\w+)?' has no attribute '\w+'"
            ),
        ),
        gone=_preprocessing_gone,
        examples=(
            Example(
                before=_TF_QUIET
                + "import numpy as np\n"
                + "from keras.preprocessing.image import ImageDataGenerator, img_to_array\n"
                + "from keras.preprocessing.text import Tokenizer\n"
                + "flow = ImageDataGenerator(rescale=0.5).flow(np.ones((2, 3, 3, 1)), "
                + "batch_size=2, shuffle=False)\nbatch = next(iter(flow))\n"
                + "tokenizer = Tokenizer()\ntokenizer.fit_on_texts(['b a b'])\n",
                after=_TF_QUIET
                + "import numpy as np\n"
                + "from keras.preprocessing.image import img_to_array\n"
                + "from tensorflow.keras.preprocessing.image import ImageDataGenerator\n"
                + "from tensorflow.keras.preprocessing.text import Tokenizer\n"
                + "flow = ImageDataGenerator(rescale=0.5).flow(np.ones((2, 3, 3, 1)), "
                + "batch_size=2, shuffle=False)\nbatch = next(iter(flow))\n"
                + "tokenizer = Tokenizer()\ntokenizer.fit_on_texts(['b a b'])\n",
                error="ImportError",
                check="batch.shape == (2, 3, 3, 1) and float(batch.max()) == 0.5 "
                "and tokenizer.word_index == {'b': 1, 'a': 2}",
            ),
        ),
    ),
    Rule(
        id="keras.optimizer-lr-decay",
        library="keras",
        changed_in="3.0",
        summary="`Adam(lr=0.01)` -> `Adam(learning_rate=0.01)`; `decay=d` (silently ignored "
        "by Keras 3) -> `learning_rate=keras.optimizers.schedules.InverseTimeDecay(lr, "
        "decay_steps=1, decay_rate=d)`, Keras 2's lr / (1 + d * iterations)",
        kind=Kind.API,
        rewrite=cst_rewrite(_OptimizerLearningRate),
        symptoms=(Symptom("ValueError", r"Argument\(s\) not recognized: \{'lr'"),),
        gone=_lr_keyword_gone,
        examples=(
            Example(
                before=_TF_QUIET
                + "import keras\nfrom keras.optimizers import SGD\n"
                + "adam = keras.optimizers.Adam(lr=0.01)\n"
                + "sgd = SGD(lr=0.1, decay=0.05, momentum=0.9)\n"
                + "sgd.iterations.assign(10)\n",
                after=_TF_QUIET
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
        rewrite=cst_rewrite(_DefaultLearningRates),
        gone=_default_learning_rates_gone,
        examples=(
            Example(
                before=_TF_QUIET
                + _MODEL
                + "model = Sequential([keras.Input((3,)), Dense(1)])\n"
                + "model.compile(loss='mse', optimizer='adadelta')\n"
                + "opt = keras.optimizers.Adagrad()\n",
                after=_TF_QUIET
                + _MODEL
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
    Rule(
        id="keras.fit-generator",
        library="keras",
        changed_in="3.0",
        summary="`model.fit_generator(gen, steps, epochs)` -> "
        "`model.fit(gen, steps_per_epoch=steps, epochs=epochs)`; `predict_generator` / "
        "`evaluate_generator` -> `predict` / `evaluate` (`workers`, `max_queue_size`, "
        "`use_multiprocessing` dropped, their quiet `verbose=0` default spelled out; Keras 1 "
        "`samples_per_epoch` calls are left alone)",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: FitGenerator()),
        symptoms=(
            Symptom(
                "AttributeError", r"object has no attribute '(fit|predict|evaluate)_generator'"
            ),
        ),
        gone=lambda: _keras_class_lacks("Model", "fit_generator"),
        examples=(
            Example(
                before=_TF_QUIET
                + _MODEL
                + "def batches():\n"
                + "    while True:\n"
                + "        yield X[:4], y[:4]\n"
                + "model = Sequential([keras.Input((3,)), Dense(1, activation='sigmoid')])\n"
                + "model.compile(loss='binary_crossentropy', optimizer='sgd')\n"
                + "history = model.fit_generator(batches(), 2, 3, verbose=0, workers=2)\n"
                + "loss = model.evaluate_generator(batches(), 1)\n",
                after=_TF_QUIET
                + _MODEL
                + "def batches():\n"
                + "    while True:\n"
                + "        yield X[:4], y[:4]\n"
                + "model = Sequential([keras.Input((3,)), Dense(1, activation='sigmoid')])\n"
                + "model.compile(loss='binary_crossentropy', optimizer='sgd')\n"
                + "history = model.fit(batches(), steps_per_epoch=2, epochs=3, verbose=0)\n"
                + "loss = model.evaluate(batches(), steps=1, verbose=0)\n",
                error="AttributeError",
                check="len(history.history['loss']) == 3 and loss > 0",
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
        gone=lambda: _keras_class_lacks("Sequential", "predict_classes"),
        examples=(
            Example(
                before=_TF_QUIET
                + _MODEL
                + "binary = Sequential([keras.Input((3,)), Dense(1, activation='sigmoid')])\n"
                + "multi = Sequential([keras.Input((3,)), Dense(4, activation='softmax')])\n"
                + "labels = binary.predict_classes(X, verbose=0)\n"
                + "classes = multi.predict_classes(X, batch_size=4)\n",
                after=_TF_QUIET
                + _MODEL
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
    Rule(
        id="keras.keras1-arguments",
        library="keras",
        changed_in="3.0",
        summary="Keras 1 keywords Keras 2 still converted: `Dense(output_dim=, init=, "
        "W_regularizer=)` -> `units=`, `kernel_initializer=`, `kernel_regularizer=`; "
        "`Dropout(p=)` -> `rate=`; `border_mode=`/`subsample=`/`nb_filter=`/`nb_row=, nb_col=` "
        "-> `padding=`/`strides=`/`filters=`/kernel size; `dropout_W/U` -> `dropout`/"
        "`recurrent_dropout`; `dim_ordering='th'` -> `data_format='channels_first'`; "
        "`Model(input=, output=)` -> `inputs=, outputs=`; `fit(nb_epoch=)` -> `epochs=`",
        kind=Kind.API,
        rewrite=cst_rewrite(Keras1Arguments),
        symptoms=(
            Symptom("ValueError", r"Unrecognized keyword arguments passed to \w+"),
            Symptom(
                "TypeError",
                r"missing \d required positional arguments?: "
                r"'(units|rate|filters|stddev|kernel_size)'",
            ),
            Symptom("TypeError", r"unexpected keyword argument 'nb_epoch'"),
        ),
        gone=_keras1_gone,
        examples=(
            Example(
                before=_TF_QUIET
                + _MODEL
                + "from keras.layers import Dropout, Convolution2D, LSTM\n"
                + "from keras.models import Model\n"
                + "dense = Dense(output_dim=2, init='zeros', activation='relu')\n"
                + "drop = Dropout(p=0.25)\n"
                + "conv = Convolution2D(nb_filter=4, nb_row=3, nb_col=2, border_mode='same', "
                + "subsample=(2, 2), dim_ordering='tf')\n"
                + "lstm = LSTM(output_dim=3, dropout_W=0.1, dropout_U=0.2, input_dim=5)\n"
                + "inputs = keras.Input((3,))\n"
                + "model = Model(input=inputs, output=Dense(1)(dense(inputs)))\n"
                + "model.compile(loss='mse', optimizer='sgd')\n"
                + "history = model.fit(X, y, nb_epoch=2, verbose=0)\n",
                after=_TF_QUIET
                + _MODEL
                + "from keras.layers import Dropout, Convolution2D, LSTM\n"
                + "from keras.models import Model\n"
                + "dense = Dense(units=2, kernel_initializer='zeros', activation='relu')\n"
                + "drop = Dropout(rate=0.25)\n"
                + "conv = Convolution2D(filters=4, padding='same', "
                + "strides=(2, 2), data_format='channels_last', kernel_size=(3, 2))\n"
                + "lstm = LSTM(units=3, dropout=0.1, recurrent_dropout=0.2, "
                + "input_shape=(None, 5))\n"
                + "inputs = keras.Input((3,))\n"
                + "model = Model(inputs=inputs, outputs=Dense(1)(dense(inputs)))\n"
                + "model.compile(loss='mse', optimizer='sgd')\n"
                + "history = model.fit(X, y, epochs=2, verbose=0)\n",
                error="TypeError",
                check="dense.units == 2 and type(dense.kernel_initializer).__name__ == 'Zeros' "
                "and drop.rate == 0.25 and conv.filters == 4 and conv.kernel_size == (3, 2) "
                "and conv.padding == 'same' and conv.strides == (2, 2) "
                "and (lstm.units, lstm.dropout, lstm.recurrent_dropout) == (3, 0.1, 0.2) "
                "and len(history.history['loss']) == 2",
            ),
        ),
    ),
    Rule(
        id="keras.conv-kernel-positional",
        library="keras",
        changed_in="3.0",
        summary="Keras 1 `Convolution2D(32, 3, 3)` (filters, rows, columns; Keras 2 still read "
        "it so) -> `Convolution2D(32, (3, 3))`: today the third number silently becomes "
        "the stride",
        kind=Kind.SILENT,
        rewrite=cst_rewrite(ConvKernelPositional),
        gone=_conv_positional_strides,
        examples=(
            Example(
                before=_TF_QUIET
                + "import keras\nfrom keras.layers import Convolution2D, Conv3D\n"
                + "conv = Convolution2D(8, 3, 3, activation='relu')\n"
                + "conv2 = keras.layers.Conv2D(4, 5, 1)\n",
                after=_TF_QUIET
                + "import keras\nfrom keras.layers import Convolution2D, Conv3D\n"
                + "conv = Convolution2D(8, (3, 3), activation='relu')\n"
                + "conv2 = keras.layers.Conv2D(4, (5, 1))\n",
                check="(conv.kernel_size, conv.strides) == ((3, 3), (1, 1)) "
                "and (conv2.kernel_size, conv2.strides) == ((5, 1), (1, 1))",
            ),
            Example(
                # Keras 1 `Convolution3D(filters, dim1, dim2, dim3)`: today the fourth is
                # `padding`, which fails
                before=_TF_QUIET + "from keras.layers import Conv3D\nvolume = Conv3D(2, 3, 3, 3)\n",
                after=_TF_QUIET
                + "from keras.layers import Conv3D\nvolume = Conv3D(2, (3, 3, 3))\n",
                error="AttributeError",
                check="(volume.kernel_size, volume.strides) == ((3, 3, 3), (1, 1, 1))",
            ),
        ),
    ),
    Rule(
        id="keras.image-dim-ordering",
        library="keras",
        changed_in="2.2",
        summary="`K.set_image_dim_ordering('th')` -> `K.set_image_data_format('channels_first')` "
        "(`'tf'` -> `'channels_last'`); `K.image_dim_ordering()` -> the same 'th'/'tf' from "
        "`K.image_data_format()`",
        kind=Kind.API,
        rewrite=rewrite_calls(_backend_targets()),
        symptoms=(
            Symptom(
                "AttributeError",
                r"module '(keras|tensorflow\.keras)\.backend' has no attribute "
                r"'(set_)?image_dim_ordering'",
            ),
        ),
        gone=lambda: _keras_lacks("keras.backend", "set_image_dim_ordering"),
        examples=(
            Example(
                before=_TF_QUIET
                + "from keras import backend as K\n"
                + "K.set_image_dim_ordering('th')\nfirst = K.image_dim_ordering()\n"
                + "K.set_image_dim_ordering('tf')\nlast = K.image_dim_ordering()\n",
                after=_TF_QUIET
                + "from keras import backend as K\n"
                + "K.set_image_data_format('channels_first')\n"
                + "first = ('th' if K.image_data_format() == 'channels_first' else 'tf')\n"
                + "K.set_image_data_format('channels_last')\n"
                + "last = ('th' if K.image_data_format() == 'channels_first' else 'tf')\n",
                error="AttributeError",
                check="(first, last) == ('th', 'tf') and K.image_data_format() == 'channels_last'",
            ),
        ),
    ),
    Rule(
        id="keras.history-accuracy-key",
        library="keras",
        changed_in="2.3",
        summary="`history.history['acc']` / `['val_acc']` -> `['accuracy']` / "
        "`['val_accuracy']` (metrics=['accuracy'] is logged under its full name); only in "
        "cells that failed on the key",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: _HistoryKeys()),
        symptoms=(Symptom("KeyError", r"^'(val_)?acc'$"),),
        gone=None,
        examples=(
            Example(
                before=_TF_QUIET
                + _MODEL
                + "model = Sequential([keras.Input((3,)), Dense(1, activation='sigmoid')])\n"
                + "model.compile(loss='binary_crossentropy', optimizer='sgd', "
                + "metrics=['accuracy'])\n"
                + "history = model.fit(X, y, epochs=2, validation_split=0.25, verbose=0)\n"
                + "curves = (history.history['acc'], history.history['val_acc'])\n",
                after=_TF_QUIET
                + _MODEL
                + "model = Sequential([keras.Input((3,)), Dense(1, activation='sigmoid')])\n"
                + "model.compile(loss='binary_crossentropy', optimizer='sgd', "
                + "metrics=['accuracy'])\n"
                + "history = model.fit(X, y, epochs=2, validation_split=0.25, verbose=0)\n"
                + "curves = (history.history['accuracy'], history.history['val_accuracy'])\n",
                error="KeyError",
                check="len(curves[0]) == 2 and len(curves[1]) == 2",
            ),
        ),
    ),
    Rule(
        id="tensorflow.v1-compat",
        library="tensorflow",
        changed_in="2.0",
        summary="TensorFlow 1.x names TensorFlow 2 lacks (`tf.placeholder`, `tf.Session`, "
        "`tf.train.AdamOptimizer`, `tf.global_variables_initializer`, ...) -> "
        "`tf.compat.v1.*`, with `tf.compat.v1.disable_eager_execution()` in cells that build "
        "placeholders or sessions (`tf.contrib` has no replacement)",
        kind=Kind.API,
        rewrite=_tf1_compat,
        symptoms=(
            Symptom("AttributeError", r"module 'tensorflow(\.\w+)*' has no attribute '\w+'"),
        ),
        gone=_tf1_gone,
        examples=(
            Example(
                before=_TF_QUIET
                + "import numpy as np\nimport tensorflow as tf\n"
                + "tf.set_random_seed(0)\n"
                + "x = tf.placeholder(tf.float32, [None, 2])\n"
                + "w = tf.Variable(tf.ones([2, 1]))\n"
                + "loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))\n"
                + "step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
                + "with tf.Session() as sess:\n"
                + "    sess.run(tf.global_variables_initializer())\n"
                + "    before = sess.run(loss, {x: [[1.0, 2.0]]})\n"
                + "    sess.run(step, {x: [[1.0, 2.0]]})\n"
                + "    after = sess.run(loss, {x: [[1.0, 2.0]]})\n",
                after=_TF_QUIET
                + "import numpy as np\nimport tensorflow as tf\n"
                + "tf.compat.v1.disable_eager_execution()\n"
                + "tf.compat.v1.set_random_seed(0)\n"
                + "x = tf.compat.v1.placeholder(tf.float32, [None, 2])\n"
                + "w = tf.Variable(tf.ones([2, 1]))\n"
                + "loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))\n"
                + "step = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
                + "with tf.compat.v1.Session() as sess:\n"
                + "    sess.run(tf.compat.v1.global_variables_initializer())\n"
                + "    before = sess.run(loss, {x: [[1.0, 2.0]]})\n"
                + "    sess.run(step, {x: [[1.0, 2.0]]})\n"
                + "    after = sess.run(loss, {x: [[1.0, 2.0]]})\n",
                error="AttributeError",
                # First back to eager mode, for the snippets that run after this one in the
                # same process. Loss (1 + 2 - 1)^2 = 4; one step with gradient 2 * 2 * [1, 2]
                # gives w = [0.6, 0.2] and loss (0.6 + 0.4 - 1)^2 = 0.
                check="(tf.compat.v1.reset_default_graph() or "
                "tf.compat.v1.enable_eager_execution() or tf.executing_eagerly()) "
                "and abs(before - 4.0) < 1e-6 and abs(after) < 1e-6",
            ),
        ),
    ),
    Rule(
        id="tensorflow.reduce-keywords",
        library="tensorflow",
        changed_in="2.0",
        summary="`tf.reduce_sum(x, reduction_indices=1, keep_dims=True)` -> "
        "`tf.reduce_sum(x, axis=1, keepdims=True)` (all `reduce_*`); "
        "`tf.argmax(x, dimension=1)` -> `axis=1`",
        kind=Kind.API,
        rewrite=chain(
            edit_keywords(
                _tf_call(*_REDUCTIONS),
                {"reduction_indices": rename_to("axis"), "keep_dims": rename_to("keepdims")},
            ),
            edit_keywords(
                _tf_call(
                    "tensorflow.argmax",
                    "tensorflow.argmin",
                    "tensorflow.math.argmax",
                    "tensorflow.math.argmin",
                ),
                {"dimension": rename_to("axis")},
            ),
        ),
        symptoms=(
            Symptom(
                "TypeError",
                r"unexpected keyword argument '(reduction_indices|keep_dims|dimension)'",
            ),
        ),
        gone=_reduce_keywords_gone,
        examples=(
            Example(
                before=_TF_QUIET
                + "import tensorflow as tf\n"
                + "x = tf.constant([[1.0, 2.0], [3.0, 5.0]])\n"
                + "rows = tf.reduce_sum(x, reduction_indices=1, keep_dims=True)\n"
                + "means = tf.reduce_mean(x, reduction_indices=[0])\n"
                + "best = tf.argmax(x, dimension=1)\n",
                after=_TF_QUIET
                + "import tensorflow as tf\n"
                + "x = tf.constant([[1.0, 2.0], [3.0, 5.0]])\n"
                + "rows = tf.reduce_sum(x, axis=1, keepdims=True)\n"
                + "means = tf.reduce_mean(x, axis=[0])\n"
                + "best = tf.argmax(x, axis=1)\n",
                error="TypeError",
                check="rows.numpy().tolist() == [[3.0], [8.0]] "
                "and means.numpy().tolist() == [2.0, 3.5] and best.numpy().tolist() == [1, 1]",
            ),
        ),
    ),
)
