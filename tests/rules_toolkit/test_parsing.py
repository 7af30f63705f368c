"""The parser without node validation: the same trees, and validation everywhere else."""

from __future__ import annotations

import threading
from pathlib import Path

import libcst as cst
import pytest

from nbmodernizer.fixers.rules.toolkit.parsing import parse_module


def _validated(code: str) -> cst.Module:
    return cst.parse_module(code)  # validation on: this thread is not in `parse_module`


@pytest.mark.parametrize("module", [threading, cst])
def test_the_same_tree_as_libcst_on_code_nobody_here_wrote(module: object) -> None:
    path = Path(str(getattr(module, "__file__", "")))
    for source in [path, *sorted(path.parent.glob("_parser/*.py"))[:5]]:
        code = source.read_text(encoding="utf-8")
        assert parse_module(code).deep_equals(_validated(code))


def test_nodes_built_outside_the_parser_are_still_validated() -> None:
    parse_module("x = 1\n")
    with pytest.raises(cst.CSTValidationError):
        cst.SimpleWhitespace("not whitespace")


def test_a_parse_in_one_thread_leaves_validation_on_in_another() -> None:
    started, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def parse() -> None:
        import nbmodernizer.fixers.rules.toolkit.parsing as parsing

        parsing._PARSING.active = True  # as `parse_module` sets it, held open here
        started.set()
        release.wait(5)
        parsing._PARSING.active = False

    thread = threading.Thread(target=parse)
    thread.start()
    started.wait(5)
    try:
        cst.SimpleWhitespace("not whitespace")
    except cst.CSTValidationError as error:
        errors.append(error)
    finally:
        release.set()
        thread.join()
    assert errors, "validation was off in a thread that was not parsing"


def test_a_rewritten_cell_read_statement_by_statement_is_read_as_the_parser_reads_it(
    tmp_path: Path,
) -> None:
    from nbmodernizer.fixers.rules import all_rules
    from nbmodernizer.fixers.rules.proof import context_for, facts_here
    from nbmodernizer.fixers.rules.toolkit.cells import read_cell, walkable
    from nbmodernizer.fixers.rules.toolkit.parsing import reparsed

    (tmp_path / "input").mkdir()
    compared = whole = 0
    for rule in all_rules():
        steps = walkable(rule.rewrite) or ()
        for example in rule.examples if steps else ():
            context = context_for(example.before, tmp_path, environment=facts_here(rule))
            _, module = read_cell(example.before)
            for step in steps if module is not None else ():
                assert module is not None
                changed = step.transform(module, context)
                if changed is module:
                    continue
                code = changed.code
                tree = reparsed(module, changed, code)
                if tree is None:
                    whole += 1
                    continue
                compared += 1
                assert tree.deep_equals(parse_module(code)), (rule.id, code)
                assert tree.code == code
    assert compared > 100 and whole < compared / 10, (compared, whole)


def test_a_written_cell_is_read_again_only_when_asked_and_as_the_parser_reads_it() -> None:
    from nbmodernizer.fixers.rules.toolkit import cells

    def renamed(module: cst.Module) -> cst.Module:
        body = (module.body[0], cst.parse_statement("y = 2\n"), *module.body[2:])
        return module.with_changes(body=body)

    source = "%matplotlib inline\nx = 1\nprint(x)\n"
    written = cells.transform_python(source, renamed)
    assert written == "%matplotlib inline\ny = 2\nprint(x)\n"
    assert written in cells._WRITTEN  # kept, not yet read again
    parsed, tree = cells.read_cell(written)
    assert written not in cells._WRITTEN
    assert tree is not None and tree.deep_equals(parse_module(parsed.masked))
