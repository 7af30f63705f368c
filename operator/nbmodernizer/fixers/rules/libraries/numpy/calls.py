"""NumPy removals whose successor is spelled as another call: `asscalar`, `in1d`, `msort`,
`asfarray`, `cast`, `nbytes`, `fastCopyAndTranspose`, `find_common_type`, `recfromcsv`,
`recfromtxt`, `disp`, `source`, and the ndarray methods `tostring`, `ptp`, `itemset`,
`newbyteorder`."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.numpy.masked import MaskedArrays
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
from nbmodernizer.fixers.rules.toolkit.needles import refers_to
from nbmodernizer.fixers.rules.toolkit.nodes import (
    atom,
    code,
    dotted_name,
    expression,
    qualified,
    single_index,
)
from nbmodernizer.fixers.rules.toolkit.probes import all_of, lacks, lacks_attribute
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


def _fast_copy_and_transpose(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`np.fastCopyAndTranspose(a)` -> `np.asarray(a).T.copy()` (it took any array-like)."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) != 1 or arguments[1]:
        return None
    numpy = rewriter.module_ref("numpy")
    return expression(f"{numpy}.asarray({code(arguments[0][0].value)}).T.copy()")


def _find_common_type(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`np.find_common_type(array_types, [])` -> `np.result_type(*array_types)`, as NumPy
    1.25's deprecation note says; with scalar types (value-based promotion) it is left alone."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) != 2 or arguments[1]:
        return None
    array_types, scalar_types = (arg.value for arg in arguments[0])
    if not isinstance(scalar_types, cst.List | cst.Tuple) or scalar_types.elements:
        return None
    numpy = rewriter.module_ref("numpy")
    if isinstance(array_types, cst.List | cst.Tuple):
        if not array_types.elements or any(
            not isinstance(e, cst.Element) for e in array_types.elements
        ):
            return None
        types = ", ".join(code(element.value) for element in array_types.elements)
    else:
        types = f"*{code(array_types)}"
    return expression(f"{numpy}.result_type({types})")


# What `recfromcsv` / `recfromtxt` passed to `genfromtxt` unless told otherwise (NumPy 1.26's
# `numpy/lib/npyio.py`); both then viewed the result as a record array.
_RECFROM_DEFAULTS = {
    "recfromcsv": (("delimiter", "','"), ("names", "True"), ("case_sensitive", "'lower'")),
    "recfromtxt": (),
}


def _recfrom(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`np.recfromcsv(f, **kw)` -> `np.genfromtxt(f, **kw, delimiter=',', names=True,
    case_sensitive='lower', dtype=None).view(np.recarray)` (`recfromtxt`: `dtype=None` only);
    a call asking for a masked array (`usemask=`) is left alone."""
    arguments = call_arguments(call)
    name = qualified(call.func, rewriter.aliases)
    if arguments is None or len(arguments[0]) != 1 or "usemask" in arguments[1] or name is None:
        return None
    numpy = rewriter.module_ref("numpy")
    defaults = (*_RECFROM_DEFAULTS[name.rpartition(".")[2]], ("dtype", "None"))
    extra = [new_arg(key, value) for key, value in defaults if key not in arguments[1]]
    genfromtxt = call.with_changes(
        func=expression(f"{numpy}.genfromtxt"), args=[*call.args, *extra]
    )
    return cst.Call(
        func=cst.Attribute(value=genfromtxt, attr=cst.Name("view")),
        args=[cst.Arg(expression(f"{numpy}.recarray"))],
    )


