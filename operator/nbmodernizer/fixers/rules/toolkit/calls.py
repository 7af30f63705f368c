"""A call's arguments: reading them, editing them in the call's own layout, matching callees;
and the rewrites made of those edits."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Rewrite
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer
from nbmodernizer.fixers.rules.toolkit.needles import call_to, parts, passes_keyword
from nbmodernizer.fixers.rules.toolkit.nodes import (
    COMMA,
    expression,
    qualified,
    replace_string,
    string_literal,
    with_commas,
)

CallTest = Callable[[cst.Call, RuleContext], bool]

# `keyword=value`, without the spaces LibCST puts around a default `=`
EQUAL = cst.AssignEqual(
    whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
)


# --- reading ------------------------------------------------------------------------------------


def keyword_arg(call: cst.Call, name: str) -> cst.Arg | None:
    """The call's `name=...` argument, or None."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def positional_args(call: cst.Call) -> list[cst.Arg]:
    return [arg for arg in call.args if arg.keyword is None and not arg.star]


def has_star_args(call: cst.Call) -> bool:
    return any(arg.star for arg in call.args)


def call_arguments(call: cst.Call) -> tuple[list[cst.Arg], dict[str, cst.Arg]] | None:
    """Positional and keyword arguments; None when the call unpacks `*args` / `**kwargs`."""
    if has_star_args(call):
        return None
    keywords = {arg.keyword.value: arg for arg in call.args if arg.keyword is not None}
    return positional_args(call), keywords


def method_call(
    call: cst.Call, *names: str
) -> tuple[cst.Attribute, list[cst.Arg], dict[str, cst.Arg]] | None:
    """For `receiver.name(...)` with `name` one of `names`: the callee, the positional and the
    keyword arguments; None for another call, or one that unpacks `*args` / `**kwargs`."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in names:
        return None
    arguments = call_arguments(call)
    return None if arguments is None else (func, *arguments)


def argument(call: cst.Call, index: int, *names: str) -> cst.Arg | None:
    """The argument passed as the `index`-th positional one or by one of these keywords."""
    given = positional_args(call)
    if len(given) > index:
        return given[index]
    return next((a for a in call.args if a.keyword and a.keyword.value in names), None)


def bound_arguments(
    call: cst.Call, names: Sequence[str], defaults: Mapping[str, str | None]
) -> dict[str, cst.BaseExpression] | None:
    """The call's arguments by parameter name, defaults filled in (None when they cannot be
    read statically: unpacking, too many positional arguments, an unknown keyword)."""
    if has_star_args(call):
        return None
    found: dict[str, cst.BaseExpression] = {}
    for index, arg in enumerate(call.args):
        if arg.keyword is None:
            if index >= len(names):
                return None
            found[names[index]] = arg.value
        elif arg.keyword.value in names:
            found[arg.keyword.value] = arg.value
        else:
            return None
    for name, default in defaults.items():
        if name not in found and default is not None:
            found[name] = expression(default)
    return found


def string_value(arg: cst.Arg) -> str | None:
    return string_literal(arg.value)


# --- matching -----------------------------------------------------------------------------------


def callee_is(call: cst.Call, names: Sequence[str], context: RuleContext) -> bool:
    """Whether the call's function is one of `names` (qualified, or a bare last segment)."""
    name = qualified(call.func, context.aliases)
    if name is None:
        return False
    last = name.rsplit(".", 1)[-1]
    return any(name == target or last == target.rsplit(".", 1)[-1] for target in names)


def method_name(call: cst.Call) -> str | None:
    return call.func.attr.value if isinstance(call.func, cst.Attribute) else None


@dataclass(frozen=True)
class CallsTo:
    """A CallTest: a call to one of `names` (`callee_is`). Its names also sharpen the trigger
    of the rules that test with it (`edit_keywords`)."""

    names: tuple[str, ...]

    def __call__(self, call: cst.Call, context: RuleContext) -> bool:
        return callee_is(call, self.names, context)


def calls_to(*names: str) -> CallTest:
    return CallsTo(names)


@dataclass(frozen=True)
class EndingWith:
    """A CallTest that accepts only calls whose callee ends with the last part of one of
    `names` (`test` decides among those): its names sharpen the trigger as `CallsTo`'s do."""

    names: tuple[str, ...]
    test: CallTest

    def __call__(self, call: cst.Call, context: RuleContext) -> bool:
        return self.test(call, context)


def method_calls(*names: str) -> CallTest:
    return lambda call, _context: method_name(call) in names


# --- editing, in the call's layout -------------------------------------------------------------


def new_arg(keyword: str, value: str | cst.BaseExpression) -> cst.Arg:
    """`keyword=value`; a string value is parsed as code."""
    node = expression(value) if isinstance(value, str) else value
    return cst.Arg(value=node, keyword=cst.Name(keyword), equal=EQUAL)


def as_keyword(arg: cst.Arg, keyword: str) -> cst.Arg:
    """The argument passed as `keyword=...`."""
    return arg.with_changes(keyword=cst.Name(keyword), equal=EQUAL)


