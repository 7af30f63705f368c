"""What moved or was renamed: modules, names in modules, attributes, methods."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Rewrite
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer
from nbmodernizer.fixers.rules.toolkit.needles import parts, refers_to
from nbmodernizer.fixers.rules.toolkit.nodes import (
    COMMA,
    atom,
    dotted_expression,
    dotted_name,
    expression,
    qualified,
    with_commas,
)

# --- names and modules that moved ------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """Where an old qualified name lives now.

    `module`: the old name is a module, whose imports are rewritten in place (so dotted
    references through them stay valid). `member`: references become `New.member`
    (`plot_roc_curve` -> `RocCurveDisplay.from_estimator`). `attribute`: where references
    through the old module go when that is not `new` (`Image.ANTIALIAS` ->
    `Image.Resampling.LANCZOS`, an enum, while `from PIL.Image import LANCZOS` stays valid).
    """

    new: str
    module: bool = False
    member: str | None = None
    attribute: str | None = None


def moved(
    old: str, new: str, names: Mapping[str, str] | Sequence[str], attribute: str | None = None
) -> dict[str, Move]:
    """Moves for names of module `old` that now live in module `new` (optionally renamed):
    `moved("scipy.misc", "scipy.special", ["comb"])`; `attribute`: the module (or class) that
    references through the old module go to, when not `new`."""
    mapping = dict(names) if isinstance(names, Mapping) else {name: name for name in names}
    return {
        f"{old}.{name}": Move(
            f"{new}.{target}", attribute=f"{attribute}.{target}" if attribute else None
        )
        for name, target in mapping.items()
    }


def _resolve(moves: Mapping[str, Move], name: str) -> tuple[Move, str] | None:
    """The move that applies to `name` (longest matching key) and the new qualified name."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        key = ".".join(parts[:end])
        if key in moves:
            return moves[key], moves[key].new + name[len(key) :]
    return None


def _bare_name(
    moves: Mapping[str, Move], keep_local: bool, local: str, aliases: Mapping[str, str]
) -> str | None:
    """What a bare name bound by an import becomes, or None where it stays: a moved module's
    names keep theirs (their import is rewritten), a renamed name takes its new one."""
    target = aliases.get(local)
    found = _resolve(moves, target) if target else None
    if target is None or found is None:
        return None
    move, new = found
    renamed = local == target.rpartition(".")[2] and not keep_local
    name = new.rpartition(".")[2] if renamed else local
    code = f"{name}.{move.member}" if move.member else name
    return None if code == local else code


Reference = Literal["name", "module"]


def _one_line(alias: cst.ImportAlias) -> cst.ImportAlias:
    """The imported name, its comma not breaking the line."""
    comma = alias.comma
    if isinstance(comma, cst.Comma) and isinstance(
        comma.whitespace_after, cst.ParenthesizedWhitespace
    ):
        return alias.with_changes(comma=COMMA)
    return alias


class NameMover(ImportingTransformer):
    """Modules and names that moved: imports (split when their names now live in different
    modules), bare references bound by those imports, and dotted references.

    `keep_local`: a renamed name keeps the notebook's local name (`from scipy.signal import
    hanning` -> `from scipy.signal.windows import hann as hanning`), so references to it stay.
    `reference`: how a dotted reference to a moved name is written when its new home is not
    under the module it was reached through: `"name"` imports the name (`from sklearn.metrics
    import DistanceMetric`), `"module"` goes through the new module (`scipy.special.comb`,
    `np.interp`), imported if the notebook does not bind it.
    """

    def __init__(
        self,
        context: RuleContext,
        moves: Mapping[str, Move],
        keep_local: bool = False,
        reference: Reference = "name",
    ) -> None:
        super().__init__(context)
        self.moves, self.keep_local, self.reference = moves, keep_local, reference
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
    def _moved_alias(self, alias: cst.ImportAlias, new_name: str) -> cst.ImportAlias:
        asname = alias.asname
        if asname is None and self.keep_local and new_name != alias.evaluated_name:
            asname = cst.AsName(name=cst.Name(alias.evaluated_name))
        return alias.with_changes(name=cst.Name(new_name), asname=asname)

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
            moved_alias = self._moved_alias(alias, new_name)
            if not new_source:
                plain.append(moved_alias)
            else:
                group = groups.setdefault(new_source, [])
                key = (new_name, moved_alias.evaluated_alias)
                if all((a.evaluated_name, a.evaluated_alias) != key for a in group):
                    group.append(moved_alias)
        if not changed:
            return None
        result: list[cst.BaseSmallStatement] = []
        template: cst.ImportFrom | None = node
        for new_source, aliases in groups.items():
            if not aliases:
                continue
            if template is not None:
                trailing = node.names[-1].comma if node.rpar else cst.MaybeSentinel.DEFAULT
                names = with_commas(aliases, trailing)
                result.append(
                    template.with_changes(module=dotted_expression(new_source), names=names)
                )
                template = None
            else:  # a new statement, without parentheses: on one line
                names = with_commas([_one_line(alias) for alias in aliases])
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
        code = _bare_name(self.moves, self.keep_local, original_node.value, self.context.aliases)
        return updated_node if code is None else expression(code)

    def _through_module(self, receiver: str, old: str, move: Move) -> str:
        """`receiver.old_name` -> the new home's dotted name: under the receiver when the new
        home is under the old module, else through the new module (imported if need be)."""
        old_module = old.rpartition(".")[0]
        new_module, _, new_name = (move.attribute or move.new).rpartition(".")
        if new_module == old_module or new_module.startswith(old_module + "."):
            module = receiver + new_module[len(old_module) :]
        else:
            module = self.module_ref(new_module)
        return f"{module}.{new_name}"

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
        if self.reference == "module" and not move.module:
            if name not in self.moves:
                return updated_node  # `old.name.attr`: its `old.name` is rewritten
            receiver = dotted_name(original_node.value)
            assert receiver is not None
            code = self._through_module(receiver, name, move)
        elif move.module or name.rpartition(".")[0] == new.rpartition(".")[0]:
            code = head + new[len(resolved_head) :] if new.startswith(resolved_head + ".") else new
        else:
            code = self.local_name(new)
        if move.member:
            code = f"{code}.{move.member}"
        replacement = expression(code)
        return replacement.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


