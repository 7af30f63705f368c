"""`.ix` decided per indexer from its key (`libraries.pandas.indexers`): what is decided, what
is left to `amend`, and what keeps a frame's columns from counting as known."""

from __future__ import annotations

import pytest

from nbmodernizer.fixers.rules import all_rules
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.toolkit.cells import parses

RULE = next(rule for rule in all_rules() if rule.id == "pandas.ix-indexer")
CONTEXT = RuleContext(aliases={"pd": "pandas"}, run_follows=True)  # the loop
# `nbmod scan` / `nbmod fix`: no run follows to check a guess
STATIC = RuleContext(aliases={"pd": "pandas"})
READ = "df = pd.read_csv('t.csv')\n"


def readings(source: str, context: RuleContext = CONTEXT) -> tuple[str, str]:
    """The last line as the rule writes it, and as its alternative does."""
    assert RULE.alternative is not None
    written = RULE.rewrite(source, context), RULE.alternative(source, context)
    return written[0].splitlines()[-1], written[1].splitlines()[-1]


@pytest.mark.parametrize(
    ("source", "indexer"),
    [
        # a label anywhere: `.iloc` takes none
        ("x = df.ix[:, 'target']", "loc"),
        ("x = df.ix[df['a'] > 1, ['a', 'b']]", "loc"),
        ("x = df.ix['r1':'r3']", "loc"),
        ("x = df.ix[0, 'b']", "loc"),
        # a boolean mask with only `:` beside it: `.iloc` refuses a boolean Series
        ("df['a'].ix[df['a'] > 9] = 9", "loc"),
        ("x = df.ix[:, df.columns != 'left']", "loc"),
        ("x = df.ix[~df['a'].isnull() & (df['b'] == 0), :]", "loc"),
        # positions on the columns of a frame with string column labels
        (READ + "x = df.ix[:, 1:-1]", "iloc"),
        (READ + "x = df.ix[:, [0, 2]]", "iloc"),
        (READ + "x = df.ix[:, -1]", "iloc"),
        ("df = pd.read_csv('t.csv', names=['a', 'b'], header=None)\nx = df.ix[:, 0]", "iloc"),
        ("df = pd.DataFrame(rows, columns=['a', 'b'])\nx = df.ix[:, :1]", "iloc"),
        ("df = pd.DataFrame({'a': [1], 'b': [2]})\nx = df.ix[:, 1]", "iloc"),
    ],
)
def test_a_key_that_says_which_is_decided_the_same_in_both_readings(
    source: str, indexer: str
) -> None:
    line = source.splitlines()[-1].replace(".ix[", f".{indexer}[")
    assert readings(source) == (line, line)
    assert readings(source, STATIC) == (line, line)  # and without a run


@pytest.mark.parametrize(
    "source",
    [
        "x = df.ix[:, 1:-1]",  # a frame from another cell
        READ + "x = df.ix[3]",  # an integer on the rows
        READ + "x = df.ix[0:3, 1]",
        READ + "x = df.ix[:, cols]",  # a variable
        READ + "x = df.ix[df['a'] > 1, 1]",  # a mask beside positions
        "df = pd.read_csv('t.csv', header=None)\nx = df.ix[:, 1]",  # integer labels
        "df = pd.read_excel('t.xlsx')\nx = df.ix[:, 1]",  # a header row of numbers
        "df = pd.read_csv('t.csv', chunksize=10)\nx = df.ix[:, 1]",
        "df = pd.DataFrame(rows)\nx = df.ix[:, 1]",
        "x = df.ix[:, 1]\n" + READ,  # bound after the indexer
        READ + "df.columns = range(3)\nx = df.ix[:, 1]",
        READ + "df = df.T\nx = df.ix[:, 1]",
        READ + "df.rename(columns=str.upper, inplace=True)\nx = df.ix[:, 1]",
        READ + "df.insert(0, 5, 1)\nx = df.ix[:, 1]",
        READ + "df[0] = 1\nx = df.ix[:, 1]",
        READ + "relabel(df)\nx = df.ix[:, 1]",
        READ + "for df in frames:\n    x = df.ix[:, 1]",
        READ + "def first(df):\n    return df.ix[:, 1]",
        "if ok:\n    df = pd.read_csv('t.csv')\nx = df.ix[:, 1]",
    ],
)
def test_an_undecided_key_is_loc_and_iloc_where_a_run_follows(source: str) -> None:
    line = source.splitlines()[-1]
    assert readings(source) == (line.replace(".ix[", ".loc["), line.replace(".ix[", ".iloc["))
    assert readings(source, STATIC) == (line, line)  # `nbmod fix`: no run to check a guess


def test_an_undecided_key_is_left_where_no_run_can_check_a_guess() -> None:
    """Audit round 2's two false positives (`X_t.ix[:, i]` in a loop over the positions of a
    frame read in another cell: `.loc` raised KeyError); a decided key in the cell still is."""
    source = (
        "for i in range(n_columns):\n"
        "    X_t.ix[:, i] = shuffle(np.array(X_t.ix[:, i]))\n"
        "y = X_t.ix[:, 'target']"
    )
    assert RULE.rewrite(source, STATIC) == source.replace("ix[:, 'target']", "loc[:, 'target']")
    assert RULE.rewrite(source, CONTEXT) == source.replace(".ix[", ".loc[")


def test_what_keeps_columns_known_does_not_spoil_them() -> None:
    source = READ + "df['new'] = 1\nprint(df)\nn = len(df)\ndf.loc[:, 'b'] = 0\nx = df.ix[:, 1]"
    assert readings(source) == ("x = df.iloc[:, 1]", "x = df.iloc[:, 1]")


def test_the_rewrite_parses_and_a_second_pass_changes_nothing() -> None:
    source = READ + "X, y = df.ix[:, 1:-1], df.ix[:, 'target']\nrow = df.ix[3]"
    once = RULE.rewrite(source, CONTEXT)
    assert parses(once) and RULE.rewrite(once, CONTEXT) == once
