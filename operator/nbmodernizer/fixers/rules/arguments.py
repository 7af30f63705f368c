"""Reading a call's arguments and literal values: the one home of helpers that several rule
modules had written again."""

from __future__ import annotations

import libcst as cst


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


def literal_bool(node: cst.BaseExpression) -> bool | None:
    """`True` / `False` written as such, else None."""
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node.value == "True"
    return None


def string_literal(node: cst.BaseExpression) -> str | None:
    """The value of a plain string literal (not bytes, not an f-string), else None."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None
