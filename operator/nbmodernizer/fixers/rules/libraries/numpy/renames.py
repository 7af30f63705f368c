"""NumPy 2.0 (NEP 52, ruff's NPY201) names that are plain renames or moves: one table."""

from __future__ import annotations

from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.cells import chain
from nbmodernizer.fixers.rules.toolkit.moves import move_names, moved, replace_attributes
from nbmodernizer.fixers.rules.toolkit.probes import all_of, lacks

# Each was an alias of its successor (the same object or a thin wrapper of it) before removal.
RENAMES = {
    "float_": "float64",
    "complex_": "complex128",
    "cfloat": "complex128",
    "singlecomplex": "complex64",
    "longfloat": "longdouble",
    "longcomplex": "clongdouble",
    "clongfloat": "clongdouble",
    "unicode_": "str_",
    "string_": "bytes_",
    "int0": "intp",
    "uint0": "uintp",
    "bool8": "bool_",
    "product": "prod",
    "cumproduct": "cumprod",
    "sometrue": "any",
    "alltrue": "all",
    "round_": "round",
    "trapz": "trapezoid",
    "mat": "asmatrix",
    "infty": "inf",
    "rank": "ndim",
    "row_stack": "vstack",
    "issubsctype": "issubdtype",
}
# The exception classes moved to numpy.exceptions in 1.25; the rest to submodules in 2.0.
EXCEPTIONS = [
    "AxisError",
    "ComplexWarning",
    "DTypePromotionError",
    "ModuleDeprecationWarning",
    "RankWarning",
    "TooHardError",
    "VisibleDeprecationWarning",
]
_OTHER_HOMES = (
    moved("numpy.lib", "numpy", ["pad"]),
    moved("numpy", "ast", {"safe_eval": "literal_eval"}),
    moved("numpy", "numpy.lib.array_utils", ["byte_bounds"]),
    moved("numpy", "numpy.lib", ["add_docstring", "add_newdoc", "tracemalloc_domain"]),
    moved("numpy", "numpy.lib.npyio", ["DataSource"]),
    moved("numpy", "numpy.exceptions", EXCEPTIONS),
    moved("numpy", "numpy.char", ["chararray", "compare_chararrays"]),
    moved("numpy", "numpy.rec", ["format_parser"]),
    # `from numpy import issubclass_` keeps its local name; `np.issubclass_` is done below
    moved("numpy", "builtins", {"issubclass_": "issubclass"}),
)
MOVED = [name.rpartition(".")[2] for home in _OTHER_HOMES for name in home]
_NAMES = "|".join([*RENAMES, *MOVED])

