"""toolkit.moves: modules, names, attributes and methods that moved or were renamed."""

from __future__ import annotations

from nbmodernizer import cells
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Rewrite
from nbmodernizer.fixers.rules.toolkit.cells import CstRewrite
from nbmodernizer.fixers.rules.toolkit.moves import (
    Move,
    move_module,
    move_modules,
    move_names,
    moved,
    rename_methods,
    replace_attributes,
)


def run(rewrite: Rewrite, source: str, *elsewhere: str) -> str:
    """The rewrite on a cell of a notebook whose other cells are `elsewhere`."""
    return rewrite(source, RuleContext(aliases=cells.imports([*elsewhere, source])))


def test_moved_names_builds_a_move_for_each_name() -> None:
    assert moved("a.old", "a.new", ["f"]) == {"a.old.f": Move("a.new.f")}
    assert moved("PIL.Image", "PIL.Image", {"ANTIALIAS": "LANCZOS"}, "PIL.Image.Resampling") == {
        "PIL.Image.ANTIALIAS": Move("PIL.Image.LANCZOS", attribute="PIL.Image.Resampling.LANCZOS")
    }


def test_names_imported_from_a_module_split_off_to_their_new_module() -> None:
    rewrite = move_names(moved("scipy.signal", "scipy.signal.windows", {"hanning": "hann"}))
    assert run(rewrite, "from scipy.signal import butter, hanning\nw = hanning(8)\n") == (
        "from scipy.signal import butter\nfrom scipy.signal.windows import hann\nw = hann(8)\n"
    )


def test_keep_local_keeps_the_notebooks_name_for_a_renamed_name() -> None:
    rewrite = move_names(
        moved("scipy.signal", "scipy.signal.windows", {"hanning": "hann"}), keep_local=True
    )
    assert run(rewrite, "from scipy.signal import hanning\nw = hanning(8)\n") == (
        "from scipy.signal.windows import hann as hanning\nw = hanning(8)\n"
    )


def test_a_reference_through_the_old_module_goes_to_the_name_or_the_new_module() -> None:
    moves = moved("scipy.misc", "scipy.special", ["comb"])
    source = "import scipy.misc\nn = scipy.misc.comb(4, 2)\n"
    by_module = move_names(moves, reference="module")
    # scipy loads its submodules on attribute access: no import needed
    assert run(by_module, source) == "import scipy.misc\nn = scipy.special.comb(4, 2)\n"
    cmap = move_names(moved("matplotlib.cm", "matplotlib.pyplot", ["get_cmap"]), reference="module")
    assert run(cmap, "from matplotlib import cm\nreds = cm.get_cmap('Reds')\n") == (
        "import matplotlib.pyplot\nfrom matplotlib import cm\n"
        "reds = matplotlib.pyplot.get_cmap('Reds')\n"
    )
    by_name = move_names(moves)
    assert run(by_name, source) == (
        "import scipy.misc\nfrom scipy.special import comb\nn = comb(4, 2)\n"
    )


def test_a_reference_stays_under_the_old_module_when_the_new_home_is_below_it() -> None:
    rewrite = move_names(
        moved("PIL.Image", "PIL.Image", {"ANTIALIAS": "LANCZOS"}, "PIL.Image.Resampling"),
        keep_local=True,
        reference="module",
    )
    assert run(rewrite, "from PIL import Image\nr = Image.ANTIALIAS\n") == (
        "from PIL import Image\nr = Image.Resampling.LANCZOS\n"
    )
    assert run(rewrite, "from PIL.Image import ANTIALIAS, NEAREST\n") == (
        "from PIL.Image import LANCZOS as ANTIALIAS, NEAREST\n"
    )


def test_a_name_imported_in_another_cell_is_renamed_where_it_is_used() -> None:
    rewrite = move_names(
        {"sklearn.metrics.plot_roc_curve": Move("sklearn.metrics.RocCurveDisplay", member="x")}
    )
    used = "roc = plot_roc_curve(clf, X, y)\n"
    elsewhere = "from sklearn.metrics import plot_roc_curve"
    assert run(rewrite, used, elsewhere) == "roc = RocCurveDisplay.x(clf, X, y)\n"


