"""Generic LibCST helpers written for the scikit-learn rules: adding keywords, import insertion,
moving names between modules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst

from nbmodernizer.fixers.rules.arguments import has_star_args, keyword_arg, positional_args
from nbmodernizer.fixers.rules.cells import dotted_name, expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import (
    CallTest,
    KeywordEdit,
    cst_rewrite,
    dotted_expression,
    new_arg,
    string_value,
    with_args,
    with_commas,
)
from nbmodernizer.fixers.rules.model import Rewrite

_COMMA = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
_NO_COMMA = cst.MaybeSentinel.DEFAULT
_MASKED = "# __nbmodernizer_masked_"  # an IPython line, masked by cells.mask_ipython


# --------------------------------------------------------------------------- generic helpers


def only_if(*needles: str, rewrite: Rewrite) -> Rewrite:
    """Skip parsing cells that cannot match: none of `needles` occurs in the source."""

    def guarded(source: str, context: RuleContext) -> str:
        return rewrite(source, context) if any(n in source for n in needles) else source

    return guarded


def is_constant(arg: cst.Arg | None, value: str) -> bool:
    """`arg` is the literal `None` / `True` / `False` (`value`)."""
    return arg is not None and isinstance(arg.value, cst.Name) and arg.value.value == value


def append_arg(call: cst.Call, arg: cst.Arg) -> cst.Call:
    """Add `arg` after the last argument, keeping a multi-line call's layout."""
    args = list(call.args)
    if not args:
        return call.with_changes(args=[arg])
    last = args[-1]
    if isinstance(last.comma, cst.Comma):  # trailing comma: the new argument takes it over
        between = (
            cst.Comma(whitespace_after=call.whitespace_before_args)
            if isinstance(call.whitespace_before_args, cst.ParenthesizedWhitespace)
            else _COMMA
        )
        args[-1] = last.with_changes(comma=between)
        return call.with_changes(args=[*args, arg.with_changes(comma=last.comma)])
    args[-1] = last.with_changes(comma=_COMMA)
    return call.with_changes(args=[*args, arg])


def set_keyword(call: cst.Call, name: str, code: str) -> cst.Call:
    """`name=code` on this call: the value replaced if the keyword is there, else appended."""
    existing = keyword_arg(call, name)
    if existing is None:
        return append_arg(call, new_arg(name, code))
    args = [a.with_changes(value=expression(code)) if a is existing else a for a in call.args]
    return call.with_changes(args=args)


def drop_keywords(call: cst.Call, names: Sequence[str]) -> cst.Call:
    kept = [a for a in call.args if a.keyword is None or a.keyword.value not in names]
    return call if len(kept) == len(call.args) else with_args(call, kept, keep_trailing_comma=True)


def keep_quotes(mapping: dict[str, str], rename: str | None = None) -> KeywordEdit:
    """Like cst_tools.map_value, but a string replacement keeps the original quote style."""

    def edit(arg: cst.Arg) -> cst.Arg:
        value = string_value(arg)
        changed = arg
        if value in mapping:
            code = mapping[value]
            if code[:1] in "'\"" and isinstance(arg.value, cst.SimpleString):
                quote = arg.value.quote
                code = f"{arg.value.prefix}{quote}{code[1:-1]}{quote}"
            changed = arg.with_changes(value=expression(code))
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
        call = updated_node
        for name, code in self.values:
            if keyword_arg(call, name) is None:
                call = append_arg(call, new_arg(name, code))
        return call


def add_keywords(
    applies: CallTest, values: Sequence[tuple[str, str]], position: int | None = None
) -> Rewrite:
    """Spell out `name=code` for each pair on matching calls that do not pass it; calls with
    more than `position` positional arguments are left alone (they may pass it by position)."""
    return cst_rewrite(lambda context: _KeywordAdder(context, applies, values, position))


def _is_masked_ipython(statement: cst.SimpleStatementLine) -> bool:
    comment = statement.trailing_whitespace.comment
    return (
        isinstance(statement.body[0], cst.Pass)
        and comment is not None
        and (comment.value.startswith(_MASKED))
    )


def _leading_import_block_end(body: Sequence[cst.BaseStatement]) -> int:
    """Index after the cell's leading imports (a docstring and IPython lines such as
    `%matplotlib inline` may come among them); 0 if none."""
    end = 0
    for index, statement in enumerate(body):
        if not isinstance(statement, cst.SimpleStatementLine):
            break
        small = statement.body
        if all(isinstance(s, cst.Import | cst.ImportFrom) for s in small):
            end = index + 1
        elif _is_masked_ipython(statement):
            continue
        elif not (index == 0 and len(small) == 1 and isinstance(small[0], cst.Expr)):
            break
    return end


