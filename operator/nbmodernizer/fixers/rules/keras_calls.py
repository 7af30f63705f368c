"""LibCST transforms for Keras and TensorFlow calls."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import libcst as cst

from nbmodernizer.fixers.rules.arguments import (
    has_star_args,
    keyword_arg,
    positional_args,
    string_literal,
)
from nbmodernizer.fixers.rules.cells import dotted_name, expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_moves import ImportingTransformer, add_imports, keywordize
from nbmodernizer.fixers.rules.cst_tools import code, new_arg, with_args

# === Keras ================================================================================


def keras_flavor(call: cst.Call, context: RuleContext) -> tuple[str, str] | None:
    """("keras" | "tf.keras", class or function name) for a call into Keras, else None.

    A bare unresolved name (`from keras.layers import *`) counts as Keras when the notebook
    imports keras (standalone first) or tensorflow.
    """
    name = qualified(call.func, context.aliases)
    if name is None:
        return None
    last = name.rsplit(".", 1)[-1]
    if name == "keras" or name.startswith("keras."):
        return "keras", last
    if name.startswith("tensorflow.keras.") or name.startswith("tensorflow.python.keras."):
        return "tf.keras", last
    if "." in name:
        return None
    targets = set(context.aliases.values())
    if any(target == "keras" or target.startswith("keras.") for target in targets):
        return "keras", last
    if any(target == "tensorflow" or target.startswith("tensorflow.") for target in targets):
        return "tf.keras", last
    return None


def is_int_literal(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Integer)


_DENSE_ARGS = {
    "output_dim": "units",
    "init": "kernel_initializer",
    "W_regularizer": "kernel_regularizer",
    "b_regularizer": "bias_regularizer",
    "W_constraint": "kernel_constraint",
    "b_constraint": "bias_constraint",
    "bias": "use_bias",
}
_CONV_ARGS = {
    "nb_filter": "filters",
    "subsample": "strides",
    "border_mode": "padding",
    "dim_ordering": "data_format",
    **{key: value for key, value in _DENSE_ARGS.items() if key != "output_dim"},
}
_RECURRENT_ARGS = {
    **_DENSE_ARGS,
    "inner_init": "recurrent_initializer",
    "inner_activation": "recurrent_activation",
    "U_regularizer": "recurrent_regularizer",
    "dropout_W": "dropout",
    "dropout_U": "recurrent_dropout",
}
_DIM_ORDERING = {"dim_ordering": "data_format"}


def _family(names: Sequence[str], renames: Mapping[str, str]) -> dict[str, Mapping[str, str]]:
    return dict.fromkeys(names, renames)


# Keras 1 keyword -> Keras 2 keyword, per layer, as Keras 2's own legacy interface converted
# them (keras/legacy/interfaces.py).
KERAS1_ARGUMENTS: dict[str, Mapping[str, str]] = {
    **_family(("Dense",), _DENSE_ARGS),
    **_family(("Dropout", "GaussianDropout", "SpatialDropout1D"), {"p": "rate"}),
    **_family(("SpatialDropout2D", "SpatialDropout3D"), {"p": "rate", **_DIM_ORDERING}),
    "Embedding": {
        "init": "embeddings_initializer",
        "W_regularizer": "embeddings_regularizer",
        "W_constraint": "embeddings_constraint",
    },
    **_family(
        ("MaxPooling1D", "AveragePooling1D", "MaxPool1D", "AvgPool1D"),
        {"pool_length": "pool_size", "stride": "strides", "border_mode": "padding"},
    ),
    **_family(
        (
            "MaxPooling2D",
            "AveragePooling2D",
            "MaxPooling3D",
            "AveragePooling3D",
            "MaxPool2D",
            "AvgPool2D",
            "MaxPool3D",
            "AvgPool3D",
        ),
        {"border_mode": "padding", **_DIM_ORDERING},
    ),
    **_family(
        (
            "GlobalMaxPooling2D",
            "GlobalAveragePooling2D",
            "GlobalMaxPooling3D",
            "GlobalAveragePooling3D",
            "UpSampling2D",
            "UpSampling3D",
            "ZeroPadding2D",
            "ZeroPadding3D",
            "Cropping2D",
            "Cropping3D",
        ),
        _DIM_ORDERING,
    ),
    "UpSampling1D": {"length": "size"},
    "PReLU": {"init": "alpha_initializer"},
    "GaussianNoise": {"sigma": "stddev"},
    **_family(("LSTM", "GRU", "SimpleRNN"), _RECURRENT_ARGS),
    **_family(
        ("Conv1D", "Convolution1D"),
        {
            **{key: value for key, value in _CONV_ARGS.items() if key != "subsample"},
            "filter_length": "kernel_size",
            "subsample_length": "strides",
        },
    ),
    **_family(
        (
            "Conv2D",
            "Convolution2D",
            "Conv3D",
            "Convolution3D",
            "Conv2DTranspose",
            "Deconvolution2D",
        ),
        _CONV_ARGS,
    ),
    "SeparableConv2D": {key: value for key, value in _CONV_ARGS.items() if key != "init"},
    "ConvLSTM2D": {**_CONV_ARGS, **{k: v for k, v in _RECURRENT_ARGS.items() if k != "output_dim"}},
    "BatchNormalization": {"beta_init": "beta_initializer", "gamma_init": "gamma_initializer"},
    "Model": {"input": "inputs", "output": "outputs"},
}
_DIM_ORDERING_VALUES = {"tf": "'channels_last'", "th": "'channels_first'", "default": "None"}
_TWO_D_KERNELS = frozenset(
    {
        "Conv2D",
        "Convolution2D",
        "Conv2DTranspose",
        "Deconvolution2D",
        "SeparableConv2D",
        "ConvLSTM2D",
    }
)
_WITH_INPUT_DIM = frozenset({"LSTM", "GRU", "SimpleRNN", "Conv1D", "Convolution1D"})


class Keras1Arguments(cst.CSTTransformer):
    """Keras 1 keyword arguments -> their Keras 2 names (what Keras 2 did with a warning)."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        method = (
            updated_node.func.attr.value if isinstance(updated_node.func, cst.Attribute) else None
        )
        if method in {"fit", "fit_generator"} and keyword_arg(updated_node, "nb_epoch"):
            return self._renamed(updated_node, {"nb_epoch": "epochs"})
        flavor = keras_flavor(original_node, self.context)
        if flavor is None or flavor[1] not in KERAS1_ARGUMENTS:
            return updated_node
        layer = flavor[1]
        if layer == "Model" and not isinstance(original_node.func, cst.Attribute):
            name = qualified(original_node.func, self.context.aliases) or ""
            if "." not in name:
                return updated_node  # an unresolved bare `Model` may be anything
        call = self._renamed(updated_node, KERAS1_ARGUMENTS[layer])
        if layer in _TWO_D_KERNELS:
            call = self._kernel_keywords(call)
        if layer == "BatchNormalization":
            call = self._drop_mode_zero(call)
        if layer in _WITH_INPUT_DIM:
            call = self._input_shape(call)
        return call

    @staticmethod
    def _renamed(call: cst.Call, renames: Mapping[str, str]) -> cst.Call:
        if not any(arg.keyword is not None and arg.keyword.value in renames for arg in call.args):
            return call
        present = {arg.keyword.value for arg in call.args if arg.keyword is not None}
        args: list[cst.Arg] = []
        for arg in call.args:
            old = arg.keyword.value if arg.keyword is not None else None
            if old is None or old not in renames or renames[old] in present:
                args.append(arg)
                continue
            changed = arg.with_changes(keyword=cst.Name(renames[old]))
            value = string_literal(arg.value)
            if old == "dim_ordering" and value in _DIM_ORDERING_VALUES:
                changed = changed.with_changes(value=expression(_DIM_ORDERING_VALUES[value]))
            args.append(changed)
        return call.with_changes(args=args)

    @staticmethod
    def _kernel_keywords(call: cst.Call) -> cst.Call:
        row, col = keyword_arg(call, "nb_row"), keyword_arg(call, "nb_col")
        if row is None or col is None or keyword_arg(call, "kernel_size") is not None:
            return call
        kernel = expression(f"({code(row.value)}, {code(col.value)})")
        args = [arg for arg in call.args if arg is not row and arg is not col]
        positional = [arg for arg in args if arg.keyword is None]
        if len(positional) == 1:  # Conv2D(32, nb_row=3, nb_col=3): kernel second, positionally
            index = args.index(positional[0]) + 1
            args.insert(index, cst.Arg(value=kernel))
        else:
            args.append(new_arg("kernel_size", kernel))
        return with_args(call, args)

    @staticmethod
    def _drop_mode_zero(call: cst.Call) -> cst.Call:
        mode = keyword_arg(call, "mode")
        if mode is None or not (isinstance(mode.value, cst.Integer) and mode.value.value == "0"):
            return call
        return with_args(call, [arg for arg in call.args if arg is not mode])

    @staticmethod
    def _input_shape(call: cst.Call) -> cst.Call:
        dim = keyword_arg(call, "input_dim")
        if dim is None or keyword_arg(call, "input_shape") is not None:
            return call
        length = keyword_arg(call, "input_length")
        length_code = code(length.value) if length is not None else "None"
        shape = new_arg("input_shape", f"({length_code}, {code(dim.value)})")
        args = [shape if arg is dim else arg for arg in call.args if arg is not length]
        return with_args(call, args)


