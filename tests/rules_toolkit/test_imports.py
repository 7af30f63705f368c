"""toolkit.imports: how the notebook names a module, and the one import inserter."""

from __future__ import annotations

import libcst as cst
import pytest

from nbmodernizer import cells
from nbmodernizer.fixers.rules.catalog import RULES
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.imports import (
    Import,
    ImportingTransformer,
    add_imports,
    first_lines_end,
    imports_module,
    local_names,
    module_alias,
    naming,
)
from nbmodernizer.fixers.rules.toolkit.nodes import expression
from testing.rules_toolkit import context


def inserted(source: str, *requests: Import) -> str:
    parsed = cells.parse(source)
    module = add_imports(cst.parse_module(parsed.masked), requests)
    return cells.unmask(module.code, parsed.originals)


NUMPY = Import("numpy", asname="np")
OVR = Import("sklearn.multiclass", "OneVsRestClassifier")


# --- naming -------------------------------------------------------------------------------------


def test_the_notebooks_own_name_comes_first_and_the_shortest_of_several() -> None:
    aliases = {"numpy": "numpy", "np": "numpy", "pd": "pandas"}
    assert local_names(aliases, "numpy") == ["np", "numpy"]
    assert naming(aliases, "numpy") == ("np", None)
    assert module_alias(RuleContext(aliases=aliases), "pandas") == "pd"
    assert module_alias(RuleContext(aliases=aliases), "scipy") is None


def test_whether_the_notebook_imports_a_library() -> None:
    notebook = RuleContext(aliases={"Dense": "keras.layers.Dense", "np": "numpy"})
    assert imports_module(notebook, "keras") and imports_module(notebook, "numpy")
    assert not imports_module(notebook, "tensorflow")


def test_a_preferred_alias_wins_when_the_notebook_binds_it() -> None:
    assert naming({"n": "numpy", "np": "numpy"}, "numpy", "np") == ("np", None)


def test_a_submodule_of_an_attribute_package_is_reached_through_its_root() -> None:
    assert naming({"tf": "tensorflow"}, "tensorflow.keras") == ("tf.keras", None)
    # matplotlib does not load its submodules on attribute access: imported
    assert naming({"mpl": "matplotlib"}, "matplotlib.pyplot") == (
        "matplotlib.pyplot",
        Import("matplotlib.pyplot"),
    )


def test_a_module_the_notebook_does_not_import_is_imported() -> None:
    assert naming({}, "numpy", "np") == ("np", NUMPY)
    assert naming({}, "datetime", "datetime") == ("datetime", Import("datetime"))
    assert naming({}, "scipy.stats") == ("scipy.stats", Import("scipy.stats"))


def test_an_object_is_named_as_the_notebook_binds_it_or_imported_by_name() -> None:
    transformer = ImportingTransformer(context(OVR="sklearn.multiclass.OneVsRestClassifier"))
    assert transformer.local_name("sklearn.multiclass.OneVsRestClassifier") == "OVR"
    assert transformer.local_name("sklearn.metrics.root_mean_squared_error") == (
        "root_mean_squared_error"
    )
    assert transformer.imports == [Import("sklearn.metrics", "root_mean_squared_error")]


# --- where imports go -----------------------------------------------------------------------------


def test_import_lines_go_at_the_top_and_from_imports_after_the_imports() -> None:
    source = "import pandas as pd\nx = pd.DataFrame()\n"
    assert inserted(source, NUMPY, OVR) == (
        "import numpy as np\nimport pandas as pd\n"
        "from sklearn.multiclass import OneVsRestClassifier\nx = pd.DataFrame()\n"
    )


def test_a_from_import_joins_the_cells_statement_for_that_module() -> None:
    source = "from sklearn.multiclass import OneVsOneClassifier\nx = 1\n"
    assert inserted(source, OVR, OVR) == (
        "from sklearn.multiclass import OneVsOneClassifier, OneVsRestClassifier\nx = 1\n"
    )
    exploded = "from sklearn.multiclass import (\n    OneVsOneClassifier,\n)\n"
    assert inserted(exploded, OVR) == (
        "from sklearn.multiclass import (\n    OneVsOneClassifier,\n    OneVsRestClassifier,\n)\n"
    )


def test_every_import_form_the_rules_need() -> None:
    requests = (
        Import("scipy.stats"),
        Import("numpy", asname="np"),
        Import("functools", "reduce"),
        Import("keras", "utils", asname="np_utils"),
        Import("functools", "partial"),
    )
    assert inserted("import os\n", *requests) == (
        "import scipy.stats\nimport numpy as np\nimport os\n"
        "from functools import reduce, partial\nfrom keras import utils as np_utils\n"
    )
    merged = inserted("from keras import layers\n", Import("keras", "utils", asname="np_utils"))
    assert merged == "from keras import layers, utils as np_utils\n"
    already = "from keras import utils as np_utils\n"
    assert inserted(already, Import("keras", "utils", asname="np_utils")) == already


def test_a_from_import_in_a_cell_without_imports_is_set_apart_by_a_blank_line() -> None:
    assert inserted("x = 1\n", OVR) == (
        "from sklearn.multiclass import OneVsRestClassifier\n\nx = 1\n"
    )


