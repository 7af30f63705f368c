"""Small LibCST transforms from which most rules are made: each returns a Rewrite."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

import libcst as cst

from nbmodernizer.fixers.rules.arguments import string_literal
from nbmodernizer.fixers.rules.cells import dotted_name, expression, qualified, transform_python
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Rewrite

TransformerFactory = Callable[[RuleContext], cst.CSTTransformer]
CallTest = Callable[[cst.Call, RuleContext], bool]

# `keyword=value`, without the spaces LibCST puts around a default `=`
EQUAL = cst.AssignEqual(
    whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
)
_COMMA = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))

_Listed = TypeVar("_Listed", cst.Arg, cst.ImportAlias)


def code(node: cst.CSTNode) -> str:
    """The source text of a node."""
    return cst.Module(body=[]).code_for_node(node)


def cst_rewrite(factory: TransformerFactory) -> Rewrite:
    """A Rewrite from a LibCST transformer built for the notebook's context."""

    def rewrite(source: str, context: RuleContext) -> str:
        return transform_python(source, lambda module: module.visit(factory(context)))

    return rewrite


def chain(*rewrites: Rewrite) -> Rewrite:
    def rewrite(source: str, context: RuleContext) -> str:
        for step in rewrites:
            source = step(source, context)
        return source

    return rewrite


def dotted_expression(dotted: str) -> cst.Attribute | cst.Name:
    node = expression(dotted)
    assert isinstance(node, cst.Attribute | cst.Name)
    return node


class _ModuleMover(cst.CSTTransformer):
    def __init__(self, old: str, new: str, names: dict[str, str]) -> None:
        self.old, self.new, self.names = old, new, names

    def _moved(self, module: str) -> str | None:
        if module == self.old:
            return self.new
        if module.startswith(self.old + "."):
            return self.new + module[len(self.old) :]
        return None

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        if updated_node.module is None or updated_node.relative:
            return updated_node
        current = dotted_name(updated_node.module)
        moved = self._moved(current) if current else None
        if moved is None:
            return updated_node
        result = updated_node.with_changes(module=dotted_expression(moved))
        if self.names and not isinstance(updated_node.names, cst.ImportStar):
            renamed = [
                alias.with_changes(name=cst.Name(self.names[alias.name.value]))
                if isinstance(alias.name, cst.Name) and alias.name.value in self.names
                else alias
                for alias in updated_node.names
            ]
            result = result.with_changes(names=renamed)
        return result

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        aliases = []
        for alias in updated_node.names:
            name = dotted_name(alias.name)
            moved = self._moved(name) if name else None
            aliases.append(alias.with_changes(name=dotted_expression(moved)) if moved else alias)
        return updated_node.with_changes(names=aliases)

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = dotted_name(updated_node)
        moved = self._moved(name) if name else None
        return dotted_expression(moved) if moved else updated_node


def move_module(old: str, new: str, names: dict[str, str] | None = None) -> Rewrite:
    """`old` (and its submodules) is now `new`; optionally some names changed too."""
    return cst_rewrite(lambda _context: _ModuleMover(old, new, names or {}))


class _AttributeReplacer(cst.CSTTransformer):
    def __init__(self, context: RuleContext, targets: dict[str, str]) -> None:
        self.aliases = context.aliases
        self.targets = targets

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = qualified(original_node, self.aliases)
        if name not in self.targets:
            return updated_node
        replacement = self.targets[name]
        local_head = (dotted_name(original_node) or name).split(".")[0]
        bound = self.aliases.get(local_head, local_head)  # `np` -> numpy, `Image` -> PIL.Image
        if bound != local_head:  # keep the notebook's names: np.NaN -> np.nan
            replacement = re.sub(rf"(?<![\w.]){re.escape(bound)}\.", f"{local_head}.", replacement)
        return expression(replacement).with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


def replace_attributes(targets: dict[str, str]) -> Rewrite:
    """`numpy.float` -> `float`, resolving aliases (`np.float` too)."""
    return cst_rewrite(lambda context: _AttributeReplacer(context, targets))


def callee_is(call: cst.Call, names: Sequence[str], context: RuleContext) -> bool:
    """Whether the call's function is one of `names` (qualified, or a bare last segment)."""
    name = qualified(call.func, context.aliases)
    if name is None:
        return False
    last = name.rsplit(".", 1)[-1]
    return any(name == target or last == target.rsplit(".", 1)[-1] for target in names)


