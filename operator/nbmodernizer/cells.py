"""One way to read a code cell, used by the execution, the rules, the LLM fixer and fidelity.

A notebook cell is IPython, not Python. Before `ast` or LibCST can read it:

* IPython-only lines are masked: line magics (`%matplotlib inline`), shell lines (`!pip ...`,
  `files = !ls`), help lines (`df?`, `??np.mean`). Each becomes `pass  # __nbmodernizer_masked_N__`
  with the same indentation; `unmask` puts the originals back.
* A cell magic decides what the cell is. `%%time`, `%%capture`, `%%timeit`, ... run their body
  as Python: the magic's line is masked like a line magic (it stays the first line) and the body
  is read as Python. `%%bash`, `%%writefile`, `%%html`, ... are not Python at all.
* A cell that does not parse as Python 3 is tried once more with the commonest Python 2
  statements rewritten (`print x`, `except E, e:`, `raise E, msg`): if that parses, the cell is
  Python 2, and `python2_tree` is what it means.

No third-party imports: running a notebook must not pay for LibCST or IPython to read one.
"""

from __future__ import annotations

import ast
import functools
import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

# `%%` cell magics whose body is Python, run in the kernel.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "python", "python3"})

_LINE = re.compile(r"^(?P<indent>[ \t]*)(?P<body>(?:%|!|[A-Za-z_][\w.]*\s*=\s*[!%]).*)$")
_HELP = re.compile(r"^(?P<indent>[ \t]*)(?:\?{1,2}[\w.]+|[\w.]+\?{1,2})[ \t]*$")
_MASK_COMMENT = "# __nbmodernizer_masked_{}__"  # N: the masked line's place in `originals`
_PLACEHOLDER = "pass  " + _MASK_COMMENT
_CELL_MAGIC_SUFFIX = " (cell magic)"
_MASKED = re.compile(re.escape(_MASK_COMMENT).replace(r"\{\}", r"(\d+)"))

_PY2_PRINT = re.compile(r"^([ \t]*)print(?:[ \t]+([^\s(=.,;#].*?))?[ \t]*$", re.M)
_PY2_PRINT_TO = re.compile(r">>\s*([^,]+),\s*(.*)")
_PY2_EXCEPT = re.compile(r"^([ \t]*except[ \t]+.+?),[ \t]*([A-Za-z_]\w*)[ \t]*:", re.M)
_PY2_RAISE = re.compile(r"^([ \t]*raise[ \t]+[\w.]+)[ \t]*,[ \t]*(.+?)[ \t]*$", re.M)
# Parsed.error of a cell nested too deeply for Python's own parser
TOO_DEEP = "too deeply nested for the parser"
_IMPORT_LINE = re.compile(r"^[ \t]*(?:import[ \t]+\S|from[ \t]+[\w.]+[ \t]+import[ \t])")


@dataclass(frozen=True)
class Parsed:
    source: str  # the cell as written
    masked: str  # IPython-only lines replaced by placeholders (see the module's docstring)
    originals: list[str]  # the masked lines, the N of their placeholders
    tree: ast.Module | None  # None: not Python, or does not parse as Python 3
    cell_magic: str | None  # "time" for a `%%time` cell; None without a cell magic
    python2_tree: ast.Module | None = None  # a Python 2 cell, read as Python 3
    error: str | None = None  # why a Python cell does not parse: "line 3: invalid syntax"

    @property
    def is_python(self) -> bool:
        """The cell is meant as Python (no cell magic, or one that runs its body as Python)."""
        return self.cell_magic is None or self.cell_magic in PYTHON_CELL_MAGICS

    @property
    def python2(self) -> bool:
        return self.python2_tree is not None


def cell_magic_name(source: str) -> str | None:
    """`time` for a cell that starts with `%%time ...`; None for a cell without a cell magic."""
    stripped = source.lstrip()
    if not stripped.startswith("%%"):
        return None
    words = stripped[2:].split(maxsplit=1)
    return words[0] if words else ""


