"""Small readers of Python syntax trees that the detectors share."""

from __future__ import annotations

import ast
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import TypeVar

from nbmodernizer.notebook import CodeCell

_DETAIL_CHARS = 80
_T = TypeVar("_T")
_K = TypeVar("_K")


def words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def callee(call: ast.Call) -> str | None:
    """The last name segment of what is called: `fit` for `model.fit(...)`."""
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    return None


def number(node: ast.expr | None) -> float | None:
    """The value of a numeric literal or of simple arithmetic on literals (`10 ** 3`)."""
    try:
        value = _evaluate(node)
    except (ArithmeticError, ValueError):
        return None
    return value if value is not None and math.isfinite(value) else None


def _evaluate(node: ast.expr | None) -> float | None:
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        return float(value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _evaluate(node.operand)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.BinOp):
        return _arithmetic(node)
    if isinstance(node, ast.Call) and callee(node) in {"int", "float"} and len(node.args) == 1:
        inner = _evaluate(node.args[0])
        return float(math.trunc(inner)) if inner is not None and callee(node) == "int" else inner
    return None


def _arithmetic(node: ast.BinOp) -> float | None:
    left, right = _evaluate(node.left), _evaluate(node.right)
    if left is None or right is None:
        return None
    op = node.op
    if isinstance(op, ast.Add):
        return left + right
    if isinstance(op, ast.Sub):
        return left - right
    if isinstance(op, ast.Mult):
        return left * right
    if isinstance(op, ast.Div):
        return left / right
    if isinstance(op, ast.FloorDiv):
        return float(left // right)
    if isinstance(op, ast.Pow) and abs(left) <= 1e6 and right.is_integer() and 0 <= right <= 32:
        return float(left**right)
    return None


def code(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except (RecursionError, ValueError):
        return "…"
    return clip(text)


def clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _DETAIL_CHARS else text[: _DETAIL_CHARS - 1] + "…"


def fmt(value: float) -> str:
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:g}"


def displayed(tree: ast.Module) -> set[int]:
    """Nodes only shown, not computed with: an expression statement's value, print(...) args."""
    shown: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Expr):
            continue
        value = node.value
        if isinstance(value, ast.Call) and callee(value) in {"print", "display"}:
            shown.update(id(inner) for inner in ast.walk(value))
        else:
            shown.add(id(value))
    return shown


def document_order(cell: CodeCell, node: ast.AST) -> tuple[int, int, int]:
    return cell.index, getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


def grouped(items: Iterable[_T], key: Callable[[_T], _K]) -> dict[_K, list[_T]]:
    groups: dict[_K, list[_T]] = defaultdict(list)
    for item in items:
        groups[key(item)].append(item)
    return dict(groups)


def take(counts: Counter[str], text: str) -> bool:
    """Use up one `text` from `counts`; False if there was none left."""
    if counts[text] > 0:
        counts[text] -= 1
        return True
    return False
