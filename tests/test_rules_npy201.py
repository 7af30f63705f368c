"""NumPy 2.0's removals (NEP 52): every name ruff's NPY201 fixes automatically (an
`AutoImport` or `AutoPurePython` replacement in ruff's `numpy_2_0_deprecation.rs`; its test
fixtures `NPY201*.py` use all but `INF` and `NAN`) is rewritten by the rules a notebook that
imports numpy gets before anything runs, to code that runs on the installed NumPy — through
`np.` and through `from numpy import`."""

from __future__ import annotations

import pytest

from nbmodernizer.fixers.rules import all_libraries, all_rules
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.fixer import proactive, rewrite_cell
from nbmodernizer.fixers.rules.proof import run_snippet
from testing.environment_facts import installed_facts

RUFF_AUTOFIXED = (
    "add_docstring",
    "add_newdoc",
    "alltrue",
    "byte_bounds",
    "cfloat",
    "clongfloat",
    "complex_",
    "cumproduct",
    "DataSource",
    "float_",
    "INF",
    "Inf",
    "Infinity",
    "infty",
    "issubclass_",
    "issubsctype",
    "mat",
    "NaN",
    "NAN",
    "NINF",
    "NZERO",
    "longcomplex",
    "longfloat",
    "PINF",
    "product",
    "PZERO",
    "round_",
    "safe_eval",
    "singlecomplex",
    "string_",
    "sometrue",
    "source",
    "tracemalloc_domain",
    "trapz",
    "unicode_",
    "row_stack",
    "AxisError",
    "ComplexWarning",
    "DTypePromotionError",
    "ModuleDeprecationWarning",
    "RankWarning",
    "TooHardError",
    "VisibleDeprecationWarning",
    "compare_chararrays",
    "chararray",
    "format_parser",
)
# Called as the fixtures call them where the rewrite is of a call (`np.source(f)` prints).
CALLED = {"source": "np.source(np.pad)", "issubclass_": "np.issubclass_(np.int32, np.integer)"}
# Still in NumPy 2.4 behind a DeprecationWarning: their rewrite is checked, not their absence.
DEPRECATED = {"row_stack", "chararray"}
# Values, not names (`-np.inf`, `0.0`, `-0.0`), and a call that becomes two: a notebook's
# `from numpy import` of these is dropped and only their calls are rewritten.
NOT_IMPORTABLE = {"NINF", "PZERO", "NZERO", "source"}


def _rewrite(source: str) -> str:
    context = RuleContext(aliases={"np": "numpy"}, environment=installed_facts({"numpy"}))
    modules = {library.name: library.modules for library in all_libraries()}
    rules = proactive(all_rules(), {"numpy"}, modules, installed_facts({"numpy"}))
    return rewrite_cell(source, rules, context)[0]


@pytest.mark.parametrize("name", RUFF_AUTOFIXED)
def test_ruff_autofixed_name_is_rewritten(name: str) -> None:
    reference = CALLED.get(name, f"np.{name}")
    before = f"import numpy as np\nvalue = {reference}\n"
    legacy = run_snippet(before, "True")
    assert name in DEPRECATED or legacy.error is not None, f"np.{name} is still in NumPy"
    after = _rewrite(before)
    assert f"np.{name}" not in after
    rewritten = run_snippet(after, "True")
    assert rewritten.error is None, f"{after!r} raised {rewritten.error!r}"
    assert _rewrite(after) == after


@pytest.mark.parametrize("name", [n for n in RUFF_AUTOFIXED if n not in NOT_IMPORTABLE])
def test_ruff_autofixed_name_is_rewritten_when_imported_from_numpy(name: str) -> None:
    before = f"import numpy as np\nfrom numpy import {name}\nvalue = {name}\n"
    context = RuleContext(
        aliases={"np": "numpy", name: f"numpy.{name}"}, environment=installed_facts({"numpy"})
    )
    modules = {library.name: library.modules for library in all_libraries()}
    rules = proactive(all_rules(), {"numpy"}, modules, installed_facts({"numpy"}))
    after = rewrite_cell(before, rules, context)[0]
    assert f"from numpy import {name}\n" not in after
    rewritten = run_snippet(after, "True")
    assert rewritten.error is None, f"{after!r} raised {rewritten.error!r}"


@pytest.mark.parametrize(
    ("before", "after", "value"),
    [
        ("np.NINF ** 2", "(-np.inf) ** 2", "float('inf')"),
        ("np.NZERO ** 1", "(-0.0) ** 1", "-0.0"),
        ("np.NINF.real", "(-np.inf).real", "-float('inf')"),
        ("2 ** np.NINF", "2 ** -np.inf", "0.0"),
        ("1 - np.NINF", "1 - -np.inf", "float('inf')"),
    ],
)
def test_a_negative_value_is_parenthesized_where_it_binds_looser(
    before: str, after: str, value: str
) -> None:
    """`np.NINF ** 2` is inf; `-np.inf ** 2` would be -inf (the power binds first)."""
    rewritten = _rewrite(f"import numpy as np\nvalue = {before}\n")
    assert rewritten == f"import numpy as np\nvalue = {after}\n"
    check = f"value == {value} and str(value) == str({value})"
    assert run_snippet(rewritten, check).check is True
    assert _rewrite(rewritten) == rewritten