class ConvKernelPositional(cst.CSTTransformer):
    """Keras 1 `Convolution2D(32, 3, 3)` (nb_row, nb_col) -> `Conv2D(32, (3, 3))`.

    Keras 2 read three integer positionals as filters and kernel rows/columns; today the
    third is `strides`. Only standalone `keras` calls with integer literals are rewritten.
    """

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        flavor = keras_flavor(original_node, self.context)
        if flavor is None or flavor[0] != "keras" or has_star_args(updated_node):
            return updated_node
        dims = (
            2
            if flavor[1] in _TWO_D_KERNELS
            else 3
            if flavor[1] in {"Conv3D", "Convolution3D"}
            else 0
        )
        positional = positional_args(updated_node)
        if not dims or len(positional) != dims + 1:
            return updated_node
        if not all(is_int_literal(arg.value) for arg in positional[1:]):
            return updated_node
        if any(keyword_arg(updated_node, name) for name in ("padding", "strides", "data_format")):
            return updated_node  # Keras 2 refused this combination
        kernel = expression("(" + ", ".join(code(arg.value) for arg in positional[1:]) + ")")
        args: list[cst.Arg] = []
        for arg in updated_node.args:
            if arg is positional[1]:
                args.append(arg.with_changes(value=kernel))
            elif arg in positional[2:]:
                continue
            else:
                args.append(arg)
        return with_args(updated_node, args)


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
    "nb_epoch": "epochs",
    "nb_val_samples": "validation_steps",
    "val_samples": "steps",
}


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


