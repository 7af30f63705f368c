"""Keras modules that moved or went (`keras.layers.core`, `np_utils`, preprocessing)."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite
from nbmodernizer.fixers.rules.toolkit.examples import TF_QUIET
from nbmodernizer.fixers.rules.toolkit.moves import move_module, move_names, moved
from nbmodernizer.fixers.rules.toolkit.nodes import (
    expression,
    qualified,
)
from nbmodernizer.fixers.rules.toolkit.probes import (
    all_of,
    lacks,
    module_gone,
    not_,
)

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
        gone=module_gone("keras.layers.core"),
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
        id="keras.engine-and-experimental-modules",
        library="keras",
        changed_in="3.0",
        summary="`from keras.engine.topology import Layer` / `from keras.engine import Layer` "
        "-> `from keras.layers import Layer` (also `Input`, `InputSpec`); "
        "`keras.layers.experimental.preprocessing` (also under `tensorflow.keras`) -> "
        "`keras.layers`, where those layers live now",
        kind=Kind.API,
        rewrite=chain(
            move_module("keras.engine.topology", "keras.layers"),
            move_module("keras.engine.base_layer", "keras.layers"),
            move_module("keras.engine", "keras.layers"),
            move_module("keras.layers.experimental.preprocessing", "keras.layers"),
            move_module(
                "tensorflow.keras.layers.experimental.preprocessing", "tensorflow.keras.layers"
            ),
        ),
        symptoms=(
            Symptom(
                "ModuleNotFoundError",
                r"No module named '(tensorflow\.)?keras\.(engine|layers\.experimental)",
            ),
        ),
        gone=all_of(module_gone("keras.engine"), module_gone("keras.layers.experimental")),
        examples=(
            Example(
                before=TF_QUIET + "import keras\n"
                "from keras.engine.topology import Layer, InputSpec\n"
                "from keras.layers.experimental.preprocessing import Rescaling\n"
                "class Double(Layer):\n"
                "    def call(self, x):\n"
                "        return 2 * x\n"
                "out = Double()(Rescaling(0.5)(keras.ops.ones((1, 2))))\n",
                after=TF_QUIET + "import keras\n"
                "from keras.layers import Layer, InputSpec\n"
                "from keras.layers import Rescaling\n"
                "class Double(Layer):\n"
                "    def call(self, x):\n"
                "        return 2 * x\n"
                "out = Double()(Rescaling(0.5)(keras.ops.ones((1, 2))))\n",
                error="ModuleNotFoundError",
                check="float(keras.ops.sum(out)) == 2.0 and InputSpec is keras.layers.InputSpec",
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
        gone=module_gone("keras.utils.np_utils"),
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
                moved(
                    "keras.preprocessing.image",
                    "tensorflow.keras.preprocessing.image",
                    IMAGE_LEGACY,
                ),
                keep_local=True,
                reference="module",
            ),
            move_names(
                moved(
                    "keras.preprocessing.sequence",
                    "tensorflow.keras.preprocessing.sequence",
                    SEQUENCE_LEGACY,
                ),
                keep_local=True,
                reference="module",
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
        gone=all_of(  # without TensorFlow there is nowhere to move them to
            not_(module_gone("tensorflow.keras.preprocessing.image")),
            lacks("keras.preprocessing.image", "ImageDataGenerator"),
        ),
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
)
