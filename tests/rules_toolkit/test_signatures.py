"""toolkit.signatures: extra positional arguments named after today's keyword-only
parameters, read from real signatures as the environment's facts hold them."""

from __future__ import annotations

import textwrap

from nbmodernizer.envprobe import signature_of
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.toolkit.nodes import dotted_name
from nbmodernizer.fixers.rules.toolkit.signatures import (
    Accepts,
    accepts,
    common,
    keyword_only_by_signature,
)
from testing.environment_facts import installed_facts


def legacy(a: int, b: int = 0, *, c: int = 0, d: int = 0) -> int:
    return a + b + c + d


class Frame:
    def drop(self, labels: object = None, *, axis: int = 0, inplace: bool = False) -> None:
        """A method read from its class: `self` is not an argument."""


def parameters(function: object) -> list[tuple[str, str]]:
    """The parameters as envprobe.py reports them (what `context.parameters` returns)."""
    return [(name, kind) for name, kind in signature_of(function)]


def test_what_a_callee_accepts_today() -> None:
    assert accepts(parameters(legacy)) == Accepts(2, ("c", "d"))
    assert accepts(parameters(Frame.drop), method=True) == Accepts(1, ("axis", "inplace"))
    assert accepts(parameters(print)) is None  # *args: extra positional arguments are fine
    assert accepts(parameters(len)) is None  # nothing keyword-only
    assert accepts(None) is None  # not in the environment's facts


def test_several_possible_callees_agree_on_a_prefix_or_on_nothing() -> None:
    frame, series = Accepts(0, ("axis", "how", "thresh")), Accepts(0, ("axis", "inplace"))
    assert common([frame, series]) == Accepts(0, ("axis",))
    assert common([Accepts(1, ("keep",)), Accepts(0, ("keep",))]) is None
    assert common([Accepts(0, ("a",)), Accepts(0, ("b",))]) is None


def test_only_the_extra_arguments_are_named_and_only_when_it_is_unambiguous() -> None:
    rewrite = keyword_only_by_signature(
        lambda call, _context: (
            accepts(parameters(legacy)) if dotted_name(call.func) == "legacy" else None
        )
    )
    source = textwrap.dedent(
        """\
        a = legacy(1, 2, 3, 4)
        b = legacy(1, 2, 3)
        c = legacy(1, 2)
        d = legacy(1, 2, 3, c=5)
        e = legacy(1, 2, 3, 4, 5)
        f = legacy(*values, 3)
        g = other(1, 2, 3, 4)
        """
    )
    assert rewrite(source, RuleContext()) == textwrap.dedent(
        """\
        a = legacy(1, 2, c=3, d=4)
        b = legacy(1, 2, c=3)
        c = legacy(1, 2)
        d = legacy(1, 2, 3, c=5)
        e = legacy(1, 2, 3, 4, 5)
        f = legacy(*values, 3)
        g = other(1, 2, 3, 4)
        """
    )


def test_pandas_methods_on_an_unknown_receiver_are_named_only_where_the_value_fits() -> None:
    """Found by the precision suite in scikit-learn's own code: `xp.any(xp.isinf(X))` and
    `xp.where(c, a, b)` (an array namespace, not pandas) became `xp.any(axis=...)`; a legacy
    pandas call passed an axis or a flag there."""
    from nbmodernizer.fixers.rules import all_rules
    from nbmodernizer.fixers.rules.fixer import notebook_context

    [rule] = [r for r in all_rules() if r.id == "pandas.keyword-only-arguments"]

    def rewrite(source: str) -> str:
        context, _ = notebook_context([source], False, None, installed_facts({"pandas"}))
        return rule.rewrite(source, context)

    for untouched in ("has_inf = xp.any(xp.isinf(X))", "chosen = xp.where(c, a, b)"):
        assert rewrite(untouched) == untouched
    legacy_code = (
        "big = (frame > 3).any(1)\n"
        "dropped = frame.drop('a', 'columns')\n"
        "frame.where(frame > 0, 0, True)\n"
    )
    assert rewrite(legacy_code) == (
        "big = (frame > 3).any(axis=1)\n"
        "dropped = frame.drop('a', axis='columns')\n"
        "frame.where(frame > 0, 0, inplace=True)\n"
    )
