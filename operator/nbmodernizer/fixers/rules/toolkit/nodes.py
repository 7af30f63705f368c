"""LibCST nodes: to and from code, dotted names resolved through the notebook's imports,
literals, commas in lists, subscripts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

import libcst as cst

# `, ` between arguments, elements, imported names
COMMA = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))

_Listed = TypeVar("_Listed", cst.Arg, cst.ImportAlias)


# --- code -------------------------------------------------------------------------------------


def code(node: cst.CSTNode) -> str:
    """The source text of a node."""
    return cst.Module(body=[]).code_for_node(node)


def expression(text: str) -> cst.BaseExpression:
    """The expression this code spells."""
    return cst.parse_expression(text)


def dotted_expression(dotted: str) -> cst.Attribute | cst.Name:
    """`a.b.c` as a Name/Attribute chain (a module in an import, a reference)."""
    node = expression(dotted)
    assert isinstance(node, cst.Attribute | cst.Name)
    return node


# --- names --------------------------------------------------------------------------------------


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for Name/Attribute chains, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted_name(node.value)
        return f"{head}.{node.attr.value}" if head is not None else None
    return None


def qualified(node: cst.BaseExpression, aliases: Mapping[str, str]) -> str | None:
    """The fully qualified name of a Name/Attribute chain, resolving import aliases."""
    name = dotted_name(node)
    if name is None:
        return None
    head, _, rest = name.partition(".")
    resolved = aliases.get(head, head)
    return f"{resolved}.{rest}" if rest else resolved


# --- literals -----------------------------------------------------------------------------------


def string_literal(node: cst.BaseExpression) -> str | None:
    """The value of a plain string literal (not bytes, not an f-string), else None."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def replace_string(node: cst.SimpleString, value: str) -> cst.SimpleString:
    """The same literal (same quotes and prefix) holding another value."""
    return node.with_changes(value=f"{node.prefix}{node.quote}{value}{node.quote}")


def literal_bool(node: cst.BaseExpression) -> bool | None:
    """`True` / `False` written as such, else None."""
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node.value == "True"
    return None


def is_constant(arg: cst.Arg | None, value: str) -> bool:
    """`arg` is the literal `None` / `True` / `False` (`value`)."""
    return arg is not None and isinstance(arg.value, cst.Name) and arg.value.value == value


_LOOSE = (
    cst.GeneratorExp,
    cst.IfExp,
    cst.Lambda,
    cst.BooleanOperation,
    cst.Comparison,
    cst.NamedExpr,
    cst.Yield,
    cst.Await,
    cst.BinaryOperation,
    cst.UnaryOperation,
)


def atom(node: cst.BaseExpression) -> cst.BaseExpression:
    """The expression, parenthesized unless it binds tighter than any operator."""
    if isinstance(node, _LOOSE) and not node.lpar:
        return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return node


# --- lists --------------------------------------------------------------------------------------


def with_commas(
    items: Sequence[_Listed], trailing: cst.Comma | cst.MaybeSentinel = cst.MaybeSentinel.DEFAULT
) -> list[_Listed]:
    """Arguments or imported names with a comma between each and `trailing` after the last."""
    fixed: list[_Listed] = []
    for n, item in enumerate(items):
        if n == len(items) - 1:
            fixed.append(item.with_changes(comma=trailing))
        elif isinstance(item.comma, cst.MaybeSentinel):
            fixed.append(item.with_changes(comma=COMMA))
        else:
            fixed.append(item)
    return fixed


# --- subscripts ---------------------------------------------------------------------------------


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


def is_zero_index(node: cst.Subscript) -> bool:
    """`x[0]`."""
    index = single_index(node)
    return isinstance(index, cst.Integer) and index.value == "0"


def names_in(node: cst.CSTNode) -> set[str]:
    """Every bare name used in `node`."""
    found: set[str] = set()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    node.visit(_Names())
    return found
