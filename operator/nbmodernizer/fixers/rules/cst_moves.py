"""Generic LibCST helpers (first written for the deep-learning rules, used by many): keyword
arguments, import insertion, moving and dropping imported names, rewriting calls, removing
statements."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import libcst as cst

from nbmodernizer.fixers.rules.arguments import has_star_args
from nbmodernizer.fixers.rules.cells import dotted_name, expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import (
    as_keyword,
    cst_rewrite,
    dotted_expression,
    with_commas,
)
from nbmodernizer.fixers.rules.model import Rewrite

# Packages whose submodules are reachable as attributes once the top package is imported
# (eagerly imported, or lazily loaded on attribute access).
ATTRIBUTE_PACKAGES = frozenset({"numpy", "scipy", "tensorflow", "keras", "torch"})


def _is_future_import(statement: cst.BaseStatement) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    return any(
        isinstance(small, cst.ImportFrom)
        and small.module is not None
        and dotted_name(small.module) == "__future__"
        for small in statement.body
    )


def _imports_module(statement: cst.BaseStatement, module: str) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        if isinstance(small, cst.Import):
            for alias in small.names:
                if alias.asname is None and dotted_name(alias.name) == module:
                    return True
    return False


def add_imports(module: cst.Module, modules: Sequence[str]) -> cst.Module:
    """`import m` for each module the cell does not import yet, after any __future__ import."""
    body = list(module.body)
    position = 0
    while position < len(body) and _is_future_import(body[position]):
        position += 1
    new = [
        cst.parse_statement(f"import {name}")
        for name in dict.fromkeys(modules)
        if not any(_imports_module(statement, name) for statement in body)
    ]
    if not new:
        return module
    return module.with_changes(body=[*body[:position], *new, *body[position:]])


class ImportingTransformer(cst.CSTTransformer):
    """A transformer that may refer to modules the cell has not imported.

    `module_ref("scipy.special")` returns how the cell can name that module: the notebook's own
    alias when there is one (`np` for numpy, `tf.keras` under `import tensorflow as tf`), else
    the dotted name, and then `import scipy.special` is added at the top of the cell.
    Subclasses that define `leave_Module` must call `super().leave_Module`.
    """

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.aliases = context.aliases
        self.needed_imports: list[str] = []

    def module_ref(self, module: str) -> str:
        exact = sorted(
            (len(local), local) for local, target in self.aliases.items() if target == module
        )
        if exact:
            return exact[0][1]
        root, _, rest = module.partition(".")
        if root in ATTRIBUTE_PACKAGES:
            roots = sorted(
                (len(local), local) for local, target in self.aliases.items() if target == root
            )
            if roots:
                return f"{roots[0][1]}.{rest}" if rest else roots[0][1]
        self.needed_imports.append(module)
        return module

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        return add_imports(updated_node, self.needed_imports)


def keywordize(call: cst.Call, names: Sequence[str | None], start: int = 0) -> cst.Call:
    """Positional arguments from index `start` on become keywords `names[i]` (None: keep)."""
    if has_star_args(call):
        return call
    args: list[cst.Arg] = []
    for index, arg in enumerate(call.args):
        if arg.keyword is None and start <= index < len(names) and names[index] is not None:
            name = names[index]
            assert name is not None
            args.append(as_keyword(arg, name))
        else:
            args.append(arg)
    return call.with_changes(args=args)


def renamed_callee(func: cst.BaseExpression, old: str, new: str) -> cst.BaseExpression:
    """`mod.old` -> `mod.new`; a bare `old` -> `new`; a local alias (`as x`) is kept."""
    if isinstance(func, cst.Attribute):
        return func.with_changes(attr=cst.Name(new))
    if isinstance(func, cst.Name) and func.value == old:
        return cst.Name(new)
    return func


def replace_string(node: cst.SimpleString, value: str) -> cst.SimpleString:
    """The same literal (same quotes and prefix) holding another value."""
    quote = node.quote
    prefix = node.prefix
    return node.with_changes(value=f"{prefix}{quote}{value}{quote}")


# --- moving names between modules -------------------------------------------------------


class NameMover(ImportingTransformer):
    """`old.name` -> `new.new_name`, in `from old import name` and in attribute chains.

    `keep_local` keeps the notebook's local name when the name changes
    (`from scipy.signal import hanning` -> `from scipy.signal.windows import hann as hanning`).
    """

    def __init__(
        self,
        context: RuleContext,
        old: str,
        new: str,
        names: Mapping[str, str],
        keep_local: bool = True,
        attribute_new: str | None = None,
    ) -> None:
        super().__init__(context)
        self.old, self.new, self.names, self.keep_local = old, new, names, keep_local
        # where attribute chains go, when that is not the module imports come from
        # (`Image.ANTIALIAS` -> `Image.Resampling.LANCZOS`, an enum, not a module)
        self.attribute_new = attribute_new or new

    def _split(self, statement: cst.ImportFrom) -> tuple[cst.ImportFrom | None, cst.ImportFrom]:
        assert not isinstance(statement.names, cst.ImportStar)
        moved: list[cst.ImportAlias] = []
        kept: list[cst.ImportAlias] = []
        in_place = self.new == self.old  # only renames: keep one statement, in order
        for alias in statement.names:
            name = alias.name.value if isinstance(alias.name, cst.Name) else None
            if name is None or name not in self.names:
                (moved if in_place else kept).append(alias)
                continue
            target = self.names[name]
            asname = alias.asname
            if asname is None and target != name and self.keep_local:
                asname = cst.AsName(name=cst.Name(name))
            moved.append(alias.with_changes(name=cst.Name(target), asname=asname))
        moved_statement = statement.with_changes(
            module=dotted_expression(self.new), names=with_commas(moved)
        )
        kept_statement = statement.with_changes(names=with_commas(kept)) if kept else None
        return kept_statement, moved_statement

    def _applies(self, statement: cst.BaseSmallStatement) -> bool:
        if not isinstance(statement, cst.ImportFrom) or statement.relative:
            return False
        if statement.module is None or dotted_name(statement.module) != self.old:
            return False
        if isinstance(statement.names, cst.ImportStar):
            return False
        return any(
            isinstance(alias.name, cst.Name) and alias.name.value in self.names
            for alias in statement.names
        )

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.FlattenSentinel[cst.SimpleStatementLine]:
        if not any(self._applies(small) for small in updated_node.body):
            return updated_node
        body: list[cst.BaseSmallStatement] = []
        extra: list[cst.SimpleStatementLine] = []
        for small in updated_node.body:
            if not self._applies(small):
                body.append(small)
                continue
            assert isinstance(small, cst.ImportFrom)
            kept, moved = self._split(small)
            if kept is None:
                body.append(moved.with_changes(semicolon=small.semicolon))
            else:
                body.append(kept)
                extra.append(
                    cst.SimpleStatementLine(
                        body=[moved.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)]
                    )
                )
        line = updated_node.with_changes(body=body)
        return cst.FlattenSentinel([line, *extra]) if extra else line

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = original_node.attr.value
        if name not in self.names:
            return updated_node
        if qualified(original_node.value, self.aliases) != self.old:
            return updated_node
        local = dotted_name(original_node.value)
        if local is None:
            return updated_node
        target = self.attribute_new
        if target == self.old or target.startswith(self.old + "."):
            module = local + target[len(self.old) :]
        else:
            module = self.module_ref(target)
        replacement = expression(f"{module}.{self.names[name]}")
        return replacement.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


def move_names(
    old: str,
    new: str,
    names: Mapping[str, str] | Sequence[str],
    keep_local: bool = True,
    attribute_new: str | None = None,
) -> Rewrite:
    """Some names of module `old` now live in `new` (optionally renamed)."""
    mapping = dict(names) if isinstance(names, Mapping) else {name: name for name in names}
    return cst_rewrite(
        lambda context: NameMover(context, old, new, mapping, keep_local, attribute_new)
    )


def _removed_line(
    line: cst.SimpleStatementLine,
) -> cst.SimpleStatementLine | cst.RemovalSentinel:
    """Remove a statement line; a line carrying comments becomes `pass` to keep them."""
    commented = line.trailing_whitespace.comment is not None or any(
        empty.comment is not None for empty in line.leading_lines
    )
    return line.with_changes(body=[cst.Pass()]) if commented else cst.RemoveFromParent()


class _StatementEditor(cst.CSTTransformer):
    """Edits or drops the small statements of each line (`edit`); a line left empty goes, and
    a block left empty gets `pass`."""

    def edit(self, small: cst.BaseSmallStatement) -> cst.BaseSmallStatement | None:
        """The statement, changed or as it is; None drops it."""
        raise NotImplementedError

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        body: list[cst.BaseSmallStatement] = []
        changed = False
        for small in updated_node.body:
            edited = self.edit(small)
            changed = changed or edited is not small
            if edited is not None:
                body.append(edited)
        if not changed:
            return updated_node
        if not body:
            return _removed_line(updated_node)
        body[-1] = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(body=body)

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        if updated_node.body:
            return updated_node
        return updated_node.with_changes(body=[cst.SimpleStatementLine(body=[cst.Pass()])])


class ImportedNameDropper(_StatementEditor):
    """Remove `names` from `from module import ...` (the statement too when none is left)."""

    def __init__(self, module: str, names: frozenset[str]) -> None:
        super().__init__()
        self.module, self.names = module, names

    def _drops(self, alias: cst.ImportAlias) -> bool:
        return isinstance(alias.name, cst.Name) and alias.name.value in self.names

    def edit(self, small: cst.BaseSmallStatement) -> cst.BaseSmallStatement | None:
        if (
            isinstance(small, cst.ImportFrom)
            and not small.relative
            and small.module is not None
            and dotted_name(small.module) == self.module
            and not isinstance(small.names, cst.ImportStar)
            and any(self._drops(alias) for alias in small.names)
        ):
            kept = [alias for alias in small.names if not self._drops(alias)]
            return small.with_changes(names=with_commas(kept)) if kept else None
        return small


def drop_imported_names(module: str, names: Sequence[str]) -> Rewrite:
    """`from module import gone, kept` -> `from module import kept` (for names now inlined)."""
    return cst_rewrite(lambda _context: ImportedNameDropper(module, frozenset(names)))


# --- calls matched by qualified name ----------------------------------------------------

CallBuilder = Callable[[cst.Call, "CallRewriter"], cst.BaseExpression | None]


class CallRewriter(ImportingTransformer):
    """Rewrite calls whose callee resolves (through the notebook's imports) to a target.

    The builder returns the new expression, or None to leave the call as it is.
    """

    def __init__(self, context: RuleContext, targets: Mapping[str, CallBuilder]) -> None:
        super().__init__(context)
        self.targets = targets

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        name = qualified(original_node.func, self.aliases)
        if name is None or name not in self.targets:
            return updated_node
        result = self.targets[name](updated_node, self)
        return updated_node if result is None else result


def rewrite_calls(targets: Mapping[str, CallBuilder]) -> Rewrite:
    return cst_rewrite(lambda context: CallRewriter(context, targets))


# --- removing statements ----------------------------------------------------------------


class StatementRemover(_StatementEditor):
    """Drop expression statements for which `drops(expression, context)` is true."""

    def __init__(
        self, context: RuleContext, drops: Callable[[cst.BaseExpression, RuleContext], bool]
    ) -> None:
        super().__init__()
        self.context, self.drops = context, drops

    def edit(self, small: cst.BaseSmallStatement) -> cst.BaseSmallStatement | None:
        dropped = isinstance(small, cst.Expr) and self.drops(small.value, self.context)
        return None if dropped else small


def remove_statements(drops: Callable[[cst.BaseExpression, RuleContext], bool]) -> Rewrite:
    return cst_rewrite(lambda context: StatementRemover(context, drops))