def test_what_the_cell_imports_already_is_not_imported_again() -> None:
    source = "import numpy as np\nfrom sklearn.multiclass import OneVsRestClassifier\n"
    assert inserted(source, NUMPY, OVR) == source


def test_imports_go_below_from_future() -> None:
    source = "from __future__ import division\nx = 1 / 2\n"
    assert inserted(source, NUMPY, OVR) == (
        "from __future__ import division\nimport numpy as np\n"
        "from sklearn.multiclass import OneVsRestClassifier\nx = 1 / 2\n"
    )


def test_imports_go_below_a_module_docstring() -> None:
    source = '"""Load the data."""\nx = 1\n'
    assert inserted(source, NUMPY) == '"""Load the data."""\nimport numpy as np\nx = 1\n'
    assert inserted(source, OVR) == (
        '"""Load the data."""\nfrom sklearn.multiclass import OneVsRestClassifier\n\nx = 1\n'
    )
    with_future = '"""Load the data."""\nfrom __future__ import division\nx = 1\n'
    assert inserted(with_future, NUMPY) == (
        '"""Load the data."""\nfrom __future__ import division\nimport numpy as np\nx = 1\n'
    )


def test_line_magics_may_stand_among_the_imports() -> None:
    source = "%matplotlib inline\nimport pandas as pd\nx = 1\n"
    assert inserted(source, NUMPY, OVR) == (
        "import numpy as np\n%matplotlib inline\nimport pandas as pd\n"
        "from sklearn.multiclass import OneVsRestClassifier\nx = 1\n"
    )


def test_a_cell_magics_line_stays_first() -> None:
    source = "%%time\nimport pandas as pd\nx = 1\n"
    assert inserted(source, NUMPY, OVR) == (
        "%%time\nimport numpy as np\nimport pandas as pd\n"
        "from sklearn.multiclass import OneVsRestClassifier\nx = 1\n"
    )
    assert inserted("%%capture\nx = 1\n", OVR) == (
        "%%capture\nfrom sklearn.multiclass import OneVsRestClassifier\n\nx = 1\n"
    )
    with_future = "%%time\nfrom __future__ import division\nx = 1\n"
    assert inserted(with_future, NUMPY) == (
        "%%time\nfrom __future__ import division\nimport numpy as np\nx = 1\n"
    )


def test_what_must_stay_first_in_a_cell() -> None:
    def end(source: str) -> int:
        return first_lines_end(cst.parse_module(cells.parse(source).masked).body)

    assert end("x = 1\n") == 0
    assert end('%%time\n"""Doc."""\nfrom __future__ import division\nimport os\n') == 3
    assert end("%matplotlib inline\nx = 1\n") == 0  # a line magic may move down


# --- one inserter, after the rule's transform ---------------------------------------------------


class _UsesNumpy(ImportingTransformer):
    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        if updated_node.value != "NUMPY":
            return updated_node
        return expression(self.module_ref("numpy", "np"))


def test_the_imports_a_transform_asks_for_are_added_once_after_it() -> None:
    rewrite = cst_rewrite(_UsesNumpy)
    assert rewrite("a = NUMPY.ones(2)\nb = NUMPY.zeros(2)\n", RuleContext()) == (
        "import numpy as np\na = np.ones(2)\nb = np.zeros(2)\n"
    )
    assert rewrite("a = NUMPY.ones(2)\n", context(np="numpy")) == "a = np.ones(2)\n"


def _rule(rule_id: str) -> object:
    [found] = [rule for rule in RULES if rule.id == rule_id]
    return found.rewrite


@pytest.mark.parametrize(
    ("prefix", "name"),
    [
        ("from __future__ import division\n", "future"),
        ('"""Build the submission."""\n', "docstring"),
        ('"""Build the submission."""\nfrom __future__ import division\n', "both"),
    ],
)
def test_a_rule_that_imports_pandas_keeps_the_cells_first_lines_first(
    prefix: str, name: str
) -> None:
    cell = prefix + "frames = frames.append(extra, ignore_index=True)\n"
    rewrite = _rule("pandas.dataframe-append")
    assert callable(rewrite)
    result = rewrite(cell, RuleContext(aliases=cells.imports([cell])))
    assert result == (
        prefix + "import pandas as pd\nframes = pd.concat([frames, extra], ignore_index=True)\n"
    )
    compile(result, name, "exec")  # the defect: `import pandas as pd` above __future__


def test_the_reduce_rule_imports_through_the_inserter() -> None:
    rewrite = _rule("python2.reduce-import")
    assert callable(rewrite)
    cell = '"""Product."""\nfrom __future__ import division\nx = reduce(f, [1, 2])\n'
    assert rewrite(cell, RuleContext()) == (
        '"""Product."""\nfrom __future__ import division\nfrom functools import reduce\n'
        "x = reduce(f, [1, 2])\n"
    )
    merged = "from functools import partial\nx = reduce(f, [1, 2])\n"
    assert rewrite(merged, RuleContext()) == (
        "from functools import partial, reduce\nx = reduce(f, [1, 2])\n"
    )
    for bound in (
        "from functools import reduce as r\nx = reduce(f, l)\n",
        "def reduce(f, l): pass\n",
    ):
        assert rewrite(bound, RuleContext()) == bound