# === TensorFlow 1.x ======================================================================

_GRAPH_ONLY = frozenset(
    {"placeholder", "placeholder_with_default", "Session", "InteractiveSession"}
)


def _resolve(root: object, path: Sequence[str]) -> bool:
    node = root
    for part in path:
        try:
            node = getattr(node, part)
        except Exception:  # lazy loaders may raise anything on a missing attribute
            return False
    return True


class Tf1Compat(ImportingTransformer):
    """`tf.X` that TensorFlow 2 lacks but `tf.compat.v1` has -> `tf.compat.v1.X`.

    When the cell then builds graph-only objects (placeholders, sessions), it gets
    `tf.compat.v1.disable_eager_execution()` first (after the cell's imports).
    """

    def __init__(self, context: RuleContext, tensorflow: object, compat: object) -> None:
        super().__init__(context)
        self.tf, self.compat = tensorflow, compat
        self.replace: set[int] = set()
        self.graph_only = False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        name = qualified(node, self.aliases)
        if name is None:
            return True
        if not name.startswith("tensorflow."):
            return False
        path = name.split(".")[1:]
        if path[:2] == ["compat", "v1"]:
            self.graph_only = self.graph_only or path[-1] in _GRAPH_ONLY
            return False
        if not _resolve(self.tf, path) and _resolve(self.compat, path):
            self.replace.add(id(node))
            self.graph_only = self.graph_only or path[-1] in _GRAPH_ONLY
        return False

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if id(original_node) not in self.replace:
            return updated_node
        name = qualified(original_node, self.aliases)
        assert name is not None
        path = ".".join(name.split(".")[1:])
        tf = self.module_ref("tensorflow")
        return expression(f"{tf}.compat.v1.{path}").with_changes(
            lpar=updated_node.lpar, rpar=updated_node.rpar
        )

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        module = super().leave_Module(original_node, updated_node)
        if not self.replace or not self.graph_only or "disable_eager_execution" in module.code:
            return module
        tf = self.module_ref("tensorflow")
        statement = cst.parse_statement(f"{tf}.compat.v1.disable_eager_execution()")
        body = list(module.body)
        imports_tf = [index for index, line in enumerate(body) if _imports_tensorflow(line)]
        if imports_tf:
            position = imports_tf[0] + 1
        else:
            position = 0
            while position < len(body) and _is_import_line(body[position]):
                position += 1
        module = module.with_changes(body=[*body[:position], statement, *body[position:]])
        return add_imports(module, self.needed_imports)


def _imports_tensorflow(statement: cst.BaseStatement) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        if isinstance(small, cst.Import) and any(
            (dotted_name(alias.name) or "").split(".")[0] == "tensorflow" for alias in small.names
        ):
            return True
        if (
            isinstance(small, cst.ImportFrom)
            and small.module is not None
            and (dotted_name(small.module) or "").split(".")[0] == "tensorflow"
        ):
            return True
    return False


def _is_import_line(statement: cst.BaseStatement) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(small, cst.Import | cst.ImportFrom) for small in statement.body
    )


# === PyTorch =============================================================================


def is_zero_index(node: cst.Subscript) -> bool:
    if len(node.slice) != 1:
        return False
    index = node.slice[0].slice
    return (
        isinstance(index, cst.Index)
        and isinstance(index.value, cst.Integer)
        and index.value.value == "0"
    )


def call_args(
    call: cst.Call, names: Sequence[str], defaults: Mapping[str, str | None]
) -> dict[str, cst.BaseExpression] | None:
    """The call's arguments by parameter name (None when they cannot be read statically)."""
    if has_star_args(call):
        return None
    found: dict[str, cst.BaseExpression] = {}
    for index, arg in enumerate(call.args):
        if arg.keyword is None:
            if index >= len(names):
                return None
            found[names[index]] = arg.value
        elif arg.keyword.value in names:
            found[arg.keyword.value] = arg.value
        else:
            return None
    for name, default in defaults.items():
        if name not in found and default is not None:
            found[name] = expression(default)
    return found
