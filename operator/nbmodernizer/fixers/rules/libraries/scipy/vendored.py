"""SciPy functions removed without a successor in SciPy, whose code is short enough to carry
into the notebook as it was: `scipy.misc.derivative` (central differences) and the PIL
helpers `imresize` / `imsave` / `toimage` (their byte-scaling of non-uint8 arrays included,
so float and uint8 images alike mean what they meant)."""

from __future__ import annotations

from collections.abc import Callable

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

# --- scipy.misc's PIL helpers: what imresize / imsave / toimage did ---------------------------

# bytescale and the 2-d / 3-d paths of toimage (SciPy 1.1): non-uint8 data is scaled to 0-255
# (min-max, rounded) before PIL sees it, as SciPy did; mode 'F' keeps 2-d floats.
_BYTESCALE = '''def _scipy_misc_bytescale(data, cmin=None, cmax=None, high=255, low=0):
    """scipy.misc.bytescale (removed in SciPy 1.2), as SciPy computed it."""
    import numpy
    if data.dtype == numpy.uint8:
        return data
    cmin = data.min() if cmin is None else cmin
    cmax = data.max() if cmax is None else cmax
    cscale = cmax - cmin
    if cscale < 0:
        raise ValueError("`cmax` should be larger than `cmin`.")
    elif cscale == 0:
        cscale = 1
    scale = float(high - low) / cscale
    bytedata = (data - cmin) * scale + low
    return (bytedata.clip(low, high) + 0.5).astype(numpy.uint8)
'''

_TOIMAGE = '''def {name}(arr, high=255, low=0, cmin=None, cmax=None, mode=None):
    """scipy.misc.toimage (removed in SciPy 1.2) for 2-d and 3-channel/4-channel arrays."""
    import numpy
    from PIL import Image
    data = numpy.asarray(arr)
    shape = list(data.shape)
    if len(shape) == 2:
        if mode == 'F':
            return Image.frombytes('F', (shape[1], shape[0]), data.astype(numpy.float32).tobytes())
        if mode not in (None, 'L'):
            raise ValueError("mode %r is not carried over from scipy.misc" % (mode,))
        bytedata = _scipy_misc_bytescale(data, high=high, low=low, cmin=cmin, cmax=cmax)
        return Image.frombytes('L', (shape[1], shape[0]), bytedata.tobytes())
    if len(shape) != 3 or (3 not in shape and 4 not in shape):
        raise ValueError("'arr' does not have a suitable array shape for any mode.")
    ca = numpy.flatnonzero(numpy.asarray(shape) == (3 if 3 in shape else 4))[0]
    numch = shape[ca]
    bytedata = _scipy_misc_bytescale(data, high=high, low=low, cmin=cmin, cmax=cmax)
    if ca == 2:
        strdata, size = bytedata.tobytes(), (shape[1], shape[0])
    elif ca == 1:
        strdata, size = numpy.transpose(bytedata, (0, 2, 1)).tobytes(), (shape[2], shape[0])
    else:
        strdata, size = numpy.transpose(bytedata, (1, 2, 0)).tobytes(), (shape[2], shape[1])
    mode = mode or ('RGB' if numch == 3 else 'RGBA')
    return Image.frombytes(mode, size, strdata)
'''

_IMRESIZE = '''def {name}(arr, size, interp='bilinear', mode=None):
    """scipy.misc.imresize (removed in SciPy 1.3), as SciPy computed it."""
    import numpy
    im = _scipy_misc_toimage(arr, mode=mode)
    if numpy.issubdtype(type(size), numpy.signedinteger):
        size = tuple((numpy.array(im.size) * (size / 100.0)).astype(int))
    elif numpy.issubdtype(type(size), numpy.floating):
        size = tuple((numpy.array(im.size) * size).astype(int))
    else:
        size = (size[1], size[0])
    func = {{'nearest': 0, 'lanczos': 1, 'bilinear': 2, 'bicubic': 3, 'cubic': 3}}
    return numpy.array(im.resize(size, resample=func[interp]))
'''

_IMSAVE = '''def {name}(name, arr, format=None):
    """scipy.misc.imsave (removed in SciPy 1.2), as SciPy computed it."""
    im = _scipy_misc_toimage(arr)
    if format is None:
        im.save(name)
    else:
        im.save(name, format)
'''


# function -> (its definition, the helpers it calls, in order)
_VENDORED: dict[str, tuple[str, tuple[str, ...]]] = {
    "derivative": (_DERIVATIVE, ()),
    "imresize": (_IMRESIZE, ("_scipy_misc_bytescale", "_scipy_misc_toimage")),
    "imsave": (_IMSAVE, ("_scipy_misc_bytescale", "_scipy_misc_toimage")),
    "toimage": (_TOIMAGE, ("_scipy_misc_bytescale",)),
}
_HELPERS = {
    "_scipy_misc_bytescale": _BYTESCALE,
    "_scipy_misc_toimage": _TOIMAGE.format(name="_scipy_misc_toimage"),
}


def _definitions(functions: list[tuple[str, str]], defined: set[str]) -> list[cst.BaseStatement]:
    """The statements defining these (function, local name) pairs and the helpers they call,
    skipping what the cell defines already."""
    sources: list[str] = []
    for function, local in functions:
        for helper in _VENDORED[function][1]:
            if helper not in defined:
                sources.append(_HELPERS[helper])
                defined.add(helper)
        if local not in defined:
            sources.append(_VENDORED[function][0].format(name=local))
            defined.add(local)
    return [cst.parse_statement(source) for source in sources]


