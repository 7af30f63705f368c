"""scipy drift."""

from __future__ import annotations

import functools

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rewrite, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    CallRewriter,
    keyword_arg,
    positional_args,
    renamed_callee,
    rewrite_calls,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite, only_if
from nbmodernizer.fixers.rules.toolkit.moves import move_names, moved
from nbmodernizer.fixers.rules.toolkit.nodes import code, expression
from nbmodernizer.fixers.rules.toolkit.probes import lacks
from nbmodernizer.fixers.rules.toolkit.statements import drop_imported_names

# --- scipy.misc -> scipy.special ------------------------------------------------------------

_MISC_SPECIAL = ("comb", "factorial", "factorial2", "factorialk", "logsumexp")


# --- numpy functions re-exported by `scipy` --------------------------------------------------

# scipy < 1.12 did `from numpy import *`, then `from numpy.random import rand, randn`,
# `from numpy.fft import fft, ifft` and `from numpy.lib.scimath import *` (so `scipy.sqrt(-1)`
# was `1j`, not nan).
_SCIMATH = ("sqrt", "log", "log2", "logn", "log10", "power", "arccos", "arcsin", "arctanh")

_SPECIAL_HOMES = {
    **{name: "numpy.emath" for name in _SCIMATH},
    "rand": "numpy.random",
    "randn": "numpy.random",
    "ifft": "numpy.fft",
}


@functools.cache
def _numpy_aliases(numpy: frozenset[str], scipy: frozenset[str]) -> Rewrite:
    """The moves of the names `scipy.<name>` meant (numpy's public names, the environment's)
    that scipy lacks today (its public names), to their numpy module."""
    homes: dict[str, list[str]] = {}
    for name in sorted({*numpy, *_SPECIAL_HOMES} - scipy):
        homes.setdefault(_SPECIAL_HOMES.get(name, "numpy"), []).append(name)
    return chain(
        *(
            move_names(moved("scipy", home, names), keep_local=True, reference="module")
            for home, names in homes.items()
        )
    )


def _scipy_numpy_aliases(source: str, context: RuleContext) -> str:
    numpy, scipy = context.public_names("numpy"), context.public_names("scipy")
    if numpy is None or scipy is None:
        return source  # the environment's names are unknown: nothing is known to be gone
    return _numpy_aliases(numpy, scipy)(source, context)


# --- scipy.integrate renames ---------------------------------------------------------------

_INTEGRATE = {"trapz": "trapezoid", "cumtrapz": "cumulative_trapezoid"}


# --- binom_test -> binomtest(...).pvalue -------------------------------------------------