def test_modules_that_moved_take_their_imports_and_references_along() -> None:
    rewrite = move_modules({"sklearn.grid_search": "sklearn.model_selection"})
    source = "import sklearn.grid_search\ngrid = sklearn.grid_search.ParameterGrid({})\n"
    assert run(rewrite, source) == (
        "import sklearn.model_selection\ngrid = sklearn.model_selection.ParameterGrid({})\n"
    )
    assert run(rewrite, "from sklearn.grid_search import *\n") == (
        "from sklearn.model_selection import *\n"
    )


def test_a_cell_using_a_moved_modules_name_bare_is_not_read_for_the_move() -> None:
    """`train_test_split` imported from `sklearn.cross_validation` in another cell keeps its
    name where it is used (only the import changes): that cell is not parsed for the move;
    a name the move renames, an import and a dotted reference are."""
    rewrite = move_modules({"sklearn.cross_validation": "sklearn.model_selection"})
    assert isinstance(rewrite, CstRewrite)
    elsewhere = "import sklearn\nfrom sklearn.cross_validation import train_test_split\n"
    context = RuleContext(aliases=cells.imports([elsewhere]))

    def triggered(source: str) -> bool:
        return rewrite.triggered(source, context)

    used = "parts = train_test_split(X, y)\n"
    assert not triggered(used) and run(rewrite, used, elsewhere) == used
    assert triggered(elsewhere)
    assert triggered("cv = sklearn.cross_validation.KFold(4)\n")
    renamed = move_names(moved("scipy.signal", "scipy.signal.windows", {"hanning": "hann"}))
    assert isinstance(renamed, CstRewrite)
    imported = "from scipy.signal import hanning, butter\n"
    context = RuleContext(aliases=cells.imports([imported]))
    assert renamed.triggered("w = hanning(8)\n", context)
    assert not renamed.triggered("b = butter(2, 0.1)\n", context)
    assert run(renamed, "w = hanning(8)\n", imported) == "w = hann(8)\n"


def test_a_new_import_statement_is_written_on_one_line() -> None:
    rewrite = move_names(moved("a.b", "a.c", ["x", "y"]))
    source = "from a.b import (\n    x,\n    y,\n    z,\n)\n"
    assert run(rewrite, source) == "from a.b import (\n    z,\n)\nfrom a.c import x, y\n"


def test_a_module_renamed_as_spelled() -> None:
    rewrite = move_module("pandas.tools.plotting", "pandas.plotting")
    assert run(rewrite, "from pandas.tools.plotting import andrews_curves\n") == (
        "from pandas.plotting import andrews_curves\n"
    )
    assert run(rewrite, "import pandas.tools.plotting\npandas.tools.plotting.x()\n") == (
        "import pandas.plotting\npandas.plotting.x()\n"
    )


def test_attributes_are_replaced_in_the_notebooks_spelling() -> None:
    rewrite = replace_attributes({"numpy.NaN": "numpy.nan", "numpy.float": "float"})
    assert run(rewrite, "import numpy as np\nx = (np.NaN, np.float)\n") == (
        "import numpy as np\nx = (np.nan, float)\n"
    )


def test_methods_are_renamed_whatever_the_receiver() -> None:
    rewrite = rename_methods({"iteritems": "items"})
    assert run(rewrite, "for k, v in frame.iteritems(): pass\n") == (
        "for k, v in frame.items(): pass\n"
    )


def test_a_replacement_that_binds_looser_is_parenthesized_where_the_name_bound_tighter() -> None:
    rewrite = replace_attributes({"numpy.NINF": "-numpy.inf"})
    assert run(
        rewrite, "import numpy as np\nx = [np.NINF ** 2, np.NINF.real, np.NINF, -np.NINF]\n"
    ) == ("import numpy as np\nx = [(-np.inf) ** 2, (-np.inf).real, -np.inf, --np.inf]\n")
    assert run(rewrite, "import numpy as np\nx = np.NINF[0], np.NINF(), (np.NINF) ** 2\n") == (
        "import numpy as np\nx = (-np.inf)[0], (-np.inf)(), (-np.inf) ** 2\n"
    )
