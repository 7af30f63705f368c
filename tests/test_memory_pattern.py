"""The fix memory's patterns: error signatures, anti-unification, and applying a pattern to
another notebook's cell."""

from __future__ import annotations

import pytest

from nbmodernizer.cells import imports
from nbmodernizer.fixers.memory.apply import rewrite_cell
from nbmodernizer.fixers.memory.pattern import Lesson, Pattern, distil
from nbmodernizer.fixers.memory.signature import Signature, normalise, of_error
from nbmodernizer.status import CellError


def learn(before: str, after: str, line: int | None = None) -> Lesson | None:
    return distil(before, after, imports([before]), imports([after]), line)


def pattern_of(before: str, after: str) -> Pattern:
    lesson = learn(before, after)
    assert lesson is not None
    return lesson.pattern


def apply(pattern: Pattern, cell: str) -> str | None:
    done = rewrite_cell(cell, [("entry", pattern)], imports([cell]))
    return done.source if done is not None else None


OLD_CALL = pattern_of(
    "import legacy_lib as lib\nx = lib.old_call(np.mean(p == y))\n",
    "import legacy_lib as lib\nx = lib.new_call(np.mean(p == y)).value\n",
)

# -- signatures -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "normalised"),
    [
        ("module 'legacy_lib' has no attribute 'old_call'", "module <str> has no attribute <str>"),
        ('name "train_df" is not defined', "name <str> is not defined"),
        ("fit() got an unexpected keyword argument 'normalize'",
         "<name>() got an unexpected keyword argument <str>"),
        ("window() takes 1 positional argument but 2 were given",
         "<name>() takes <num> positional argument but <num> were given"),
        ("[Errno 2] No such file or directory: /kaggle/input/train.csv",
         "[Errno <num>] No such file or directory: <path>"),
        ("Found input variables with inconsistent numbers of samples: [100, 99]",
         "Found input variables with inconsistent numbers of samples: [<num>, <num>]"),
        ("could not convert x_train.values to float: 3.5e-2",
         "could not convert <name> to float: <num>"),
        ("Expected 2D array, got 1D array instead:\narray=[1 2 3]",
         "Expected 2D array, got 1D array instead:"),
    ],
)  # fmt: skip
def test_a_signature_keeps_no_names_numbers_strings_or_paths(message: str, normalised: str) -> None:
    assert normalise(message) == normalised


def test_the_same_drift_in_two_notebooks_has_one_signature() -> None:
    one = CellError(cell_index=1, ename="AttributeError", evalue="module 'll' has no attribute 'f'")
    two = CellError(cell_index=5, ename="AttributeError", evalue="module 'np' has no attribute 'g'")
    other = CellError(cell_index=1, ename="TypeError", evalue="module 'll' has no attribute 'f'")
    assert of_error(one) == of_error(two) != of_error(other)
    assert of_error(one).key == of_error(two).key and len(of_error(one).key) == 12
    assert str(of_error(one)) == "AttributeError: module <str> has no attribute <str>"
    assert Signature.from_wire(of_error(one).to_wire()) == of_error(one)


def test_the_failing_line_comes_from_the_traceback() -> None:
    traceback = [
        "\x1b[31mAttributeError\x1b[39m   Traceback (most recent call last)",
        "\x1b[36mCell\x1b[39m\x1b[36m \x1b[39m\x1b[32mIn[1]\x1b[39m\x1b[32m, line 3\x1b[39m\n"
        "\x1b[32m----> \x1b[39m\x1b[32m3\x1b[39m os.old_call(x)\n",
    ]
    error = CellError(cell_index=1, ename="AttributeError", evalue="x", traceback=traceback)
    assert error.failing_line() == 3
    older = CellError(cell_index=1, ename="E", evalue="x", traceback=["----> 7 f()"])
    assert older.failing_line() == 7
    assert CellError(cell_index=1, ename="E", evalue="x").failing_line() is None


# -- anti-unification -------------------------------------------------------------------------