RULES = (
    Rule(
        id="numpy.npy201-renames",
        library="numpy",
        changed_in="2.0",
        summary="NumPy 2.0's renamed aliases: `np.float_` -> `np.float64`, `np.product` -> "
        "`np.prod`, `np.round_` -> `np.round`, `np.trapz` -> `np.trapezoid`, `np.infty`, "
        "`np.mat`, `np.rank`, `np.alltrue`/`sometrue`/`cumproduct`, `np.unicode_`/`string_`/"
        "`int0`/`bool8`..., `np.row_stack` -> `np.vstack`, `np.issubclass_` -> `issubclass`, "
        "`np.lib.pad` -> `np.pad`, `np.safe_eval` -> `ast.literal_eval`, the warnings and errors "
        "-> `np.exceptions.*`, `np.chararray`/`compare_chararrays` -> `np.char.*`, "
        "`np.format_parser` -> `np.rec.format_parser`, `np.DataSource` -> `np.lib.npyio`, "
        "`np.add_docstring`/`add_newdoc`/`tracemalloc_domain` -> `np.lib.*`",
        kind=Kind.API,
        rewrite=chain(
            replace_attributes({"numpy.issubclass_": "issubclass"}),
            move_names(moved("numpy", "numpy", RENAMES), keep_local=True, reference="module"),
            *(move_names(move, keep_local=True, reference="module") for move in _OTHER_HOMES),
        ),
        symptoms=(
            Symptom("AttributeError", rf"module 'numpy' has no attribute '({_NAMES})'"),
            Symptom("AttributeError", rf"`np\.({_NAMES})` was removed"),
            Symptom("AttributeError", r"module 'numpy\.lib' has no attribute 'pad'"),
            Symptom("ImportError", rf"cannot import name '({_NAMES})' from 'numpy'"),
        ),
        gone=all_of(lacks("numpy", "float_"), lacks("numpy", "product")),
        examples=(
            Example(
                before="import numpy as np\nfrom numpy import float_, round_\n"
                "a = np.array([1.26, 2.0], dtype=float_)\n"
                "values = [np.product(a), np.cumproduct(a)[-1], round_(a, 1)[0], "
                "np.alltrue(a > 0), np.sometrue(a > 2), np.trapz([1, 2, 3]), np.infty, "
                "np.rank(a), np.unicode_('x'), np.string_(b'y'), np.int0(3), np.bool8(1)]\n"
                "m = np.mat([[1, 2]])\npadded = np.lib.pad(a, 1, mode='constant')\n"
                "literal = np.safe_eval('[1, 2]')\n",
                after="import ast\nimport numpy as np\nfrom numpy import float64 as float_, "
                "round as round_\n"
                "a = np.array([1.26, 2.0], dtype=float_)\n"
                "values = [np.prod(a), np.cumprod(a)[-1], round_(a, 1)[0], "
                "np.all(a > 0), np.any(a > 2), np.trapezoid([1, 2, 3]), np.inf, "
                "np.ndim(a), np.str_('x'), np.bytes_(b'y'), np.intp(3), np.bool_(1)]\n"
                "m = np.asmatrix([[1, 2]])\npadded = np.pad(a, 1, mode='constant')\n"
                "literal = ast.literal_eval('[1, 2]')\n",
                error="ImportError",
                check="a.dtype == np.float64 and values[:2] == [2.52, 2.52] "
                "and values[2] == 1.3 and bool(values[3]) and not values[4] "
                "and values[5] == 4.0 and values[6] == float('inf') and values[7] == 1 "
                "and values[8] == 'x' and values[9] == b'y' and values[10] == 3 "
                "and values[11] == True and m.shape == (1, 2) and isinstance(m, np.matrix) "
                "and padded.tolist() == [0.0, 1.26, 2.0, 0.0] and literal == [1, 2]",
            ),
            Example(
                # addresses differ between processes: the past proof compares `size` only
                before="import numpy\nbounds = numpy.byte_bounds(numpy.zeros(4, dtype='u1'))\n"
                "size = bounds[1] - bounds[0]\ndel bounds\n",
                after="import numpy\n"
                "bounds = numpy.lib.array_utils.byte_bounds(numpy.zeros(4, dtype='u1'))\n"
                "size = bounds[1] - bounds[0]\ndel bounds\n",
                error="AttributeError",
                check="size == 4",
            ),
            Example(
                before="import numpy as np\nfrom numpy import ComplexWarning, issubclass_\n"
                "stacked = np.row_stack(([1, 2], [3, 4]))\n"
                "try:\n    np.zeros(2).sum(axis=3)\nexcept np.AxisError as error:\n"
                "    caught = type(error)\n"
                "kinds = [issubclass_(np.int32, np.integer), np.issubclass_(np.int32, np.floating), "
                "np.issubsctype(np.float32, np.floating)]\n"
                "warnings = [ComplexWarning, np.RankWarning, np.VisibleDeprecationWarning, "
                "np.ModuleDeprecationWarning, np.TooHardError, np.DTypePromotionError]\n"
                "text = np.chararray((2,), itemsize=3)\ntext[:] = ['ab', 'c']\n"
                "same = np.compare_chararrays(text, text, '==', True)\n"
                "parsed = np.format_parser(['i4', 'f8'], ['a', 'b'], None)\n"
                "docs = [np.add_docstring, np.add_newdoc, np.tracemalloc_domain, np.DataSource]\n",
                after="import numpy as np\nfrom builtins import issubclass as issubclass_\n"
                "from numpy.exceptions import ComplexWarning\n"
                "stacked = np.vstack(([1, 2], [3, 4]))\n"
                "try:\n    np.zeros(2).sum(axis=3)\nexcept np.exceptions.AxisError as error:\n"
                "    caught = type(error)\n"
                "kinds = [issubclass_(np.int32, np.integer), issubclass(np.int32, np.floating), "
                "np.issubdtype(np.float32, np.floating)]\n"
                "warnings = [ComplexWarning, np.exceptions.RankWarning, "
                "np.exceptions.VisibleDeprecationWarning, np.exceptions.ModuleDeprecationWarning, "
                "np.exceptions.TooHardError, np.exceptions.DTypePromotionError]\n"
                "text = np.char.chararray((2,), itemsize=3)\ntext[:] = ['ab', 'c']\n"
                "same = np.char.compare_chararrays(text, text, '==', True)\n"
                "parsed = np.rec.format_parser(['i4', 'f8'], ['a', 'b'], None)\n"
                "docs = [np.lib.add_docstring, np.lib.add_newdoc, np.lib.tracemalloc_domain, "
                "np.lib.npyio.DataSource]\n",
                error="ImportError",
                check="stacked.tolist() == [[1, 2], [3, 4]] and caught.__name__ == 'AxisError' "
                "and kinds == [True, False, True] "
                "and all(isinstance(w, type) and issubclass(w, Exception) for w in warnings) "
                "and same.tolist() == [True, True] and parsed.dtype.names == ('a', 'b') "
                "and all(callable(d) for d in docs[:2]) and isinstance(docs[2], int)",
            ),
        ),
    ),
)
