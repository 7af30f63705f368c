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


class MaskedArrays:
    """The masked arrays of one cell (`module`), for a rule to ask about an expression."""

    def __init__(self, module: cst.Module, aliases: Mapping[str, str]) -> None:
        self.aliases = aliases
        self.names = known_names(module, self._known)

    def known(self, node: cst.BaseExpression) -> bool:
        """Whether `node` is known to be a masked array."""
        return self._known(node, self.names)

    def _known(self, node: cst.BaseExpression, names: set[str]) -> bool:
        if isinstance(node, cst.Name):
            return node.value in names
        if isinstance(node, cst.Call):
            name = qualified(node.func, self.aliases)
            module, _, function = (name or "").rpartition(".")
            return module == "numpy.ma" and function in _MASKED_CONSTRUCTORS
        if isinstance(node, cst.Subscript):  # a slice of one (an integer index: a scalar)
            sliced = any(isinstance(element.slice, cst.Slice) for element in node.slice)
            return sliced and self._known(node.value, names)
        return False
