"""Arguments a library made keyword-only, read from today's signatures: a call with more
positional arguments than the installed callee accepts has its extra ones named after the
callee's keyword-only parameters, in their order. That is right only where the library kept
the order when it inserted the `*` (scikit-learn's SLEP009, pandas 2.0): a rule says which
callees those are, and gives a callee's legacy order where it differs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Rewrite
from nbmodernizer.fixers.rules.toolkit.calls import as_keyword, call_arguments
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.needles import AstTrigger

_POSITIONAL = ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")


@dataclass(frozen=True)
class Accepts:
    """What a callee takes today: how many arguments by position, and the names its extra
    legacy positional arguments get (its keyword-only parameters, or a legacy order)."""

    positional: int
    keyword_only: tuple[str, ...]


def accepts(
    parameters: Sequence[tuple[str, str]] | None, *, method: bool = False
) -> Accepts | None:
    """What a callee whose parameters are `parameters` (name, inspect's kind name: the
    environment's facts, `context.parameters(path)`) accepts; None when it takes `*args`
    (extra positional arguments are then not an error) or its parameters are unknown.
    `method`: a function read from a class, whose first parameter is the receiver."""
    if parameters is None or any(kind == "VAR_POSITIONAL" for _, kind in parameters):
        return None
    positional = sum(kind in _POSITIONAL for _, kind in parameters) - (1 if method else 0)
    names = tuple(name for name, kind in parameters if kind == "KEYWORD_ONLY")
    return Accepts(positional, names) if names else None


def positional(accepted: Accepts | None) -> int | None:
    """How many arguments a callee takes by position (None: not known), for
    `toolkit.needles.extra_positional`."""
    return None if accepted is None else accepted.positional


def common(found: Sequence[Accepts]) -> Accepts | None:
    """What several possible callees (a method of `DataFrame` or of `Series`) agree on: the
    same positional count and the longest common prefix of keyword-only names."""
    if not found or len({a.positional for a in found}) != 1:
        return None
    prefix: list[str] = []
    for names in zip(*(a.keyword_only for a in found), strict=False):
        if len(set(names)) != 1:
            break
        prefix.append(names[0])
    return Accepts(found[0].positional, tuple(prefix)) if prefix else None


# what a call's callee accepts, or None when the rule does not know the callee
Resolver = Callable[[cst.Call, RuleContext], Accepts | None]


def named_extras(call: cst.Call, accepted: Accepts) -> cst.Call | None:
    """The call with its positional arguments past `accepted.positional` passed by keyword;
    None when there are none, more than keyword names, or a name is already passed."""
    arguments = call_arguments(call)
    if arguments is None:
        return None
    positional, keywords = arguments
    extra = len(positional) - accepted.positional
    names = accepted.keyword_only[: max(extra, 0)]
    if extra <= 0 or extra > len(accepted.keyword_only) or set(names) & set(keywords):
        return None
    args: list[cst.Arg] = []
    for n, arg in enumerate(call.args):
        past = n - accepted.positional
        args.append(as_keyword(arg, names[past]) if arg.keyword is None and past >= 0 else arg)
    return call.with_changes(args=args)


class KeywordOnlyBySignature(cst.CSTTransformer):
    """`f(a, b, c)` -> `f(a, b=b, c=c)` where `f` accepts one positional argument today."""

    def __init__(self, context: RuleContext, resolve: Resolver) -> None:
        super().__init__()
        self.context, self.accepted_by = context, resolve

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        accepted = self.accepted_by(original_node, self.context)
        if accepted is None:
            return updated_node
        named = named_extras(updated_node, accepted)
        return updated_node if named is None else named


def keyword_only_by_signature(
    resolve: Resolver, needles: tuple[str, ...] = (), trigger: AstTrigger | None = None
) -> Rewrite:
    """Extra positional arguments named after today's keyword-only parameters, on the calls
    `resolve` knows (`needles`: the names such a call must mention, `trigger`: a test on the
    cell's `ast` tree that holds wherever such a call is, `toolkit.needles`)."""
    return cst_rewrite(lambda context: KeywordOnlyBySignature(context, resolve), needles, trigger)
