"""One way to read a cell: the policy that execution, rules, LLM and fidelity all use."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from nbmodernizer import cells

TIMED = "%%time\nimport numpy as np\nimport pandas as pd\nx = np.int(3)\n"


def test_a_python_cell_magic_keeps_its_line_and_its_body_is_python() -> None:
    parsed = cells.parse(TIMED)
    assert parsed.cell_magic == "time"
    assert parsed.is_python
    assert parsed.tree is not None
    assert parsed.originals == ["%%time"]
    first, *rest = parsed.masked.split("\n")
    assert cells.is_masked_cell_magic(first)
    assert rest == TIMED.split("\n")[1:]
    assert cells.unmask(parsed.masked, parsed.originals) == TIMED


@pytest.mark.parametrize("magic", ["%%capture out", "%%timeit -n 3", "\n  %%time"])
def test_other_python_cell_magics_and_blank_lines_before_the_magic(magic: str) -> None:
    source = f"{magic}\nimport numpy as np\n"
    parsed = cells.parse(source)
    assert parsed.is_python and parsed.tree is not None
    assert cells.unmask(parsed.masked, parsed.originals) == source
    assert sum(cells.is_masked_cell_magic(line) for line in parsed.masked.split("\n")) == 1


@pytest.mark.parametrize(
    "source", ["%%bash\nls -l\n", "%%writefile a.py\nimport os\n", "%%html\n<b/>"]
)
def test_a_cell_magic_of_another_language_is_not_python(source: str) -> None:
    parsed = cells.parse(source)
    assert not parsed.is_python
    assert parsed.tree is None and parsed.error is None
    assert cells.imports([source]) == {}


def test_line_magics_shell_and_help_lines_are_masked_and_put_back() -> None:
    source = (
        "%matplotlib inline\n"
        "!pip install xgboost==0.90 \\\n"
        "    lightgbm\n"
        "files = !ls ../input\n"
        "df?\n"
        "??np.mean\n"
        "if True:\n"
        "    %time fit()\n"
        "import numpy as np"
    )
    parsed = cells.parse(source)
    assert parsed.tree is not None, parsed.masked
    assert len(parsed.originals) == 7
    assert not any(cells.is_masked_cell_magic(line) for line in parsed.masked.split("\n"))
    assert "    pass  # __nbmodernizer_masked_6__" in parsed.masked.split("\n")
    assert cells.unmask(parsed.masked, parsed.originals) == source


def test_a_cell_magic_further_down_is_not_masked_and_the_cell_does_not_parse() -> None:
    parsed = cells.parse("x = 1\n%%time\ny = 2")
    assert parsed.cell_magic is None
    assert parsed.tree is None and parsed.error is not None


def test_python_2_cells_are_recognised_and_read_as_python_3() -> None:
    parsed = cells.parse('print "score", s\ntry:\n    f()\nexcept ValueError, e:\n    raise E, "m"')
    assert parsed.tree is None
    assert parsed.python2 and parsed.python2_tree is not None
    assert parsed.error is not None and parsed.error.startswith("line 1:")
    calls = [n for n in ast.walk(parsed.python2_tree) if isinstance(n, ast.Call)]
    assert any(isinstance(c.func, ast.Name) and c.func.id == "print" for c in calls)


def test_a_cell_that_is_neither_python_3_nor_2_has_no_tree_and_says_why() -> None:
    parsed = cells.parse("def f(:\n    pass")
    assert parsed.tree is None and not parsed.python2
    assert parsed.error == "line 1: invalid syntax"


def test_the_import_written_last_wins_whatever_its_nesting() -> None:
    nested_first = "if fast:\n    import ujson as json_lib\nimport json as json_lib\n"
    assert cells.imports([nested_first])["json_lib"] == "json"
    nested_last = (
        "import json as json_lib\n"
        "try:\n    import ujson as json_lib\nexcept ImportError:\n    pass\n"
    )
    assert cells.imports([nested_last])["json_lib"] == "ujson"


def test_nodes_by_type_holds_each_node_of_real_code_once() -> None:
    from collections import Counter

    tree = ast.parse(Path(ast.__file__).read_text(encoding="utf-8"))  # code nobody here wrote
    by_type = cells.nodes_by_type(tree)
    walked = Counter(type(node) for node in ast.walk(tree))
    assert {kind: len(found) for kind, found in by_type.items()} == walked
    assert all(type(node) is kind for kind, found in by_type.items() for node in found)
    assert cells.nodes_by_type(tree) is by_type  # one walk a tree


def test_imports_resolve_local_names_across_cells_of_every_kind() -> None:
    sources = [
        TIMED,
        "from sklearn.cross_validation import train_test_split as tts\nimport os.path\n",
        'import xgboost as xgb\nprint "python 2"\n',
        "import scipy.stats as st\nthis cell = does not parse\n",
        "from os import *\n",
        "%%bash\nimport not_python\n",
    ]
    assert cells.imports(sources) == {
        "np": "numpy",
        "pd": "pandas",
        "tts": "sklearn.cross_validation.train_test_split",
        "os": "os",
        "xgb": "xgboost",
        "st": "scipy.stats",
    }
    assert cells.imported_modules(sources) == {
        "numpy",
        "pandas",
        "sklearn",
        "os",
        "xgboost",
        "scipy",
    }


def test_a_name_bound_by_a_cell_that_parses_wins() -> None:
    assert cells.imports(['import pandas as pd\nprint "x"', "import polars as pd"]) == {
        "pd": "polars"
    }
    assert cells.imports(["import polars as pd", 'import pandas as pd\nprint "x"']) == {
        "pd": "polars"
    }


# Continuation lines are not magics: IPython reads a cell in logical lines (Python's tokenizer:
# open brackets, triple-quoted strings, backslashes) and looks for `%`, `!` only at the start of
# one. Each case says which of its lines IPython runs as magics.
CONTINUATIONS = [
    (  # real code (issue #19): the `%` format operator starts the continuation line
        'print("Mean squared error: %.2f"\n'
        "      % np.mean((regr.predict(x_train) - y_train) ** 2))",
        [],
    ),
    ('print("Variance score: %.2f" \\\n      % regr.score(x_test, y_test))', []),
    ('report = """\n%d rows\n!not a shell line\n""" % n\n%time f()', ["%time f()"]),
    ("x = [1,  # a ) in a comment does not close\n  2]\n%time f()", ["%time f()"]),
    ("y = 'a(' \n!echo hi", ["!echo hi"]),
    ("s = 'it\\'s ('\n%time f()", ["%time f()"]),
    ("z = ({'a': [1,\n  2]}\n  % 3)\n!ls", ["!ls"]),
    ("!pip install \\\n  numpy\n%time g()", ["!pip install \\", "  numpy", "%time g()"]),
    ("t = f(a,\n      b) \\\n    % c\nfiles = !ls", ["files = !ls"]),
]


@pytest.mark.parametrize(("source", "magics"), CONTINUATIONS)
def test_a_continuation_line_is_not_a_magic(source: str, magics: list[str]) -> None:
    parsed = cells.parse(source)
    assert parsed.originals == magics
    assert parsed.tree is not None, parsed.error
    assert cells.unmask(parsed.masked, parsed.originals) == source


@pytest.mark.parametrize(("source", "magics"), CONTINUATIONS)
def test_the_magics_are_those_ipython_runs(source: str, magics: list[str]) -> None:
    from IPython.core.inputtransformer2 import TransformerManager

    transformed = TransformerManager().transform_cell(source)
    calls = transformed.count("get_ipython()")
    assert calls == len([line for line in magics if not line.startswith("  ")])
    assert transformed.count("get_ipython()") == sum(
        "get_ipython()" in line for line in transformed.split("\n")
    )
    # every line IPython leaves as Python is a line we leave as Python
    kept = [line for line in source.split("\n") if line not in magics]
    for line in kept:
        assert line.rstrip("\\").rstrip() in transformed, line


def test_a_cell_nested_too_deeply_for_pythons_parser_says_so() -> None:
    parsed = cells.parse("x = " + "+".join(["[1]"] * 5000))
    assert parsed.tree is None and parsed.error == cells.TOO_DEEP


def test_only_a_deep_tree_is_deeper_than_the_limit() -> None:
    source = "import numpy as np\nx = np.array([0]*44+" + "+".join(["[1]"] * 150) + ")\n"
    tree = ast.parse(source)
    assert cells.deeper_than(tree, 100)
    shallow = "def f(a):\n    return [a + 1 for a in range(10)] + " + " + ".join(["a"] * 30)
    assert not cells.deeper_than(ast.parse(shallow), 100)
    # Module 0, Assign 1, the outer List 2, the inner 3, the constant and the inner Load 4
    assert cells.tree_index(ast.parse("x = [[1]]")).depth == 4
