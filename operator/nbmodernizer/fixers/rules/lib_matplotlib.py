"""matplotlib drift."""

from __future__ import annotations

from nbmodernizer.fixers.rules.cst_moves import move_names, remove_statements, rewrite_calls
from nbmodernizer.fixers.rules.cst_tools import (
    chain,
    cst_rewrite,
    edit_keywords,
    rename_methods,
    rename_to,
)
from nbmodernizer.fixers.rules.matplotlib_transforms import (
    AGG,
    LOG_KEYWORDS,
    ColorCycle,
    GcaProjection,
    StyleRenamer,
    WindowTitle,
    any_call,
    axes_has_parameter,
    axes_lacks,
    cm_get_cmap_gone,
    color_cycle_gone,
    gca_kwargs_gone,
    hist_call,
    hold_gone,
    is_hold_true,
    log_keywords_gone,
    normpdf,
    normpdf_gone,
    not_seaborn,
    pyplot_get_cmap,
    seaborn_styles_gone,
    window_title_gone,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom

RULES = (
    Rule(
        id="matplotlib.seaborn-style-names",
        library="matplotlib",
        changed_in="3.8",
        summary="`plt.style.use('seaborn-whitegrid')` -> `'seaborn-v0_8-whitegrid'` "
        "(the seaborn styles shipped with matplotlib were renamed)",
        kind=Kind.API,
        rewrite=cst_rewrite(StyleRenamer),
        symptoms=(Symptom("OSError", r"'seaborn[\w-]*' is not a valid package style"),),
        gone=seaborn_styles_gone,
        examples=(
            Example(
                before=AGG
                + "plt.style.use('seaborn-whitegrid')\n"
                + "grid, face = plt.rcParams['axes.grid'], plt.rcParams['axes.facecolor']\n"
                + "plt.style.use(['default', \"seaborn\"])  # the classic look\n"
                + "face2 = plt.rcParams['axes.facecolor']\n"
                + "plt.rcdefaults()\n",
                after=AGG
                + "plt.style.use('seaborn-v0_8-whitegrid')\n"
                + "grid, face = plt.rcParams['axes.grid'], plt.rcParams['axes.facecolor']\n"
                + "plt.style.use(['default', \"seaborn-v0_8\"])  # the classic look\n"
                + "face2 = plt.rcParams['axes.facecolor']\n"
                + "plt.rcdefaults()\n",
                error="OSError",
                check="grid and face == 'white' and face2.upper() == '#EAEAF2'",
            ),
        ),
    ),
    Rule(
        id="matplotlib.cm-get-cmap",
        library="matplotlib",
        changed_in="3.9",
        summary="`matplotlib.cm.get_cmap(name, lut)` / `plt.cm.get_cmap` -> "
        "`plt.get_cmap(name, lut)` (same function, kept in pyplot)",
        kind=Kind.API,
        rewrite=chain(
            move_names("matplotlib.cm", "matplotlib.pyplot", ["get_cmap"]),
            rewrite_calls(
                {
                    "matplotlib.cm.get_cmap": pyplot_get_cmap,
                    "matplotlib.pyplot.cm.get_cmap": pyplot_get_cmap,
                }
            ),
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'matplotlib\.cm' has no attribute 'get_cmap'"),
            Symptom("ImportError", r"cannot import name 'get_cmap' from 'matplotlib\.cm'"),
        ),
        gone=cm_get_cmap_gone,
        examples=(
            Example(
                before=AGG
                + "import matplotlib.cm as cm\n"
                + "jet = cm.get_cmap('jet', 5)\n"
                + "colors = [plt.cm.get_cmap('viridis')(0.5), jet(0)]\n",
                after=AGG
                + "import matplotlib.cm as cm\n"
                + "jet = plt.get_cmap('jet', 5)\n"
                + "colors = [plt.get_cmap('viridis')(0.5), jet(0)]\n",
                error="AttributeError",
                check="jet.N == 5 and colors == [matplotlib.colormaps['viridis'](0.5), "
                "matplotlib.colormaps['jet'].resampled(5)(0)]",
            ),
            Example(
                before="import matplotlib\nmatplotlib.use('Agg')\nfrom matplotlib import cm\n"
                "reds = cm.get_cmap('Reds')\n",
                after="import matplotlib.pyplot\nimport matplotlib\nmatplotlib.use('Agg')\n"
                "from matplotlib import cm\nreds = matplotlib.pyplot.get_cmap('Reds')\n",
                error="AttributeError",
                check="reds(1.0) == matplotlib.colormaps['Reds'](1.0)",
            ),
        ),
    ),
    Rule(
        id="matplotlib.hist-normed",
        library="matplotlib",
        changed_in="3.1",
        summary="`hist(..., normed=True)` -> `hist(..., density=True)`",
        kind=Kind.API,
        rewrite=edit_keywords(hist_call, {"normed": rename_to("density")}),
        symptoms=(Symptom("AttributeError", r"unexpected keyword argument 'normed'"),),
        gone=lambda: not axes_has_parameter("hist", "normed"),
        examples=(
            Example(
                before=AGG
                + "import numpy as np\n"
                + "x = np.arange(10.0)\n"
                + "n, bins, _ = plt.hist(x, bins=4, normed=True)\n"
                + "fig, ax = plt.subplots()\n"
                + "n2, bins2, _ = ax.hist(x, bins=5, normed=1, alpha=0.5)\n"
                + "plt.close('all')\n",
                after=AGG
                + "import numpy as np\n"
                + "x = np.arange(10.0)\n"
                + "n, bins, _ = plt.hist(x, bins=4, density=True)\n"
                + "fig, ax = plt.subplots()\n"
                + "n2, bins2, _ = ax.hist(x, bins=5, density=1, alpha=0.5)\n"
                + "plt.close('all')\n",
                error="AttributeError",
                check="abs((n * np.diff(bins)).sum() - 1) < 1e-9 "
                "and abs((n2 * np.diff(bins2)).sum() - 1) < 1e-9",
            ),
            Example(
                before=AGG
                + "import pandas as pd\nimport seaborn as sns\n"
                + "df = pd.DataFrame({'a': [1.0, 2, 2, 3], 'c': list('xxyy')})\n"
                + "g = sns.FacetGrid(df, col='c')\ng.map(plt.hist, 'a', bins=2, normed=True)\n"
                + "heights = [p.get_height() for ax in g.axes.flat for p in ax.patches]\n"
                + "plt.close('all')\n",
                after=AGG
                + "import pandas as pd\nimport seaborn as sns\n"
                + "df = pd.DataFrame({'a': [1.0, 2, 2, 3], 'c': list('xxyy')})\n"
                + "g = sns.FacetGrid(df, col='c')\ng.map(plt.hist, 'a', bins=2, density=True)\n"
                + "heights = [p.get_height() for ax in g.axes.flat for p in ax.patches]\n"
                + "plt.close('all')\n",
                error="AttributeError",
                # two bins of width 0.5 holding one value each, in both facets
                check="heights == [1.0, 1.0, 1.0, 1.0]",
            ),
        ),
    ),
    Rule(
        id="matplotlib.canvas-set-window-title",
        library="matplotlib",
        changed_in="3.6",
        summary="`fig.canvas.set_window_title(t)` -> `fig.canvas.manager.set_window_title(t)`",
        kind=Kind.API,
        rewrite=cst_rewrite(WindowTitle),
        symptoms=(Symptom("AttributeError", r"object has no attribute 'set_window_title'"),),
        gone=window_title_gone,
        examples=(
            Example(
                before=AGG
                + "fig = plt.figure()\nfig.canvas.set_window_title('Training curves')\n"
                + "title = fig.canvas.manager.get_window_title()\nplt.close('all')\n",
                after=AGG
                + "fig = plt.figure()\nfig.canvas.manager.set_window_title('Training curves')\n"
                + "title = fig.canvas.manager.get_window_title()\nplt.close('all')\n",
                error="AttributeError",
                check="title == 'Training curves'",
            ),
        ),
    ),
    Rule(
        id="matplotlib.hold-true",
        library="matplotlib",
        changed_in="3.0",
        summary="`plt.hold(True)` / `ax.hold(True)` -> removed (holding is always on now); "
        "`hold(False)` is left alone: it needs an explicit `cla()`",
        kind=Kind.API,
        rewrite=remove_statements(is_hold_true),
        symptoms=(
            Symptom("AttributeError", r"module 'matplotlib\.pyplot' has no attribute 'hold'"),
            Symptom("AttributeError", r"'Axes' object has no attribute 'hold'"),
        ),
        gone=hold_gone,
        examples=(
            Example(
                before=AGG
                + "fig, ax = plt.subplots()\n"
                + "plt.hold(True)\n"
                + "for k in range(3):\n"
                + "    ax.hold(True)\n"
                + "    ax.plot([0, k])\n"
                + "lines = len(ax.lines)\nplt.close('all')\n",
                after=AGG
                + "fig, ax = plt.subplots()\n"
                + "for k in range(3):\n"
                + "    ax.plot([0, k])\n"
                + "lines = len(ax.lines)\nplt.close('all')\n",
                error="AttributeError",
                check="lines == 3",
            ),
        ),
    ),
    Rule(
        id="matplotlib.axes-color-cycle",
        library="matplotlib",
        changed_in="2.0",
        summary="`rcParams['axes.color_cycle'] = colors` -> "
        "`rcParams['axes.prop_cycle'] = matplotlib.cycler(color=colors)` (reads: "
        "`rcParams['axes.prop_cycle'].by_key()['color']`)",
        kind=Kind.API,
        rewrite=cst_rewrite(ColorCycle),
        symptoms=(Symptom("KeyError", r"axes\.color_cycle"),),
        gone=color_cycle_gone,
        examples=(
            Example(
                before="import matplotlib as mpl\n"
                + AGG
                + "plt.rcParams['axes.color_cycle'] = ['r', 'g', 'b']\n"
                + "fig, ax = plt.subplots()\n"
                + "first = ax.plot([1, 2])[0].get_color()\n"
                + "colors = mpl.rcParams['axes.color_cycle']\n"
                + "plt.rcdefaults()\nplt.close('all')\n",
                after="import matplotlib as mpl\n"
                + AGG
                + "plt.rcParams['axes.prop_cycle'] = mpl.cycler(color=['r', 'g', 'b'])\n"
                + "fig, ax = plt.subplots()\n"
                + "first = ax.plot([1, 2])[0].get_color()\n"
                + "colors = mpl.rcParams['axes.prop_cycle'].by_key()['color']\n"
                + "plt.rcdefaults()\nplt.close('all')\n",
                error="KeyError",
                check="first == 'r' and colors == ['r', 'g', 'b']",
            ),
        ),
    ),
    Rule(
        id="matplotlib.mlab-normpdf",
        library="matplotlib",
        changed_in="3.1",
        summary="`mlab.normpdf(x, mu, sigma)` -> `scipy.stats.norm.pdf(x, mu, sigma)`",
        kind=Kind.API,
        rewrite=rewrite_calls({"matplotlib.mlab.normpdf": normpdf}),
        symptoms=(
            Symptom("AttributeError", r"module 'matplotlib\.mlab' has no attribute 'normpdf'"),
        ),
        gone=normpdf_gone,
        examples=(
            Example(
                before="import numpy as np\nimport matplotlib.mlab as mlab\n"
                "x = np.linspace(-2, 4, 7)\ny = mlab.normpdf(x, 1.0, 2.0)\n"
                "peak = mlab.normpdf(0, 0, 1)\n",
                after="import scipy.stats\nimport numpy as np\nimport matplotlib.mlab as mlab\n"
                "x = np.linspace(-2, 4, 7)\ny = scipy.stats.norm.pdf(x, 1.0, 2.0)\n"
                "peak = scipy.stats.norm.pdf(0, 0, 1)\n",
                error="AttributeError",
                check="np.allclose(y, np.exp(-0.5 * ((x - 1.0) / 2.0) ** 2) "
                "/ (np.sqrt(2 * np.pi) * 2.0)) and abs(peak - 1 / np.sqrt(2 * np.pi)) < 1e-12",
            ),
        ),
    ),
    Rule(
        id="matplotlib.axisbg",
        library="matplotlib",
        changed_in="2.2",
        summary="`ax.set_axis_bgcolor(c)` -> `ax.set_facecolor(c)`; "
        "`plt.subplot(..., axisbg=c)` -> `facecolor=c`",
        kind=Kind.API,
        rewrite=chain(
            rename_methods(
                {"set_axis_bgcolor": "set_facecolor", "get_axis_bgcolor": "get_facecolor"}
            ),
            edit_keywords(
                any_call(
                    "axes",
                    "subplot",
                    "add_subplot",
                    "add_axes",
                    functions=("matplotlib.pyplot.axes", "matplotlib.pyplot.subplot"),
                ),
                {"axisbg": rename_to("facecolor")},
            ),
        ),
        symptoms=(
            Symptom("AttributeError", r"object has no attribute '(set|get)_axis_bgcolor'"),
            Symptom("AttributeError", r"unexpected keyword argument 'axisbg'"),
        ),
        gone=lambda: axes_lacks("set_axis_bgcolor"),
        examples=(
            Example(
                before=AGG
                + "fig = plt.figure()\nax = fig.add_subplot(121, axisbg='red')\n"
                + "ax2 = plt.subplot(122)\nax2.set_axis_bgcolor('blue')\nplt.close('all')\n",
                after=AGG
                + "fig = plt.figure()\nax = fig.add_subplot(121, facecolor='red')\n"
                + "ax2 = plt.subplot(122)\nax2.set_facecolor('blue')\nplt.close('all')\n",
                error="AttributeError",
                check="ax.get_facecolor() == (1.0, 0.0, 0.0, 1.0) "
                "and ax2.get_facecolor() == (0.0, 0.0, 1.0, 1.0)",
            ),
        ),
    ),
    Rule(
        id="matplotlib.grid-b",
        library="matplotlib",
        changed_in="3.7",
        summary="`grid(b=True)` -> `grid(visible=True)`",
        kind=Kind.API,
        rewrite=edit_keywords(
            any_call("grid", functions=("matplotlib.pyplot.grid",)),
            {"b": rename_to("visible")},
        ),
        symptoms=(Symptom("ValueError", r"keyword grid_b is not recognized"),),
        gone=lambda: not axes_has_parameter("grid", "b"),
        examples=(
            Example(
                before=AGG
                + "fig, (ax, ax2) = plt.subplots(1, 2)\nax.grid(b=True)\n"
                + "plt.sca(ax2)\nplt.grid(b=True, which='major', axis='y')\nfig.canvas.draw()\n"
                + "shown = [ax.get_xgridlines()[0].get_visible(), "
                + "ax2.get_ygridlines()[0].get_visible(), ax2.get_xgridlines()[0].get_visible()]\n"
                + "plt.close('all')\n",
                after=AGG
                + "fig, (ax, ax2) = plt.subplots(1, 2)\nax.grid(visible=True)\n"
                + "plt.sca(ax2)\nplt.grid(visible=True, which='major', axis='y')\n"
                + "fig.canvas.draw()\n"
                + "shown = [ax.get_xgridlines()[0].get_visible(), "
                + "ax2.get_ygridlines()[0].get_visible(), ax2.get_xgridlines()[0].get_visible()]\n"
                + "plt.close('all')\n",
                error="ValueError",
                check="shown == [True, True, False]",
            ),
        ),
    ),
    Rule(
        id="matplotlib.gca-projection",
        library="matplotlib",
        changed_in="3.6",
        summary="`fig.gca(projection='3d')` -> `fig.add_subplot(projection='3d')` "
        "(`plt.gca(...)` -> `plt.gcf().add_subplot(...)`); same result on a figure "
        "without that axes yet",
        kind=Kind.API,
        rewrite=cst_rewrite(GcaProjection),
        symptoms=(Symptom("TypeError", r"gca\(\) got an unexpected keyword argument"),),
        gone=gca_kwargs_gone,
        examples=(
            Example(
                before=AGG
                + "fig = plt.figure()\nax = fig.gca(projection='3d')\n"
                + "plt.figure()\nax2 = plt.gca(projection='polar')\n"
                + "names = [ax.name, ax2.name, len(fig.axes)]\nplt.close('all')\n",
                after=AGG
                + "fig = plt.figure()\nax = fig.add_subplot(projection='3d')\n"
                + "plt.figure()\nax2 = plt.gcf().add_subplot(projection='polar')\n"
                + "names = [ax.name, ax2.name, len(fig.axes)]\nplt.close('all')\n",
                error="TypeError",
                check="names == ['3d', 'polar', 1]",
            ),
        ),
    ),
    Rule(
        id="matplotlib.log-scale-keywords",
        library="matplotlib",
        changed_in="3.5",
        summary="`set_xscale('log', basex=2, nonposx='clip')` -> `base=2, nonpositive='clip'` "
        "(also `basey`/`subsx`/`subsy`/`nonposy`, in `semilogx`/`semilogy`/`xscale`/`yscale`)",
        kind=Kind.API,
        rewrite=edit_keywords(
            any_call(
                "set_xscale",
                "set_yscale",
                "xscale",
                "yscale",
                "semilogx",
                "semilogy",
                functions=(
                    "matplotlib.pyplot.xscale",
                    "matplotlib.pyplot.yscale",
                    "matplotlib.pyplot.semilogx",
                    "matplotlib.pyplot.semilogy",
                ),
            ),
            {old: rename_to(new) for old, new in LOG_KEYWORDS.items()},
        ),
        symptoms=(Symptom("TypeError", r"unexpected keyword argument '(base|subs|nonpos)[xy]'"),),
        gone=log_keywords_gone,
        examples=(
            Example(
                before=AGG
                + "fig, ax = plt.subplots()\n"
                + "ax.set_xscale('log', basex=2)\n"
                + "ax.set_yscale('log', nonposy='mask', basey=10)\n"
                + "bases = (ax.xaxis.get_transform().base, ax.yaxis.get_transform().base)\n"
                + "plt.close('all')\n",
                after=AGG
                + "fig, ax = plt.subplots()\n"
                + "ax.set_xscale('log', base=2)\n"
                + "ax.set_yscale('log', nonpositive='mask', base=10)\n"
                + "bases = (ax.xaxis.get_transform().base, ax.yaxis.get_transform().base)\n"
                + "plt.close('all')\n",
                error="TypeError",
                check="bases == (2, 10)",
            ),
        ),
    ),
    Rule(
        id="matplotlib.boxplot-labels",
        library="matplotlib",
        changed_in="3.11",
        summary="`boxplot(data, labels=names)` -> `boxplot(data, tick_labels=names)`",
        kind=Kind.API,
        rewrite=edit_keywords(
            not_seaborn(("boxplot",), ("matplotlib.pyplot.boxplot",)),
            {"labels": rename_to("tick_labels")},
        ),
        symptoms=(
            Symptom("TypeError", r"boxplot\(\) got an unexpected keyword argument 'labels'"),
        ),
        gone=lambda: not axes_has_parameter("boxplot", "labels"),
        examples=(
            Example(
                before=AGG
                + "fig, ax = plt.subplots()\n"
                + "ax.boxplot([[1, 2, 3], [2, 3, 4]], labels=['a', 'b'])\n"
                + "names = [t.get_text() for t in ax.get_xticklabels()]\nplt.close('all')\n",
                after=AGG
                + "fig, ax = plt.subplots()\n"
                + "ax.boxplot([[1, 2, 3], [2, 3, 4]], tick_labels=['a', 'b'])\n"
                + "names = [t.get_text() for t in ax.get_xticklabels()]\nplt.close('all')\n",
                error="TypeError",
                check="names == ['a', 'b']",
            ),
        ),
    ),
)
