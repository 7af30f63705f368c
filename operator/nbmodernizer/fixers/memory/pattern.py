"""A fix as a pattern, learnt from one before/after pair by anti-unification (as Getafix does).

The changed statements of a cell are compared as trees. The smallest pair of expressions (or
statements) that holds every difference is the pattern's root: the code around it is left
out, so that `x = lib.old_call(e)` -> `x = lib.new_call(e).value` is remembered as
`lib.old_call(<h0>)` -> `lib.new_call(<h0>).value`, which matches `lib.old_call(...)` in any
statement. Inside the root, what the edit carries over unchanged (a name, a whole
subexpression) becomes a hole, and what it changes stays concrete. What names an API stays
concrete even where it is carried over (`legacy_lib.scale`, `len`, the method of
`df.fillna(...)`, whose receiver may be a hole): names the notebook binds
by an import are kept as the qualified name they stand for (`np` -> `numpy`), so a pattern
learnt where the library is `import legacy_lib` matches where it is
`import legacy_lib as ll`. Import statements the fix adds are kept with the pattern.

A pattern with nothing concrete to match on (`<h0>(<h1>)`) is not learnt.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import json
from collections.abc import Mapping
from copy import deepcopy
from dataclasses import dataclass
from typing import Any, Literal

from nbmodernizer.cells import parse
from nbmodernizer.fixers.memory.syntax import Text, display, hole, placeholder, ref, shape

Kind = Literal["expr", "stmt"]
BUILTINS = frozenset(dir(builtins))
Span = tuple[int, int]  # first and last line of a cell, 1-based


@dataclass(frozen=True)
class Pattern:
    """`before` and `after` are Python source with placeholders: `__nbm_hole_N__` for the
    holes, `__nbm_ref_N__` for the qualified names in `refs`. `kind` says what the root is:
    one expression (`expr`) or a run of statements (`stmt`)."""

    kind: Kind
    before: str
    after: str
    refs: tuple[str, ...] = ()
    imports: tuple[str, ...] = ()  # import statements the fix added to the cell

    def to_wire(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "before": self.before,
            "after": self.after,
            "refs": list(self.refs),
            "imports": list(self.imports),
        }

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> Pattern:
        kind = data["kind"]
        if kind not in ("expr", "stmt"):
            raise ValueError(f"unknown pattern kind {kind!r}")
        return cls(
            kind,
            str(data["before"]),
            str(data["after"]),
            tuple(data.get("refs", ())),
            tuple(data.get("imports", ())),
        )

    def canonical(self) -> str:
        return json.dumps(self.to_wire(), sort_keys=True, separators=(",", ":"))

    def shown(self) -> str:
        """`lib.old_call(<h0>)  ->  lib.new_call(<h0>).value`"""
        before = display(self.before, self.refs).replace("\n", "; ")
        after = display(self.after, self.refs).replace("\n", "; ") or "(removed)"
        return f"{before}  ->  {after}"

    def before_nodes(self) -> list[ast.AST]:
        return _nodes(self.kind, self.before)

    def after_nodes(self) -> list[ast.AST]:
        return _nodes(self.kind, self.after)


def _nodes(kind: Kind, text: str) -> list[ast.AST]:
    if kind == "expr":
        return [ast.parse(text, mode="eval").body]
    return list(ast.parse(text).body)


@dataclass(frozen=True)
class Lesson:
    """What one fix teaches: its pattern, where in the cells it was (for telling whether the
    error at issue went away), and the statements as written (the example a rule may cite)."""

    pattern: Pattern
    before_span: Span
    after_span: Span | None  # None: the fix removed the statements
    before_text: str
    after_text: str


def distil(
    before: str,
    after: str,
    before_aliases: Mapping[str, str],
    after_aliases: Mapping[str, str],
    failing_line: int | None = None,
) -> Lesson | None:
    """The pattern of the edit from cell `before` to cell `after`, or None when there is no
    single edit to learn (several changed places, nothing concrete, a cell that does not
    parse, or an edit away from `failing_line`). Aliases: local name -> qualified name of
    each notebook's imports (`cells.imports`)."""
    parsed_before, parsed_after = parse(before), parse(after)
    if parsed_before.tree is None or parsed_after.tree is None:
        return None
    old, new = parsed_before.tree.body, parsed_after.tree.body
    imports: list[str] = []
    edits = []
    matcher = difflib.SequenceMatcher(
        None, [shape(s) for s in old], [shape(s) for s in new], autojunk=False
    )
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        kept = {shape(s) for s in old[i1:i2]}
        while j1 < j2 and _new_import(new[j1], kept):
            imports.append(ast.unparse(new[j1]))
            j1 += 1
        while j2 > j1 and _new_import(new[j2 - 1], kept):
            imports.append(ast.unparse(new[j2 - 1]))
            j2 -= 1
        if i2 > i1 or j2 > j1:
            edits.append((i1, i2, j1, j2))
    if len(edits) != 1:
        return None
    i1, i2, j1, j2 = edits[0]
    if i2 == i1:
        return None  # only added statements: nothing to match on
    before_span = (old[i1].lineno, _end(old[i2 - 1]))
    if failing_line is not None and not before_span[0] <= failing_line <= before_span[1]:
        return None
    after_span = (new[j1].lineno, _end(new[j2 - 1])) if j2 > j1 else None
    pattern = _anti_unify(old[i1:i2], new[j1:j2], before_aliases, after_aliases, imports)
    if pattern is None:
        return None
    before_text = Text(before).line_range(*before_span)
    after_text = Text(after).line_range(*after_span) if after_span else ""
    return Lesson(pattern, before_span, after_span, before_text, after_text)


