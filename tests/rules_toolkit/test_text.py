"""toolkit.text: cells that do not parse, seen through a mask of their code."""

from __future__ import annotations

from nbmodernizer.fixers.rules.toolkit.text import (
    apply_edits,
    code_mask,
    compound_headers,
    logical_lines,
    simple_statements,
    split_top_level,
    string_tokens,
)

PY2 = "print 'a; b', x  # c: d\nif x: print x; y = 1\nz = (1,\n     2)\n"


def test_the_mask_hides_strings_and_comments_and_keeps_positions() -> None:
    mask = code_mask(PY2)
    assert len(mask) == len(PY2)
    assert "a; b" not in mask and "c: d" not in mask
    assert [PY2[t.start : t.end] for t in string_tokens(PY2)] == ["'a; b'"]


def test_statements_and_headers_are_found_on_the_mask() -> None:
    mask = code_mask(PY2)
    statements = [PY2[start:end] for start, end in simple_statements(mask)]
    assert statements == ["print 'a; b', x", "print x", "y = 1", "z = (1,\n     2)"]
    assert [(keyword, PY2[s:e]) for keyword, (s, e) in compound_headers(mask)] == [("if", " x")]
    assert len(logical_lines(mask)) == 4  # the bracket joins z's two lines; the last is empty
    first = simple_statements(mask)[0]
    assert [PY2[s:e] for s, e in split_top_level(mask, first)] == ["print 'a; b'", " x"]


def test_edits_apply_in_order_and_overlaps_are_dropped() -> None:
    assert apply_edits("abcdef", [(4, 5, "E"), (0, 1, "A"), (0, 2, "X")]) == "Abcdef"[:1] + "bcdEf"
