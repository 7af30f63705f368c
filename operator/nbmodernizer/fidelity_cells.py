"""The code cells `fidelity` compares: their text, their syntax tree and a text similarity.

IPython syntax is masked before parsing, and a cell that does not parse is retried with the
commonest Python 2 statements rewritten; a cell that still does not parse has no tree.
"""

from __future__ import annotations

import ast
import difflib
import re
import warnings
from dataclasses import dataclass

from nbmodernizer.ipython_lines import mask_ipython
from nbmodernizer.notebook import Notebook

_CHAR_DIFF_LIMIT = 250_000  # len(a) * len(b) above which changed lines are diffed by tokens

# `%%` cell magics whose body is Python.
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "python", "python3"})
_HELP = re.compile(r"^([ \t]*)(?:\?{1,2}[\w.]+|[\w.]+\?{1,2})[ \t]*$", re.M)
_PY2_PRINT = re.compile(r"^([ \t]*)print(?:[ \t]+([^\s(=.,;#].*?))?[ \t]*$", re.M)
_PY2_PRINT_TO = re.compile(r">>\s*([^,]+),\s*(.*)")
_PY2_EXCEPT = re.compile(r"^([ \t]*except[ \t]+.+?),[ \t]*([A-Za-z_]\w*)[ \t]*:", re.M)
_PY2_RAISE = re.compile(r"^([ \t]*raise[ \t]+[\w.]+)[ \t]*,[ \t]*(.+?)[ \t]*$", re.M)
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


# ---------------------------------------------------------------- cells


@dataclass(frozen=True)
class Cell:
    index: int  # position in the notebook's `cells` array
    source: str
    tree: ast.Module | None  # None: the cell does not parse


def code_cells(notebook: Notebook) -> list[Cell]:
    cells: list[Cell] = []
    for index, cell in enumerate(notebook.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        text = "".join(map(str, source)) if isinstance(source, list) else str(source)
        cells.append(Cell(index, text, _parse(text)))
    return cells


def _parse(source: str) -> ast.Module | None:
    """The cell's syntax tree with IPython syntax masked, trying Python 2 idioms as Python 3."""
    if source.lstrip().startswith("%%"):
        magic, _, body = source.lstrip().partition("\n")
        name = magic[2:].split(maxsplit=1)
        if not name or name[0] not in _PYTHON_CELL_MAGICS:
            return None
        source = body
    masked = _HELP.sub(r"\1pass", mask_ipython(source)[0])
    for candidate in (masked, _python2_to_3(masked)):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # SyntaxWarning: invalid escape sequence, ...
                return ast.parse(candidate)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    return None


def _python2_to_3(source: str) -> str:
    """Rewrite the commonest Python 2 statements (print, except X, e, raise E, msg)."""

    def print_call(match: re.Match[str]) -> str:
        indent, args = match.group(1), match.group(2) or ""
        to_file = _PY2_PRINT_TO.fullmatch(args)
        if to_file:
            args = f"{to_file.group(2)}, file={to_file.group(1)}"
        return f"{indent}print({args})"

    source = _PY2_PRINT.sub(print_call, source)
    source = _PY2_EXCEPT.sub(r"\1 as \2:", source)
    return _PY2_RAISE.sub(r"\1(\2)", source)


# ---------------------------------------------------------------- text similarity


def ratio(a: str, b: str) -> float:
    """`SequenceMatcher(a, b).ratio()` over characters, computed line first to stay fast."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    return 2.0 * _matching_chars(a, b) / (len(a) + len(b))


def _matching_chars(a: str, b: str) -> int:
    a_lines, b_lines = a.splitlines(keepends=True), b.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, a_lines, b_lines, autojunk=False)
    total = 0
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            total += sum(len(line) for line in a_lines[i1:i2])
        elif tag == "replace":
            total += _matching_run("".join(a_lines[i1:i2]), "".join(b_lines[j1:j2]))
    return total


def _matching_run(a: str, b: str) -> int:
    """Matching characters of two runs of changed lines: by character, or by token if long."""
    if len(a) * len(b) <= _CHAR_DIFF_LIMIT:
        blocks = difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()
        return sum(block.size for block in blocks)
    a_tokens, b_tokens = _TOKEN.findall(a), _TOKEN.findall(b)
    matcher = difflib.SequenceMatcher(None, a_tokens, b_tokens, autojunk=False)
    return sum(
        len(token)
        for block in matcher.get_matching_blocks()
        for token in a_tokens[block.a : block.a + block.size]
    )