def test_what_the_edit_carries_over_becomes_a_hole_and_what_it_changes_stays() -> None:
    assert OLD_CALL.kind == "expr"
    assert OLD_CALL.shown() == "legacy_lib.old_call(<h0>)  ->  legacy_lib.new_call(<h0>).value"
    assert OLD_CALL.refs == ("legacy_lib",)  # the alias `lib` is kept as what it stands for


def test_a_pattern_matches_whatever_the_subexpression_and_the_assigned_name() -> None:
    cell = "import legacy_lib as lib\nscore = lib.old_call(np.mean(pred == truth))\nprint(score)"
    assert apply(OLD_CALL, cell) == (
        "import legacy_lib as lib\nscore = lib.new_call(np.mean(pred == truth)).value\nprint(score)"
    )


def test_no_match_when_the_concrete_part_differs() -> None:
    for cell in (
        "import legacy_lib as lib\nscore = lib.other_call(np.mean(p == y))",  # another function
        "import other_lib as lib\nscore = lib.old_call(np.mean(p == y))",  # another library
        "score = lib.old_call(np.mean(p == y))",  # `lib` is not the library here
        "import legacy_lib as lib\nscore = lib.old_call(a, b)",  # another arity
    ):
        assert apply(OLD_CALL, cell) is None, cell


def test_the_library_may_be_imported_under_any_name() -> None:
    assert apply(OLD_CALL, "import legacy_lib\nv = legacy_lib.old_call(1)") == (
        "import legacy_lib\nv = legacy_lib.new_call(1).value"
    )
    assert apply(OLD_CALL, "import legacy_lib as L\nv = L.old_call(1)") == (
        "import legacy_lib as L\nv = L.new_call(1).value"
    )


def test_a_repeated_hole_must_bind_the_same_code() -> None:
    pattern = pattern_of("df.fillna(0, inplace=True)", "df = df.fillna(0)")
    assert pattern.shown() == "<h0>.fillna(<h1>, inplace=True)  ->  <h0> = <h0>.fillna(<h1>)"
    assert apply(pattern, "train.fillna(-1, inplace=True)") == "train = train.fillna(-1)"
    assert apply(pattern, "train.fillna(-1)") is None  # `inplace=True` is concrete


def test_the_api_a_call_names_stays_concrete_where_it_is_carried_over() -> None:
    pattern = pattern_of(
        "import legacy_lib\nr = legacy_lib.scale(v, factor=2)",
        "import legacy_lib\nr = legacy_lib.scale(v, by=2)",
    )
    assert (
        pattern.shown()
        == "legacy_lib.scale(<h0>, factor=<h1>)  ->  legacy_lib.scale(<h0>, by=<h1>)"
    )
    assert apply(pattern, "import legacy_lib\nresize(img, factor=3)") is None
    builtin = pattern_of("n = len(x, strict=True)", "n = len(x)")
    assert builtin.shown() == "len(<h0>, strict=True)  ->  len(<h0>)"


def test_nothing_is_learnt_without_anything_concrete_to_match() -> None:
    assert learn("y = helper(x)", "y = helper(x, 1)") is None  # `<h0>(<h1>)` would match any call
    assert learn("a = 1", "a = 1\nb = 2") is None  # only an added statement
    two_places = learn("a = f.old(1)\nb = 2\nc = f.old(3)", "a = f.new(1)\nb = 2\nc = f.new(3)")
    assert two_places is None  # two edits: which one fixed the error is not known


def test_only_an_edit_at_the_failing_line_is_learnt() -> None:
    before, after = "a = 1\nb = lib.old(a)", "a = 1\nb = lib.new(a)"
    assert learn(before, after, line=2) is not None
    assert learn(before, after, line=1) is None


def test_imports_the_fix_adds_are_kept_and_added_where_missing() -> None:
    lesson = learn(
        "import legacy_lib\nx = legacy_lib.old_call(3)",
        "import legacy_lib\nfrom legacy_lib import new_call\nx = new_call(3).value",
    )
    assert lesson is not None and lesson.pattern.imports == ("from legacy_lib import new_call",)
    assert (lesson.before_span, lesson.after_span) == ((2, 2), (3, 3))
    assert apply(lesson.pattern, "import legacy_lib as ll\ny = 1\nz = ll.old_call(y)") == (
        "import legacy_lib as ll\ny = 1\nfrom legacy_lib import new_call\nz = new_call(y).value"
    )
    already = "from legacy_lib import new_call\nimport legacy_lib\nz = legacy_lib.old_call(1)"
    assert apply(lesson.pattern, already) == (
        "from legacy_lib import new_call\nimport legacy_lib\nz = new_call(1).value"
    )


