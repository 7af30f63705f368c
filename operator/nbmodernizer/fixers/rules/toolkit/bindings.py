"""What a name is bound to: the names a notebook binds only to pandas objects.

A rule that rewrites a DataFrame or Series (`df['a'][m] = v` -> `df.loc[m, 'a'] = v`) must
know that it is one: the same code on a dict of frames, a dict of arrays or any object with
`__getitem__` means something else, and the rewrite would break it. A name counts as a pandas
object when every binding of it in the notebook (all cells, every scope: a cheap reading, not
a flow analysis) is one of

* a pandas constructor or reader: `pd.DataFrame(...)`, `pd.read_csv(...)`, `pd.concat(...)`
  (not a reader that may return something else: `read_csv(..., chunksize=...)`, `read_html`,
  `read_excel(sheet_name=...)`, `read_pickle`);
* a method of a pandas object that returns one: `df.copy()`, `df.dropna()`, `df.groupby(k).mean()`
  (not with `inplace=True`, which returns None);
* a subscript or column attribute of one: `df['a']`, `df[mask]`, `df.loc[rows]`, `df.age`;
* arithmetic on one: `df['a'] * 2`;
* a loop over pandas objects: `for frame in [train, test]`.

Any other binding (a dict, a call to a function it cannot see into, `df.values`) makes the name
unknown: a rule then leaves it alone (or acts only on the line that raised).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import libcst as cst

from nbmodernizer.cells import nodes_by_type
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.toolkit.cells import read_text

# pandas functions that return a DataFrame or Series
_CONSTRUCTORS = frozenset(
    {
        "DataFrame", "Series", "concat", "merge", "merge_asof", "merge_ordered", "get_dummies",
        "pivot", "pivot_table", "crosstab", "melt", "wide_to_long", "json_normalize",
    }
)  # fmt: skip
# readers that may return something else (a list, a dict, an iterator, any pickled object)
_NOT_FRAME_READERS = frozenset({"read_html", "read_pickle", "read_clipboard", "read_spss"})
_ITERATING = frozenset({"chunksize", "iterator", "sheet_name"})

# methods of a DataFrame / Series that return a DataFrame / Series
_FRAME_METHODS = frozenset(
    {
        "copy", "head", "tail", "dropna", "fillna", "ffill", "bfill", "drop", "rename",
        "reset_index", "set_index", "sort_values", "sort_index", "merge", "join", "astype",
        "query", "assign", "pivot", "pivot_table", "melt", "sample", "replace", "describe",
        "corr", "cov", "transpose", "select_dtypes", "filter", "nlargest", "nsmallest",
        "drop_duplicates", "where", "mask", "isnull", "isna", "notnull", "notna", "abs",
        "round", "clip", "cumsum", "cumprod", "diff", "shift", "pct_change", "rank",
        "interpolate", "reindex", "stack", "unstack", "explode", "map", "isin", "between",
        "value_counts", "to_frame", "agg", "aggregate", "transform", "mean",
        "sum", "median", "std", "var", "min", "max", "count", "size", "first", "last",
        "nunique", "apply", "combine_first", "infer_objects", "convert_dtypes", "droplevel",
        "swaplevel", "set_axis", "add_prefix", "add_suffix", "truncate", "asfreq",
    }
)  # fmt: skip
# calls after which the chain is a pandas object again: `df.groupby(k).mean()`
_INTERMEDIATE = frozenset({"groupby", "rolling", "expanding", "ewm", "resample", "str", "dt"})
_AGGREGATES = frozenset(
    {"mean", "sum", "median", "std", "var", "min", "max", "count", "size", "first", "last",
     "nunique", "agg", "aggregate", "transform", "apply", "cumsum", "cumcount", "rank",
     "head", "tail", "shift", "diff", "quantile", "prod", "describe", "replace", "lower",
     "upper", "strip", "contains", "len", "split", "extract", "year", "month", "day"}
)  # fmt: skip
# attributes of a DataFrame / Series that are not a DataFrame / Series (the others: columns)
_NOT_FRAME_ATTRIBUTES = frozenset(
    {
        "values", "index", "columns", "shape", "dtypes", "dtype", "size", "ndim", "empty",
        "array", "str", "dt", "cat", "plot", "loc", "iloc", "at", "iat", "ix", "name", "names",
        "axes", "flags", "attrs", "sparse", "nbytes", "hasnans", "is_unique", "style",
        "groups", "indices", "ngroups",
    }
)  # fmt: skip
_ROW_INDEXERS = frozenset({"loc", "iloc"})


class _Bindings:
    def __init__(self, aliases: Mapping[str, str]) -> None:
        self.aliases = aliases
        self.frames: set[str] = set()  # names with a binding to a pandas object
        self.others: set[str] = set()  # names with a binding to anything else (or unknown)
        self.pending: list[tuple[str, ast.expr]] = []  # bindings read once the names are known

    def bind(self, target: ast.expr, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            if value is None:
                self.others.add(target.id)
            else:
                self.pending.append((target.id, value))
        elif isinstance(target, ast.Tuple | ast.List):
            values = value.elts if isinstance(value, ast.Tuple | ast.List) else None
            for n, element in enumerate(target.elts):
                inner = element.value if isinstance(element, ast.Starred) else element
                same = values is not None and len(values) == len(target.elts)
                self.bind(inner, values[n] if same and values is not None else None)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, None)

    def loop(self, target: ast.expr, items: ast.expr) -> None:
        if isinstance(target, ast.Name) and isinstance(items, ast.List | ast.Tuple) and items.elts:
            for element in items.elts:
                self.pending.append((target.id, element))
        else:
            self.bind(target, None)

    def settle(self) -> frozenset[str]:
        """Names whose every binding is a pandas object (bindings that name others are read
        until nothing changes: `a = pd.read_csv(p)`, `b = a.copy()`)."""
        values: dict[str, list[ast.expr]] = {}
        for name, value in self.pending:
            values.setdefault(name, []).append(value)
        known: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, bound in values.items():
                if name in known or name in self.others:
                    continue
                if all(self.is_frame(value, known) for value in bound):
                    known.add(name)
                    changed = True
        return frozenset(known)

    def is_frame(self, node: ast.expr, known: set[str]) -> bool:
        if isinstance(node, ast.Name):
            return node.id in known
        if isinstance(node, ast.Subscript):
            return self._subscript(node, known)
        if isinstance(node, ast.Attribute):
            return node.attr not in _NOT_FRAME_ATTRIBUTES and self.is_frame(node.value, known)
        if isinstance(node, ast.BinOp):
            return self.is_frame(node.left, known) or self.is_frame(node.right, known)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.Invert):
            return self.is_frame(node.operand, known)
        if isinstance(node, ast.Call):
            return self._call(node, known)
        return False

    def _subscript(self, node: ast.Subscript, known: set[str]) -> bool:
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr in _ROW_INDEXERS:
            # `df.loc[rows]`, `df.loc[rows, ['a', 'b']]`; not `df.loc[0, 'a']` (a scalar)
            if not self.is_frame(value.value, known):
                return False
            key = node.slice
            if not isinstance(key, ast.Tuple):
                return True
            return any(isinstance(k, ast.Slice | ast.List) for k in key.elts)
        return self.is_frame(value, known)

    def _call(self, node: ast.Call, known: set[str]) -> bool:
        func = node.func
        keywords = {k.arg for k in node.keywords}
        if _is_true(node, "inplace"):
            return False
        qualified = self._qualified(func)
        if qualified is not None and qualified.startswith("pandas."):
            name = qualified.rsplit(".", 1)[-1]
            if name.startswith("read_"):
                return name not in _NOT_FRAME_READERS and not (_ITERATING & keywords)
            return name in _CONSTRUCTORS
        if not isinstance(func, ast.Attribute):
            return False
        receiver = func.value
        if func.attr in _AGGREGATES and isinstance(receiver, ast.Call | ast.Attribute):
            inner = receiver.func if isinstance(receiver, ast.Call) else receiver
            if isinstance(inner, ast.Attribute) and inner.attr in _INTERMEDIATE:
                return self.is_frame(inner.value, known)
        return func.attr in _FRAME_METHODS and self.is_frame(receiver, known)

    def _qualified(self, node: ast.expr) -> str | None:
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        return ".".join([self.aliases[node.id], *reversed(parts)])


def _is_true(call: ast.Call, keyword: str) -> bool:
    return any(
        k.arg == keyword and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in call.keywords
    )


def pandas_objects(trees: Iterable[ast.Module], aliases: Mapping[str, str]) -> frozenset[str]:
    """The names these cells bind only to DataFrames / Series (see the module's docstring)."""
    found = _Bindings(aliases)
    for tree in trees:
        by_type = nodes_by_type(tree)  # the result does not depend on the order of bindings
        for assign in _of(by_type, ast.Assign):
            for target in assign.targets:
                found.bind(target, assign.value)
        for annotated in _of(by_type, ast.AnnAssign, ast.NamedExpr):
            found.bind(annotated.target, annotated.value)
        for augmented in _of(by_type, ast.AugAssign):
            found.bind(augmented.target, ast.BinOp(augmented.target, augmented.op, augmented.value))
        for loop in _of(by_type, ast.For, ast.AsyncFor, ast.comprehension):
            found.loop(loop.target, loop.iter)
        for item in _of(by_type, ast.withitem):
            if item.optional_vars is not None:
                found.bind(item.optional_vars, None)
        for defined in _of(by_type, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            found.others.add(defined.name)
        for argument in _of(by_type, ast.arg):
            found.others.add(argument.arg)
        for imported in _of(by_type, ast.Import, ast.ImportFrom):
            for alias in imported.names:
                found.others.add((alias.asname or alias.name).split(".")[0])
        for handler in _of(by_type, ast.ExceptHandler):
            if handler.name:
                found.others.add(handler.name)
    return found.settle()


def _of(by_type: Mapping[type, Sequence[ast.AST]], *kinds: type[ast.AST]) -> Iterator[Any]:
    """The nodes of these exact types (`cells.nodes_by_type`): nodes with the fields the
    caller reads (the kinds of one call share them)."""
    for kind in kinds:
        yield from by_type.get(kind, ())


def notebook_frames(sources: Iterable[str], aliases: Mapping[str, str]) -> frozenset[str]:
    """`pandas_objects` of a notebook's cells (read as `cells.parse` reads them)."""
    trees = []
    for source in sources:
        parsed = read_text(source)
        tree = parsed.tree or parsed.python2_tree
        if parsed.is_python and tree is not None:
            trees.append(tree)
    return pandas_objects(trees, aliases)


def known_frames(context: RuleContext, module: cst.Module) -> frozenset[str]:
    """The names a rule may treat as DataFrames / Series: the notebook's (`context.frames`),
    or, when the notebook was not read (a rule applied to one snippet), the cell's own."""
    if context.frames is not None:
        return context.frames
    return notebook_frames([module.code], context.aliases)


# an object's own attributes (`self._mgr`, `self.is_monotonic`): a class's, not a frame's
OWN = frozenset({"self", "cls"})


def rooted_in(node: cst.BaseExpression, names: frozenset[str]) -> bool:
    """Whether `df`, `df['a']`, `df.a`, `df.loc[m, 'a']` ... starts at one of `names`."""
    while isinstance(node, cst.Subscript | cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name) and node.value in names
