"""Generic LibCST helpers shared by the pandas transforms."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from nbmodernizer.fixers.rules.cells import dotted_name
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import new_arg

# --------------------------------------------------------------------------- generic helpers

_SPACE = cst.SimpleWhitespace(" ")
COMMA = cst.Comma(whitespace_after=_SPACE)


def module_name(context: RuleContext, module: str, default: str) -> tuple[str, str | None]:
    """The notebook's local name for `module` and, when it never imports it, the import line."""
    if context.aliases.get(default) == module:
        return default, None
    for local, target in sorted(context.aliases.items()):
        if target == module and "." not in local:
            return local, None
    if default == module:
        return default, f"import {module}"
    return default, f"import {module} as {default}"


class ImportingTransformer(cst.CSTTransformer):
    """A transformer that may ask for import lines, added at the top of the cell."""

    def __init__(self) -> None:
        super().__init__()
        self.imports: list[str] = []

    def need(self, line: str | None) -> None:
        if line is not None and line not in self.imports:
            self.imports.append(line)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self.imports:
            return updated_node
        present = {updated_node.code_for_node(statement).strip() for statement in updated_node.body}
        lines = [cst.parse_statement(line + "\n") for line in self.imports if line not in present]
        return updated_node.with_changes(body=[*lines, *updated_node.body])


def is_module_receiver(node: cst.BaseExpression, context: RuleContext) -> bool:
    """Whether `node` (a method call's receiver) is an imported module or name (`np`, `tf.x`)."""
    name = dotted_name(node)
    return name is not None and name.split(".")[0] in context.aliases


def call_arguments(call: cst.Call) -> tuple[list[cst.Arg], dict[str, cst.Arg]] | None:
    """Positional and keyword arguments; None when the call unpacks `*args` / `**kwargs`."""
    positional: list[cst.Arg] = []
    keywords: dict[str, cst.Arg] = {}
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            positional.append(arg)
        else:
            keywords[arg.keyword.value] = arg
    return positional, keywords


def with_keyword(call: cst.Call, name: str, value: cst.BaseExpression) -> cst.Call:
    """`f(a)` -> `f(a, name=value)`."""
    args = list(call.args)
    if args:
        last = args[-1]
        comma = last.comma if isinstance(last.comma, cst.Comma) else COMMA
        args[-1] = last.with_changes(comma=comma)
    return call.with_changes(args=[*args, new_arg(name, value)])


def subscript_of(
    value: cst.BaseExpression, *indexes: cst.BaseExpression, attr: str | None = None
) -> cst.Subscript:
    """`value[i, j]`, or `value.attr[i, j]`."""
    base: cst.BaseExpression = value if attr is None else cst.Attribute(value, cst.Name(attr))
    elements = [
        cst.SubscriptElement(
            cst.Index(index), comma=COMMA if n < len(indexes) - 1 else cst.MaybeSentinel.DEFAULT
        )
        for n, index in enumerate(indexes)
    ]
    return cst.Subscript(value=base, slice=elements)


def single_index(node: cst.Subscript) -> cst.BaseExpression | None:
    """The index of `x[i]` (not a slice, not a tuple, not starred), else None."""
    if len(node.slice) != 1:
        return None
    element = node.slice[0].slice
    if not isinstance(element, cst.Index) or element.star is not None:
        return None
    if isinstance(element.value, cst.Tuple):
        return None
    return element.value


def names_in(node: cst.CSTNode) -> set[str]:
    """Every bare name used in `node`."""
    found: set[str] = set()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    node.visit(_Names())
    return found


def statement_before(
    line: cst.SimpleStatementLine, new: Sequence[cst.BaseSmallStatement]
) -> cst.FlattenSentinel[cst.BaseStatement]:
    """`new` statements on their own lines right before `line` (comments above stay above)."""
    added = [cst.SimpleStatementLine(body=[statement]) for statement in new]
    added[0] = added[0].with_changes(leading_lines=line.leading_lines)
    return cst.FlattenSentinel([*added, line.with_changes(leading_lines=())])


def small_statement(code: str) -> cst.BaseSmallStatement:
    line = cst.parse_statement(code + "\n")
    assert isinstance(line, cst.SimpleStatementLine)
    return line.body[0]