def add_imports(module: cst.Module, needed: Sequence[tuple[str, str]]) -> cst.Module:
    """`from a import b` for each (a, b) not imported at the cell's top level yet: appended to
    an existing `from a import ...` of the cell, else inserted after its leading imports."""
    body = list(module.body)
    pending: dict[str, list[str]] = {}
    for source, name in needed:
        pending.setdefault(source, [])
        if name not in pending[source]:
            pending[source].append(name)
    for index, statement in enumerate(body):
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        small = list(statement.body)
        for n, node in enumerate(small):
            if not (isinstance(node, cst.ImportFrom) and node.module is not None):
                continue
            if node.relative or isinstance(node.names, cst.ImportStar):
                continue
            module_name = dotted_name(node.module)
            if module_name is None or module_name not in pending:
                continue
            source = module_name
            present = {a.evaluated_alias or a.evaluated_name for a in node.names}
            names = [name for name in pending[source] if name not in present]
            pending[source] = []
            if not names:
                continue
            last = node.names[-1]
            opening = node.lpar.whitespace_after if node.lpar else None
            if isinstance(last.comma, cst.Comma) and isinstance(
                opening, cst.ParenthesizedWhitespace
            ):  # one name a line, with a trailing comma: keep the layout
                between = cst.Comma(whitespace_after=opening)
                added = [cst.ImportAlias(name=cst.Name(name), comma=between) for name in names]
                added[-1] = added[-1].with_changes(comma=last.comma)
                aliases = [*node.names[:-1], last.with_changes(comma=between), *added]
            else:
                aliases = [*node.names[:-1], last.with_changes(comma=_COMMA)]
                aliases += [cst.ImportAlias(name=cst.Name(name), comma=_COMMA) for name in names]
                aliases[-1] = aliases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            small[n] = node.with_changes(names=aliases)
            body[index] = statement.with_changes(body=small)
    lines: list[cst.BaseStatement] = [
        cst.parse_statement(f"from {source} import {', '.join(names)}\n")
        for source, names in pending.items()
        if names
    ]
    if not lines:
        return module.with_changes(body=body)
    position = _leading_import_block_end(body)
    if position == 0 and body:
        first = body[0]
        if isinstance(first, cst.SimpleStatementLine | cst.BaseCompoundStatement):
            blank = cst.EmptyLine(indent=False, whitespace=cst.SimpleWhitespace(""))
            body[0] = first.with_changes(leading_lines=[blank, *first.leading_lines])
    return module.with_changes(body=[*body[:position], *lines, *body[position:]])


class ImportingTransformer(cst.CSTTransformer):
    """A transformer that may need a name imported: `local_name(qualified)` gives the name the
    notebook already binds to it, or registers `from module import name` for this cell."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.needed: list[tuple[str, str]] = []

    def local_name(self, qualified_name: str) -> str:
        for local, target in self.context.aliases.items():
            if target == qualified_name:
                return local
        source, _, name = qualified_name.rpartition(".")
        if (source, name) not in self.needed:
            self.needed.append((source, name))
        return name

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        return add_imports(updated_node, self.needed) if self.needed else updated_node


@dataclass(frozen=True)
class Move:
    """Where an old qualified name lives now.

    `module`: the old name is a module, whose imports are rewritten in place (so dotted
    references through them stay valid). `member`: references become `New.member`
    (`plot_roc_curve` -> `RocCurveDisplay.from_estimator`).
    """

    new: str
    module: bool = False
    member: str | None = None


def _resolve(moves: dict[str, Move], name: str) -> tuple[Move, str] | None:
    """The move that applies to `name` (longest matching key) and the new qualified name."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        key = ".".join(parts[:end])
        if key in moves:
            return moves[key], moves[key].new + name[len(key) :]
    return None