def move_names(
    moves: Mapping[str, Move], *, keep_local: bool = False, reference: Reference = "name"
) -> Rewrite:
    """Old qualified names (modules or objects) -> where they live now, in one pass."""

    def renames(local: str, aliases: Mapping[str, str]) -> bool:
        return _bare_name(moves, keep_local, local, aliases) is not None

    return cst_rewrite(
        lambda context: NameMover(context, moves, keep_local, reference),
        parts(*moves),
        refers_to(moves, bare=renames),
    )


def move_modules(moves: Mapping[str, str]) -> Rewrite:
    """Modules that moved (their submodules and names follow)."""
    return move_names({old: Move(new, module=True) for old, new in moves.items()})


# --- a module renamed, as text ---------------------------------------------------------------


class _ModuleMover(cst.CSTTransformer):
    def __init__(self, old: str, new: str, names: Mapping[str, str]) -> None:
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
        new_module = self._moved(current) if current else None
        if new_module is None:
            return updated_node
        result = updated_node.with_changes(module=dotted_expression(new_module))
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
            new_module = self._moved(name) if name else None
            aliases.append(
                alias.with_changes(name=dotted_expression(new_module)) if new_module else alias
            )
        return updated_node.with_changes(names=aliases)

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = dotted_name(updated_node)
        new_module = self._moved(name) if name else None
        return dotted_expression(new_module) if new_module else updated_node


def move_module(old: str, new: str, names: Mapping[str, str] | None = None) -> Rewrite:
    """`old` (and its submodules) is now `new`, as spelled in the cell (`import old.sub`,
    `from old import x`, `old.sub.f()`); optionally some names changed too."""
    return cst_rewrite(lambda _context: _ModuleMover(old, new, names or {}), parts(old))


# --- attributes and methods ------------------------------------------------------------------


class _AttributeReplacer(cst.CSTTransformer):
    def __init__(self, context: RuleContext, targets: Mapping[str, str]) -> None:
        self.aliases = context.aliases
        self.targets = targets
        # nodes that bind tighter than a unary minus: `np.NINF ** 2` -> `(-np.inf) ** 2`
        self.tight: set[int] = set()

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Power):
            self.tight.add(id(node.left))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.tight.add(id(node.value))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        self.tight.add(id(node.value))

    def visit_Call(self, node: cst.Call) -> None:
        self.tight.add(id(node.func))

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = qualified(original_node, self.aliases)
        if name is None or name not in self.targets:
            return updated_node
        replacement = self.targets[name]
        local_head = (dotted_name(original_node) or name).split(".")[0]
        bound = self.aliases.get(local_head, local_head)  # `np` -> numpy, `Image` -> PIL.Image
        if bound != local_head:  # keep the notebook's names: np.NaN -> np.nan
            replacement = re.sub(rf"(?<![\w.]){re.escape(bound)}\.", f"{local_head}.", replacement)
        result = expression(replacement).with_changes(
            lpar=updated_node.lpar, rpar=updated_node.rpar
        )
        return atom(result) if id(original_node) in self.tight else result


def replace_attributes(
    targets: Mapping[str, str], when: Callable[[str, RuleContext], bool] | None = None
) -> Rewrite:
    """`numpy.float` -> `float`, resolving aliases (`np.float` too). `when`: a target is
    replaced only where `when(target, context)` holds (the environment lacks it)."""

    def replacer(context: RuleContext) -> cst.CSTTransformer:
        if when is None:
            return _AttributeReplacer(context, targets)
        kept = {old: new for old, new in targets.items() if when(old, context)}
        return _AttributeReplacer(context, kept)

    return cst_rewrite(replacer, parts(*targets), refers_to(targets))


class _MethodRenamer(cst.CSTTransformer):
    def __init__(self, renames: Mapping[str, str]) -> None:
        self.renames = renames

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if isinstance(func, cst.Attribute) and func.attr.value in self.renames:
            return updated_node.with_changes(
                func=func.with_changes(attr=cst.Name(self.renames[func.attr.value]))
            )
        return updated_node


def rename_methods(renames: Mapping[str, str]) -> Rewrite:
    """`x.iteritems()` -> `x.items()`: by method name, whatever the receiver."""
    return cst_rewrite(lambda _context: _MethodRenamer(renames), tuple(renames))
