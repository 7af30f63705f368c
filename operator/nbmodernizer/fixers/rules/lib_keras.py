"""Keras drift (standalone Keras 1/2 -> Keras 3): moved modules, renamed arguments and methods."""

from __future__ import annotations

from nbmodernizer.fixers.rules.cst_moves import move_names, rewrite_calls
from nbmodernizer.fixers.rules.cst_tools import (
    chain,
    cst_rewrite,
    move_module,
)
from nbmodernizer.fixers.rules.keras_calls import (
    ConvKernelPositional,
    FitGenerator,
    Keras1Arguments,
    PredictClasses,
)
from nbmodernizer.fixers.rules.keras_common import TF_QUIET
from nbmodernizer.fixers.rules.keras_transforms import (
    IMAGE_LEGACY,
    LAYER_MODULES,
    MODEL,
    SEQUENCE_LEGACY,
    DefaultLearningRates,
    HistoryKeys,
    OptimizerLearningRate,
    UtilsSubmodules,
    backend_targets,
    conv_positional_strides,
    default_learning_rates_gone,
    keras1_gone,
    keras_class_lacks,
    keras_lacks,
    layer_modules_gone,
    lr_keyword_gone,
    np_utils_gone,
    preprocessing_gone,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom

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
            *(move_module(f"keras.layers.{module}", "keras.layers") for module in LAYER_MODULES)
        ),
        symptoms=(Symptom("ModuleNotFoundError", r"No module named 'keras\.layers\.\w+'"),),
        gone=layer_modules_gone,
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
            cst_rewrite(lambda _context: UtilsSubmodules()),
        ),
        symptoms=(
            Symptom("ModuleNotFoundError", r"No module named 'keras\.utils\.(np|vis)_utils'"),
            Symptom("ImportError", r"cannot import name '(np|vis)_utils' from 'keras\.utils'"),
        ),
        gone=np_utils_gone,
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
                IMAGE_LEGACY,
            ),
            move_names(
                "keras.preprocessing.sequence",
                "tensorflow.keras.preprocessing.sequence",
                SEQUENCE_LEGACY,
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
        gone=preprocessing_gone,
        examples=(
            Example(
                before=TF_QUIET
                + "import numpy as np\n"
                + "from keras.preprocessing.image import ImageDataGenerator, img_to_array\n"
                + "from keras.preprocessing.text import Tokenizer\n"
                + "flow = ImageDataGenerator(rescale=0.5).flow(np.ones((2, 3, 3, 1)), "
                + "batch_size=2, shuffle=False)\nbatch = next(iter(flow))\n"
                + "tokenizer = Tokenizer()\ntokenizer.fit_on_texts(['b a b'])\n",
                after=TF_QUIET
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
        rewrite=cst_rewrite(OptimizerLearningRate),
        symptoms=(Symptom("ValueError", r"Argument\(s\) not recognized: \{'lr'"),),
        gone=lr_keyword_gone,
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
        gone=default_learning_rates_gone,
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
        gone=lambda: keras_class_lacks("Model", "fit_generator"),
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
                + "loss = model.evaluate_generator(batches(), 1)\n",
                after=TF_QUIET
                + MODEL
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
        gone=lambda: keras_class_lacks("Sequential", "predict_classes"),
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
        gone=keras1_gone,
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
        gone=conv_positional_strides,
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
        id="keras.image-dim-ordering",
        library="keras",
        changed_in="2.2",
        summary="`K.set_image_dim_ordering('th')` -> `K.set_image_data_format('channels_first')` "
        "(`'tf'` -> `'channels_last'`); `K.image_dim_ordering()` -> the same 'th'/'tf' from "
        "`K.image_data_format()`",
        kind=Kind.API,
        rewrite=rewrite_calls(backend_targets()),
        symptoms=(
            Symptom(
                "AttributeError",
                r"module '(keras|tensorflow\.keras)\.backend' has no attribute "
                r"'(set_)?image_dim_ordering'",
            ),
        ),
        gone=lambda: keras_lacks("keras.backend", "set_image_dim_ordering"),
        examples=(
            Example(
                before=TF_QUIET
                + "from keras import backend as K\n"
                + "K.set_image_dim_ordering('th')\nfirst = K.image_dim_ordering()\n"
                + "K.set_image_dim_ordering('tf')\nlast = K.image_dim_ordering()\n",
                after=TF_QUIET
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
        rewrite=cst_rewrite(lambda _context: HistoryKeys()),
        symptoms=(Symptom("KeyError", r"^'(val_)?acc'$"),),
        gone=None,
        examples=(
            Example(
                before=TF_QUIET
                + MODEL
                + "model = Sequential([keras.Input((3,)), Dense(1, activation='sigmoid')])\n"
                + "model.compile(loss='binary_crossentropy', optimizer='sgd', "
                + "metrics=['accuracy'])\n"
                + "history = model.fit(X, y, epochs=2, validation_split=0.25, verbose=0)\n"
                + "curves = (history.history['acc'], history.history['val_acc'])\n",
                after=TF_QUIET
                + MODEL
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
)