def parse(source: str) -> Parsed:
    magic = cell_magic_name(source)
    if magic is not None and magic not in PYTHON_CELL_MAGICS:
        return Parsed(source, source, [], None, magic)
    masked, originals = _mask(source, cell_magic=magic is not None)
    tree, error = _ast(masked)
    if tree is not None:
        return Parsed(source, masked, originals, tree, magic)
    python2_tree, _ = _ast(_python2_to_3(masked))
    return Parsed(source, masked, originals, None, magic, python2_tree, error)


def unmask(code: str, originals: list[str]) -> str:
    """Put the masked lines back into (possibly rewritten) masked code."""
    if not originals:
        return code
    lines = code.split("\n")
    for index, line in enumerate(lines):
        found = _MASKED.search(line)
        if found:
            lines[index] = originals[int(found.group(1))]
    return "\n".join(lines)


def is_mask_comment(comment: str) -> bool:
    """Whether a comment is a masked line's placeholder comment (`# __nbmodernizer_masked_N__`)."""
    return _MASKED.match(comment) is not None


def is_masked_cell_magic(line: str) -> bool:
    """Whether a masked line stands for a cell magic's first line (which must stay first)."""
    return _MASKED.search(line) is not None and line.rstrip().endswith(_CELL_MAGIC_SUFFIX)


def imports(
    sources: Iterable[str], reader: Callable[[str], Parsed] | None = None
) -> dict[str, str]:
    """Local name -> qualified name for every import in these cells (`np` -> `numpy`,
    `train_test_split` -> `sklearn.model_selection.train_test_split`). Cells that parse are
    read from their tree, Python 2 cells from their Python 3 reading, and the rest line by
    line; a name bound by a cell that parses wins over the same name read otherwise.
    `reader`: `parse`, or a caller's cache of it."""
    parsed_aliases: dict[str, str] = {}
    other_aliases: dict[str, str] = {}
    for source in sources:
        parsed = (reader or parse)(source)
        if not parsed.is_python:
            continue
        if parsed.tree is not None:
            _add_imports(parsed.tree, parsed_aliases)
        elif parsed.python2_tree is not None:
            _add_imports(parsed.python2_tree, other_aliases)
        else:
            for line in parsed.masked.split("\n"):
                if _IMPORT_LINE.match(line):
                    tree, _ = _ast(line.strip().split(";")[0])
                    if tree is not None:
                        _add_imports(tree, other_aliases)
    return {**other_aliases, **parsed_aliases}


@dataclass(frozen=True)
class TreeIndex:
    """An `ast` tree read in one walk for all who look at it (the notebook's imports and
    frames, the rules' triggers, the depth check): its nodes by their exact type, in no
    particular order, and how deep it nests (its root at level 0). Not to be changed."""

    by_type: Mapping[type, Sequence[ast.AST]]
    depth: int


@functools.lru_cache(maxsize=1024)
def tree_index(tree: ast.AST) -> TreeIndex:
    """The tree's index, kept for the last trees read (a tree is hashed by identity)."""
    found: dict[type, list[ast.AST]] = {}
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    depth = 0
    while stack:  # `ast.walk`, without its generators (a third faster), levels counted
        node, level = stack.pop()
        depth = max(depth, level)
        bucket = found.get(type(node))
        if bucket is None:
            found[type(node)] = [node]
        else:
            bucket.append(node)
        level += 1
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                stack += [(item, level) for item in value if isinstance(item, ast.AST)]
            elif isinstance(value, ast.AST):
                stack.append((value, level))
    return TreeIndex(found, depth)


@functools.lru_cache(maxsize=1024)  # asked by every trigger: a cache hit costs less than a call
def nodes_by_type(tree: ast.AST) -> Mapping[type, Sequence[ast.AST]]:
    """The tree's nodes by their exact type (`tree_index`)."""
    return tree_index(tree).by_type


def imported_modules(sources: Iterable[str]) -> set[str]:
    """The top-level modules these cells import (`sklearn` for `from sklearn.svm import SVC`)."""
    return {qualified.split(".")[0] for qualified in imports(sources).values()}


