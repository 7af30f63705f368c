"""toolkit.cells: a cell as rules see it, and the rewrites applied to it."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.toolkit.cells import (
    chain,
    cst_rewrite,
    only_if,
    parses,
    text_rewrite,
    transform_python,
)


class _Renamer(cst.CSTTransformer):
    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        return (
            updated_node.with_changes(value="new") if updated_node.value == "old" else updated_node
        )


def rename(source: str) -> str:
    return transform_python(source, lambda module: module.visit(_Renamer()))


def test_ipython_lines_are_masked_for_the_transform_and_put_back() -> None:
    source = "%matplotlib inline\nx = old\n!ls {old}\nfiles = !ls\n"
    assert rename(source) == "%matplotlib inline\nx = new\n!ls {old}\nfiles = !ls\n"


def test_cells_that_do_not_parse_or_do_not_change_come_back_as_they_were() -> None:
    assert rename("print old") == "print old"
    assert rename("x = ( 1 )  # as written") == "x = ( 1 )  # as written"


def test_cells_that_are_not_python_are_left_alone() -> None:
    assert rename("%%bash\necho old") == "%%bash\necho old"
    assert not parses("%%bash\necho old")


def test_a_python_cell_magic_cell_is_rewritten_like_a_plain_cell_its_line_kept() -> None:
    assert rename("%%time\nx = old\n") == "%%time\nx = new\n"
    assert rename("\n%%capture out\n%matplotlib inline\nx = old") == (
        "\n%%capture out\n%matplotlib inline\nx = new"
    )
    assert parses("%%time\nx = 1") and not parses("print x")


def test_a_text_rewrite_sees_ipython_lines_masked_and_a_mask_of_the_code() -> None:
    seen: list[tuple[str, str]] = []

    def edit(source: str, mask: str, _context: RuleContext) -> str:
        seen.append((source, mask))
        return source.replace("old", "new")

    rewrite = text_rewrite(edit)
    assert rewrite("!echo old\nx = 'old'  # old", RuleContext()) == "!echo old\nx = 'new'  # new"
    source, mask = seen[0]
    assert source.startswith("pass  # __nbmodernizer_masked_0__")
    assert "old" not in mask.split("\n")[1]


def test_chain_and_only_if() -> None:
    first = cst_rewrite(lambda _context: _Renamer())
    both = chain(first, lambda source, _context: source.upper())
    assert both("y = old", RuleContext()) == "Y = NEW"
    guarded = only_if("nothing here", rewrite=first)
    assert guarded("y = old", RuleContext()) == "y = old"
