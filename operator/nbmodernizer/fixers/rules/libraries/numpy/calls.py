"""NumPy removals whose successor is spelled as another call: `asscalar`, `in1d`, `msort`,
`asfarray`, and the ndarray methods `tostring`, `ptp`, `itemset`, `newbyteorder`."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    CallRewriter,
    call_arguments,
    method_call,
    new_arg,
    rewrite_calls,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer
from nbmodernizer.fixers.rules.toolkit.nodes import atom, code, dotted_name, expression
from nbmodernizer.fixers.rules.toolkit.probes import lacks
from nbmodernizer.fixers.rules.toolkit.statements import drop_imported_names

# --- functions --------------------------------------------------------------------------------


def _asscalar(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`np.asscalar(a)` -> `a.item()` (asscalar was exactly that)."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) != 1 or arguments[1]:
        return None
    return cst.Call(func=cst.Attribute(value=atom(arguments[0][0].value), attr=cst.Name("item")))


def _in1d(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`np.in1d(a, b, ...)` -> `np.isin(a, b, ...).ravel()`: the same parameters; in1d
    flattened its result, isin keeps `a`'s shape (`ravel` of a 1-d result is itself)."""
    if call_arguments(call) is None:
        return None
    numpy = rewriter.module_ref("numpy")
    isin = call.with_changes(func=expression(f"{numpy}.isin"))
    return cst.Call(func=cst.Attribute(value=isin, attr=cst.Name("ravel")))