def with_args(
    call: cst.Call, args: Sequence[cst.Arg], *, keep_trailing_comma: bool = False
) -> cst.Call:
    """The call with these arguments; a trailing comma after the last one only with
    `keep_trailing_comma` and if the call had one (a multi-line call keeps its layout)."""
    trailing = (
        call.args[-1].comma if keep_trailing_comma and call.args else cst.MaybeSentinel.DEFAULT
    )
    return call.with_changes(args=with_commas(args, trailing))


def with_keywords(call: cst.Call, extra: Sequence[tuple[str, cst.BaseExpression]]) -> cst.Call:
    """The call with keyword arguments appended after the existing ones, in the call's layout:
    one argument a line stays so, the space before `)` stays before `)`."""
    if not extra:
        return call
    new = [new_arg(name, value).with_changes(comma=COMMA) for name, value in extra]
    args = list(call.args)
    if not args:
        new[-1] = new[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return call.with_changes(args=new)
    last = args[-1]
    if isinstance(last.comma, cst.Comma) and isinstance(
        last.comma.whitespace_after, cst.ParenthesizedWhitespace
    ):  # one argument a line, with a trailing comma: keep it so
        between = (
            args[-2].comma
            if len(args) > 1 and isinstance(args[-2].comma, cst.Comma)
            else cst.Comma(whitespace_after=call.whitespace_before_args)
        )
        args[-1] = last.with_changes(comma=between)
        new = [arg.with_changes(comma=between) for arg in new]
        new[-1] = new[-1].with_changes(comma=last.comma)
        return call.with_changes(args=[*args, *new])
    # the whitespace before `)` moves to the new last argument
    new[-1] = new[-1].with_changes(
        comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=last.whitespace_after_arg
    )
    comma = last.comma if isinstance(last.comma, cst.Comma) else COMMA
    if isinstance(comma.whitespace_after, cst.SimpleWhitespace):
        comma = COMMA
    args[-1] = last.with_changes(comma=comma, whitespace_after_arg=cst.SimpleWhitespace(""))
    return call.with_changes(args=[*args, *new])


def without_keywords(call: cst.Call, names: Sequence[str]) -> cst.Call:
    """The call without these keyword arguments; the argument before a dropped one takes
    the dropped one's comma (and layout), so lines keep their shape."""
    drop = set(names)
    args: list[cst.Arg] = []
    for arg in call.args:
        if not (arg.keyword and arg.keyword.value in drop):
            args.append(arg)
        elif args:
            args[-1] = args[-1].with_changes(
                comma=arg.comma, whitespace_after_arg=arg.whitespace_after_arg
            )
    if len(args) == len(call.args):
        return call
    return call.with_changes(args=args)


def replace_keywords(
    call: cst.Call, names: Sequence[str], new: Sequence[tuple[str, cst.BaseExpression]]
) -> cst.Call:
    """Drop these keyword arguments and put the new ones where the first of them was."""
    first = next((arg for arg in call.args if arg.keyword and arg.keyword.value in names), None)
    if first is None:
        return with_keywords(call, new)
    if not new:
        return without_keywords(call, names)
    inserted = [
        first.with_changes(
            keyword=cst.Name(name),
            value=value,
            comma=COMMA,
            whitespace_after_arg=cst.SimpleWhitespace(""),
        )
        for name, value in new
    ]
    inserted[-1] = inserted[-1].with_changes(
        comma=first.comma, whitespace_after_arg=first.whitespace_after_arg
    )
    args: list[cst.Arg] = []
    for arg in call.args:
        if arg is first:
            args.extend(inserted)
        elif arg.keyword and arg.keyword.value in names:
            args[-1] = args[-1].with_changes(
                comma=arg.comma, whitespace_after_arg=arg.whitespace_after_arg
            )
        else:
            args.append(arg)
    return call.with_changes(args=args)


def set_keyword(call: cst.Call, name: str, value: str) -> cst.Call:
    """`name=value` (code) on this call: the value replaced if the keyword is there, else
    appended."""
    existing = keyword_arg(call, name)
    if existing is None:
        return with_keywords(call, [(name, expression(value))])
    args = [a.with_changes(value=expression(value)) if a is existing else a for a in call.args]
    return call.with_changes(args=args)


def keywordize(call: cst.Call, names: Sequence[str | None], start: int = 0) -> cst.Call:
    """Positional arguments from index `start` on become keywords `names[i]` (None: keep)."""
    if has_star_args(call):
        return call
    args: list[cst.Arg] = []
    for index, arg in enumerate(call.args):
        name = names[index] if arg.keyword is None and start <= index < len(names) else None
        args.append(as_keyword(arg, name) if name is not None else arg)
    return call.with_changes(args=args)


def renamed_callee(func: cst.BaseExpression, old: str, new: str) -> cst.BaseExpression:
    """`mod.old` -> `mod.new`; a bare `old` -> `new`; a local alias (`as x`) is kept."""
    if isinstance(func, cst.Attribute):
        return func.with_changes(attr=cst.Name(new))
    if isinstance(func, cst.Name) and func.value == old:
        return cst.Name(new)
    return func


# --- rewrites of keyword arguments -----------------------------------------------------------

KeywordEdit = Callable[[cst.Arg], cst.Arg | None]  # None drops the argument


class _KeywordEditor(cst.CSTTransformer):
    def __init__(
        self, context: RuleContext, applies: CallTest, edits: Mapping[str, KeywordEdit]
    ) -> None:
        self.context, self.applies, self.edits = context, applies, edits

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self.applies(original_node, self.context):
            return updated_node
        args: list[cst.Arg] = []
        changed = False
        for arg in updated_node.args:
            name = arg.keyword.value if arg.keyword else None
            edited = self.edits[name](arg) if name is not None and name in self.edits else arg
            changed = changed or edited is not arg
            if edited is not None:
                args.append(edited)
        return with_args(updated_node, args, keep_trailing_comma=True) if changed else updated_node


def edit_keywords(
    applies: CallTest, edits: Mapping[str, KeywordEdit], called: Sequence[str] = ()
) -> Rewrite:
    """Edit (rename, revalue, drop) the keyword arguments of matching calls. `called`: the
    callees `applies` accepts, when it accepts only calls to these (`callee_is`): a sharper
    trigger (`toolkit.needles.passes_keyword`), known without it for a `CallsTo` or
    `EndingWith` test."""
    if not called and isinstance(applies, CallsTo | EndingWith):
        called = applies.names
    return cst_rewrite(
        lambda context: _KeywordEditor(context, applies, edits),
        tuple(edits),
        passes_keyword(edits, called),
    )


def rename_to(new: str) -> KeywordEdit:
    return lambda arg: arg.with_changes(keyword=cst.Name(new))


def drop() -> KeywordEdit:
    return lambda _arg: None


def map_value(
    mapping: Mapping[str, str], rename: str | None = None, *, keep_quotes: bool = False
) -> KeywordEdit:
    """Replace a string value (`'auto'` -> `'sqrt'`) with Python code; optionally rename.
    With `keep_quotes`, a string replacement keeps the original literal's quotes."""

    def edit(arg: cst.Arg) -> cst.Arg:
        value = string_value(arg)
        changed = arg
        if value is not None and value in mapping:
            new = mapping[value]
            if keep_quotes and new[:1] in "'\"" and isinstance(arg.value, cst.SimpleString):
                changed = arg.with_changes(value=replace_string(arg.value, new[1:-1]))
            else:
                changed = arg.with_changes(value=expression(new))
        return changed.with_changes(keyword=cst.Name(rename)) if rename else changed

    return edit


class _KeywordAdder(cst.CSTTransformer):
    def __init__(
        self,
        context: RuleContext,
        applies: CallTest,
        values: Sequence[tuple[str, str]],
        position: int | None,
    ) -> None:
        self.context, self.applies, self.values, self.position = context, applies, values, position

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self.applies(original_node, self.context) or has_star_args(updated_node):
            return updated_node
        if self.position is not None and len(positional_args(updated_node)) > self.position:
            return updated_node
        missing = [
            (name, expression(value))
            for name, value in self.values
            if keyword_arg(updated_node, name) is None
        ]
        return with_keywords(updated_node, missing)


def add_keywords(
    applies: CallTest, values: Sequence[tuple[str, str]], position: int | None = None
) -> Rewrite:
    """Spell out `name=value` (code) for each pair on matching calls that do not pass it; calls
    with more than `position` positional arguments are left alone (they may pass it by
    position)."""
    return cst_rewrite(lambda context: _KeywordAdder(context, applies, values, position))


# --- calls matched by qualified name ---------------------------------------------------------

CallBuilder = Callable[[cst.Call, "CallRewriter"], cst.BaseExpression | None]


class CallRewriter(ImportingTransformer):
    """Rewrite calls whose callee resolves (through the notebook's imports) to a target.

    The builder returns the new expression, or None to leave the call as it is; it may ask
    the rewriter for the modules it names (`rewriter.module_ref("scipy.stats")`).
    """

    def __init__(self, context: RuleContext, targets: Mapping[str, CallBuilder]) -> None:
        super().__init__(context)
        self.targets = targets

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        name = qualified(original_node.func, self.aliases)
        if name is None or name not in self.targets:
            return updated_node
        result = self.targets[name](updated_node, self)
        return updated_node if result is None else result


def rewrite_calls(
    targets: Mapping[str, CallBuilder], keywords: Mapping[str, Collection[str]] | None = None
) -> Rewrite:
    """Calls to the targets rewritten by their builders (`CallRewriter`); `keywords`: the
    targets whose builder changes only a call passing one of these keyword arguments (a
    sharper trigger: `toolkit.needles.call_to`)."""
    return cst_rewrite(
        lambda context: CallRewriter(context, targets),
        parts(*targets),
        call_to(targets, keywords),
    )
