"""A remembered pattern applied to another notebook's cell: match, fill the holes, rewrite.

The cell is read with `cells.parse` (IPython lines masked) and matched against each
pattern's `before` tree: a hole matches any expression (the same one wherever the hole
repeats), a reference matches a name the notebook's imports bind to the same qualified name,
everything else must be equal. Each match is replaced, in the cell's own text, by the
pattern's `after` with the holes filled with the matched code as it is written (formatting
and comments inside it kept) and each reference spelt as this notebook imports it. Import
statements the pattern carries are added before the first rewritten statement unless the
notebook imports those names already. The masked lines are put back with `cells.unmask`.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from nbmodernizer.cells import imports as imports_of
from nbmodernizer.cells import parse, unmask
from nbmodernizer.fixers.memory.pattern import Pattern, Span
from nbmodernizer.fixers.memory.syntax import (
    Slot,
    Text,
    needs_parens,
    parents,
    placeholder,
    shape,
    statement_lists,
)


@dataclass(frozen=True)
class Use:
    """Where a pattern was applied: the top-level statements it rewrote, in the cell before
    and in the cell after (first and last line, 1-based)."""

    key: str
    before: Span
    after: Span


@dataclass(frozen=True)
class CellRewrite:
    source: str
    uses: tuple[Use, ...]


@dataclass
class _Binding:
    refs: tuple[str, ...]
    aliases: Mapping[str, str]
    holes: dict[int, ast.expr] = field(default_factory=dict)
    spelt: dict[int, str] = field(default_factory=dict)  # ref number -> the name matched


@dataclass(frozen=True)
class _Edit:
    key: str
    start: int  # character offsets in the masked cell
    end: int
    text: str
    top: Span  # the top-level statements it lies in


def rewrite_cell(
    source: str, patterns: Sequence[tuple[str, Pattern]], aliases: Mapping[str, str]
) -> CellRewrite | None:
    """The cell with every match of every pattern rewritten (earlier patterns first where
    two would overlap), or None when nothing matches. `aliases`: the notebook's imports."""
    parsed = parse(source)
    if parsed.tree is None:
        return None
    text = Text(parsed.masked)
    tops = [(s.lineno, s.end_lineno or s.lineno) for s in parsed.tree.body]
    slots = parents(parsed.tree)
    edits: list[_Edit] = []
    imports: list[str] = []
    for key, pattern in patterns:
        for edit, needed in _edits(key, pattern, parsed.tree, text, slots, aliases, tops):
            if not any(edit.start < other.end and other.start < edit.end for other in edits):
                edits.append(edit)
                imports.extend(i for i in needed if i not in imports)
    if not edits:
        return None
    return _compose(parsed.masked, parsed.originals, text, edits, imports)


def _edits(
    key: str,
    pattern: Pattern,
    tree: ast.Module,
    text: Text,
    slots: dict[int, tuple[str, str]],
    aliases: Mapping[str, str],
    tops: list[Span],
) -> list[tuple[_Edit, list[str]]]:
    wanted = pattern.before_nodes()
    found: list[tuple[_Edit, list[str]]] = []
    if pattern.kind == "expr":
        for node in _expressions(tree):
            binding = _Binding(pattern.refs, aliases)
            if not _match(wanted[0], node, binding):
                continue
            replaced = _instantiate(pattern, binding, text, slots.get(id(node)))
            if replaced is not None:
                start, end = text.span(node)
                top = _top(tops, node.lineno)
                found.append((_Edit(key, start, end, replaced[0], top), replaced[1]))
        return found
    for statements in statement_lists(tree):
        for first in range(len(statements) - len(wanted) + 1):
            run = statements[first : first + len(wanted)]
            binding = _Binding(pattern.refs, aliases)
            if all(_match(p, t, binding) for p, t in zip(wanted, run, strict=True)):
                edit = _statement_edit(key, pattern, binding, text, run, tops)
                if edit is not None:
                    found.append(edit)
    return found


def _expressions(tree: ast.AST) -> list[ast.expr]:
    """Every expression, outer ones first; none inside f-strings (positions there are not
    the source's before Python 3.12)."""
    found: list[ast.expr] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop(0)
        if isinstance(node, ast.expr):
            found.append(node)
        if not isinstance(node, ast.JoinedStr):
            pending.extend(ast.iter_child_nodes(node))
    return found


def _top(tops: list[Span], line: int) -> Span:
    return next((top for top in tops if top[0] <= line <= top[1]), (line, line))


def _statement_edit(
    key: str,
    pattern: Pattern,
    binding: _Binding,
    text: Text,
    run: list[ast.stmt],
    tops: list[Span],
) -> tuple[_Edit, list[str]] | None:
    """Whole lines replaced: the run must not share its lines with other statements."""
    first, last = run[0], run[-1]
    last_line = last.end_lineno or last.lineno
    start = text.offset(first.lineno, first.col_offset)
    end = text.offset(last_line, last.end_col_offset or 0)
    line_start = text.starts[first.lineno - 1]
    indent = text.text[line_start:start]
    rest = text.text[end : text.starts[last_line] - 1].strip()
    if indent.strip() or (rest and not rest.startswith("#")):
        return None
    replaced = _instantiate(pattern, binding, text, None)
    if replaced is None:
        return None
    lines = replaced[0].split("\n") if replaced[0] else ["pass"]  # a block keeps a statement
    body = "\n".join(indent + line if line else line for line in lines)
    top = (_top(tops, first.lineno)[0], _top(tops, last_line)[1])
    return _Edit(key, line_start, end, body, top), replaced[1]