def method_name(call: cst.Call) -> str | None:
    return call.func.attr.value if isinstance(call.func, cst.Attribute) else None


KeywordEdit = Callable[[cst.Arg], cst.Arg | None]  # None drops the argument


class _KeywordEditor(cst.CSTTransformer):
    def __init__(
        self, context: RuleContext, applies: CallTest, edits: dict[str, KeywordEdit]
    ) -> None:
        self.context, self.applies, self.edits = context, applies, edits

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self.applies(original_node, self.context):
            return updated_node
        args: list[cst.Arg] = []
        changed = False
        for arg in updated_node.args:
            name = arg.keyword.value if arg.keyword else None
            edited = self.edits[name](arg) if name in self.edits else arg
            changed = changed or edited is not arg
            if edited is not None:
                args.append(edited)
        return with_args(updated_node, args, keep_trailing_comma=True) if changed else updated_node


def edit_keywords(applies: CallTest, edits: dict[str, KeywordEdit]) -> Rewrite:
    """Edit (rename, revalue, drop) the keyword arguments of matching calls."""
    return cst_rewrite(lambda context: _KeywordEditor(context, applies, edits))


def calls_to(*names: str) -> CallTest:
    return lambda call, context: callee_is(call, names, context)


def method_calls(*names: str) -> CallTest:
    return lambda call, _context: method_name(call) in names


def rename_to(new: str) -> KeywordEdit:
    return lambda arg: arg.with_changes(keyword=cst.Name(new))


def drop() -> KeywordEdit:
    return lambda _arg: None


def string_value(arg: cst.Arg) -> str | None:
    return string_literal(arg.value)


def map_value(mapping: dict[str, str], rename: str | None = None) -> KeywordEdit:
    """Replace a string value (`'auto'` -> `'sqrt'`) with Python code; optionally rename."""

    def edit(arg: cst.Arg) -> cst.Arg:
        value = string_value(arg)
        if value not in mapping:
            return arg.with_changes(keyword=cst.Name(rename)) if rename else arg
        changed = arg.with_changes(value=expression(mapping[value]))
        return changed.with_changes(keyword=cst.Name(rename)) if rename else changed

    return edit


class _MethodRenamer(cst.CSTTransformer):
    def __init__(self, renames: dict[str, str]) -> None:
        self.renames = renames

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if isinstance(func, cst.Attribute) and func.attr.value in self.renames:
            return updated_node.with_changes(
                func=func.with_changes(attr=cst.Name(self.renames[func.attr.value]))
            )
        return updated_node


def rename_methods(renames: dict[str, str]) -> Rewrite:
    """`x.iteritems()` -> `x.items()`: by method name, whatever the receiver."""
    return cst_rewrite(lambda _context: _MethodRenamer(renames))


# --- building argument lists ------------------------------------------------------------


def with_commas(
    items: Sequence[_Listed], trailing: cst.Comma | cst.MaybeSentinel = cst.MaybeSentinel.DEFAULT
) -> list[_Listed]:
    """Arguments or imported names with a comma between each and `trailing` after the last."""
    fixed: list[_Listed] = []
    for n, item in enumerate(items):
        if n == len(items) - 1:
            fixed.append(item.with_changes(comma=trailing))
        elif isinstance(item.comma, cst.MaybeSentinel):
            fixed.append(item.with_changes(comma=_COMMA))
        else:
            fixed.append(item)
    return fixed


def with_args(
    call: cst.Call, args: Sequence[cst.Arg], *, keep_trailing_comma: bool = False
) -> cst.Call:
    """The call with these arguments; a trailing comma after the last one only with
    `keep_trailing_comma` and if the call had one (a multi-line call keeps its layout)."""
    trailing = (
        call.args[-1].comma if keep_trailing_comma and call.args else cst.MaybeSentinel.DEFAULT
    )
    return call.with_changes(args=with_commas(args, trailing))


def as_keyword(arg: cst.Arg, keyword: str) -> cst.Arg:
    """The argument passed as `keyword=...`."""
    return arg.with_changes(keyword=cst.Name(keyword), equal=EQUAL)


def new_arg(keyword: str, value: str | cst.BaseExpression) -> cst.Arg:
    """`keyword=value`; a string value is parsed as code."""
    node = expression(value) if isinstance(value, str) else value
    return cst.Arg(value=node, keyword=cst.Name(keyword), equal=EQUAL)
