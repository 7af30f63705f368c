"""Ragged arrays: NumPy 1.24 refuses to build an array from sequences of different lengths
(`ValueError: setting an array element with a sequence. The requested array has an
inhomogeneous shape ...`); until then it built an object array, with a deprecation warning
since 1.20 (NEP 34). Which call met the ragged data is known only at run time, so the rule
rewrites only the line that raised."""

from __future__ import annotations

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    call_arguments,
    keyword_arg,
    new_arg,
    with_args,
)
from nbmodernizer.fixers.rules.toolkit.cells import transform_python
from nbmodernizer.fixers.rules.toolkit.nodes import code, expression, qualified

# the constructors that take `dtype` second: they get `dtype=object`
_CONSTRUCTORS = frozenset({"numpy.array", "numpy.asarray", "numpy.asanyarray"})


class _Calls(cst.CSTVisitor):
    """The calls to numpy functions that span one of `lines`."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.aliases, self.lines = context.aliases, context.raising_lines
        self.constructors: list[cst.Call] = []
        self.others: list[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        name = qualified(node.func, self.aliases)
        if name is None or not name.startswith("numpy.") or call_arguments(node) is None:
            return
        where: CodeRange = self.get_metadata(PositionProvider, node)
        if not any(where.start.line <= line <= where.end.line for line in self.lines):
            return
        if name in _CONSTRUCTORS:
            self.constructors.append(node)
        else:
            self.others.append(node)


def _object_array(call: cst.Call, numpy: str) -> cst.Call | None:
    """`np.array(x)` -> `np.array(x, dtype=object)`; `np.f(x, ...)` -> `np.f(np.array(x,
    dtype=object), ...)`. None when the call names a dtype or has no first argument."""
    arguments = call_arguments(call)
    assert arguments is not None
    positional, keywords = arguments
    name = code(call.func)
    if name.rpartition(".")[2] in {"array", "asarray", "asanyarray"}:
        if len(positional) != 1 or "dtype" in keywords:
            return None
        return with_args(call, [*call.args, new_arg("dtype", "object")], keep_trailing_comma=True)
    if not positional or keyword_arg(call, "dtype") is not None:
        return None
    first = positional[0]
    wrapped = expression(f"{numpy}.array({code(first.value)}, dtype=object)")
    return call.with_changes(args=[first.with_changes(value=wrapped), *call.args[1:]])


class _Rewrite(cst.CSTTransformer):
    def __init__(self, target: cst.Call, replacement: cst.Call) -> None:
        super().__init__()
        self.target, self.replacement = target, replacement

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        return self.replacement if original_node is self.target else updated_node


def _numpy_name(call: cst.Call) -> str:
    """How the cell names numpy in this call (`np` in `np.transpose`)."""
    func = call.func
    while isinstance(func, cst.Attribute):
        func = func.value
    return func.value if isinstance(func, cst.Name) else "numpy"


def object_dtype_on_raising_line(source: str, context: RuleContext) -> str:
    """The one numpy call on the line that raised gets `dtype=object` (an array constructor)
    or its first argument made an object array (`np.transpose(x)`); a line with several
    candidates is left alone: which met the ragged data is not known."""
    if not context.raising_lines:
        return source

    def transform(module: cst.Module) -> cst.Module:
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        found = _Calls(context)
        wrapper.visit(found)
        candidates = found.constructors or found.others
        if len(candidates) != 1:
            return module
        target = candidates[0]
        if not isinstance(target.func, cst.Attribute):
            return module  # `from numpy import array`: no module name to write `np.array` with
        replacement = _object_array(target, _numpy_name(target))
        if replacement is None:
            return module
        return module.visit(_Rewrite(target, replacement))

    return transform_python(source, transform)


_XYZ = (
    "import numpy as np\n"
    "xyz = [(np.array([0.0, 1.0, 2.0]), 'O'), (np.array([1.0, 1.5, 0.5]), 'Al')]\n"
)

RULES = (
    Rule(
        id="numpy.ragged-array",
        library="numpy",
        changed_in="1.24",
        summary="A ragged array on the line that raised: `np.array(x)` -> `np.array(x, "
        "dtype=object)`, `np.transpose(x)` -> `np.transpose(np.array(x, dtype=object))` (NumPy "
        "1.24 release notes: 'Ragged array creation will now always raise a ValueError unless "
        "dtype=object is passed')",
        kind=Kind.API,
        rewrite=object_dtype_on_raising_line,
        symptoms=(
            Symptom(
                "ValueError",
                r"setting an array element with a sequence\. The requested array has an "
                r"inhomogeneous shape",
            ),
        ),
        gone=None,
        examples=(
            Example(
                before=_XYZ + "labels = np.transpose(xyz)[1]\n",
                after=_XYZ + "labels = np.transpose(np.array(xyz, dtype=object))[1]\n",
                error="ValueError",
                check="labels.tolist() == ['O', 'Al']",
                raising_lines=(3,),
            ),
            Example(
                before="import numpy as np\nrows = [[1, 2, 3], [4, 5]]\n"
                "table = np.array([[1, 2], [3, 4]])\nlengths = np.array(rows)\n",
                after="import numpy as np\nrows = [[1, 2, 3], [4, 5]]\n"
                "table = np.array([[1, 2], [3, 4]])\nlengths = np.array(rows, dtype=object)\n",
                error="ValueError",
                check="table.dtype == np.int64 and lengths.dtype == object "
                "and [len(r) for r in lengths] == [3, 2]",
                raising_lines=(4,),
            ),
        ),
    ),
)
