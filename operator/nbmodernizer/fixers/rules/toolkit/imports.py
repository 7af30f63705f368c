"""Imports a rule's rewrite needs: how the notebook already names a module or an object, and
the one inserter that adds what is missing to the cell, once, after the rule's transform (the
LibCST codemod pattern: a transform asks for imports, `AddImportsVisitor` adds them after).

Where new imports go (one policy for every rule):

* a cell's first lines stay first: a cell magic's line (`%%time`, masked by
  `nbmodernizer.cells`), a module docstring, `from __future__` imports;
* `import m` / `import m as a` lines go right after those (so at the top of the cell's imports);
* `from m import n` joins the cell's first `from m import ...` when there is one; else its line
  goes after the cell's leading imports (line magics and a docstring may stand among them),
  and when the cell has no leading imports, a blank line separates it from the code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import libcst as cst

from nbmodernizer import cells
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.toolkit.nodes import COMMA, dotted_name

# Packages whose submodules are reachable as attributes once the top package is imported
# (eagerly imported, or lazily loaded on attribute access).
ATTRIBUTE_PACKAGES = frozenset({"numpy", "scipy", "tensorflow", "keras", "torch"})


@dataclass(frozen=True)
class Import:
    """`import module`, `import module as asname`, or `from module import name`."""

    module: str
    name: str | None = None
    asname: str | None = None

    @property
    def imported(self) -> str:
        """What the statement imports: `module [as asname]` or `name [as asname]`."""
        alias = f" as {self.asname}" if self.asname else ""
        return f"{self.module if self.name is None else self.name}{alias}"

    @property
    def code(self) -> str:
        if self.name is None:
            return f"import {self.imported}"
        return f"from {self.module} import {self.imported}"


# --- how the notebook names things ------------------------------------------------------------


def local_names(aliases: Mapping[str, str], target: str) -> list[str]:
    """The notebook's local names bound to `target` (a module or an object), shortest first."""
    return sorted((local for local, bound in aliases.items() if bound == target), key=_shortest)


def _shortest(name: str) -> tuple[int, str]:
    return len(name), name


def imports_module(context: RuleContext, root: str) -> bool:
    """Whether the notebook imports the top-level module `root` (or anything from it)."""
    return any(target.split(".")[0] == root for target in context.aliases.values())


def module_alias(context: RuleContext, module: str) -> str | None:
    """The local name under which the notebook imported this module (`lgb` for lightgbm)."""
    found = local_names(context.aliases, module)
    return found[0] if found else None


def naming(
    aliases: Mapping[str, str], module: str, alias: str | None = None
) -> tuple[str, Import | None]:
    """How a cell can name `module`, and the import that needs (None: none): `alias` when the
    notebook binds it to the module, else the notebook's own name for it (`np`, `tf.keras`
    under `import tensorflow as tf`), else `alias` or the dotted name, imported."""
    if alias is not None and aliases.get(alias) == module:
        return alias, None
    exact = local_names(aliases, module)
    if exact:
        return exact[0], None
    root, _, rest = module.partition(".")
    if rest and root in ATTRIBUTE_PACKAGES:
        roots = local_names(aliases, root)
        if roots:
            return f"{roots[0]}.{rest}", None
    if alias is None or alias == module:
        return module, Import(module)
    return alias, Import(module, asname=alias)


class ImportingTransformer(cst.CSTTransformer):
    """A transformer that may name modules or objects the cell has not imported: it asks
    `module_ref` / `local_name` how to name them, and the imports they need are added to
    the cell after the transform (`toolkit.cells.cst_rewrite`)."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.aliases = context.aliases
        self.imports: list[Import] = []

    def need(self, request: Import) -> None:
        if request not in self.imports:
            self.imports.append(request)

    def module_ref(self, module: str, alias: str | None = None) -> str:
        """How the cell can name `module` (see `naming`); the import it needs is added."""
        name, request = naming(self.aliases, module, alias)
        if request is not None:
            self.need(request)
        return name

    def local_name(self, qualified_name: str) -> str:
        """The name the notebook binds to `qualified_name` (a module's object), else its
        last part, and then `from module import name` is added."""
        found = local_names(self.aliases, qualified_name)
        if found:
            return found[0]
        source, _, name = qualified_name.rpartition(".")
        self.need(Import(source, name))
        return name


# --- the inserter -------------------------------------------------------------------------------


def _masked(statement: cst.BaseStatement, which: Callable[[str], bool] | None = None) -> bool:
    """A masked IPython line (`pass  # __nbmodernizer_masked_N__`)."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    comment = statement.trailing_whitespace.comment
    return (
        isinstance(statement.body[0], cst.Pass)
        and comment is not None
        and cells.is_mask_comment(comment.value)
        and (which is None or which(comment.value))
    )


def _is_docstring(statement: cst.BaseStatement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, cst.SimpleString | cst.ConcatenatedString)
    )


def _is_future(statement: cst.BaseStatement) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and any(
        isinstance(small, cst.ImportFrom)
        and small.module is not None
        and dotted_name(small.module) == "__future__"
        for small in statement.body
    )


