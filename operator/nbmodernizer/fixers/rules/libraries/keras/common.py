"""What the Keras rules share: which Keras a call goes to, probes, example data."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.toolkit.imports import imports_module
from nbmodernizer.fixers.rules.toolkit.nodes import qualified

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
    if imports_module(context, "keras"):
        return "keras", last
    if imports_module(context, "tensorflow"):
        return "tf.keras", last
    return None


MODEL = (
    "import numpy as np\nimport keras\nfrom keras.models import Sequential\n"
    "from keras.layers import Dense\n"
    "X = np.random.RandomState(0).rand(8, 3)\ny = (X.sum(axis=1) > 1.5).astype(int)\n"
)
