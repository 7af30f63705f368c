"""SciPy functions removed whose successor is another spelling of the same computation:
`misc.imread` (it was PIL), `stats.median_absolute_deviation`, `linalg.pinv2`,
`stats.signaltonoise`, `special.sph_harm`; and `stats.mode`'s keepdims default."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    CallRewriter,
    bound_arguments,
    call_arguments,
    keyword_arg,
    rewrite_calls,
    with_keywords,
)
from nbmodernizer.fixers.rules.toolkit.cells import chain
from nbmodernizer.fixers.rules.toolkit.nodes import atom, code, expression, with_commas
from nbmodernizer.fixers.rules.toolkit.probes import all_of, lacks
from nbmodernizer.fixers.rules.toolkit.statements import drop_imported_names

# --- imread: scipy.misc.imread was `numpy.array(PIL.Image.open(name))` ----------------------


def _imread(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`imread(name, flatten=False, mode=None)` -> `np.array(Image.open(name))`, with
    `.convert('F')` for flatten=True and `.convert(mode)` for a mode, as scipy did."""
    found = bound_arguments(call, ("name", "flatten", "mode"), {})
    if found is None or "name" not in found:
        return None
    image = f"{rewriter.module_ref('PIL.Image')}.open({code(found['name'])})"
    flatten = code(found["flatten"]) if "flatten" in found else "False"
    mode = code(found["mode"]) if "mode" in found else "None"
    if flatten not in ("True", "False") or (flatten == "True" and mode != "None"):
        return None
    if flatten == "True":
        image += ".convert('F')"
    elif mode != "None":
        image += f".convert({mode})"
    return expression(f"{rewriter.module_ref('numpy')}.array({image})")


_IMREAD = ("scipy.misc.imread", "scipy.ndimage.imread", "scipy.misc.pilutil.imread")


# --- statistics and linear algebra ----------------------------------------------------------

_OLD_MAD_SCALE = "1.4826"


