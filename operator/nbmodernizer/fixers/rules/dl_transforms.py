"""LibCST building blocks for the scientific-stack and deep-learning rules.

The first half is generic (candidates for `cst_tools.py`): a transformer base that can refer
to a module the cell may not have imported (adding `import x.y` at the top of the cell when
needed), moving names between modules (splitting `from a import x, y` when only `x` moved),
calls matched by qualified name, positional arguments turned into keywords, removal of
whole statements or of imported names. The second half holds the Keras, TensorFlow 1.x and
PyTorch transformers used by lib_keras.py and lib_torch.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import libcst as cst

from nbmodernizer.fixers.rules.cells import dotted_name, expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import cst_rewrite
from nbmodernizer.fixers.rules.model import Rewrite

# Packages whose submodules are reachable as attributes once the top package is imported
# (eagerly imported, or lazily loaded on attribute access).
ATTRIBUTE_PACKAGES = frozenset({"numpy", "scipy", "tensorflow", "keras", "torch"})


# `keyword=value`, without the spaces LibCST puts around a default `=`
EQUAL = cst.AssignEqual(
    whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
)


def code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _is_future_import(statement: cst.BaseStatement) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    return any(
        isinstance(small, cst.ImportFrom)
        and small.module is not None
        and dotted_name(small.module) == "__future__"
        for small in statement.body
    )


def _imports_module(statement: cst.BaseStatement, module: str) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        if isinstance(small, cst.Import):
            for alias in small.names:
                if alias.asname is None and dotted_name(alias.name) == module:
                    return True
    return False


def add_imports(module: cst.Module, modules: Sequence[str]) -> cst.Module:
    """`import m` for each module the cell does not import yet, after any __future__ import."""
    body = list(module.body)
    position = 0
    while position < len(body) and _is_future_import(body[position]):
        position += 1
    new = [
        cst.parse_statement(f"import {name}")
        for name in dict.fromkeys(modules)
        if not any(_imports_module(statement, name) for statement in body)
    ]
    if not new:
        return module
    return module.with_changes(body=[*body[:position], *new, *body[position:]])


class ImportingTransformer(cst.CSTTransformer):
    """A transformer that may refer to modules the cell has not imported.

    `module_ref("scipy.special")` returns how the cell can name that module: the notebook's own
    alias when there is one (`np` for numpy, `tf.keras` under `import tensorflow as tf`), else
    the dotted name, and then `import scipy.special` is added at the top of the cell.
    Subclasses that define `leave_Module` must call `super().leave_Module`.
    """

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.aliases = context.aliases
        self.needed_imports: list[str] = []

    def module_ref(self, module: str) -> str:
        exact = sorted(
            (len(local), local) for local, target in self.aliases.items() if target == module
        )
        if exact:
            return exact[0][1]
        root, _, rest = module.partition(".")
        if root in ATTRIBUTE_PACKAGES:
            roots = sorted(
                (len(local), local) for local, target in self.aliases.items() if target == root
            )
            if roots:
                return f"{roots[0][1]}.{rest}" if rest else roots[0][1]
        self.needed_imports.append(module)
        return module

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        return add_imports(updated_node, self.needed_imports)


def keyword_arg(call: cst.Call, name: str) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def positional_args(call: cst.Call) -> list[cst.Arg]:
    return [arg for arg in call.args if arg.keyword is None and not arg.star]


def has_star_args(call: cst.Call) -> bool:
    return any(arg.star for arg in call.args)


def with_args(call: cst.Call, args: Sequence[cst.Arg]) -> cst.Call:
    """The call with these arguments, the trailing comma of the last one removed."""
    fixed = list(args)
    if fixed:
        fixed[-1] = fixed[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return call.with_changes(args=fixed)


def new_arg(keyword: str, value: str | cst.BaseExpression) -> cst.Arg:
    node = expression(value) if isinstance(value, str) else value
    return cst.Arg(value=node, keyword=cst.Name(keyword), equal=EQUAL)


def keywordize(call: cst.Call, names: Sequence[str | None], start: int = 0) -> cst.Call:
    """Positional arguments from index `start` on become keywords `names[i]` (None: keep)."""
    if has_star_args(call):
        return call
    args: list[cst.Arg] = []
    for index, arg in enumerate(call.args):
        if arg.keyword is None and start <= index < len(names) and names[index] is not None:
            name = names[index]
            assert name is not None
            args.append(arg.with_changes(keyword=cst.Name(name), equal=EQUAL))
        else:
            args.append(arg)
    return call.with_changes(args=args)


def renamed_callee(func: cst.BaseExpression, old: str, new: str) -> cst.BaseExpression:
    """`mod.old` -> `mod.new`; a bare `old` -> `new`; a local alias (`as x`) is kept."""
    if isinstance(func, cst.Attribute):
        return func.with_changes(attr=cst.Name(new))
    if isinstance(func, cst.Name) and func.value == old:
        return cst.Name(new)
    return func


def string_literal(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def replace_string(node: cst.SimpleString, value: str) -> cst.SimpleString:
    """The same literal (same quotes and prefix) holding another value."""
    quote = node.quote
    prefix = node.prefix
    return node.with_changes(value=f"{prefix}{quote}{value}{quote}")


# --- moving names between modules -------------------------------------------------------


def _fix_commas(aliases: Sequence[cst.ImportAlias]) -> list[cst.ImportAlias]:
    fixed = list(aliases)
    for index, alias in enumerate(fixed):
        last = index == len(fixed) - 1
        if last:
            fixed[index] = alias.with_changes(comma=cst.MaybeSentinel.DEFAULT)
        elif alias.comma is cst.MaybeSentinel.DEFAULT:
            fixed[index] = alias.with_changes(
                comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            )
    return fixed


class NameMover(ImportingTransformer):
    """`old.name` -> `new.new_name`, in `from old import name` and in attribute chains.

    `keep_local` keeps the notebook's local name when the name changes
    (`from scipy.signal import hanning` -> `from scipy.signal.windows import hann as hanning`).
    """

    def __init__(
        self,
        context: RuleContext,
        old: str,
        new: str,
        names: Mapping[str, str],
        keep_local: bool = True,
        attribute_new: str | None = None,
    ) -> None:
        super().__init__(context)
        self.old, self.new, self.names, self.keep_local = old, new, names, keep_local
        # where attribute chains go, when that is not the module imports come from
        # (`Image.ANTIALIAS` -> `Image.Resampling.LANCZOS`, an enum, not a module)
        self.attribute_new = attribute_new or new

    def _split(self, statement: cst.ImportFrom) -> tuple[cst.ImportFrom | None, cst.ImportFrom]:
        assert not isinstance(statement.names, cst.ImportStar)
        moved: list[cst.ImportAlias] = []
        kept: list[cst.ImportAlias] = []
        in_place = self.new == self.old  # only renames: keep one statement, in order
        for alias in statement.names:
            name = alias.name.value if isinstance(alias.name, cst.Name) else None
            if name is None or name not in self.names:
                (moved if in_place else kept).append(alias)
                continue
            target = self.names[name]
            asname = alias.asname
            if asname is None and target != name and self.keep_local:
                asname = cst.AsName(name=cst.Name(name))
            moved.append(alias.with_changes(name=cst.Name(target), asname=asname))
        new_module = expression(self.new)
        assert isinstance(new_module, cst.Attribute | cst.Name)
        moved_statement = statement.with_changes(module=new_module, names=_fix_commas(moved))
        kept_statement = statement.with_changes(names=_fix_commas(kept)) if kept else None
        return kept_statement, moved_statement

    def _applies(self, statement: cst.BaseSmallStatement) -> bool:
        if not isinstance(statement, cst.ImportFrom) or statement.relative:
            return False
        if statement.module is None or dotted_name(statement.module) != self.old:
            return False
        if isinstance(statement.names, cst.ImportStar):
            return False
        return any(
            isinstance(alias.name, cst.Name) and alias.name.value in self.names
            for alias in statement.names
        )

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.FlattenSentinel[cst.SimpleStatementLine]:
        if not any(self._applies(small) for small in updated_node.body):
            return updated_node
        body: list[cst.BaseSmallStatement] = []
        extra: list[cst.SimpleStatementLine] = []
        for small in updated_node.body:
            if not self._applies(small):
                body.append(small)
                continue
            assert isinstance(small, cst.ImportFrom)
            kept, moved = self._split(small)
            if kept is None:
                body.append(moved.with_changes(semicolon=small.semicolon))
            else:
                body.append(kept)
                extra.append(
                    cst.SimpleStatementLine(
                        body=[moved.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)]
                    )
                )
        line = updated_node.with_changes(body=body)
        return cst.FlattenSentinel([line, *extra]) if extra else line

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = original_node.attr.value
        if name not in self.names:
            return updated_node
        if qualified(original_node.value, self.aliases) != self.old:
            return updated_node
        local = dotted_name(original_node.value)
        if local is None:
            return updated_node
        target = self.attribute_new
        if target == self.old or target.startswith(self.old + "."):
            module = local + target[len(self.old) :]
        else:
            module = self.module_ref(target)
        replacement = expression(f"{module}.{self.names[name]}")
        return replacement.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


def move_names(
    old: str,
    new: str,
    names: Mapping[str, str] | Sequence[str],
    keep_local: bool = True,
    attribute_new: str | None = None,
) -> Rewrite:
    """Some names of module `old` now live in `new` (optionally renamed)."""
    mapping = dict(names) if isinstance(names, Mapping) else {name: name for name in names}
    return cst_rewrite(
        lambda context: NameMover(context, old, new, mapping, keep_local, attribute_new)
    )


def _removed_line(
    line: cst.SimpleStatementLine,
) -> cst.SimpleStatementLine | cst.RemovalSentinel:
    """Remove a statement line; a line carrying comments becomes `pass` to keep them."""
    commented = line.trailing_whitespace.comment is not None or any(
        empty.comment is not None for empty in line.leading_lines
    )
    return line.with_changes(body=[cst.Pass()]) if commented else cst.RemoveFromParent()


class ImportedNameDropper(cst.CSTTransformer):
    """Remove `names` from `from module import ...` (the statement too when none is left)."""

    def __init__(self, module: str, names: frozenset[str]) -> None:
        super().__init__()
        self.module, self.names = module, names

    def _drops(self, alias: cst.ImportAlias) -> bool:
        return isinstance(alias.name, cst.Name) and alias.name.value in self.names

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        body: list[cst.BaseSmallStatement] = []
        changed = False
        for small in updated_node.body:
            if (
                isinstance(small, cst.ImportFrom)
                and not small.relative
                and small.module is not None
                and dotted_name(small.module) == self.module
                and not isinstance(small.names, cst.ImportStar)
                and any(self._drops(alias) for alias in small.names)
            ):
                changed = True
                kept = [alias for alias in small.names if not self._drops(alias)]
                if kept:
                    body.append(small.with_changes(names=_fix_commas(kept)))
                continue
            body.append(small)
        if not changed:
            return updated_node
        if not body:
            return _removed_line(updated_node)
        body[-1] = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(body=body)

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        if updated_node.body:
            return updated_node
        return updated_node.with_changes(body=[cst.SimpleStatementLine(body=[cst.Pass()])])


def drop_imported_names(module: str, names: Sequence[str]) -> Rewrite:
    """`from module import gone, kept` -> `from module import kept` (for names now inlined)."""
    return cst_rewrite(lambda _context: ImportedNameDropper(module, frozenset(names)))


# --- calls matched by qualified name ----------------------------------------------------

CallBuilder = Callable[[cst.Call, "CallRewriter"], cst.BaseExpression | None]


class CallRewriter(ImportingTransformer):
    """Rewrite calls whose callee resolves (through the notebook's imports) to a target.

    The builder returns the new expression, or None to leave the call as it is.
    """

    def __init__(self, context: RuleContext, targets: Mapping[str, CallBuilder]) -> None:
        super().__init__(context)
        self.targets = targets

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        name = qualified(original_node.func, self.aliases)
        if name is None or name not in self.targets:
            return updated_node
        result = self.targets[name](updated_node, self)
        return updated_node if result is None else result


def rewrite_calls(targets: Mapping[str, CallBuilder]) -> Rewrite:
    return cst_rewrite(lambda context: CallRewriter(context, targets))


# --- removing statements ----------------------------------------------------------------


class StatementRemover(cst.CSTTransformer):
    """Drop expression statements for which `drops(expression, context)` is true."""

    def __init__(
        self, context: RuleContext, drops: Callable[[cst.BaseExpression, RuleContext], bool]
    ) -> None:
        super().__init__()
        self.context, self.drops = context, drops

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        kept = [
            small
            for small in updated_node.body
            if not (isinstance(small, cst.Expr) and self.drops(small.value, self.context))
        ]
        if len(kept) == len(updated_node.body):
            return updated_node
        if not kept:
            return _removed_line(updated_node)
        kept[-1] = kept[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(body=kept)

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        if updated_node.body:
            return updated_node
        return updated_node.with_changes(body=[cst.SimpleStatementLine(body=[cst.Pass()])])


def remove_statements(drops: Callable[[cst.BaseExpression, RuleContext], bool]) -> Rewrite:
    return cst_rewrite(lambda context: StatementRemover(context, drops))


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


def _literal_bool(node: cst.BaseExpression) -> bool | None:
    if isinstance(node, cst.Name) and node.value in {"True", "False"}:
        return node.value == "True"
    return None


def _is_zero_index(node: cst.Subscript) -> bool:
    if len(node.slice) != 1:
        return False
    index = node.slice[0].slice
    return (
        isinstance(index, cst.Index)
        and isinstance(index.value, cst.Integer)
        and index.value.value == "0"
    )


def _call_args(
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


# the legacy functions' result pairs: the name of the first element
_TORCH_FIRST = {"solve": "solution", "symeig": "eigenvalues", "eig": "eigenvalues"}


class TorchLinalg(ImportingTransformer):
    """`torch.solve`, `torch.symeig`, `torch.eig` and `torch.matrix_rank` -> `torch.linalg`.

    The removed functions returned pairs (solution, LU) / (eigenvalues, eigenvectors); the
    first element (`[0]`, `.solution`/`.eigenvalues`, or `x, _ = ...`) is rewritten to its
    `torch.linalg` spelling. Forms whose second element is used are left alone except for
    `symeig(..., eigenvectors=True)`, which `torch.linalg.eigh` returns as it did.
    """

    def __init__(self, context: RuleContext, function: str) -> None:
        super().__init__(context)
        self.function = function  # the one legacy function this instance rewrites

    def _torch_function(self, node: cst.BaseExpression) -> str | None:
        if not isinstance(node, cst.Call):
            return None
        name = qualified(node.func, self.aliases)
        if name is None or not name.startswith("torch.") or name.count(".") != 1:
            return None
        function = name.split(".")[1]
        return function if function == self.function else None

    def _linalg(self, function: str) -> cst.BaseExpression:
        return expression(f"{self.module_ref('torch')}.linalg.{function}")

    def _first(self, call: cst.Call) -> cst.BaseExpression | None:
        """The new expression for the first element of the legacy pair."""
        function = self._torch_function(call)
        if function == "solve":
            args = _call_args(call, ("input", "A"), {})
            if args is None or set(args) != {"input", "A"}:
                return None
            return cst.Call(
                func=self._linalg("solve"),
                args=[cst.Arg(value=args["A"]), cst.Arg(value=args["input"])],
            )
        if function == "symeig":
            args = _call_args(call, ("input", "eigenvectors", "upper"), {"upper": "True"})
            upper = _literal_bool(args["upper"]) if args and "input" in args else None
            if args is None or upper is None:
                return None
            uplo = new_arg("UPLO", "'U'" if upper else "'L'")
            return cst.Call(
                func=self._linalg("eigvalsh"), args=[cst.Arg(value=args["input"]), uplo]
            )
        if function == "eig":
            args = _call_args(call, ("input", "eigenvectors"), {})
            if args is None or "input" not in args:
                return None
            eigvals = cst.Call(func=self._linalg("eigvals"), args=[cst.Arg(value=args["input"])])
            view = expression(f"{self.module_ref('torch')}.view_as_real")
            return cst.Call(func=view, args=[cst.Arg(value=eigvals)])
        return None

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        if not _is_zero_index(updated_node) or not isinstance(updated_node.value, cst.Call):
            return updated_node
        first = self._first(updated_node.value)
        return (
            first.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
            if first
            else updated_node
        )

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        function = self._torch_function(updated_node.value)
        if function is None or _TORCH_FIRST.get(function) != updated_node.attr.value:
            return updated_node
        assert isinstance(updated_node.value, cst.Call)
        first = self._first(updated_node.value)
        return (
            first.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
            if first
            else updated_node
        )

    def leave_Assign(
        self, original_node: cst.Assign, updated_node: cst.Assign
    ) -> cst.BaseSmallStatement:
        if len(updated_node.targets) != 1 or not isinstance(updated_node.value, cst.Call):
            return updated_node
        target = updated_node.targets[0].target
        if not isinstance(target, cst.Tuple | cst.List) or len(target.elements) != 2:
            return updated_node
        second = target.elements[1].value
        if not (isinstance(second, cst.Name) and second.value == "_"):
            return updated_node
        first = self._first(updated_node.value)
        if first is None:
            return updated_node
        return updated_node.with_changes(
            targets=[updated_node.targets[0].with_changes(target=target.elements[0].value)],
            value=first,
        )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        function = self._torch_function(updated_node)
        if function == "matrix_rank":
            args = _call_args(updated_node, ("input", "tol", "symmetric"), {})
            if args is None or "input" not in args:
                return updated_node
            new = [cst.Arg(value=args["input"])]
            if "tol" in args:
                new.append(new_arg("atol", args["tol"]))
            if "symmetric" in args:
                new.append(new_arg("hermitian", args["symmetric"]))
            return cst.Call(func=self._linalg("matrix_rank"), args=new)
        if function == "symeig":
            args = _call_args(updated_node, ("input", "eigenvectors", "upper"), {"upper": "True"})
            if args is None or "input" not in args or "eigenvectors" not in args:
                return updated_node
            vectors, upper = _literal_bool(args["eigenvectors"]), _literal_bool(args["upper"])
            if vectors is not True or upper is None:
                return updated_node
            uplo = new_arg("UPLO", "'U'" if upper else "'L'")
            return cst.Call(func=self._linalg("eigh"), args=[cst.Arg(value=args["input"]), uplo])
        return updated_node


class ZeroDimDataIndex(cst.CSTTransformer):
    """`loss.data[0]` (PyTorch 0.3: a 1-element tensor) -> `loss.item()`; also
    `loss.data.numpy()[0]` / `loss.data.cpu().numpy()[0]`."""

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        if not _is_zero_index(updated_node):
            return updated_node
        value = updated_node.value
        receiver: cst.BaseExpression | None
        if isinstance(value, cst.Attribute) and value.attr.value == "data":
            receiver = value.value
        else:
            receiver = _numpy_of_data(value)
        if receiver is None:
            return updated_node
        item = cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name("item")))
        return item.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


def _numpy_of_data(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`x.data.numpy()` / `x.data.cpu().numpy()` / `x.cpu().data.numpy()` -> `x`."""
    if not (isinstance(node, cst.Call) and not node.args and isinstance(node.func, cst.Attribute)):
        return None
    if node.func.attr.value != "numpy":
        return None
    chain_node = node.func.value
    seen_data = False
    while True:
        if isinstance(chain_node, cst.Attribute) and chain_node.attr.value == "data":
            seen_data = True
            chain_node = chain_node.value
        elif (
            isinstance(chain_node, cst.Call)
            and not chain_node.args
            and isinstance(chain_node.func, cst.Attribute)
            and chain_node.func.attr.value == "cpu"
        ):
            chain_node = chain_node.func.value
        else:
            break
    return chain_node if seen_data else None