def test_statement_patterns_keep_indentation_and_trailing_comments() -> None:
    pattern = pattern_of(
        "import pandas as pd\ndf = df.append(row, ignore_index=True)",
        "import pandas as pd\ndf = pd.concat([df, row], ignore_index=True)",
    )
    cell = "import pandas\nfor r in rows:\n    out = out.append(r, ignore_index=True)  # grow\n"
    assert apply(pattern, cell) == (
        "import pandas\nfor r in rows:\n"
        "    out = pandas.concat([out, r], ignore_index=True)  # grow\n"
    )


def test_the_matched_code_keeps_its_text_and_its_precedence() -> None:
    cell = "import legacy_lib\nv = legacy_lib.old_call(\n    a  # the first\n    + b,\n) * 2"
    assert apply(OLD_CALL, cell) == (
        "import legacy_lib\nv = legacy_lib.new_call((a  # the first\n    + b)).value * 2"
    )
    negated = pattern_of("import legacy_lib\nx = legacy_lib.get(v)", "import legacy_lib\nx = -v")
    assert apply(negated, "import legacy_lib\ny = legacy_lib.get(a + b) ** 2") == (
        "import legacy_lib\ny = (-(a + b)) ** 2"
    )


def test_ipython_lines_survive_and_python2_cells_are_left_alone() -> None:
    cell = "%matplotlib inline\nimport legacy_lib\n!pip list\nv = legacy_lib.old_call(1)"
    assert apply(OLD_CALL, cell) == (
        "%matplotlib inline\nimport legacy_lib\n!pip list\nv = legacy_lib.new_call(1).value"
    )
    assert apply(OLD_CALL, "import legacy_lib\nprint legacy_lib.old_call(1)") is None


def test_where_each_use_was_is_known_before_and_after() -> None:
    pattern = pattern_of("import legacy_lib\nx = legacy_lib.old_call(1)", "import legacy_lib\n"
                         "from legacy_lib import new_call\nx = new_call(1).value")  # fmt: skip
    cell = (
        "import legacy_lib\nfor i in range(2):\n    legacy_lib.old_call(\n        i)\n"
        "z = legacy_lib.old_call(2)"
    )
    done = rewrite_cell(cell, [("e", pattern)], imports([cell]))
    assert done is not None
    assert done.source == (
        "import legacy_lib\nfrom legacy_lib import new_call\nfor i in range(2):\n"
        "    new_call(i).value\nz = new_call(2).value"
    )
    assert [(u.before, u.after) for u in done.uses] == [((2, 4), (3, 4)), ((5, 5), (5, 5))]


def test_earlier_patterns_win_where_two_overlap() -> None:
    other = Pattern(
        "expr", "__nbm_ref_0__.old_call(__nbm_hole_0__)", "__nbm_hole_0__", ("legacy_lib",)
    )
    cell = "import legacy_lib\nv = legacy_lib.old_call(1)"
    first = rewrite_cell(cell, [("a", OLD_CALL), ("b", other)], imports([cell]))
    second = rewrite_cell(cell, [("b", other), ("a", OLD_CALL)], imports([cell]))
    assert first is not None and second is not None
    assert first.source.endswith("legacy_lib.new_call(1).value") and second.source.endswith("v = 1")
    assert [u.key for u in first.uses] == ["a"] and [u.key for u in second.uses] == ["b"]


def test_a_pattern_round_trips_its_wire_form() -> None:
    assert Pattern.from_wire(OLD_CALL.to_wire()) == OLD_CALL
    with pytest.raises(ValueError, match="unknown pattern kind"):
        Pattern.from_wire({**OLD_CALL.to_wire(), "kind": "module"})