class NameMover(ImportingTransformer):
    """Modules and names that moved: imports (split when their names now live in different
    modules), bare references bound by those imports, and dotted references."""

    def __init__(self, context: RuleContext, moves: dict[str, Move]) -> None:
        super().__init__(context)
        self.moves = moves
        self.skip: set[int] = set()  # Name nodes that are not references

    # names that are not references to something imported
    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.skip.add(id(node.attr))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self.skip.add(id(node.keyword))

    def visit_Param(self, node: cst.Param) -> None:
        self.skip.add(id(node.name))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.skip.add(id(node.name))

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.skip.add(id(node.name))

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    # imports
    def _import_from(self, node: cst.ImportFrom) -> list[cst.BaseSmallStatement] | None:
        if node.relative or node.module is None:
            return None
        source = dotted_name(node.module)
        if source is None:
            return None
        if isinstance(node.names, cst.ImportStar):
            found = _resolve(self.moves, source)
            return [node.with_changes(module=dotted_expression(found[1]))] if found else None
        groups: dict[str, list[cst.ImportAlias]] = {source: []}
        plain: list[cst.ImportAlias] = []
        changed = False
        for alias in node.names:
            found = _resolve(self.moves, f"{source}.{alias.evaluated_name}")
            if found is not None and found[0].module and alias.evaluated_name.startswith("_"):
                found = None  # a private name of a moved module does not follow it
            if found is None:
                groups[source].append(alias)
                continue
            changed = True
            new_source, _, new_name = found[1].rpartition(".")
            moved = alias.with_changes(name=cst.Name(new_name))
            if not new_source:
                plain.append(moved)
            else:
                group = groups.setdefault(new_source, [])
                key = (new_name, moved.evaluated_alias)
                if all((a.evaluated_name, a.evaluated_alias) != key for a in group):
                    group.append(moved)
        if not changed:
            return None
        result: list[cst.BaseSmallStatement] = []
        template: cst.ImportFrom | None = node
        for new_source, aliases in groups.items():
            if not aliases:
                continue
            if template is not None:
                names = with_commas(aliases, node.names[-1].comma if node.rpar else _NO_COMMA)
                result.append(
                    template.with_changes(module=dotted_expression(new_source), names=names)
                )
                template = None
            else:
                names = with_commas(aliases)
                result.append(cst.ImportFrom(module=dotted_expression(new_source), names=names))
        if plain:
            result.append(cst.Import(names=with_commas(plain)))
        return result

    def _import(self, node: cst.Import) -> list[cst.BaseSmallStatement] | None:
        aliases: list[cst.ImportAlias] = []
        changed = False
        for alias in node.names:
            found = _resolve(self.moves, alias.evaluated_name)
            if found is not None and found[0].module:
                aliases.append(alias.with_changes(name=dotted_expression(found[1])))
                changed = True
            else:
                aliases.append(alias)
        return [node.with_changes(names=aliases)] if changed else None

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        body: list[cst.BaseSmallStatement] = []
        changed = False
        for statement in updated_node.body:
            new: list[cst.BaseSmallStatement] | None = None
            if isinstance(statement, cst.ImportFrom):
                new = self._import_from(statement)
            elif isinstance(statement, cst.Import):
                new = self._import(statement)
            changed = changed or new is not None
            body.extend(new if new is not None else [statement])
        if not changed:
            return updated_node
        if len(updated_node.body) == 1 and len(body) > 1:
            plain = [s.with_changes(semicolon=cst.MaybeSentinel.DEFAULT) for s in body]
            return cst.FlattenSentinel(
                [
                    updated_node.with_changes(body=[plain[0]]),
                    *(cst.SimpleStatementLine(body=[s]) for s in plain[1:]),
                ]
            )
        semicolon = cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" "))
        fixed = [
            s.with_changes(semicolon=semicolon if n < len(body) - 1 else cst.MaybeSentinel.DEFAULT)
            for n, s in enumerate(body)
        ]
        return updated_node.with_changes(body=fixed)

    # references
    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        if id(original_node) in self.skip:
            return updated_node
        local = original_node.value
        target = self.context.aliases.get(local)
        found = _resolve(self.moves, target) if target else None
        if target is None or found is None:
            return updated_node
        move, new = found
        name = new.rpartition(".")[2] if local == target.rpartition(".")[2] else local
        code = f"{name}.{move.member}" if move.member else name
        return updated_node if code == local else expression(code)

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        local = dotted_name(original_node)
        if local is None:
            return updated_node
        head = local.split(".")[0]
        resolved_head = self.context.aliases.get(head, head)
        if _resolve(self.moves, resolved_head) is not None:
            return updated_node  # the head name itself moved: leave_Name did it
        name = qualified(original_node, self.context.aliases)
        found = _resolve(self.moves, name) if name else None
        if name is None or found is None:
            return updated_node
        move, new = found
        if move.module or name.rpartition(".")[0] == new.rpartition(".")[0]:
            code = head + new[len(resolved_head) :] if new.startswith(resolved_head + ".") else new
        else:
            code = self.local_name(new)
        if move.member:
            code = f"{code}.{move.member}"
        replacement = expression(code)
        return replacement.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


def move_names(moves: dict[str, Move]) -> Rewrite:
    """Old qualified names (modules or objects) -> where they live now, in one pass."""
    return cst_rewrite(lambda context: NameMover(context, moves))


def move_modules(moves: dict[str, str]) -> Rewrite:
    return move_names({old: Move(new, module=True) for old, new in moves.items()})
