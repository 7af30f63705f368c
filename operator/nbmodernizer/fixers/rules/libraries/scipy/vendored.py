"""SciPy functions removed without a successor in SciPy, whose code is short enough to carry
into the notebook as it was: `scipy.misc.derivative` (central differences)."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.imports import first_lines_end
from nbmodernizer.fixers.rules.toolkit.nodes import dotted_name, qualified
from nbmodernizer.fixers.rules.toolkit.probes import lacks

# scipy.misc.derivative of SciPy 1.11 (its weights for orders 3-9, `central_diff_weights`
# otherwise), written with numpy only.
_DERIVATIVE = '''def {name}(func, x0, dx=1.0, n=1, args=(), order=3):
    """scipy.misc.derivative (removed in SciPy 1.12), as SciPy computed it."""
    import numpy
    tables = {{
        (1, 3): ([-1, 0, 1], 2.0),
        (1, 5): ([1, -8, 0, 8, -1], 12.0),
        (1, 7): ([-1, 9, -45, 0, 45, -9, 1], 60.0),
        (1, 9): ([3, -32, 168, -672, 0, 672, -168, 32, -3], 840.0),
        (2, 3): ([1, -2.0, 1], 1.0),
        (2, 5): ([-1, 16, -30, 16, -1], 12.0),
        (2, 7): ([2, -27, 270, -490, 270, -27, 2], 180.0),
        (2, 9): ([-9, 128, -1008, 8064, -14350, 8064, -1008, 128, -9], 5040.0),
    }}
    if order < n + 1:
        raise ValueError("'order' (the number of points used to compute the derivative), "
                         "must be at least the derivative order 'n' + 1.")
    if order % 2 == 0:
        raise ValueError("'order' (the number of points used to compute the derivative) "
                         "must be odd.")
    ho = order >> 1
    if (n, order) in tables:
        values, divisor = tables[(n, order)]
        weights = numpy.array(values) / divisor
    else:
        x = numpy.arange(-ho, ho + 1.0)[:, numpy.newaxis]
        X = numpy.hstack([x ** k for k in range(order)])
        weights = numpy.prod(numpy.arange(1, n + 1), axis=0) * numpy.linalg.inv(X)[n]
    val = 0.0
    for k in range(order):
        val += weights[k] * func(x0 + (k - ho) * dx, *args)
    return val / numpy.prod((dx,) * n, axis=0)
'''

_TARGET = "scipy.misc.derivative"


def _helper(name: str) -> cst.BaseStatement:
    return cst.parse_statement(_DERIVATIVE.format(name=name))


class _Derivative(cst.CSTTransformer):
    """`from scipy.misc import derivative` -> the function's definition in its place (the
    local name kept); `scipy.misc.derivative(...)` / `misc.derivative(...)` -> `derivative`,
    defined at the top of the cell unless the cell defines it."""

    def __init__(self, context: RuleContext) -> None:
        self.aliases = context.aliases
        self.referenced = False

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if qualified(original_node, self.aliases) != _TARGET:
            return updated_node
        self.referenced = True
        return cst.Name("derivative")

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        found: list[str] = []
        body: list[cst.BaseSmallStatement] = []
        for small in updated_node.body:
            if (
                isinstance(small, cst.ImportFrom)
                and small.module is not None
                and dotted_name(small.module) == "scipy.misc"
                and not isinstance(small.names, cst.ImportStar)
            ):
                kept = [a for a in small.names if a.evaluated_name != "derivative"]
                found += [
                    a.evaluated_alias or a.evaluated_name for a in small.names if a not in kept
                ]
                if kept:
                    last = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                    body.append(small.with_changes(names=[*kept[:-1], last]))
                continue
            body.append(small)
        if not found:
            return updated_node
        helpers = [_helper(name) for name in found]
        if not body:
            return cst.FlattenSentinel(helpers)
        last_small = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        return cst.FlattenSentinel(
            [updated_node.with_changes(body=[*body[:-1], last_small]), *helpers]
        )

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        defined = {s.name.value for s in updated_node.body if isinstance(s, cst.FunctionDef)}
        if not self.referenced or "derivative" in defined:
            return updated_node
        at = first_lines_end(updated_node.body)
        body = [*updated_node.body[:at], _helper("derivative"), *updated_node.body[at:]]
        return updated_node.with_changes(body=body)


def _rewrite(context: RuleContext) -> cst.CSTTransformer:
    return _Derivative(context)


RULES = (
    Rule(
        id="scipy.misc-derivative",
        library="scipy",
        changed_in="1.12",
        summary="`scipy.misc.derivative` (no successor in SciPy) -> its own definition, carried "
        "into the cell that imported it (central differences, SciPy's weights)",
        kind=Kind.API,
        rewrite=cst_rewrite(_rewrite),
        symptoms=(
            Symptom("ImportError", r"cannot import name 'derivative' from 'scipy\.misc'"),
            Symptom("AttributeError", r"module 'scipy\.misc' has no attribute 'derivative'"),
        ),
        gone=lambda: lacks("scipy.misc", "derivative"),
        examples=(
            Example(
                before="import numpy as np\nfrom scipy.misc import derivative\n"
                "grad = derivative(lambda x: x ** 3, 2.0, dx=1e-3)\n"
                "hess = derivative(np.sin, np.array([0.5, 1.0]), n=2, dx=1e-3, order=5)\n"
                "third = derivative(lambda x: x ** 4, 1.0, dx=0.5, n=3, order=5)\n",
                after="import numpy as np\n"
                + _DERIVATIVE.format(name="derivative")
                + "grad = derivative(lambda x: x ** 3, 2.0, dx=1e-3)\n"
                "hess = derivative(np.sin, np.array([0.5, 1.0]), n=2, dx=1e-3, order=5)\n"
                "third = derivative(lambda x: x ** 4, 1.0, dx=0.5, n=3, order=5)\n",
                error="ImportError",
                # central differences: exact up to rounding for x**3 (error dx**2 = 1e-6),
                # within 1e-8 for sin'' at order 5; the 5-point third derivative of x**4 is 24x
                check="abs(grad - 12.000001) < 1e-9 "
                "and np.allclose(hess, -np.sin([0.5, 1.0]), atol=1e-7) "
                "and abs(third - 24.0) < 1e-9",
            ),
        ),
    ),
)
