"""TensorFlow 1.x drift: graph-mode code and renamed reduction keywords."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    edit_keywords,
    rename_to,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite
from nbmodernizer.fixers.rules.toolkit.examples import TF_QUIET
from nbmodernizer.fixers.rules.toolkit.imports import (
    ImportingTransformer,
    first_lines_end,
    imports_module,
)
from nbmodernizer.fixers.rules.toolkit.nodes import (
    dotted_name,
    expression,
    qualified,
)
from nbmodernizer.fixers.rules.toolkit.probes import lacks, no_parameter

# === TensorFlow 1.x ======================================================================

_GRAPH_ONLY = frozenset(
    {"placeholder", "placeholder_with_default", "Session", "InteractiveSession"}
)


# the namespaces whose names the rewrite reads where the notebook runs: TensorFlow's and
# `tf.compat.v1`'s top level and these submodules of both (deeper paths are left alone)
_SUBMODULES = (
    "train",
    "nn",
    "layers",
    "losses",
    "summary",
    "logging",
    "random",
    "math",
    "image",
    "data",
    "initializers",
    "metrics",
    "io",
    "gfile",
    "saved_model",
    "linalg",
    "sparse",
    "strings",
)
_ROOTS = ("tensorflow", "tensorflow.compat.v1")
NAMESPACES = tuple(
    f"{root}.{sub}" if sub else root for root in _ROOTS for sub in ("", *_SUBMODULES)
)


def _has(context: RuleContext, root: str, path: Sequence[str]) -> bool | None:
    """Whether the environment's `root` has the dotted `path` (None: unknown there). A
    namespace its parent lacks has nothing (TensorFlow 2 has no `tf.gfile`, so no
    `tf.gfile.GFile`): the probe of its names fails there, which says nothing by itself."""
    for depth, name in enumerate(path):
        names = context.public_names(".".join([root, *path[:depth]]))
        if names is None:
            return None
        if name not in names:
            return False
    return True


def _compat_only(context: RuleContext, path: Sequence[str]) -> bool:
    """A name TensorFlow 2 lacks and `tf.compat.v1` has, in the notebook's environment."""
    return _has(context, "tensorflow", path) is False and bool(
        _has(context, "tensorflow.compat.v1", path)
    )


class Tf1Compat(ImportingTransformer):
    """`tf.X` that TensorFlow 2 lacks but `tf.compat.v1` has -> `tf.compat.v1.X`.

    When the cell then builds graph-only objects (placeholders, sessions), it gets
    `tf.compat.v1.disable_eager_execution()` first (after the cell's imports).
    """

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self.facts = context
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
        if _compat_only(self.facts, path):
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

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        """`from tensorflow import set_random_seed` -> `from tensorflow.compat.v1 import ...`,
        when every name it imports is one TensorFlow 2 lacks and `tf.compat.v1` has."""
        module = dotted_name(updated_node.module) if updated_node.module is not None else None
        names = updated_node.names
        if (
            module is None
            or module.split(".")[0] != "tensorflow"
            or isinstance(names, cst.ImportStar)
        ):
            return updated_node
        path = module.split(".")[1:]
        if path[:2] == ["compat", "v1"]:
            return updated_node
        imported = [[*path, dotted_name(alias.name) or ""] for alias in names]
        if not all(_compat_only(self.facts, p) for p in imported):
            return updated_node
        compat = expression(".".join(["tensorflow", "compat", "v1", *path]))
        assert isinstance(compat, cst.Attribute)
        return updated_node.with_changes(module=compat)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        module = updated_node
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
        position = max(position, first_lines_end(body))  # after a `%%time` line, a docstring
        return module.with_changes(body=[*body[:position], statement, *body[position:]])


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


# --- TensorFlow 1.x -------------------------------------------------------------------------


def _tf1_compat(source: str, context: RuleContext) -> str:
    if not imports_module(context, "tensorflow"):
        return source  # the notebook never imports TensorFlow
    return cst_rewrite(Tf1Compat)(source, context)


_REDUCTIONS = tuple(
    f"{module}.reduce_{name}"
    for module in ("tensorflow", "tensorflow.math")
    for name in ("sum", "mean", "max", "min", "prod", "any", "all", "logsumexp")
)


def _tf_call(*names: str) -> Callable[[cst.Call, RuleContext], bool]:
    def applies(call: cst.Call, context: RuleContext) -> bool:
        return qualified(call.func, context.aliases) in names

    return applies


RULES = (
    Rule(
        id="tensorflow.v1-compat",
        library="tensorflow",
        changed_in="2.0",
        summary="TensorFlow 1.x names TensorFlow 2 lacks (`tf.placeholder`, `tf.Session`, "
        "`tf.train.AdamOptimizer`, `tf.global_variables_initializer`, ...) -> "
        "`tf.compat.v1.*` (and `from tensorflow import set_random_seed` -> "
        "`from tensorflow.compat.v1 import set_random_seed`), with `tf.compat.v1.disable_eager_execution()` in cells that build "
        "placeholders or sessions (`tf.contrib` has no replacement)",
        kind=Kind.API,
        rewrite=_tf1_compat,
        names=NAMESPACES,
        symptoms=(
            Symptom("AttributeError", r"module 'tensorflow(\.\w+)*' has no attribute '\w+'"),
            Symptom("ImportError", r"cannot import name '\w+' from 'tensorflow(\.\w+)*'"),
        ),
        gone=lacks("tensorflow", "Session"),
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
            Example(
                before=TF_QUIET
                + "import tensorflow as tf\n"
                + "from tensorflow import set_random_seed\n"
                + "set_random_seed(0)\n"
                + "first = tf.random.uniform([3]).numpy()\n"
                + "set_random_seed(0)\n"
                + "again = tf.random.uniform([3]).numpy()\n",
                after=TF_QUIET
                + "import tensorflow as tf\n"
                + "from tensorflow.compat.v1 import set_random_seed\n"
                + "set_random_seed(0)\n"
                + "first = tf.random.uniform([3]).numpy()\n"
                + "set_random_seed(0)\n"
                + "again = tf.random.uniform([3]).numpy()\n",
                error="ImportError",
                check="(first == again).all()",  # the seed still makes the draws repeat
            ),
            Example(  # whole namespaces TensorFlow 2 lacks: `tf.gfile`, `tf.logging`
                before=TF_QUIET
                + "import tensorflow as tf\n"
                + "tf.logging.set_verbosity(tf.logging.ERROR)\n"
                + "with tf.gfile.GFile('labels.txt', 'w') as out:\n"
                + "    out.write('cat\\ndog\\n')\n"
                + "labels = tf.gfile.GFile('labels.txt').read().split()\n",
                after=TF_QUIET
                + "import tensorflow as tf\n"
                + "tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)\n"
                + "with tf.compat.v1.gfile.GFile('labels.txt', 'w') as out:\n"
                + "    out.write('cat\\ndog\\n')\n"
                + "labels = tf.compat.v1.gfile.GFile('labels.txt').read().split()\n",
                error="AttributeError",
                check="labels == ['cat', 'dog']",
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
        gone=no_parameter("tensorflow.reduce_sum", "keep_dims"),
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
