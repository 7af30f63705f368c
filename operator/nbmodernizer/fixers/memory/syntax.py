"""What the pattern and its application share: tree shapes, placeholders, source positions."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

_CTX = re.compile(r", ctx=(?:Load|Store|Del)\(\)")
_PLACEHOLDER = re.compile(r"^__nbm_(hole|ref)_(\d+)__$")
_ANY_PLACEHOLDER = re.compile(r"__nbm_(hole|ref)_(\d+)__")

# Expressions whose text may stand anywhere an expression may: brackets or a primary.
ATOMIC = (
    ast.Name,
    ast.Attribute,
    ast.Call,
    ast.Subscript,
    ast.Constant,
    ast.List,
    ast.Dict,
    ast.Set,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.JoinedStr,
)
# (parent, field) where any expression but a tuple, a walrus or a yield may stand bare.
_SAFE_SLOTS = {
    ("Call", "args"),
    ("keyword", "value"),
    ("List", "elts"),
    ("Set", "elts"),
    ("Dict", "keys"),
    ("Dict", "values"),
    ("Assign", "value"),
    ("AugAssign", "value"),
    ("AnnAssign", "value"),
    ("Return", "value"),
    ("Expr", "value"),
    ("Subscript", "slice"),
}
_TUPLE_SLOTS = {("Assign", "value"), ("Return", "value"), ("Expr", "value"), ("Subscript", "slice")}
Slot = tuple[str, str] | None  # (parent's type name, field); None: unknown


def shape(node: ast.AST) -> str:
    """The node's structure without positions or load/store context: equal shapes are the
    same code, whatever its formatting."""
    return _CTX.sub("", ast.dump(node))


def hole(number: int) -> str:
    return f"__nbm_hole_{number}__"


def ref(number: int) -> str:
    return f"__nbm_ref_{number}__"


def placeholder(name: str) -> tuple[str, int] | None:
    """("hole", 0) for `__nbm_hole_0__`, ("ref", 1) for `__nbm_ref_1__`, else None."""
    found = _PLACEHOLDER.match(name)
    return (found.group(1), int(found.group(2))) if found else None


def display(text: str, refs: tuple[str, ...]) -> str:
    """A pattern's text for people: holes as `<h0>`, references as the names they stand for."""

    def shown(found: re.Match[str]) -> str:
        number = int(found.group(2))
        return f"<h{number}>" if found.group(1) == "hole" else refs[number]

    return _ANY_PLACEHOLDER.sub(shown, text)


def needs_parens(node: ast.expr, slot: Slot, text: str) -> bool:
    """Whether `text` (the source of `node`) must be parenthesised to stand in `slot`."""
    if "\n" in text:
        return True
    if isinstance(node, ATOMIC):
        return False
    if isinstance(node, ast.NamedExpr | ast.Yield | ast.YieldFrom | ast.Starred):
        return True
    if isinstance(node, ast.Tuple):
        return not text.startswith("(") and slot not in _TUPLE_SLOTS
    return slot not in _SAFE_SLOTS


def parents(tree: ast.AST) -> dict[int, tuple[str, str]]:
    """id(child) -> (its parent's type name, the field holding it)."""
    found: dict[int, tuple[str, str]] = {}
    for node in ast.walk(tree):
        for name, value in ast.iter_fields(node):
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    found[id(child)] = (type(node).__name__, name)
    return found


def statement_lists(tree: ast.Module) -> Iterator[list[ast.stmt]]:
    """Every list of statements in the tree: the module's, and each block's."""
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            value = getattr(node, name, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                yield value


class Text:
    """A source text addressed by `ast` positions (1-based lines, UTF-8 byte columns)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def offset(self, lineno: int, col: int) -> int:
        line = self.lines[lineno - 1]
        return self.starts[lineno - 1] + len(line.encode()[:col].decode(errors="replace"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        end = self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        return start, end

    def segment(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.text[start:end]

    def line_range(self, first: int, last: int) -> str:
        """Lines `first` to `last` (1-based, inclusive)."""
        return "\n".join(self.lines[first - 1 : last])