def _is_imports(statement: cst.BaseStatement) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(small, cst.Import | cst.ImportFrom) for small in statement.body
    )


def first_lines_end(body: Sequence[cst.BaseStatement]) -> int:
    """Index after what must stay first in a cell: a cell magic's line, a docstring,
    `from __future__` imports (a statement a rule adds goes after them)."""
    position = 0
    if position < len(body) and _masked(body[position], cells.is_masked_cell_magic):
        position += 1
    if position < len(body) and _is_docstring(body[position]):
        position += 1
    while position < len(body) and _is_future(body[position]):
        position += 1
    return position


def _leading_imports_end(body: Sequence[cst.BaseStatement]) -> int:
    """Index after the cell's leading imports (an expression first, such as a docstring, and
    IPython lines such as `%matplotlib inline` may come among them); 0 if none."""
    end = 0
    for index, statement in enumerate(body):
        if _is_imports(statement):
            end = index + 1
        elif _masked(statement):
            continue
        elif not (
            index == 0
            and isinstance(statement, cst.SimpleStatementLine)
            and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)
        ):
            break
    return end


def _present(body: Sequence[cst.BaseStatement]) -> set[tuple[str, str | None]]:
    """(module, asname) of the cell's top-level `import` statements."""
    found: set[tuple[str, str | None]] = set()
    for statement in body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Import):
                for alias in small.names:
                    module = dotted_name(alias.name)
                    asname = alias.asname.name if alias.asname else None
                    if module is not None:
                        found.add((module, asname.value if isinstance(asname, cst.Name) else None))
    return found


def _alias(request: Import, comma: cst.Comma) -> cst.ImportAlias:
    assert request.name is not None
    asname = cst.AsName(name=cst.Name(request.asname)) if request.asname else None
    return cst.ImportAlias(name=cst.Name(request.name), asname=asname, comma=comma)


def _merged(node: cst.ImportFrom, requests: Sequence[Import]) -> cst.ImportFrom:
    """`from m import a` with the requested names added, in its layout (one name a line stays
    so)."""
    assert not isinstance(node.names, cst.ImportStar)
    last = node.names[-1]
    opening = node.lpar.whitespace_after if node.lpar else None
    if isinstance(last.comma, cst.Comma) and isinstance(opening, cst.ParenthesizedWhitespace):
        between = cst.Comma(whitespace_after=opening)
        added = [_alias(request, between) for request in requests]
        added[-1] = added[-1].with_changes(comma=last.comma)
        return node.with_changes(names=[*node.names[:-1], last.with_changes(comma=between), *added])
    aliases = [*node.names[:-1], last.with_changes(comma=COMMA)]
    aliases += [_alias(request, COMMA) for request in requests]
    aliases[-1] = aliases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return node.with_changes(names=aliases)


def _merge_from_imports(
    body: list[cst.BaseStatement], pending: dict[str, list[Import]]
) -> list[cst.BaseStatement]:
    """Names to import from a module the cell's first `from module import ...` already
    imports from join that statement; `pending` keeps the modules it has no such statement for."""
    for index, statement in enumerate(body):
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        small = list(statement.body)
        for n, node in enumerate(small):
            if not isinstance(node, cst.ImportFrom) or node.module is None or node.relative:
                continue
            module = dotted_name(node.module)
            if module is None or module not in pending or isinstance(node.names, cst.ImportStar):
                continue
            present = {alias.evaluated_alias or alias.evaluated_name for alias in node.names}
            missing = [r for r in pending.pop(module) if (r.asname or r.name) not in present]
            if missing:
                small[n] = _merged(node, missing)
                body[index] = statement.with_changes(body=small)
    return body


def add_imports(module: cst.Module, requests: Sequence[Import]) -> cst.Module:
    """The cell with the requested imports it lacks (see the module's docstring for where)."""
    body: list[cst.BaseStatement] = list(module.body)
    present = _present(body)
    plain: list[Import] = []
    pending: dict[str, list[Import]] = {}  # module -> what to import from it
    for request in requests:
        if request.name is None:
            if (request.module, request.asname) not in present and request not in plain:
                plain.append(request)
        elif request not in (named := pending.setdefault(request.module, [])):
            named.append(request)
    if pending:
        body = _merge_from_imports(body, pending)
    first = first_lines_end(body)
    if plain:
        lines = [cst.parse_statement(request.code + "\n") for request in plain]
        body[first:first] = lines
        first += len(lines)
    from_lines: list[cst.BaseStatement] = [
        cst.parse_statement(f"from {source} import {', '.join(r.imported for r in named)}\n")
        for source, named in pending.items()
    ]
    if from_lines:
        end = _leading_imports_end(body)
        position = max(end, first)
        if end == 0 and position < len(body):  # no imports before the code: a blank line
            following = body[position]
            if isinstance(following, cst.SimpleStatementLine | cst.BaseCompoundStatement):
                blank = cst.EmptyLine(indent=False, whitespace=cst.SimpleWhitespace(""))
                body[position] = following.with_changes(
                    leading_lines=[blank, *following.leading_lines]
                )
        body[position:position] = from_lines
    if not plain and not from_lines and body == list(module.body):
        return module
    return module.with_changes(body=body)