def _add_imports(tree: ast.Module, aliases: dict[str, str]) -> None:
    by_type = nodes_by_type(tree)
    found = cast(
        "list[ast.Import | ast.ImportFrom]",
        [*by_type.get(ast.Import, ()), *by_type.get(ast.ImportFrom, ())],
    )
    # in the order they are written: the later import of a name wins
    for node in sorted(found, key=lambda node: (node.lineno, node.col_offset)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    aliases.setdefault(top, top)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if alias.name != "*":
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"


def _mask(source: str, *, cell_magic: bool) -> tuple[str, list[str]]:
    masked: list[str] = []
    originals: list[str] = []
    indent: str | None = None  # set while inside a masked line's backslash continuation
    lines = source.split("\n")
    # IPython drops blank lines before a cell magic: its line is the first that is not blank
    magic_line = next((n for n, line in enumerate(lines) if line.strip()), 0) if cell_magic else -1
    python = _Continuation()  # reads the Python lines up to the one being decided
    for number, line in enumerate(lines):
        if number == magic_line:
            masked.append(_PLACEHOLDER.format(len(originals)) + _CELL_MAGIC_SUFFIX)
            originals.append(line)
            continue
        if indent is None and not line.lstrip().startswith("%%"):
            match = _LINE.match(line) or _HELP.match(line)
            if match and not python.continues(masked):
                indent = match.group("indent")
        if indent is not None:
            masked.append(f"{indent}{_PLACEHOLDER.format(len(originals))}")
            originals.append(line)
            indent = indent if line.rstrip().endswith("\\") else None
        else:
            masked.append(line)
    return "\n".join(masked), originals


# What decides whether a line continues the statement before it: string delimiters, escapes,
# comments, brackets, and a backslash that ends the line.
_CONTINUATION_TOKEN = re.compile(r"\\.|\\$|'''|\"\"\"|['\"#()\[\]{}]")
_OPENING, _CLOSING = "([{", ")]}"


class _Continuation:
    """Whether the next line continues a statement: inside an open bracket, a triple-quoted
    string, or after a backslash at the end of the line before. IPython decides the same way
    (its TransformerManager splits a cell into logical lines with Python's tokenizer, and
    looks for `%`, `!`, `?` only at the start of one): `print("%.2f"\n  % x)` has no magic.

    Lines are read only when a line that looks like a magic is to be decided, so a cell
    without one pays nothing."""

    def __init__(self) -> None:
        self.read = 0  # lines of the cell read so far
        self.depth = 0
        self.quote: str | None = None  # the delimiter of an open string
        self.backslash = False  # the last line read ended with a backslash

    def continues(self, lines: list[str]) -> bool:
        """Whether the line after `lines` (the cell so far, magics masked) continues them."""
        for line in lines[self.read :]:
            self._read(line)
        self.read = len(lines)
        return self.depth > 0 or self.quote is not None or self.backslash

    def _read(self, line: str) -> None:
        self.backslash = False
        for token in _CONTINUATION_TOKEN.finditer(line.rstrip("\r")):
            text = token.group()
            if self.quote is not None:
                if text == "\\":  # the end of the line inside a string: it goes on
                    self.backslash = len(self.quote) == 1
                elif text == self.quote:
                    self.quote = None
            elif text == "#":
                break
            elif text == "\\":
                self.backslash = True
            elif text in _OPENING:
                self.depth += 1
            elif text in _CLOSING:
                self.depth = max(0, self.depth - 1)
            elif not text.startswith("\\"):
                self.quote = text
        if self.quote is not None and len(self.quote) == 1 and not self.backslash:
            self.quote = None  # an unterminated short string ends with its line


def deeper_than(tree: ast.Module, limit: int) -> bool:
    """Whether the tree nests deeper than `limit` levels below the module (LibCST's walk,
    recursive, takes about seven Python frames a level of `[[[...]]]`)."""
    return tree_index(tree).depth > limit


def _ast(code: str) -> tuple[ast.Module | None, str | None]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning: invalid escape sequence, ...
            return ast.parse(code), None
    except SyntaxError as error:
        return None, f"line {error.lineno}: {error.msg}"
    except RecursionError:
        return None, TOO_DEEP
    except (ValueError, MemoryError) as error:
        return None, str(error) or type(error).__name__


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