def _mad(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`median_absolute_deviation(x, ..., scale=s)` multiplied by s (1.4826 by default);
    `median_abs_deviation` divides by its scale: `scale=1 / s`."""
    found = bound_arguments(call, ("x", "axis", "center", "scale", "nan_policy"), {})
    if found is None or "x" not in found:
        return None
    old = code(atom(found["scale"])) if "scale" in found else _OLD_MAD_SCALE
    module = rewriter.module_ref("scipy.stats")
    extra: list[tuple[str, cst.BaseExpression]] = [
        (n, found[n]) for n in ("axis", "center") if n in found
    ]
    extra.append(("scale", expression(f"1 / {old}")))
    if "nan_policy" in found:
        extra.append(("nan_policy", found["nan_policy"]))
    new = cst.Call(func=expression(f"{module}.median_abs_deviation"), args=[cst.Arg(found["x"])])
    return with_keywords(new, extra)


def _pinv2(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`pinv2(a)` -> `pinv(a)` (both by SVD, the same default cutoff); calls with
    `cond`/`rcond` are left alone (pinv's are atol/rtol)."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) != 1 or set(arguments[1]) - {"check_finite"}:
        return None
    return call.with_changes(func=expression(f"{rewriter.module_ref('scipy.linalg')}.pinv"))


def _signaltonoise(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`signaltonoise(a, axis=0, ddof=0)` -> its definition: mean / std, 0 where std is 0."""
    found = bound_arguments(call, ("a", "axis", "ddof"), {"axis": "0", "ddof": "0"})
    if found is None or "a" not in found or not isinstance(found["a"], cst.Name):
        return None
    np = rewriter.module_ref("numpy")
    a, axis, ddof = (code(found[k]) for k in ("a", "axis", "ddof"))
    std = f"{np}.std({a}, axis={axis}, ddof={ddof})"
    return expression(f"{np}.where({std} == 0, 0, {np}.mean({a}, axis={axis}) / {std})")


def _sph_harm(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    """`sph_harm(m, n, azimuth, polar)` -> `sph_harm_y(n, m, polar, azimuth)`."""
    arguments = call_arguments(call)
    if arguments is None or len(arguments[0]) != 4 or arguments[1]:
        return None
    m, n, azimuth, polar = arguments[0]
    module = rewriter.module_ref("scipy.special")
    args = [cst.Arg(value=x.value) for x in (n, m, polar, azimuth)]
    return cst.Call(func=expression(f"{module}.sph_harm_y"), args=with_commas(args))


_FUNCTIONS = {
    "scipy.stats.median_absolute_deviation": _mad,
    "scipy.linalg.pinv2": _pinv2,
    "scipy.stats.signaltonoise": _signaltonoise,
    "scipy.special.sph_harm": _sph_harm,
}
_NAMES = "median_absolute_deviation|pinv2|signaltonoise|sph_harm"


# --- stats.mode: keepdims=True, the old result's shape ---------------------------------------


def _mode(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    if keyword_arg(call, "keepdims") is not None or call_arguments(call) is None:
        return None
    return with_keywords(call, [("keepdims", expression("True"))])


_STATS = "import numpy as np\nfrom scipy import stats\n"

RULES = (
    Rule(
        id="scipy.misc-imread",
        library="scipy",
        changed_in="1.2",
        summary="`scipy.misc.imread(p)` / `scipy.ndimage.imread(p)` -> "
        "`np.array(PIL.Image.open(p))` (what scipy did; `flatten=True` -> `.convert('F')`, "
        "`mode=m` -> `.convert(m)`)",
        kind=Kind.API,
        rewrite=chain(
            rewrite_calls(dict.fromkeys(_IMREAD, _imread)),
            drop_imported_names("scipy.misc", ["imread"]),
            drop_imported_names("scipy.ndimage", ["imread"]),
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'scipy\.(misc|ndimage)' has no attribute 'imread'"),
            Symptom("ImportError", r"cannot import name 'imread' from 'scipy\.(misc|ndimage)'"),
        ),
        gone=all_of(lacks("scipy.misc", "imread"), lacks("scipy.ndimage", "imread")),
        examples=(
            Example(
                before="import numpy as np\nfrom PIL import Image\nfrom scipy.misc import imread\n"
                "import scipy.ndimage\n"
                "Image.fromarray(np.array([[0, 255], [128, 64]], dtype=np.uint8)).save('a.png')\n"
                "img = imread('a.png')\ngrey = scipy.ndimage.imread('a.png', flatten=True)\n"
                "rgb = imread('a.png', mode='RGB')\n",
                after="import numpy as np\nfrom PIL import Image\n"
                "import scipy.ndimage\n"
                "Image.fromarray(np.array([[0, 255], [128, 64]], dtype=np.uint8)).save('a.png')\n"
                "img = np.array(Image.open('a.png'))\n"
                "grey = np.array(Image.open('a.png').convert('F'))\n"
                "rgb = np.array(Image.open('a.png').convert('RGB'))\n",
                error="ImportError",
                check="img.dtype == np.uint8 and img.tolist() == [[0, 255], [128, 64]] "
                "and grey.dtype == np.float32 and grey[0, 1] == 255.0 "
                "and rgb.shape == (2, 2, 3) and img.flags.writeable",
            ),
        ),
    ),
    Rule(
        id="scipy.removed-functions",
        library="scipy",
        changed_in="1.9",
        summary="`stats.median_absolute_deviation(x)` -> `median_abs_deviation(x, scale=1 / "
        "1.4826)`, `linalg.pinv2(a)` -> `pinv(a)`, `stats.signaltonoise(a)` -> mean / std, "
        "`special.sph_harm(m, n, az, pol)` -> `sph_harm_y(n, m, pol, az)`",
        kind=Kind.API,
        rewrite=chain(
            rewrite_calls(_FUNCTIONS),
            *(
                drop_imported_names(name.rpartition(".")[0], [name.rpartition(".")[2]])
                for name in _FUNCTIONS
            ),
        ),
        symptoms=(
            Symptom("AttributeError", rf"module 'scipy\.\w+' has no attribute '({_NAMES})'"),
            Symptom("ImportError", rf"cannot import name '({_NAMES})' from 'scipy\.\w+'"),
        ),
        gone=all_of(lacks("scipy.linalg", "pinv2"), lacks("scipy.stats", "signaltonoise")),
        examples=(
            Example(
                before="import numpy as np\nfrom scipy import linalg, special, stats\n"
                "a = np.array([1.0, 2.0, 4.0, 7.0])\n"
                "mad = stats.median_absolute_deviation(a)\n"
                "inv = linalg.pinv2(np.array([[2.0, 0.0], [0.0, 4.0]]))\n"
                "snr = stats.signaltonoise(a)\ny = special.sph_harm(0, 1, 0.3, 0.7)\n",
                after="import numpy as np\nfrom scipy import linalg, special, stats\n"
                "a = np.array([1.0, 2.0, 4.0, 7.0])\n"
                "mad = stats.median_abs_deviation(a, scale=1 / 1.4826)\n"
                "inv = linalg.pinv(np.array([[2.0, 0.0], [0.0, 4.0]]))\n"
                "snr = np.where(np.std(a, axis=0, ddof=0) == 0, 0, np.mean(a, axis=0) / "
                "np.std(a, axis=0, ddof=0))\ny = special.sph_harm_y(1, 0, 0.7, 0.3)\n",
                error="AttributeError",
                # MAD of [1, 2, 4, 7]: median 3, deviations [2, 1, 1, 4] -> 1.5; Y_1^0 =
                # sqrt(3 / pi) / 2 * cos(polar)
                check="abs(mad - 1.5 * 1.4826) < 1e-12 and inv.tolist() == [[0.5, 0], [0, 0.25]] "
                "and abs(snr - 3.5 / np.std(a)) < 1e-12 "
                "and abs(y - np.sqrt(3 / np.pi) / 2 * np.cos(0.7)) < 1e-12",
            ),
            # the same, each as an era had it (issue #22): median_absolute_deviation came in
            # 1.3 (the 2019 era), signaltonoise went in 1.0 (the 2017 era has it)
            Example(
                before="import numpy as np\nfrom scipy import linalg, special, stats\n"
                "a = np.array([1.0, 2.0, 4.0, 7.0])\n"
                "mad = stats.median_absolute_deviation(a)\n"
                "inv = linalg.pinv2(np.array([[2.0, 0.0], [0.0, 4.0]]))\n"
                "y = special.sph_harm(0, 1, 0.3, 0.7)\n",
                after="import numpy as np\nfrom scipy import linalg, special, stats\n"
                "a = np.array([1.0, 2.0, 4.0, 7.0])\n"
                "mad = stats.median_abs_deviation(a, scale=1 / 1.4826)\n"
                "inv = linalg.pinv(np.array([[2.0, 0.0], [0.0, 4.0]]))\n"
                "y = special.sph_harm_y(1, 0, 0.7, 0.3)\n",
                error="AttributeError",
                check="abs(mad - 1.5 * 1.4826) < 1e-12 and inv.tolist() == [[0.5, 0], [0, 0.25]] "
                "and abs(y - np.sqrt(3 / np.pi) / 2 * np.cos(0.7)) < 1e-12",
            ),
            Example(
                before="import numpy as np\nfrom scipy import stats\n"
                "a = np.array([1.0, 2.0, 4.0, 7.0])\nsnr = stats.signaltonoise(a)\n",
                after="import numpy as np\nfrom scipy import stats\n"
                "a = np.array([1.0, 2.0, 4.0, 7.0])\nsnr = np.where(np.std(a, axis=0, ddof=0) "
                "== 0, 0, np.mean(a, axis=0) / np.std(a, axis=0, ddof=0))\n",
                error="AttributeError",
                check="abs(snr - 3.5 / np.std(a)) < 1e-12",
            ),
        ),
    ),
    Rule(
        id="scipy.stats-mode-keepdims",
        library="scipy",
        changed_in="1.11",
        summary="`stats.mode(x)` -> `stats.mode(x, keepdims=True)`: the old result's shape, so "
        "`mode(x)[0][0]` indexes as it did; only in a cell that failed on it",
        kind=Kind.API,
        rewrite=rewrite_calls({"scipy.stats.mode": _mode}),
        symptoms=(Symptom("IndexError", r"invalid index to scalar variable"),),
        gone=None,
        examples=(
            Example(
                before=_STATS + "top = stats.mode(np.array([3, 1, 3, 2]))[0][0]\n"
                "cols = stats.mode(np.array([[1, 2], [1, 3], [4, 3]]), axis=0)\n",
                after=_STATS + "top = stats.mode(np.array([3, 1, 3, 2]), keepdims=True)[0][0]\n"
                "cols = stats.mode(np.array([[1, 2], [1, 3], [4, 3]]), axis=0, keepdims=True)\n",
                error="IndexError",
                check="top == 3 and cols.mode.tolist() == [[1, 3]]",
            ),
        ),
    ),
)