def _new_import(statement: ast.stmt, kept: set[str]) -> bool:
    return isinstance(statement, ast.Import | ast.ImportFrom) and shape(statement) not in kept


def _end(node: ast.stmt) -> int:
    return node.end_lineno or node.lineno


def _anti_unify(
    old: list[ast.stmt],
    new: list[ast.stmt],
    before_aliases: Mapping[str, str],
    after_aliases: Mapping[str, str],
    imports: list[str],
) -> Pattern | None:
    kind: Kind = "stmt"
    roots_before: list[ast.AST] = list(old)
    roots_after: list[ast.AST] = list(new)
    if len(old) == 1 and len(new) == 1:
        narrowed_before, narrowed_after = _narrow(old[0], new[0])
        if isinstance(narrowed_before, ast.expr) and isinstance(narrowed_after, ast.expr):
            kind = "expr"
        roots_before, roots_after = [narrowed_before], [narrowed_after]
    carried = {shape(n) for root in roots_after for n in ast.walk(root) if isinstance(n, ast.expr)}
    holes: dict[str, int] = {}
    refs: list[str] = []
    before_side = _Abstraction(carried, holes, refs, before_aliases, fixed=True)
    after_side = _Abstraction(set(), holes, refs, after_aliases, fixed=False)
    abstract_before = [before_side.root(node) for node in roots_before]
    abstract_after = [after_side.root(node) for node in roots_after]
    if not any(_concrete(node) for node in abstract_before):
        return None
    return Pattern(
        kind,
        "\n".join(ast.unparse(node) for node in abstract_before),
        "\n".join(ast.unparse(node) for node in abstract_after),
        tuple(refs),
        tuple(imports),
    )


def _narrow(before: ast.AST, after: ast.AST) -> tuple[ast.AST, ast.AST]:
    """The smallest pair of expressions or statements that holds every difference."""
    found = (before, after)
    while type(before) is type(after):
        pairs = _differing_children(before, after)
        if pairs is None or len(pairs) != 1:
            break
        before, after = pairs[0]
        if isinstance(before, ast.expr | ast.stmt) and isinstance(after, ast.expr | ast.stmt):
            found = (before, after)
    return found


def _differing_children(before: ast.AST, after: ast.AST) -> list[tuple[ast.AST, ast.AST]] | None:
    """The child pairs that differ; None when the node itself differs (a name, a length)."""
    pairs = []
    for name in before._fields:
        if name == "ctx":
            continue
        old, new = getattr(before, name, None), getattr(after, name, None)
        if isinstance(old, list) and isinstance(new, list):
            if len(old) != len(new):
                return None
            items = list(zip(old, new, strict=True))
        else:
            items = [(old, new)]
        for x, y in items:
            if isinstance(x, ast.AST) and isinstance(y, ast.AST):
                if shape(x) != shape(y):
                    pairs.append((x, y))
            elif x != y or type(x) is not type(y):
                return None
    return pairs


class _Abstraction(ast.NodeTransformer):
    """Rewrites one side: carried-over subexpressions to holes, imported names to refs."""

    def __init__(
        self,
        carried: set[str],
        holes: dict[str, int],
        refs: list[str],
        aliases: Mapping[str, str],
        fixed: bool,
    ) -> None:
        self.carried = carried  # before side: shapes found on the after side
        self.holes = holes  # shape -> hole number (made by the before side)
        self.refs = refs
        self.aliases = aliases
        self.fixed = fixed  # the before side: its root is never a hole
        self.top: ast.AST | None = None
        self.callees: set[int] = set()  # `df.fillna` in `df.fillna(0)`: the method stays

    def root(self, node: ast.AST) -> ast.AST:
        copy = deepcopy(node)
        self.top = copy
        self.callees = {
            id(n.func)
            for n in ast.walk(copy)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
        }
        result: ast.AST = self.visit(copy)
        return result

    def visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.expr) and not (self.fixed and node is self.top):
            replaced = self._hole(node)
            if replaced is not None:
                return replaced
        if isinstance(node, ast.Name) and node.id in self.aliases and placeholder(node.id) is None:
            qualified = self.aliases[node.id]
            if qualified not in self.refs:
                self.refs.append(qualified)
            return ast.Name(id=ref(self.refs.index(qualified)), ctx=node.ctx)
        if isinstance(node, ast.JoinedStr):
            return node  # f-string parts are not expressions of their own
        result: ast.AST = self.generic_visit(node)
        return result

    def _hole(self, node: ast.expr) -> ast.Name | None:
        if isinstance(node, ast.Starred) or id(node) in self.callees or self._api_path(node):
            return None
        key = shape(node)
        if self.fixed:
            if key not in self.carried:
                return None
            number = self.holes.setdefault(key, len(self.holes))
        elif key in self.holes:
            number = self.holes[key]
        else:
            return None
        return ast.Name(id=hole(number), ctx=getattr(node, "ctx", ast.Load()))

    def _api_path(self, node: ast.expr) -> bool:
        """`legacy_lib.scale`, `np.random`, `len`: what an API is called, not the data it
        gets; it stays concrete even where the edit carries it over."""
        if isinstance(node, ast.Attribute):
            return self._api_path(node.value)
        return isinstance(node, ast.Name) and (node.id in self.aliases or node.id in BUILTINS)


def _concrete(node: ast.AST) -> bool:
    """Whether a pattern has anything to match on but its shape: an attribute, a keyword, a
    name (an imported one included) or a constant."""
    for child in ast.walk(node):
        if isinstance(child, ast.Attribute | ast.Constant):
            return True
        if isinstance(child, ast.keyword) and child.arg is not None:
            return True
        if isinstance(child, ast.Name):
            found = placeholder(child.id)
            if found is None or found[0] == "ref":
                return True
    return False
