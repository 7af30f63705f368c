"""toolkit.probes: whether the installed library still has the legacy API."""

from __future__ import annotations

import json

from nbmodernizer.fixers.rules.toolkit.probes import (
    import_optional,
    lacks,
    module_gone,
    no_parameter,
    rejects,
)


def test_a_library_that_is_not_installed_has_nothing_gone() -> None:
    assert import_optional("no_such_library_anywhere") is None
    assert import_optional("json") is json
    assert not lacks("no_such_library_anywhere", "x")
    assert not no_parameter("no_such_library_anywhere.fit", "x")


def test_modules_and_attributes() -> None:
    assert module_gone("json.no_such_submodule")
    assert module_gone("json.decoder.not_a_package.below")
    assert not module_gone("json.decoder")
    assert lacks("json", "no_such_function")
    assert not lacks("json", "no_such_function", "dumps")


def test_parameters_of_a_function_or_of_a_dotted_path() -> None:
    assert no_parameter("json.dumps", "no_such_parameter")
    assert not no_parameter(json.dumps, "indent")


def test_rejects_says_whether_a_call_raises_value_or_type_error() -> None:
    assert rejects(lambda: int("x"))
    assert rejects(lambda: len(3))  # type: ignore[arg-type]
    assert not rejects(lambda: int("3"))