def _disp(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`np.disp(message)` -> `print(message)` (it wrote `str(message)` and a newline)."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) != 1 or arguments[1]:
        return None
    return call.with_changes(func=cst.Name("print"))


def _source(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`np.source(obj)` -> `print(inspect.getsource(obj))`: it printed the source (a bare
    `inspect.getsource` returns it, shown only as a repr at a cell's end)."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) != 1 or arguments[1]:
        return None
    inspect = rewriter.module_ref("inspect")
    return expression(f"print({inspect}.getsource({code(arguments[0][0].value)}))")


_FUNCTIONS = {
    "asscalar": _asscalar,
    "in1d": _in1d,
    "msort": _msort,
    "asfarray": _asfarray,
    "fastCopyAndTranspose": _fast_copy_and_transpose,
    "find_common_type": _find_common_type,
    "recfromcsv": _recfrom,
    "recfromtxt": _recfrom,
    "disp": _disp,
    "source": _source,
}


_REMOVED = "|".join([*_FUNCTIONS, "cast", "nbytes"])


class _Tables(ImportingTransformer):
    """The removed lookup tables: `np.cast[t](a)` -> `np.array(a, dtype=t)` (each entry was
    `array(a, copy=False).astype(t)`: a new array) and `np.nbytes[t]` -> `np.dtype(t).itemsize`."""

    def _table(self, node: cst.BaseExpression, name: str) -> cst.BaseExpression | None:
        """The key of `numpy.<name>[key]`, else None."""
        if not isinstance(node, cst.Subscript) or qualified(node.value, self.aliases) != (
            f"numpy.{name}"
        ):
            return None
        return single_index(node)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        dtype = self._table(original_node.func, "cast")
        arguments = call_arguments(updated_node)
        if dtype is None or arguments is None or len(arguments[0]) != 1 or arguments[1]:
            return updated_node
        numpy = self.module_ref("numpy")
        return updated_node.with_changes(
            func=expression(f"{numpy}.array"), args=[*updated_node.args, new_arg("dtype", dtype)]
        )

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        dtype = self._table(original_node, "nbytes")
        if dtype is None:
            return updated_node
        numpy = self.module_ref("numpy")
        return expression(f"{numpy}.dtype({code(dtype)}).itemsize")


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
    `newbyteorder` on a dtype (`a.dtype.newbyteorder()` is still there), nor `ptp` on a known
    masked array (`libraries.numpy.masked`)."""

    def __init__(self, context: RuleContext, names: tuple[str, ...]) -> None:
        super().__init__(context)
        self.names = names
        self.masked: MaskedArrays | None = None

    def visit_Module(self, node: cst.Module) -> None:
        if "ptp" in self.names:
            self.masked = MaskedArrays(node, self.aliases)

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
            if self.masked is not None and self.masked.known(func.value):
                return updated_node  # MaskedArray keeps ptp (and np.ptp ignores its mask)
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


_ARRAY = "import numpy as np\na = np.array([[3, 1], [2, 5]])\n"

RULES = (
    Rule(
        id="numpy.removed-functions",
        library="numpy",
        changed_in="2.0",
        summary="`np.asscalar(a)` -> `a.item()`, `np.in1d(a, b)` -> `np.isin(a, b).ravel()`, "
        "`np.msort(a)` -> `np.sort(a, axis=0)`, `np.asfarray(a)` -> `np.asarray(a, dtype=float)`, "
        "`np.cast[t](a)` -> `np.array(a, dtype=t)`, `np.nbytes[t]` -> `np.dtype(t).itemsize`, "
        "`np.fastCopyAndTranspose(a)` -> `np.asarray(a).T.copy()`, `np.find_common_type(ts, [])` "
        "-> `np.result_type(*ts)`, `np.recfromcsv`/`recfromtxt` -> `np.genfromtxt(...)"
        ".view(np.recarray)`, `np.disp(m)` -> `print(m)`, `np.source(f)` -> "
        "`print(inspect.getsource(f))`",
        kind=Kind.API,
        rewrite=chain(
            rewrite_calls({f"numpy.{name}": build for name, build in _FUNCTIONS.items()}),
            cst_rewrite(_Tables, ("cast", "nbytes"), refers_to(["numpy.cast", "numpy.nbytes"])),
            drop_imported_names("numpy", list(_FUNCTIONS)),
        ),
        symptoms=(
            Symptom("AttributeError", rf"module 'numpy' has no attribute '({_REMOVED})'"),
            Symptom("AttributeError", rf"`np\.({_REMOVED})` was removed"),
            Symptom("ImportError", rf"cannot import name '({_REMOVED})' from"),
        ),
        gone=all_of(lacks("numpy", "asscalar"), lacks("numpy", "in1d")),
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
            Example(
                before="import numpy as np\n"
                "a = np.array([[1, 2, 3], [4, 5, 6]])\n"
                "halves = np.cast[np.float32](a) / 2\nsize = np.nbytes[np.int16]\n"
                "flipped = np.fastCopyAndTranspose([[1, 2], [3, 4]])\n"
                "common = np.find_common_type([np.float32, np.int64], [])\n"
                "dtypes = [a.dtype, np.dtype('f2')]\nwidest = np.find_common_type(dtypes, [])\n"
                "with open('t.csv', 'w') as f:\n    f.write('Name,Score\\nann,1.5\\nbo,2\\n')\n"
                "table = np.recfromcsv('t.csv', encoding='utf-8')\n"
                "plain = np.recfromtxt('t.csv', delimiter=',', skip_header=1, encoding='utf-8')\n"
                "np.disp('done')\nnp.source(np.linspace)\n",
                after="import inspect\nimport numpy as np\n"
                "a = np.array([[1, 2, 3], [4, 5, 6]])\n"
                "halves = np.array(a, dtype=np.float32) / 2\nsize = np.dtype(np.int16).itemsize\n"
                "flipped = np.asarray([[1, 2], [3, 4]]).T.copy()\n"
                "common = np.result_type(np.float32, np.int64)\n"
                "dtypes = [a.dtype, np.dtype('f2')]\nwidest = np.result_type(*dtypes)\n"
                "with open('t.csv', 'w') as f:\n    f.write('Name,Score\\nann,1.5\\nbo,2\\n')\n"
                "table = np.genfromtxt('t.csv', encoding='utf-8', delimiter=',', names=True, "
                "case_sensitive='lower', dtype=None).view(np.recarray)\n"
                "plain = np.genfromtxt('t.csv', delimiter=',', skip_header=1, encoding='utf-8', "
                "dtype=None).view(np.recarray)\n"
                "print('done')\nprint(inspect.getsource(np.linspace))\n",
                error="AttributeError",
                check="halves.dtype == np.float32 and halves[1, 2] == 3.0 and size == 2 "
                "and flipped.tolist() == [[1, 3], [2, 4]] and flipped.flags.c_contiguous "
                "and common == np.float64 and widest == np.float64 "
                "and table.score.tolist() == [1.5, 2.0] and table.name.tolist() == ['ann', 'bo'] "
                "and plain.f0.tolist() == ['ann', 'bo']",
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
        gone=lacks_attribute("numpy.ndarray", "tostring"),
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