class _Vendor(cst.CSTTransformer):
    """`from scipy.misc import derivative` -> the function's definition in its place (the
    local name kept); `scipy.misc.imresize(...)` / `misc.imresize(...)` -> `imresize`,
    defined at the top of the cell unless the cell defines it."""

    def __init__(self, context: RuleContext, functions: tuple[str, ...]) -> None:
        self.aliases = context.aliases
        self.functions = functions
        self.referenced: list[tuple[str, str]] = []
        self.defined: set[str] = set()

    def visit_Module(self, node: cst.Module) -> None:
        self.defined = {s.name.value for s in node.body if isinstance(s, cst.FunctionDef)}

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = qualified(original_node, self.aliases) or ""
        module, _, function = name.rpartition(".")
        if module != "scipy.misc" or function not in self.functions:
            return updated_node
        self.referenced.append((function, function))
        return cst.Name(function)

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        found: list[tuple[str, str]] = []
        body: list[cst.BaseSmallStatement] = []
        for small in updated_node.body:
            if (
                isinstance(small, cst.ImportFrom)
                and small.module is not None
                and dotted_name(small.module) == "scipy.misc"
                and not isinstance(small.names, cst.ImportStar)
            ):
                kept = [a for a in small.names if a.evaluated_name not in self.functions]
                found += [
                    (a.evaluated_name, a.evaluated_alias or a.evaluated_name)
                    for a in small.names
                    if a not in kept
                ]
                if kept:
                    last = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                    body.append(small.with_changes(names=[*kept[:-1], last]))
                continue
            body.append(small)
        if not found:
            return updated_node
        helpers = _definitions(found, self.defined)
        if not body:
            return cst.FlattenSentinel(helpers)
        last_small = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        line = updated_node.with_changes(body=[*body[:-1], last_small])
        return cst.FlattenSentinel([line, *helpers])

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        added = _definitions(self.referenced, self.defined)
        if not added:
            return updated_node
        at = first_lines_end(updated_node.body)
        return updated_node.with_changes(
            body=[*updated_node.body[:at], *added, *updated_node.body[at:]]
        )


def _vendor(*functions: str) -> Callable[[RuleContext], cst.CSTTransformer]:
    return lambda context: _Vendor(context, functions)


_IMAGES = (
    "grey = np.array([[0.0, 0.5], [1.0, 0.25]])\n"
    "small = imresize(grey, (4, 4), interp='nearest')\n"
    "rgb = imresize(np.zeros((2, 2, 3), dtype=np.uint8) + 200, 50)\n"
    "imsave('g.png', grey)\nimg = scipy.misc.toimage(grey)\n"
)
_IMAGES_BEFORE = (
    "import numpy as np\nfrom PIL import Image\nfrom scipy.misc import imresize, imsave\n"
    "import scipy.misc\n" + _IMAGES
)
_IMAGES_AFTER = (
    _TOIMAGE.format(name="toimage")
    + "import numpy as np\nfrom PIL import Image\n"
    + _BYTESCALE
    + _HELPERS["_scipy_misc_toimage"]
    + _IMRESIZE.format(name="imresize")
    + _IMSAVE.format(name="imsave")
    + "import scipy.misc\n"
    + _IMAGES.replace("scipy.misc.toimage", "toimage")
)

RULES = (
    Rule(
        id="scipy.misc-derivative",
        library="scipy",
        changed_in="1.12",
        summary="`scipy.misc.derivative` (no successor in SciPy) -> its own definition, carried "
        "into the cell that imported it (central differences, SciPy's weights)",
        kind=Kind.API,
        rewrite=cst_rewrite(_vendor("derivative"), ("derivative",)),
        symptoms=(
            Symptom("ImportError", r"cannot import name 'derivative' from 'scipy\.misc'"),
            Symptom("AttributeError", r"module 'scipy\.misc' has no attribute 'derivative'"),
        ),
        gone=lacks("scipy.misc", "derivative"),
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
    Rule(
        id="scipy.misc-image-helpers",
        library="scipy",
        changed_in="1.3",
        summary="`scipy.misc.imresize` / `imsave` / `toimage` -> their own definitions carried "
        "into the cell (PIL underneath, as they were; non-uint8 arrays byte-scaled to 0-255 "
        "first, as SciPy did)",
        kind=Kind.API,
        rewrite=cst_rewrite(
            _vendor("imresize", "imsave", "toimage"), ("imresize", "imsave", "toimage")
        ),
        symptoms=(
            Symptom(
                "ImportError", r"cannot import name '(imresize|imsave|toimage)' from 'scipy\.misc'"
            ),
            Symptom(
                "AttributeError",
                r"module 'scipy\.misc' has no attribute '(imresize|imsave|toimage)'",
            ),
        ),
        gone=lacks("scipy.misc", "imresize"),
        examples=(
            Example(
                before=_IMAGES_BEFORE,
                after=_IMAGES_AFTER,
                error="ImportError",
                # floats are byte-scaled: 0.5 -> 128, 0.25 -> 64; an int size is a percentage
                check="small.tolist() == [[0, 0, 128, 128], [0, 0, 128, 128], [255, 255, 64, 64], "
                "[255, 255, 64, 64]] and rgb.shape == (1, 1, 3) and rgb[0, 0, 0] == 200 "
                "and np.array(Image.open('g.png')).tolist() == [[0, 128], [255, 64]] "
                "and img.mode == 'L' and img.size == (2, 2)",
            ),
        ),
    ),
)