def _binomtest(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    if any(arg.star for arg in call.args):
        return None
    # `binom_test(x)` with x = [successes, failures] has no binomtest spelling: left alone
    if len(positional_args(call)) < 2 and keyword_arg(call, "n") is None:
        return None
    args = [
        arg.with_changes(keyword=cst.Name("k"))
        if arg.keyword is not None and arg.keyword.value == "x"
        else arg
        for arg in call.args
    ]
    renamed = call.with_changes(
        func=renamed_callee(call.func, "binom_test", "binomtest"), args=args
    )
    return cst.Attribute(value=renamed, attr=cst.Name("pvalue"))


# --- scipy.signal windows ----------------------------------------------------------------

_WINDOWS = {
    name: name
    for name in (
        "barthann",
        "bartlett",
        "blackman",
        "blackmanharris",
        "bohman",
        "boxcar",
        "chebwin",
        "cosine",
        "exponential",
        "flattop",
        "gaussian",
        "general_gaussian",
        "hamming",
        "hann",
        "kaiser",
        "nuttall",
        "parzen",
        "triang",
        "tukey",
    )
}

_WINDOWS["hanning"] = "hann"


# --- itemfreq ------------------------------------------------------------------------------


def _itemfreq(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return None
    numpy = rewriter.module_ref("numpy")
    values = code(call.args[0].value)
    return expression(f"{numpy}.array({numpy}.unique({values}, return_counts=True)).T")


# --- sparse .A / .H -------------------------------------------------------------------------


class _SparseAttributes(cst.CSTTransformer):
    """`m.A` -> `m.toarray()`, `m.H` -> `m.conj().T` (reactive: any `.A`/`.H` in the cell)."""

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = updated_node.attr.value
        if name == "A":
            call = cst.Call(func=updated_node.with_changes(attr=cst.Name("toarray")))
            return call
        if name == "H":
            conj = cst.Call(func=updated_node.with_changes(attr=cst.Name("conj")))
            return cst.Attribute(value=conj, attr=cst.Name("T"))
        return updated_node

    def leave_AssignTarget(
        self, original_node: cst.AssignTarget, updated_node: cst.AssignTarget
    ) -> cst.AssignTarget:
        return updated_node.with_changes(target=original_node.target)


_SPARSE = "import numpy as np\nimport scipy.sparse as sp\n"

RULES = (
    Rule(
        id="scipy.misc-special-functions",
        library="scipy",
        changed_in="1.3",
        summary="`scipy.misc.comb`/`factorial`/`factorial2`/`logsumexp` -> `scipy.special.*`",
        kind=Kind.API,
        rewrite=move_names(
            moved("scipy.misc", "scipy.special", _MISC_SPECIAL), keep_local=True, reference="module"
        ),
        symptoms=(
            Symptom(
                "AttributeError",
                r"module 'scipy\.misc' has no attribute '(comb|factorial\w*|logsumexp)'",
            ),
            Symptom(
                "ImportError",
                r"cannot import name '(comb|factorial\w*|logsumexp)' from 'scipy\.misc'",
            ),
        ),
        gone=lacks("scipy.misc", "comb"),
        examples=(
            Example(
                before="import scipy.misc\nfrom scipy.misc import comb, logsumexp\n"
                "values = [comb(5, 2), scipy.misc.factorial(4), logsumexp([0.0, 0.0]), "
                "scipy.misc.comb(6, 3, exact=True)]\n",
                after="import scipy.misc\nfrom scipy.special import comb, logsumexp\n"
                "values = [comb(5, 2), scipy.special.factorial(4), logsumexp([0.0, 0.0]), "
                "scipy.special.comb(6, 3, exact=True)]\n",
                error="ImportError",
                check="values[:2] == [10.0, 24.0] and abs(values[2] - 0.6931471805599453) < 1e-12 "
                "and values[3] == 20 and isinstance(values[3], int)",
            ),
            Example(
                before="from scipy import misc\nn = misc.comb(4, 2)\n",
                after="import scipy.special\nfrom scipy import misc\nn = scipy.special.comb(4, 2)\n",
                error="AttributeError",
                check="n == 6.0",
            ),
        ),
    ),
    Rule(
        id="scipy.numpy-aliases",
        library="scipy",
        changed_in="1.12",
        summary="numpy functions re-exported by scipy (`scipy.interp`, `from scipy import "
        "interp`, `scipy.array`, ...) -> numpy; `scipy.sqrt`/`log`/`power`/... -> "
        "`numpy.emath.*` (complex results for negative input, as scipy gave)",
        kind=Kind.API,
        rewrite=only_if("scipy", rewrite=_scipy_numpy_aliases),
        symptoms=(
            Symptom("AttributeError", r"[Mm]odule 'scipy' has no attribute"),
            Symptom("ImportError", r"cannot import name '\w+' from 'scipy'"),
        ),
        gone=lacks("scipy", "interp"),
        names=("numpy", "scipy"),
        examples=(
            Example(
                before="import numpy as np\nimport scipy as sp\nfrom scipy import interp, stats\n"
                "y = interp(2.5, [1, 2, 3], [10, 20, 30])\n"
                "z = sp.interp([1.5], [1, 2], [0, 1])\nroot = sp.sqrt(-4)\n"
                "grid = sp.linspace(0, 1, 3)\n",
                after="import numpy as np\nimport scipy as sp\nfrom scipy import stats\n"
                "from numpy import interp\n"
                "y = interp(2.5, [1, 2, 3], [10, 20, 30])\n"
                "z = np.interp([1.5], [1, 2], [0, 1])\nroot = np.emath.sqrt(-4)\n"
                "grid = np.linspace(0, 1, 3)\n",
                error="ImportError",
                check="y == 25.0 and z[0] == 0.5 and root == 2j and list(grid) == [0, 0.5, 1]",
            ),
        ),
    ),
    Rule(
        id="scipy.integrate-trapz",
        library="scipy",
        changed_in="1.14",
        summary="`scipy.integrate.trapz` -> `trapezoid`, `cumtrapz` -> `cumulative_trapezoid` "
        "(same signatures; `simps` is not rewritten: `simpson` integrates an even number "
        "of samples differently)",
        kind=Kind.API,
        rewrite=move_names(
            moved("scipy.integrate", "scipy.integrate", _INTEGRATE),
            keep_local=True,
            reference="module",
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'scipy\.integrate' has no attribute '(cum)?trapz'"),
            Symptom("ImportError", r"cannot import name '(cum)?trapz' from 'scipy\.integrate'"),
        ),
        gone=lacks("scipy.integrate", "trapz"),
        examples=(
            Example(
                before="import numpy as np\nfrom scipy import integrate\n"
                "from scipy.integrate import cumtrapz\n"
                "area = integrate.trapz([1, 2, 3], dx=2.0)\n"
                "running = cumtrapz([1, 2, 3], initial=0)\n"
                "area2 = integrate.trapz(np.array([1.0, 4.0]), np.array([0.0, 2.0]))\n",
                after="import numpy as np\nfrom scipy import integrate\n"
                "from scipy.integrate import cumulative_trapezoid as cumtrapz\n"
                "area = integrate.trapezoid([1, 2, 3], dx=2.0)\n"
                "running = cumtrapz([1, 2, 3], initial=0)\n"
                "area2 = integrate.trapezoid(np.array([1.0, 4.0]), np.array([0.0, 2.0]))\n",
                error="ImportError",
                check="area == 8.0 and list(running) == [0.0, 1.5, 4.0] and area2 == 5.0",
            ),
        ),
    ),
    Rule(
        id="scipy.binom-test",
        library="scipy",
        changed_in="1.12",
        summary="`scipy.stats.binom_test(x, n, p)` -> `scipy.stats.binomtest(x, n, p).pvalue`",
        kind=Kind.API,
        rewrite=chain(
            rewrite_calls({"scipy.stats.binom_test": _binomtest}),
            move_names(
                moved("scipy.stats", "scipy.stats", {"binom_test": "binomtest"}), reference="module"
            ),
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'scipy\.stats' has no attribute 'binom_test'"),
            Symptom("ImportError", r"cannot import name 'binom_test' from 'scipy\.stats'"),
        ),
        gone=lacks("scipy.stats", "binom_test"),
        examples=(
            Example(
                before="import scipy.stats as st\nfrom scipy.stats import binom_test\n"
                "p = st.binom_test(3, 10, 0.5)\n"
                "p2 = binom_test(x=7, n=10, alternative='greater')\n",
                after="import scipy.stats as st\nfrom scipy.stats import binomtest\n"
                "p = st.binomtest(3, 10, 0.5).pvalue\n"
                "p2 = binomtest(k=7, n=10, alternative='greater').pvalue\n",
                error="ImportError",
                # exact: 2 * P(X <= 3) and P(X >= 7) for X ~ Binomial(10, 1/2)
                check="abs(p - 352 / 1024) < 1e-12 and abs(p2 - 176 / 1024) < 1e-12",
            ),
        ),
    ),
    Rule(
        id="scipy.signal-windows",
        library="scipy",
        changed_in="1.13",
        summary="`scipy.signal.hann`/`hamming`/`gaussian`/`kaiser`/... -> "
        "`scipy.signal.windows.*` (`hanning` -> `hann`)",
        kind=Kind.API,
        rewrite=move_names(
            moved("scipy.signal", "scipy.signal.windows", _WINDOWS),
            keep_local=True,
            reference="module",
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'scipy\.signal' has no attribute '\w+'"),
            Symptom("ImportError", r"cannot import name '\w+' from 'scipy\.signal'"),
        ),
        gone=lacks("scipy.signal", "hann"),
        examples=(
            Example(
                before="import numpy as np\nfrom scipy import signal\n"
                "from scipy.signal import butter, hanning\n"
                "w = signal.hann(8)\ng = signal.gaussian(5, std=1.0)\nh = hanning(8)\n",
                after="import numpy as np\nfrom scipy import signal\n"
                "from scipy.signal import butter\n"
                "from scipy.signal.windows import hann as hanning\n"
                "w = signal.windows.hann(8)\ng = signal.windows.gaussian(5, std=1.0)\n"
                "h = hanning(8)\n",
                error="ImportError",
                check="np.allclose(w, np.hanning(8)) and np.allclose(h, np.hanning(8)) "
                "and np.allclose(g, np.exp(-0.5 * np.arange(-2, 3) ** 2))",
            ),
        ),
    ),
    Rule(
        id="scipy.stats-itemfreq",
        library="scipy",
        changed_in="1.3",
        summary="`scipy.stats.itemfreq(a)` -> "
        "`numpy.array(numpy.unique(a, return_counts=True)).T` (the same [value, count] rows)",
        kind=Kind.API,
        rewrite=chain(
            rewrite_calls({"scipy.stats.itemfreq": _itemfreq}),
            drop_imported_names("scipy.stats", ["itemfreq"]),
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'scipy\.stats' has no attribute 'itemfreq'"),
            Symptom("ImportError", r"cannot import name 'itemfreq' from 'scipy\.stats'"),
        ),
        gone=lacks("scipy.stats", "itemfreq"),
        examples=(
            Example(
                before="import numpy as np\nfrom scipy import stats\n"
                "from scipy.stats import itemfreq\n"
                "table = stats.itemfreq(np.array([3, 1, 1, 2]))\n"
                "table2 = itemfreq(['b', 'a', 'b'])\n",
                after="import numpy as np\nfrom scipy import stats\n"
                "table = np.array(np.unique(np.array([3, 1, 1, 2]), return_counts=True)).T\n"
                "table2 = np.array(np.unique(['b', 'a', 'b'], return_counts=True)).T\n",
                error="ImportError",
                check="table.tolist() == [[1, 2], [2, 1], [3, 1]] "
                "and table2.tolist() == [['a', '1'], ['b', '2']]",
            ),
        ),
    ),
    Rule(
        id="scipy.sparse-matrix-A-H",
        library="scipy",
        changed_in="1.14",
        summary="sparse `m.A` -> `m.toarray()`, `m.H` -> `m.conj().T`; only in cells that "
        "failed on it (any `.A`/`.H` there is rewritten: `.A` is a common column name)",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: _SparseAttributes()),
        symptoms=(
            Symptom("AttributeError", r"'\w+_(matrix|array)' object has no attribute '[AH]'"),
        ),
        gone=None,
        examples=(
            Example(
                before=_SPARSE
                + "m = sp.csr_matrix(np.array([[1, 2j], [0, 3]]))\n"
                + "dense = m.A\nadjoint = m.H.A\n",
                after=_SPARSE
                + "m = sp.csr_matrix(np.array([[1, 2j], [0, 3]]))\n"
                + "dense = m.toarray()\nadjoint = m.conj().T.toarray()\n",
                error="AttributeError",
                check="dense.tolist() == [[1, 2j], [0, 3]] "
                "and adjoint.tolist() == [[1, 0], [-2j, 3]]",
            ),
        ),
    ),
)
