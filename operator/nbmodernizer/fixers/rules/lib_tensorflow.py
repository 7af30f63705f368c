"""TensorFlow 1.x drift: graph-mode code and renamed reduction keywords."""

from __future__ import annotations

import functools
from collections.abc import Callable

import libcst as cst

from nbmodernizer.fixers.rules.cells import qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import (
    chain,
    cst_rewrite,
    edit_keywords,
    rename_to,
)
from nbmodernizer.fixers.rules.keras_calls import Tf1Compat
from nbmodernizer.fixers.rules.keras_common import TF_QUIET, import_optional
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom

# --- TensorFlow 1.x -------------------------------------------------------------------------


def _tf1_compat(source: str, context: RuleContext) -> str:
    if not any(target.split(".")[0] == "tensorflow" for target in context.aliases.values()):
        return source  # the notebook never imports TensorFlow: do not import it here either
    tensorflow = import_optional("tensorflow")
    if tensorflow is None:
        return source
    compat = tensorflow.compat.v1
    return cst_rewrite(lambda ctx: Tf1Compat(ctx, tensorflow, compat))(source, context)


@functools.cache
def _tf1_gone() -> bool:
    tensorflow = import_optional("tensorflow")
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

    tensorflow = import_optional("tensorflow")
    if tensorflow is None:
        return False
    return "keep_dims" not in inspect.signature(tensorflow.reduce_sum).parameters


RULES = (
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
                before=TF_QUIET
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
                after=TF_QUIET
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
                before=TF_QUIET
                + "import tensorflow as tf\n"
                + "x = tf.constant([[1.0, 2.0], [3.0, 5.0]])\n"
                + "rows = tf.reduce_sum(x, reduction_indices=1, keep_dims=True)\n"
                + "means = tf.reduce_mean(x, reduction_indices=[0])\n"
                + "best = tf.argmax(x, dimension=1)\n",
                after=TF_QUIET
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
