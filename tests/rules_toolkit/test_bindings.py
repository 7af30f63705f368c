"""toolkit.bindings: which names a notebook binds only to DataFrames / Series."""

from __future__ import annotations

from nbmodernizer import cells
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.fixer import notebook_context, rewrite_cell
from nbmodernizer.fixers.rules.libraries.pandas.cow import RULES as COW_RULES
from nbmodernizer.fixers.rules.toolkit.bindings import notebook_frames


def frames(*sources: str) -> frozenset[str]:
    return notebook_frames(sources, cells.imports(sources))


def test_constructors_readers_and_what_a_frame_gives_are_frames() -> None:
    found = frames(
        "import pandas as pd\n"
        "train = pd.read_csv('train.csv')\n"
        "extra = pd.DataFrame({'a': [1]})\n"
        "both = pd.concat([train, extra])\n",
        "clean = train.dropna().copy()\n"
        "age = train['age']\n"
        "adults = train[train.age > 18]\n"
        "rows = train.loc[train.age > 18, ['age', 'sex']]\n"
        "fare = train.Fare * 2\n"
        "means = train.groupby('sex').mean()\n"
        "lower = train['name'].str.lower()\n"
        "for frame in [train, extra]:\n"
        "    frame['x'] = 1\n",
    )
    assert found == {
        "train", "extra", "both", "clean", "age", "adults", "rows", "fare", "means", "lower",
        "frame",
    }  # fmt: skip


def test_anything_else_is_not_known() -> None:
    found = frames(
        "import pandas as pd\nimport numpy as np\n"
        "data = {'tra': pd.read_csv('a.csv')}\n"  # a dict of frames
        "chunks = pd.read_csv('a.csv', chunksize=1000)\n"  # an iterator
        "sheets = pd.read_excel('a.xlsx', sheet_name=None)\n"  # a dict
        "tables = pd.read_html('a.html')\n"  # a list
        "values = pd.read_csv('a.csv').values\n"  # an ndarray
        "cell = pd.read_csv('a.csv').loc[0, 'a']\n"  # a scalar
        "done = pd.read_csv('a.csv').fillna(0, inplace=True)\n"  # None
        "grouped = pd.read_csv('a.csv').groupby('a')\n"  # a GroupBy
        "train = pd.read_csv('train.csv')\n",
        "train = preprocess(train)\n"  # a function it cannot see into: unknown from here on
        "def f(test):\n    return test\n"
        "test = pd.read_csv('test.csv')\n",  # also a parameter: not known
    )
    assert found == frozenset()


def _fix(*sources: str) -> list[str]:
    context, _ = notebook_context(sources, False, None)
    return [rewrite_cell(source, COW_RULES, context)[0] for source in sources]


def test_copy_on_write_rewrites_follow_the_bindings_across_cells() -> None:
    reading = "import pandas as pd\ntrain = pd.read_csv('train.csv')\ndata = {'tra': train}\n"
    assignments = (
        "train['age'][train['age'] == 0] = 20\n"
        "data['tra']['dow'] = 1\n"
        "data['tra']['dow'][data['tra']['x'] > 0] = 1\n"
        "data['tra']['dow'].fillna(0, inplace=True)\n"
    )
    assert _fix(reading, assignments)[1] == (
        "train.loc[train['age'] == 0, 'age'] = 20\n"
        "data['tra']['dow'] = 1\n"
        "data['tra']['dow'][data['tra']['x'] > 0] = 1\n"
        "data['tra']['dow'].fillna(0, inplace=True)\n"
    )
    # a dict of arrays indexed the same way is left alone too
    arrays = "import numpy as np\nd = {'a': np.zeros(3)}\nd['a'][d['a'] > 0] = 1\n"
    assert _fix(arrays) == [arrays]


def test_a_cell_alone_is_read_when_the_notebook_was_not() -> None:
    cell = "import pandas as pd\nframe = pd.DataFrame({'a': [0, 1]})\nframe['a'][frame.a > 0] = 5\n"
    rule = next(rule for rule in COW_RULES if rule.id == "pandas.chained-assignment")
    context = RuleContext(aliases=cells.imports([cell]))
    assert rule.rewrite(cell, context).endswith("frame.loc[frame.a > 0, 'a'] = 5\n")
