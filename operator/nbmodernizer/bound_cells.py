"""What each code cell of a run binds, fingerprinted in the notebook's own kernel (issue #22).

The differential run executes revision 0 in an era's interpreter and the final revision today,
and compares, cell by cell, the values the cells bind. `CellRecorder` is an `execute.CellHook`:
before the first cell it executes `bound_values.py` (standard library only: it runs in any
kernel, an era's too) as a hidden module of the kernel, and after each cell it asks that
module, in a silent request's `user_expressions`, for the fingerprints of the names the cell
bound or rebound and of those it may change in place (`mutated_names`, read here from the
cell's syntax: `df['a'][mask] = 1` changes `df` without rebinding it). No cell is added:
the executed notebook and its execution counts are the run's own.

What the kernel answers is the notebook's (untrusted): its size is bounded before it is read,
it is read with `ast.literal_eval` and `json`, never evaluated, and its shape is checked;
whatever does not fit is a cell whose recording failed, never an exception.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nbmodernizer.notebook import CodeCell, Notebook, code_cells
from nbmodernizer.oracle import CellPrint, read_cell
from nbmodernizer.store.revisions import RevisionStore

SCRIPT = Path(__file__).with_name("bound_values.py")
MODULE = "_nbmodernizer_bound_values"
MAX_REPLY_CHARS = 450_000  # a cell's answer: bound_values.CELL_TEXT, escaped once by repr
MAX_RECORD_BYTES = 32 * 2**20  # a stored record of every cell
REQUEST_TIMEOUT_SECONDS = 120
MAX_ERROR_CHARS = 300


# -- which names a cell may change ---------------------------------------------------------


def _base_name(node: ast.expr) -> str | None:
    """`df` of `df['a'][mask]`, `df.a.b`, `df.loc[...]`; None for anything else."""
    while isinstance(node, ast.Subscript | ast.Attribute | ast.Starred):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _top_level_nodes(tree: ast.Module) -> list[ast.AST]:
    """Every node of the cell outside function and class bodies (whose names are local)."""
    found: list[ast.AST] = []
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        found.append(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        todo.extend(ast.iter_child_nodes(node))
    return found


def mutated_names(cell: CodeCell) -> list[str]:
    """The names a cell may bind or change in place: assignment targets, the base names of
    subscript and attribute targets (`df['a'][mask] = 1`: `df`), and the receivers of method
    calls made as statements (`df.dropna(inplace=True)`, `rows.append(x)`). Rebinding that the
    syntax does not show (`global`, `exec`) the kernel finds by identity."""
    tree = cell.tree
    if tree is None:
        return []
    names: set[str] = set()
    for node in _top_level_nodes(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Subscript | ast.Attribute) and isinstance(
            node.ctx, ast.Store | ast.Del
        ):
            names.add(_base_name(node) or "")
        elif (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
        ):
            names.add(_base_name(node.value.func.value) or "")
    names.discard("")
    return sorted(names)


# -- the kernel's side -----------------------------------------------------------------------


def _setup_expression() -> str:
    """An expression that makes bound_values.py the kernel's hidden module MODULE (an
    expression, so that nothing is bound in the notebook's namespace) and says "ready"."""
    source = SCRIPT.read_text(encoding="utf-8")
    return (
        f"(lambda m: (exec(compile({source!r}, 'bound_values.py', 'exec'), m.__dict__), "
        "m.__dict__.__setitem__('CELLS', m.Cells()), "
        f"__import__('sys').modules.__setitem__({MODULE!r}, m), 'ready')[-1])"
        f"(__import__('types').ModuleType({MODULE!r}))"
    )


def _cell_expression(mutated: Sequence[str]) -> str:
    return (
        f"__import__('sys').modules[{MODULE!r}].CELLS.after("
        "__import__('IPython').get_ipython().user_ns, "
        f"__import__('IPython').get_ipython().user_ns_hidden, {list(mutated)!r})"
    )


def _answer(reply: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """The text a `user_expressions` request's one expression gave, or why there is none."""
    content = reply.get("content")
    if not isinstance(content, Mapping) or content.get("status") != "ok":
        return None, "the kernel did not answer the request"
    expressions = content.get("user_expressions")
    found = expressions.get("x") if isinstance(expressions, Mapping) else None
    if not isinstance(found, Mapping):
        return None, "no answer"
    if found.get("status") != "ok":
        said = f"{found.get('ename', '')}: {found.get('evalue', '')}"
        return None, said[:MAX_ERROR_CHARS]
    data = found.get("data")
    text = data.get("text/plain") if isinstance(data, Mapping) else None
    if not isinstance(text, str):
        return None, "no text in the answer"
    if len(text) > MAX_REPLY_CHARS:
        return None, f"an answer of {len(text)} characters, more than {MAX_REPLY_CHARS}"
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None, "the answer is not a string"
    if not isinstance(value, str):
        return None, "the answer is not a string"
    return value, None


@dataclass
class CellRecorder:
    """An `execute.CellHook`: the fingerprints of what each cell of one run bound, by the
    cell's index in the notebook. A cell the run never reached has none."""

    mutated: Mapping[int, Sequence[str]]
    cells: dict[int, CellPrint] = field(default_factory=dict)
    broken: str | None = None  # the kernel stopped answering: no later cell is recorded

    @classmethod
    def of(cls, notebook: Notebook) -> CellRecorder:
        return cls({cell.index: mutated_names(cell) for cell in code_cells(notebook)})

    async def _ask(self, client: Any, expression: str) -> tuple[str | None, str | None]:
        try:
            reply = await client.execute_interactive(
                "",
                silent=True,
                store_history=False,
                user_expressions={"x": expression},
                timeout=REQUEST_TIMEOUT_SECONDS,
                output_hook=lambda _message: None,
            )
        except TimeoutError:
            self.broken = f"no answer in {REQUEST_TIMEOUT_SECONDS} s"
            return None, self.broken
        except Exception as error:  # the kernel went away: the run itself will say how
            self.broken = f"the request failed: {str(error)[:MAX_ERROR_CHARS]}"
            return None, self.broken
        return _answer(reply)

    async def __call__(self, index: int, client: Any) -> None:
        if self.broken is not None:
            self.cells[index] = CellPrint(error=self.broken)
            return
        if not self.cells:
            ready, error = await self._ask(client, _setup_expression())
            if ready != "ready":
                self.broken = f"bound_values.py cannot run in the kernel: {error or ready}"
                self.cells[index] = CellPrint(error=self.broken)
                return
        text, error = await self._ask(client, _cell_expression(self.mutated.get(index, ())))
        if text is None:
            self.cells[index] = CellPrint(error=error)
            return
        try:
            self.cells[index] = read_cell(json.loads(text))
        except ValueError:
            self.cells[index] = CellPrint(error="the answer is not JSON")


def write_record(store: RevisionStore, revision: int, name: str, document: Any) -> None:
    text = json.dumps(document, indent=2, sort_keys=True) + "\n"
    store.put(revision, name, text.encode())


def read_record(store: RevisionStore, revision: int, name: str) -> Any | None:
    """A stored JSON record (bounded); None when absent. ValueError when too large or not
    JSON."""
    data = store.get_at_most(revision, name, MAX_RECORD_BYTES)
    if data is None:
        return None
    if isinstance(data, int):
        raise ValueError(f"{name}: {data} bytes, more than {MAX_RECORD_BYTES}")
    return json.loads(data)
