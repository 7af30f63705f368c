"""Where each rule wrote in a cell (`fixers.rules.occurrences`), as the fix records keep it."""

from __future__ import annotations

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.fixer import rewrite_cell
from nbmodernizer.fixers.rules.model import Example, Kind, Rewrite, Rule
from nbmodernizer.fixers.rules.occurrences import Recorder, Span, changed, follow


def text_rule(rule_id: str, rewrite: Rewrite) -> Rule:
    return Rule(
        id=rule_id,
        library="demo",
        changed_in="0",
        summary="",
        kind=Kind.API,
        rewrite=rewrite,
        examples=(Example(before="", after="", check="True"),),
    )


def test_two_stretches_of_one_line_are_two_occurrences_each_a_whole_name() -> None:
    before = "X, y = df.ix[:, 1:-1], df.ix[:, 'target']"
    after = "X, y = df.iloc[:, 1:-1], df.loc[:, 'target']"
    assert changed(before, after) == [Span(1, 10, 14), Span(1, 28, 31)]


def test_a_new_line_is_an_occurrence_from_its_indent_and_an_unchanged_line_is_none() -> None:
    before = "a = 1\nif a:\n    b = 2"
    after = "a = 1\nif a:\n    import x\n    b = 2"
    assert changed(before, after) == [Span(3, 4, 12)]
    assert changed(before, before) == []


def test_an_occurrence_moves_with_the_lines_a_later_rule_adds_and_goes_with_a_line_it_drops() -> (
    None
):
    spans = [Span(1, 4, 7), Span(2, 0, 3)]
    assert follow(spans, "a = new\nold()", "import x\na = new\nold()") == [
        Span(2, 4, 7),
        Span(3, 0, 3),
    ]
    assert follow(spans, "a = new\nold()", "a = new") == [Span(1, 4, 7)]


def test_the_recorder_places_each_rules_occurrences_in_the_cell_the_rules_left() -> None:
    rename = text_rule("demo.rename", lambda s, _c: s.replace("old(", "new("))
    header = text_rule(
        "demo.header", lambda s, _c: s if s.startswith("import") else "import lib\n" + s
    )
    recorder = Recorder()
    source, used = rewrite_cell("x = old(1)\ny = 2", [rename, header], RuleContext(), recorder)
    assert source == "import lib\nx = new(1)\ny = 2"
    assert used == ["demo.rename", "demo.header"]
    assert recorder.spans() == {"demo.rename": [Span(2, 4, 7)], "demo.header": [Span(1, 0, 10)]}
