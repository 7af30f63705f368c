"""Which expressions of a cell are known to be NumPy masked arrays (`numpy.ma`).

NumPy 2 removed `ndarray.ptp` but kept `MaskedArray.ptp`, and the two differ: `np.ptp(m, 0)`
reads a masked array's hidden values, `m.ptp(0)` skips them. A rule rewriting `a.ptp()` must
leave a masked array alone. Known here: a call to a `numpy.ma` function that returns a masked
array, a slice of one, and a name whose every binding in the cell is one of these (a cheap
reading of the cell, not a flow analysis; any other binding makes the name unknown).
"""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst

from nbmodernizer.fixers.rules.toolkit.known import known_names
from nbmodernizer.fixers.rules.toolkit.nodes import qualified

# `numpy.ma` functions that return a MaskedArray (not `getdata`, `filled`, `count`, ...)
_MASKED_CONSTRUCTORS = frozenset(
    {
        "array", "masked_array", "MaskedArray", "asarray", "asanyarray", "copy", "where",
        "masked_where", "masked_equal", "masked_not_equal", "masked_greater",
        "masked_greater_equal", "masked_less", "masked_less_equal", "masked_inside",
        "masked_outside", "masked_invalid", "masked_values", "masked_object", "zeros", "ones",
        "empty", "arange", "concatenate", "stack", "vstack", "hstack",
    }
)  # fmt: skip


# np.matrix keeps ptp too
_MATRIX_CONSTRUCTORS = frozenset({"numpy.matrix", "numpy.asmatrix", "numpy.bmat"})
_KEEPING_CLASSES = frozenset({"numpy.matrix", "numpy.ma.MaskedArray", "numpy.ma.core.MaskedArray"})


class MaskedArrays:
    """The masked arrays (and matrices) of one cell (`module`), for a rule to ask about an
    expression. In a cell that imports names from numpy.ma (`from numpy.ma import array`,
    numpy.ma's own code and tests), any receiver not known otherwise counts as masked: there
    the arrays come from numpy.ma's functions through helpers this reading cannot follow."""

    def __init__(self, module: cst.Module, aliases: Mapping[str, str]) -> None:
        self.aliases = aliases
        self.names = known_names(module, self._known)
        self.in_ma = any(
            name != "numpy.ma" and name.startswith("numpy.ma.") for name in aliases.values()
        )

    def known(self, node: cst.BaseExpression) -> bool:
        """Whether `node` is known to be a masked array or a matrix (or may be one: a cell
        working in numpy.ma's names)."""
        return self.in_ma or self._known(node, self.names)

    def _known(self, node: cst.BaseExpression, names: set[str]) -> bool:
        if isinstance(node, cst.Name):
            return node.value in names
        if isinstance(node, cst.Call):
            name = qualified(node.func, self.aliases) or ""
            module, _, function = name.rpartition(".")
            if name in _MATRIX_CONSTRUCTORS or _views_as_keeping(node, self.aliases):
                return True
            return module in ("numpy.ma", "numpy.ma.core") and function in _MASKED_CONSTRUCTORS
        if isinstance(node, cst.Subscript):  # a slice of one (an integer index: a scalar)
            sliced = any(isinstance(element.slice, cst.Slice) for element in node.slice)
            return sliced and self._known(node.value, names)
        return False


def _views_as_keeping(call: cst.Call, aliases: Mapping[str, str]) -> bool:
    """`x.view(np.matrix)`, `x.view(np.ma.MaskedArray)`."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "view" and call.args):
        return False
    return qualified(call.args[0].value, aliases) in _KEEPING_CLASSES
