"""scikit-image drift: grey -> gray, `measure.compare_*` -> `skimage.metrics`,
`multichannel=` -> `channel_axis=`."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import edit_keywords, rename_to
from nbmodernizer.fixers.rules.toolkit.moves import move_names, moved
from nbmodernizer.fixers.rules.toolkit.nodes import code, expression, qualified
from nbmodernizer.fixers.rules.toolkit.probes import all_of, lacks, no_parameter

_GREY = {
    **moved("skimage.color", "skimage.color", {"rgb2grey": "rgb2gray", "grey2rgb": "gray2rgb"}),
    **moved(
        "skimage.feature",
        "skimage.feature",
        {"greycomatrix": "graycomatrix", "greycoprops": "graycoprops"},
    ),
}
# skimage.measure.compare_* moved to skimage.metrics (0.16) and were removed (0.18)
_METRICS = moved(
    "skimage.measure",
    "skimage.metrics",
    {
        "compare_ssim": "structural_similarity",
        "compare_psnr": "peak_signal_noise_ratio",
        "compare_mse": "mean_squared_error",
        "compare_nrmse": "normalized_root_mse",
    },
)
_NAMES = (
    "rgb2grey|grey2rgb|greycomatrix|greycoprops|compare_ssim|compare_psnr|compare_mse|compare_nrmse"
)


def _skimage_call(call: cst.Call, context: RuleContext) -> bool:
    name = qualified(call.func, context.aliases) or ""
    return name.startswith("skimage.")


def _channel_axis(arg: cst.Arg) -> cst.Arg | None:
    """`multichannel=True` -> `channel_axis=-1` (the last axis was the channels'),
    `False` -> `channel_axis=None`, anything else -> `-1 if value else None`."""
    value = code(arg.value)
    new = {"True": "-1", "False": "None"}.get(value, f"-1 if {value} else None")
    return arg.with_changes(keyword=cst.Name("channel_axis"), value=expression(new))


_IMAGE = "import numpy as np\nrgb = np.linspace(0, 1, 192).reshape(8, 8, 3)\n"

RULES = (
    Rule(
        id="skimage.renamed-functions",
        library="scikit-image",
        changed_in="0.19",
        summary="`rgb2grey`/`grey2rgb`/`greycomatrix`/`greycoprops` -> the `gray` spellings; "
        "`skimage.measure.compare_ssim`/`compare_psnr`/`compare_mse`/`compare_nrmse` -> "
        "`skimage.metrics.structural_similarity`/`peak_signal_noise_ratio`/...",
        kind=Kind.API,
        rewrite=move_names({**_GREY, **_METRICS}, keep_local=True, reference="module"),
        symptoms=(
            Symptom("AttributeError", rf"skimage\.\w+ attribute '({_NAMES})'"),
            Symptom("AttributeError", rf"module 'skimage\.\w+' has no attribute '({_NAMES})'"),
            Symptom("ImportError", rf"cannot import name '({_NAMES})' from 'skimage\.\w+'"),
        ),
        gone=all_of(lacks("skimage.color", "rgb2grey"), lacks("skimage.measure", "compare_ssim")),
        examples=(
            Example(
                before=_IMAGE + "from skimage import color, feature\n"
                "from skimage.measure import compare_ssim\n"
                "grey = color.rgb2grey(rgb)\n"
                "img = (grey * 255).astype(np.uint8)\n"
                "glcm = feature.greycomatrix(img, [1], [0], levels=256)\n"
                "contrast = feature.greycoprops(glcm, 'contrast')[0, 0]\n"
                "same = compare_ssim(img, img)\n",
                after=_IMAGE + "from skimage import color, feature\n"
                "from skimage.metrics import structural_similarity as compare_ssim\n"
                "grey = color.rgb2gray(rgb)\n"
                "img = (grey * 255).astype(np.uint8)\n"
                "glcm = feature.graycomatrix(img, [1], [0], levels=256)\n"
                "contrast = feature.graycoprops(glcm, 'contrast')[0, 0]\n"
                "same = compare_ssim(img, img)\n",
                error="ImportError",
                check="grey.shape == (8, 8) and abs(grey[0, 0] - (0.2125 * 0 + 0.7154 * rgb[0, 0, 1] "
                "+ 0.0721 * rgb[0, 0, 2])) < 1e-12 and glcm.shape == (256, 256, 1, 1) "
                "and contrast > 0 and same == 1.0",
            ),
        ),
    ),
    Rule(
        id="skimage.multichannel",
        library="scikit-image",
        changed_in="0.21",
        summary="`multichannel=True` -> `channel_axis=-1`, `multichannel=False` -> "
        "`channel_axis=None` (any skimage function); `io.imread(as_grey=)` -> `as_gray=`",
        kind=Kind.API,
        rewrite=edit_keywords(
            _skimage_call, {"multichannel": _channel_axis, "as_grey": rename_to("as_gray")}
        ),
        symptoms=(
            Symptom("TypeError", r"got an unexpected keyword argument '(multichannel|as_grey)'"),
        ),
        gone=no_parameter("skimage.filters.gaussian", "multichannel"),
        examples=(
            Example(
                before=_IMAGE + "from skimage.filters import gaussian\n"
                "from skimage.transform import rescale\n"
                "import skimage.io\n"
                "skimage.io.imsave('a.png', (rgb * 255).astype(np.uint8))\n"
                "blurred = gaussian(rgb, sigma=1, multichannel=True)\n"
                "big = rescale(rgb, 2, multichannel=True)\n"
                "plane = gaussian(rgb[..., 0], sigma=1, multichannel=False)\n"
                "grey = skimage.io.imread('a.png', as_grey=True)\n",
                after=_IMAGE + "from skimage.filters import gaussian\n"
                "from skimage.transform import rescale\n"
                "import skimage.io\n"
                "skimage.io.imsave('a.png', (rgb * 255).astype(np.uint8))\n"
                "blurred = gaussian(rgb, sigma=1, channel_axis=-1)\n"
                "big = rescale(rgb, 2, channel_axis=-1)\n"
                "plane = gaussian(rgb[..., 0], sigma=1, channel_axis=None)\n"
                "grey = skimage.io.imread('a.png', as_gray=True)\n",
                error="TypeError",
                # channels blurred apart: each equals the blur of that plane alone
                check="big.shape == (16, 16, 3) and np.allclose(blurred[..., 0], plane) "
                "and grey.shape == (8, 8)",
            ),
        ),
    ),
)