def _match(wanted: ast.AST, node: ast.AST, binding: _Binding) -> bool:
    if isinstance(wanted, ast.Name):
        found = placeholder(wanted.id)
        if found is not None and found[0] == "hole":
            if not isinstance(node, ast.expr) or isinstance(node, ast.Starred):
                return False
            bound = binding.holes.setdefault(found[1], node)
            return bound is node or shape(bound) == shape(node)
        if found is not None:
            qualified = binding.refs[found[1]]
            if not isinstance(node, ast.Name) or binding.aliases.get(node.id) != qualified:
                return False
            binding.spelt.setdefault(found[1], node.id)
            return True
    if type(wanted) is not type(node):
        return False
    for name in wanted._fields:
        if name == "ctx":
            continue
        expected, actual = getattr(wanted, name, None), getattr(node, name, None)
        if isinstance(expected, list):
            if not isinstance(actual, list) or len(expected) != len(actual):
                return False
            if not all(_match_value(x, y, binding) for x, y in zip(expected, actual, strict=True)):
                return False
        elif not _match_value(expected, actual, binding):
            return False
    return True


def _match_value(expected: object, actual: object, binding: _Binding) -> bool:
    if isinstance(expected, ast.AST):
        return isinstance(actual, ast.AST) and _match(expected, actual, binding)
    return type(expected) is type(actual) and expected == actual


def _instantiate(
    pattern: Pattern, binding: _Binding, text: Text, slot: Slot
) -> tuple[str, list[str]] | None:
    """The pattern's `after` for this match, and the import statements it needs; None when a
    reference cannot be spelt in this notebook."""
    spelling, needed = _spell_refs(pattern, binding)
    if spelling is None:
        return None
    after = Text(pattern.after)
    tree = ast.parse(pattern.after)
    slots = parents(tree)
    replacements: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Name):
            continue
        found = placeholder(node.id)
        if found is None:
            continue
        kind, number = found
        if kind == "ref":
            value = spelling[number]
        else:
            bound = binding.holes.get(number)
            if bound is None:
                return None  # a hole the before side never had: not a pattern we made
            value = text.segment(bound)
            if needs_parens(bound, slots.get(id(node)), value):
                value = f"({value})"
        start, end = after.span(node)
        replacements.append((start, end, value))
    result = pattern.after
    for start, end, value in sorted(replacements, reverse=True):
        result = result[:start] + value + result[end:]
    if pattern.kind == "expr":
        root = ast.parse(pattern.after, mode="eval").body
        # the pattern's own text is one line: newlines come from holes, parenthesised above
        if needs_parens(root, slot, pattern.after) and not isinstance(root, ast.Name):
            result = f"({result})"
    return result, needed


def _spell_refs(pattern: Pattern, binding: _Binding) -> tuple[dict[int, str] | None, list[str]]:
    """How this notebook names each qualified name of the pattern, and the pattern's import
    statements it lacks."""
    spelling: dict[int, str] = dict(binding.spelt)
    local = {qualified: name for name, qualified in sorted(binding.aliases.items())}
    offered: dict[str, tuple[str, str]] = {}  # qualified -> (name, import statement)
    for statement in pattern.imports:
        for name, qualified in _bound_by(statement).items():
            offered.setdefault(qualified, (name, statement))
    needed: list[str] = []
    for number, qualified in enumerate(pattern.refs):
        if number in spelling:
            continue
        if qualified in local:
            spelling[number] = local[qualified]
        elif qualified in offered:
            spelling[number] = offered[qualified][0]
            if offered[qualified][1] not in needed:
                needed.append(offered[qualified][1])
        else:
            return None, []
    for statement in pattern.imports:
        bound = _bound_by(statement)
        if statement not in needed and any(q not in local for q in bound.values()):
            needed.append(statement)
    return spelling, needed


def _bound_by(statement: str) -> dict[str, str]:
    return imports_of([statement])


def _compose(
    masked: str, originals: list[str], text: Text, edits: list[_Edit], imports: list[str]
) -> CellRewrite | None:
    result = masked
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        result = result[: edit.start] + edit.text + result[edit.end :]
    if imports:  # above the first rewritten statement: the edits all lie below
        at = min(edit.top[0] for edit in edits) - 1
        lines = result.split("\n")
        result = "\n".join([*lines[:at], *imports, *lines[at:]])
    try:
        ast.parse(result)
    except SyntaxError:
        return None
    source = unmask(result, originals)
    if source == unmask(masked, originals):
        return None
    uses = []
    for edit in edits:
        first, last = edit.top
        above = len(imports) + sum(_delta(text, e) for e in edits if e.top[1] < first)
        inside = sum(_delta(text, e) for e in edits if e.top == edit.top)
        uses.append(Use(edit.key, edit.top, (first + above, last + above + inside)))
    return CellRewrite(source, tuple(sorted(uses, key=lambda use: use.before)))


def _delta(text: Text, edit: _Edit) -> int:
    """Lines the edit adds (or, negative, removes)."""
    return edit.text.count("\n") - text.text.count("\n", edit.start, edit.end)
