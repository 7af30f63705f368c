"""Keras 1 layer arguments (`output_dim`, `init`, `Convolution2D(32, 3, 3)`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.keras.common import MODEL, keras_flavor
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    has_star_args,
    keyword_arg,
    new_arg,
    positional_args,
    with_args,
)
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.examples import TF_QUIET
from nbmodernizer.fixers.rules.toolkit.moves import move_names, moved
from nbmodernizer.fixers.rules.toolkit.nodes import (
    code,
    expression,
    qualified,
    string_literal,
)
from nbmodernizer.fixers.rules.toolkit.probes import lacks, rejects

_CUDNN = {"CuDNNLSTM": "LSTM", "CuDNNGRU": "GRU"}


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


RULES = (
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
        gone=rejects("import keras\nkeras.layers.Dense(1, init='zeros')"),
        examples=(
            Example(
                before=TF_QUIET
                + MODEL
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
                after=TF_QUIET
                + MODEL
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
        gone=rejects(  # Conv2D(1, 3, 3): the third argument is the strides
            "import keras\n"
            "if tuple(keras.layers.Conv2D(1, 3, 3).strides) == (3, 3):\n"
            "    raise TypeError('the third argument is the strides')"
        ),
        examples=(
            Example(
                before=TF_QUIET
                + "import keras\nfrom keras.layers import Convolution2D, Conv3D\n"
                + "conv = Convolution2D(8, 3, 3, activation='relu')\n"
                + "conv2 = keras.layers.Conv2D(4, 5, 1)\n",
                after=TF_QUIET
                + "import keras\nfrom keras.layers import Convolution2D, Conv3D\n"
                + "conv = Convolution2D(8, (3, 3), activation='relu')\n"
                + "conv2 = keras.layers.Conv2D(4, (5, 1))\n",
                check="(conv.kernel_size, conv.strides) == ((3, 3), (1, 1)) "
                "and (conv2.kernel_size, conv2.strides) == ((5, 1), (1, 1))",
            ),
            Example(
                # Keras 1 `Convolution3D(filters, dim1, dim2, dim3)`: today the fourth is
                # `padding`, which fails
                before=TF_QUIET + "from keras.layers import Conv3D\nvolume = Conv3D(2, 3, 3, 3)\n",
                after=TF_QUIET + "from keras.layers import Conv3D\nvolume = Conv3D(2, (3, 3, 3))\n",
                error="AttributeError",
                check="(volume.kernel_size, volume.strides) == ((3, 3, 3), (1, 1, 1))",
            ),
        ),
    ),
    Rule(
        id="keras.cudnn-layers",
        library="keras",
        changed_in="3.0",
        summary="`CuDNNLSTM(units)` / `CuDNNGRU(units)` -> `LSTM(units)` / `GRU(units)`: with "
        "their default activations (tanh, sigmoid gates, `reset_after=True`) today's layers "
        "are the same cells and run the cuDNN kernel themselves on a GPU",
        kind=Kind.API,
        rewrite=move_names(
            {
                **moved("keras.layers", "keras.layers", _CUDNN),
                **moved("tensorflow.keras.layers", "tensorflow.keras.layers", _CUDNN),
                **moved("tensorflow.compat.v1.keras.layers", "tensorflow.keras.layers", _CUDNN),
            }
        ),
        symptoms=(
            Symptom("ImportError", r"cannot import name 'CuDNN(LSTM|GRU)'"),
            Symptom("AttributeError", r"has no attribute 'CuDNN(LSTM|GRU)'"),
        ),
        gone=lacks("keras.layers", "CuDNNLSTM", "CuDNNGRU"),
        examples=(
            Example(
                before=TF_QUIET + "import numpy as np\n"
                "from keras.models import Sequential\n"
                "from keras.layers import Input, Bidirectional, CuDNNLSTM, CuDNNGRU, Dense\n"
                "model = Sequential([Input((5, 2)), Bidirectional(CuDNNLSTM(4, return_sequences=True)),\n"
                "                    CuDNNGRU(3), Dense(1)])\n"
                "out = model.predict(np.ones((2, 5, 2)), verbose=0)\n",
                after=TF_QUIET + "import numpy as np\n"
                "from keras.models import Sequential\n"
                "from keras.layers import Input, Bidirectional, LSTM, GRU, Dense\n"
                "model = Sequential([Input((5, 2)), Bidirectional(LSTM(4, return_sequences=True)),\n"
                "                    GRU(3), Dense(1)])\n"
                "out = model.predict(np.ones((2, 5, 2)), verbose=0)\n",
                error="ImportError",
                check="out.shape == (2, 1) and model.layers[1].reset_after "
                "and model.layers[0].forward_layer.recurrent_activation.__name__ == 'sigmoid'",
            ),
        ),
    ),
)