def _msort(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`np.msort(a)` -> `np.sort(a, axis=0)`."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) != 1 or arguments[1]:
        return None
    numpy = rewriter.module_ref("numpy")
    return call.with_changes(
        func=expression(f"{numpy}.sort"), args=[*call.args, new_arg("axis", "0")]
    )


def _asfarray(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`np.asfarray(a)` -> `np.asarray(a, dtype=float)`; a call that names a dtype is left
    alone (asfarray replaced a non-float dtype by float64, asarray would keep it)."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) != 1 or arguments[1]:
        return None
    numpy = rewriter.module_ref("numpy")
    return call.with_changes(
        func=expression(f"{numpy}.asarray"), args=[*call.args, new_arg("dtype", "float")]
    )


_FUNCTIONS = {"asscalar": _asscalar, "in1d": _in1d, "msort": _msort, "asfarray": _asfarray}


# --- ndarray methods ----------------------------------------------------------------------


def _simple(node: cst.BaseExpression) -> bool:
    """A receiver that can be written twice: a name or a dotted name."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name)


class _Methods(ImportingTransformer):
    """`a.tostring()` -> `a.tobytes()` (not `ElementTree.tostring(elem)`: that takes an
    argument), `a.ptp(...)` -> `np.ptp(a, ...)`, `a.newbyteorder(o)` ->
    `a.view(a.dtype.newbyteorder(o))` and the statement `a.itemset(i, v)` -> `a.flat[i] = v`
    (one index: a flat one) or `a[i, j] = v`. Never on a module (`np.ptp(a)`), nor
    `newbyteorder` on a dtype (`a.dtype.newbyteorder()` is still there)."""

    def __init__(self, context: RuleContext, names: tuple[str, ...]) -> None:
        super().__init__(context)
        self.names = names

    def _module(self, node: cst.BaseExpression) -> bool:
        name = dotted_name(node)
        return name is not None and name.split(".")[0] in self.aliases

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        found = method_call(updated_node, *self.names)
        if found is None or self._module(found[0].value):
            return updated_node
        func, positional, keywords = found
        name = func.attr.value
        if name == "tostring":
            if positional or set(keywords) - {"order"}:
                return updated_node
            return updated_node.with_changes(func=func.with_changes(attr=cst.Name("tobytes")))
        if name == "ptp":
            numpy = self.module_ref("numpy")
            receiver = cst.Arg(value=func.value)
            return updated_node.with_changes(
                func=expression(f"{numpy}.ptp"), args=[receiver, *updated_node.args]
            )
        if name != "newbyteorder" or not _simple(func.value) or len(updated_node.args) > 1:
            return updated_node
        if isinstance(func.value, cst.Attribute) and func.value.attr.value == "dtype":
            return updated_node
        receiver_code = code(func.value)
        order = code(updated_node.args[0].value) if updated_node.args else ""
        return expression(f"{receiver_code}.view({receiver_code}.dtype.newbyteorder({order}))")

    def leave_Expr(self, original_node: cst.Expr, updated_node: cst.Expr) -> cst.BaseSmallStatement:
        value = updated_node.value
        if "itemset" not in self.names or not isinstance(value, cst.Call):
            return updated_node
        found = method_call(value, "itemset")
        if found is None or self._module(found[0].value):
            return updated_node
        func, positional, keywords = found
        if keywords or len(positional) < 2:
            return updated_node
        receiver = code(atom(func.value))
        index = ", ".join(code(arg.value) for arg in positional[:-1])
        target = f"{receiver}.flat[{index}]" if len(positional) == 2 else f"{receiver}[{index}]"
        statement = cst.parse_statement(f"{target} = {code(positional[-1].value)}\n")
        assert isinstance(statement, cst.SimpleStatementLine)
        return statement.body[0]


def _methods(context: RuleContext) -> cst.CSTTransformer:
    return _Methods(context, ("tostring", "ptp", "itemset"))


def _newbyteorder(context: RuleContext) -> cst.CSTTransformer:
    return _Methods(context, ("newbyteorder",))


def _ndarray() -> type:
    import numpy

    return numpy.ndarray


_ARRAY = "import numpy as np\na = np.array([[3, 1], [2, 5]])\n"

RULES = (
    Rule(
        id="numpy.removed-functions",
        library="numpy",
        changed_in="2.0",
        summary="`np.asscalar(a)` -> `a.item()`, `np.in1d(a, b)` -> `np.isin(a, b).ravel()`, "
        "`np.msort(a)` -> `np.sort(a, axis=0)`, `np.asfarray(a)` -> `np.asarray(a, dtype=float)`",
        kind=Kind.API,
        rewrite=chain(
            rewrite_calls({f"numpy.{name}": build for name, build in _FUNCTIONS.items()}),
            drop_imported_names("numpy", list(_FUNCTIONS)),
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'numpy' has no attribute '(asscalar|in1d|msort)'"),
            Symptom("AttributeError", r"`np\.(asscalar|in1d|msort|asfarray)` was removed"),
            Symptom("ImportError", r"cannot import name '(asscalar|in1d|msort|asfarray)' from"),
        ),
        gone=lambda: lacks("numpy", "asscalar") and lacks("numpy", "in1d"),
        examples=(
            Example(
                before="import numpy as np\nfrom numpy import in1d\n"
                "x = np.asscalar(np.array([7]))\nmask = in1d(np.array([[1, 2], [3, 4]]), [2, 3])\n"
                "s = np.msort(np.array([[3, 1], [2, 5]]))\nf = np.asfarray([1, 2])\n",
                after="import numpy as np\n"
                "x = np.array([7]).item()\n"
                "mask = np.isin(np.array([[1, 2], [3, 4]]), [2, 3]).ravel()\n"
                "s = np.sort(np.array([[3, 1], [2, 5]]), axis=0)\n"
                "f = np.asarray([1, 2], dtype=float)\n",
                error="ImportError",
                check="x == 7 and type(x) is int and mask.tolist() == [False, True, True, False] "
                "and s.tolist() == [[2, 1], [3, 5]] and f.dtype == np.float64",
            ),
        ),
    ),
    Rule(
        id="numpy.removed-array-methods",
        library="numpy",
        changed_in="2.0",
        summary="`a.tostring()` -> `a.tobytes()`, `a.ptp()` -> `np.ptp(a)`, `a.itemset(i, v)` "
        "-> `a.flat[i] = v` (`a[i, j] = v` for several indices)",
        kind=Kind.API,
        rewrite=cst_rewrite(_methods, ("tostring", "ptp", "itemset")),
        symptoms=(
            Symptom(
                "AttributeError",
                r"'(numpy\.ndarray|Series)' object has no attribute "
                r"'(tostring|ptp|itemset)'",
            ),
        ),
        gone=lambda: not hasattr(_ndarray(), "tostring"),
        examples=(
            Example(
                before=_ARRAY + "raw = a.tostring()\nspread = a.ptp(axis=0)\n"
                "a.itemset(3, 9)\na.itemset(0, 1, 7)\nwhole = np.ptp(a)\n",
                after=_ARRAY + "raw = a.tobytes()\nspread = np.ptp(a, axis=0)\n"
                "a.flat[3] = 9\na[0, 1] = 7\nwhole = np.ptp(a)\n",
                error="AttributeError",
                check="raw == np.array([[3, 1], [2, 5]]).tobytes() and spread.tolist() == [1, 4] "
                "and a.tolist() == [[3, 7], [2, 9]] and whole == 7",
            ),
            Example(
                before="import numpy as np\nimport xml.etree.ElementTree as ET\n"
                "text = ET.tostring(ET.Element('a'))\nraw = np.zeros(2, 'u1').tostring()\n",
                after="import numpy as np\nimport xml.etree.ElementTree as ET\n"
                "text = ET.tostring(ET.Element('a'))\nraw = np.zeros(2, 'u1').tobytes()\n",
                error="AttributeError",
                check="text == b'<a />' and raw == bytes(2)",
            ),
        ),
    ),
    Rule(
        id="numpy.ndarray-newbyteorder",
        library="numpy",
        changed_in="2.0",
        summary="`a.newbyteorder(o)` -> `a.view(a.dtype.newbyteorder(o))` (not on a dtype, which "
        "keeps the method); only in a cell that failed on it",
        kind=Kind.API,
        rewrite=cst_rewrite(_newbyteorder, ("newbyteorder",)),
        symptoms=(
            Symptom("AttributeError", r"'numpy\.ndarray' object has no attribute 'newbyteorder'"),
        ),
        gone=None,
        examples=(
            Example(
                before=_ARRAY + "swapped = a.newbyteorder('S')\nbig = a.dtype.newbyteorder('>')\n",
                after=_ARRAY + "swapped = a.view(a.dtype.newbyteorder('S'))\n"
                "big = a.dtype.newbyteorder('>')\n",
                error="AttributeError",
                check="swapped.dtype.byteorder != a.dtype.byteorder and big.byteorder == '>' "
                "and swapped.byteswap().tolist() == [[3, 1], [2, 5]]",
            ),
        ),
    ),
)
