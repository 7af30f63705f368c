"""What the matplotlib rules share: call matchers and probes."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.toolkit.calls import (
    EndingWith,
    calls_to,
    method_name,
)
from nbmodernizer.fixers.rules.toolkit.nodes import qualified


def any_call(*methods: str, functions: tuple[str, ...] = ()) -> EndingWith:
    """Method calls named `methods` (`ax.hist`, `plt.hist`, `df.hist`) or these functions."""
    named = calls_to(*functions) if functions else None

    def applies(call: cst.Call, context: RuleContext) -> bool:
        if method_name(call) in methods:
            return True
        return named is not None and isinstance(call.func, cst.Name) and named(call, context)

    return EndingWith((*methods, *functions), applies)


def not_seaborn(methods: tuple[str, ...], functions: tuple[str, ...]) -> EndingWith:
    inner = any_call(*methods, functions=functions)

    def applies(call: cst.Call, context: RuleContext) -> bool:
        name = qualified(call.func, context.aliases) or ""
        return not name.startswith("seaborn.") and inner(call, context)

    return EndingWith(inner.names, applies)
