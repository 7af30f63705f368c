"""Chained assignment under pandas copy-on-write: its rules and transforms.

Every transform here acts only on evidence that the target is a DataFrame (or a column of one)."""

from __future__ import annotations

import ast
import functools
import warnings
from collections.abc import Iterator, Mapping

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.pandas.common import is_module_receiver, pandas_module
from nbmodernizer.fixers.rules.model import Example, Kind, Rule
from nbmodernizer.fixers.rules.toolkit.calls import call_arguments, method_name
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.needles import nodes
from nbmodernizer.fixers.rules.toolkit.nodes import (
    dotted_name,
    literal_bool,
    names_in,
    qualified,
    single_index,
    string_literal,
    subscript_of,
    with_commas,
)

# --------------------------------------------------------------------------- copy-on-write

# attributes of a frame that are not columns
NOT_COLUMNS = frozenset(
    {
        "loc", "iloc", "at", "iat", "ix", "values", "index", "columns", "T", "str", "dt", "cat",
        "shape", "dtypes", "dtype", "array", "flags", "attrs", "axes", "plot", "sparse",
    }
)  # fmt: skip

# attributes only a DataFrame / Series has: evidence that a name is one
_FRAME_ATTRS = frozenset(
    {
        "loc", "iloc", "at", "iat", "ix", "groupby", "fillna", "isnull", "isna", "notnull",
        "notna", "dropna", "columns", "dtypes", "head", "tail", "describe", "value_counts",
        "merge", "query", "iterrows", "itertuples", "to_csv", "pivot_table", "sort_values",
        "reset_index", "set_index", "select_dtypes", "nunique", "info", "corr", "drop",
        "apply", "isin", "duplicated", "drop_duplicates",
    }
)  # fmt: skip

_COLUMN_ATTRS = frozenset(
    {
        "isnull", "isna", "notnull", "notna", "fillna", "value_counts", "str", "dt", "cat",
        "map", "apply", "median", "mode", "nunique", "unique", "iloc", "loc", "isin",
        "between", "dropna", "quantile", "idxmax", "idxmin", "to_frame", "sort_values",
    }
)  # fmt: skip

_MASK_METHODS = frozenset(
    {"isnull", "isna", "notnull", "notna", "isin", "between", "duplicated", "contains",
     "startswith", "endswith", "match"}
)  # fmt: skip


def _base_name(node: cst.BaseExpression) -> str | None:
    """`df` for `df`, `df['a']`, `df['a'][m]`."""
    while isinstance(node, cst.Subscript):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


class _Evidence(cst.CSTVisitor):
    """What the cell shows about names: DataFrames, other objects, labels and lists."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.frames: set[str] = set()  # used as a DataFrame / Series
        self.others: set[str] = set()  # bound to something else (dict, list, numpy, ...)
        self.lists: set[str] = set()  # bound to a list: not a column label
        self.texts: set[str] = set()  # bound to text: a column label
        self.counters: set[str] = set()  # bound to integers: a position, not a column label
        self.masks: dict[str, set[str]] = {}  # bound to a boolean mask: the names it uses

    def visit_Attribute(self, node: cst.Attribute) -> None:
        value = node.value
        if isinstance(value, cst.Name) and node.attr.value in _FRAME_ATTRS:
            self.frames.add(value.value)
        if node.attr.value in _COLUMN_ATTRS:
            if isinstance(value, cst.Subscript) and self._column_key(value):
                base = _base_name(value)
                if base is not None:
                    self.frames.add(base)
            if (
                isinstance(value, cst.Attribute)
                and isinstance(value.value, cst.Name)
                and value.attr.value not in NOT_COLUMNS
            ):
                self.frames.add(value.value.value)

    def _column_key(self, node: cst.Subscript) -> bool:
        """`df['a']` / `df[name]`, not `frames[0]` / `frames[i]` (i a counter)."""
        while isinstance(node.value, cst.Subscript):
            node = node.value
        key = single_index(node)
        if isinstance(key, cst.Name):
            return key.value not in self.counters and key.value not in self.lists
        return key is not None and string_literal(key) is not None

    def _bind(self, name: str, value: cst.BaseExpression) -> None:
        if _is_mask(value):
            self.masks[name] = names_in(value)
        if isinstance(value, cst.Integer):
            self.counters.add(name)
        if string_literal(value) is not None:
            self.texts.add(name)
        elif isinstance(value, cst.List | cst.Tuple | cst.ListComp | cst.Set):
            self.lists.add(name)
            self.others.add(name)
        elif isinstance(value, cst.Dict | cst.DictComp):
            self.others.add(name)
        elif isinstance(value, cst.Call):
            callee = qualified(value.func, self.context.aliases) or ""
            if callee.startswith("pandas.") or method_name(value) in ("read_csv", "copy"):
                self.frames.add(name)
            elif callee.split(".")[0] in self.context.aliases.values():
                self.others.add(name)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self._bind(target.target.value, node.value)

    def visit_For(self, node: cst.For) -> None:
        items, target = node.iter, node.target
        if isinstance(items, cst.Call) and dotted_name(items.func) in ("range", "enumerate"):
            names = target.elements if isinstance(target, cst.Tuple) else [cst.Element(target)]
            if names and isinstance(names[0].value, cst.Name):
                self.counters.add(names[0].value.value)
            return
        if not isinstance(target, cst.Name):
            return
        if isinstance(items, cst.List | cst.Tuple | cst.Set):
            if items.elements and all(
                string_literal(element.value) is not None for element in items.elements
            ):
                self.texts.add(target.value)
        elif dotted_name(items) is not None:  # `for col in cols`, `for col in df.columns`
            self.texts.add(target.value)


def _is_mask_over(
    node: cst.BaseExpression, frame: str, masks: dict[str, set[str]] | None = None
) -> bool:
    """`df['a'] > 0`, `~df.b.isnull()`, `(m1) & (m2)`, or a name bound to one: a boolean mask
    built from `frame`."""
    if isinstance(node, cst.Name) and masks is not None and node.value in masks:
        return frame in masks[node.value]
    return frame in names_in(node) and _is_mask(node)


def _is_mask(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Comparison):
        return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.BitInvert):
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(
        node.operator, cst.BitAnd | cst.BitOr | cst.BitXor
    ):
        return True
    return isinstance(node, cst.Call) and method_name(node) in _MASK_METHODS


# the last cell's evidence: the three rules here read the same tree of a cell in turn (its
# tree is kept by `toolkit.cells.read_cell`), and the walk that gathers it is their main cost
_LAST_EVIDENCE: list[tuple[cst.Module, RuleContext, _Evidence]] = []


def _evidence(module: cst.Module, context: RuleContext) -> _Evidence:
    if _LAST_EVIDENCE and _LAST_EVIDENCE[0][0] is module and _LAST_EVIDENCE[0][1] is context:
        return _LAST_EVIDENCE[0][2]
    evidence = _Evidence(context)
    module.visit(evidence)
    _LAST_EVIDENCE[:] = [(module, context, evidence)]
    return evidence


class CowBase(cst.CSTTransformer):
    """Shared: find `df['col']` / `df.col` column selections that pandas 3 treats as copies."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.evidence = _Evidence(context)

    def visit_Module(self, node: cst.Module) -> None:
        self.evidence = _evidence(node, self.context)

    def column(
        self, node: cst.BaseExpression
    ) -> tuple[cst.BaseExpression, cst.BaseExpression, bool] | None:
        """(frame, label, label is surely a column name) for `frame['label']` / `frame[name]` /
        `frame.label`, else None."""
        if isinstance(node, cst.Subscript):
            frame = node.value
            base = dotted_name(frame)
            if base is None or is_module_receiver(frame, self.context):
                return None
            if base.split(".")[0] in self.evidence.others:
                return None
            label = single_index(node)
            if isinstance(label, cst.Name):
                if label.value in self.evidence.lists or label.value in ("True", "False", "None"):
                    return None
                return frame, label, label.value in self.evidence.texts
            if isinstance(label, cst.SimpleString):
                return frame, label, True
            if isinstance(label, cst.Integer):
                return frame, label, False
            return None
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
            if node.attr.value in NOT_COLUMNS or node.value.value in ("self", "cls"):
                return None
            if is_module_receiver(node.value, self.context):
                return None
            if node.value.value in self.evidence.others:
                return None
            # `obj.attr[...]` is any object's attribute unless the cell shows a DataFrame
            return node.value, cst.SimpleString(f"'{node.attr.value}'"), False
        return None

    def is_frame(self, frame: cst.BaseExpression) -> bool:
        return isinstance(frame, cst.Name) and frame.value in self.evidence.frames


class _TargetRewriter(CowBase):
    """Rewrites the target of `target = value` and `target += value`."""

    def _rewrite(self, target: cst.BaseExpression) -> cst.BaseExpression | None:
        raise NotImplementedError

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        if len(updated_node.targets) != 1:
            return updated_node
        new = self._rewrite(updated_node.targets[0].target)
        if new is None:
            return updated_node
        return updated_node.with_changes(targets=[updated_node.targets[0].with_changes(target=new)])

    def leave_AugAssign(
        self, original_node: cst.AugAssign, updated_node: cst.AugAssign
    ) -> cst.AugAssign:
        new = self._rewrite(updated_node.target)
        return updated_node if new is None else updated_node.with_changes(target=new)


class ChainedAssignment(_TargetRewriter):
    """`df['a'][mask] = v` / `df.a[mask] = v` -> `df.loc[mask, 'a'] = v`."""

    def _rewrite(self, target: cst.BaseExpression) -> cst.BaseExpression | None:
        if not isinstance(target, cst.Subscript):
            return None
        key = single_index(target)
        found = self.column(target.value)
        if key is None or found is None or isinstance(key, cst.Slice):
            return None
        frame, label, sure = found
        frame_name = (dotted_name(frame) or "").split(".")[0]
        if not (
            self.is_frame(frame) or (sure and _is_mask_over(key, frame_name, self.evidence.masks))
        ):
            return None
        return subscript_of(frame, key, label, attr="loc")


class ChainedIndexer(_TargetRewriter):
    """`df['a'].iloc[0] = v` -> `df.iloc[0, df.columns.get_loc('a')] = v`; `.loc` likewise."""

    def _rewrite(self, target: cst.BaseExpression) -> cst.BaseExpression | None:
        if not isinstance(target, cst.Subscript) or not isinstance(target.value, cst.Attribute):
            return None
        indexer = target.value.attr.value
        key = single_index(target)
        found = self.column(target.value.value)
        if indexer not in ("loc", "iloc", "at", "iat") or key is None or found is None:
            return None
        frame, label, sure = found
        if not (sure or self.is_frame(frame)):
            return None
        if indexer in ("loc", "at"):
            return subscript_of(frame, key, label, attr=indexer)
        get_loc = cst.Call(
            func=cst.Attribute(cst.Attribute(frame, cst.Name("columns")), cst.Name("get_loc")),
            args=[cst.Arg(label)],
        )
        return subscript_of(frame, key, get_loc, attr=indexer)


_INPLACE = frozenset(
    {"fillna", "replace", "clip", "interpolate", "ffill", "bfill", "where", "mask"}
)


class ChainedInplace(CowBase):
    """`df['a'].fillna(0, inplace=True)` -> `df['a'] = df['a'].fillna(0)`."""

    def leave_Expr(self, original_node: cst.Expr, updated_node: cst.Expr) -> cst.BaseSmallStatement:
        call = updated_node.value
        if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute):
            return updated_node
        if call.func.attr.value not in _INPLACE:
            return updated_node
        arguments = call_arguments(call)
        if arguments is None or "inplace" not in arguments[1]:
            return updated_node
        if literal_bool(arguments[1]["inplace"].value) is not True:
            return updated_node
        found = self.column(call.func.value)
        if found is None:
            return updated_node
        frame, label, sure = found
        if not (sure or self.is_frame(frame)):
            return updated_node
        column = subscript_of(frame, label)
        receiver = call.func.value if isinstance(call.func.value, cst.Subscript) else column
        args = [arg for arg in call.args if not (arg.keyword and arg.keyword.value == "inplace")]
        value = call.with_changes(
            func=call.func.with_changes(value=receiver), args=with_commas(args)
        )
        return cst.Assign(targets=[cst.AssignTarget(column)], value=value)


# --- triggers: the `ast` shapes the transforms above can rewrite (a superset)


def _assigned_subscripts(tree: ast.Module) -> Iterator[ast.Subscript]:
    """The targets `_TargetRewriter` looks at that are subscripts."""
    for node in nodes(tree, ast.Assign, ast.AugAssign):
        if isinstance(node, ast.Assign):
            target = node.targets[0] if len(node.targets) == 1 else None
        else:
            target = node.target if isinstance(node, ast.AugAssign) else None
        if isinstance(target, ast.Subscript):
            yield target


def _chained_assignment(tree: ast.Module, _aliases: Mapping[str, str]) -> bool:
    """`x[...][key] = v` or `x.a[key] = v` (`CowBase.column` needs one of those)."""
    return any(
        isinstance(target.value, ast.Subscript)
        or (
            isinstance(target.value, ast.Attribute)
            and isinstance(target.value.value, ast.Name)
            and target.value.attr not in NOT_COLUMNS
        )
        for target in _assigned_subscripts(tree)
    )


def _chained_indexer(tree: ast.Module, _aliases: Mapping[str, str]) -> bool:
    """`x[...].iloc[key] = v` or `x.a.loc[key] = v`."""
    return any(
        isinstance(target.value, ast.Attribute)
        and target.value.attr in ("loc", "iloc", "at", "iat")
        and isinstance(target.value.value, ast.Subscript | ast.Attribute)
        for target in _assigned_subscripts(tree)
    )


def _chained_inplace(tree: ast.Module, _aliases: Mapping[str, str]) -> bool:
    """A statement `x.method(..., inplace=...)` for a method of `_INPLACE`."""
    return any(
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr in _INPLACE
        and any(keyword.arg == "inplace" for keyword in node.value.keywords)
        for node in nodes(tree, ast.Expr)
    )


@functools.cache
def _copy_on_write() -> bool:
    """A chained assignment on a tiny frame does not reach the frame."""
    pd = pandas_module()
    frame = pd.DataFrame({"a": [1, 2]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame["a"][frame["a"] > 1] = 0
    return bool(frame["a"].iloc[1] == 2)


RULES = (
    Rule(
        id="pandas.chained-assignment",
        library="pandas",
        changed_in="3.0",
        summary=(
            "copy-on-write: `df['a'][mask] = v` / `df.a[mask] = v` (also `+=`) -> "
            "`df.loc[mask, 'a'] = v`, which pandas 3 otherwise ignores with only a warning; "
            "`df[['a', 'b']][mask] = v` never worked and is left alone"
        ),
        kind=Kind.SILENT,
        rewrite=cst_rewrite(ChainedAssignment, trigger=_chained_assignment),
        gone=_copy_on_write,
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'age': [10, 0, 30], 'sex': ['m', 'f', 'm'], "
                    "'n': [1, 2, 3]})\n"
                    "frame['age'][frame['age'] == 0] = 20\n"
                    "frame.sex[frame.sex == 'm'] = 'male'\n"
                    "frame['n'][frame['n'] > 1] += 10\n"
                    "frame[['age', 'n']][frame['n'] > 100] = 0\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'age': [10, 0, 30], 'sex': ['m', 'f', 'm'], "
                    "'n': [1, 2, 3]})\n"
                    "frame.loc[frame['age'] == 0, 'age'] = 20\n"
                    "frame.loc[frame.sex == 'm', 'sex'] = 'male'\n"
                    "frame.loc[frame['n'] > 1, 'n'] += 10\n"
                    "frame[['age', 'n']][frame['n'] > 100] = 0\n"
                ),
                check=(
                    "frame['age'].tolist() == [10, 20, 30] "
                    "and frame['sex'].tolist() == ['male', 'f', 'male'] "
                    "and frame['n'].tolist() == [1, 12, 13]"
                ),
            ),
            Example(
                before=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "train = pd.DataFrame({'bmi': [0.0, 20.0, 30.0], 'bp': [80.0, 0.0, 90.0]})\n"
                    "grid = np.zeros((2, 2))\n"
                    "for col in ['bmi', 'bp']:\n"
                    "    median = train[col][train[col] > 0].median()\n"
                    "    train[col][train[col] == 0] = median\n"
                    "train['bp'][2] = 70.0\n"
                    "grid[0][grid[0] == 0] = 1.0\n"
                ),
                after=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "train = pd.DataFrame({'bmi': [0.0, 20.0, 30.0], 'bp': [80.0, 0.0, 90.0]})\n"
                    "grid = np.zeros((2, 2))\n"
                    "for col in ['bmi', 'bp']:\n"
                    "    median = train[col][train[col] > 0].median()\n"
                    "    train.loc[train[col] == 0, col] = median\n"
                    "train.loc[2, 'bp'] = 70.0\n"
                    "grid[0][grid[0] == 0] = 1.0\n"
                ),
                check=(
                    "train['bmi'].tolist() == [25.0, 20.0, 30.0] "
                    "and train['bp'].tolist() == [80.0, 85.0, 70.0] "
                    "and grid.tolist() == [[1.0, 1.0], [0.0, 0.0]]"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.chained-indexer-assignment",
        library="pandas",
        changed_in="3.0",
        summary=(
            "copy-on-write: `df['a'].iloc[i] = v` -> `df.iloc[i, df.columns.get_loc('a')] = v`, "
            "`df['a'].loc[k] = v` -> `df.loc[k, 'a'] = v` (also `.iat` / `.at`)"
        ),
        kind=Kind.SILENT,
        rewrite=cst_rewrite(ChainedIndexer, ("loc", "iloc", "at", "iat"), _chained_indexer),
        gone=_copy_on_write,
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3, 4]}, index=['x', 'y'])\n"
                    "frame['a'].iloc[0] = 10\n"
                    "frame.b.loc['y'] = 40\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3, 4]}, index=['x', 'y'])\n"
                    "frame.iloc[0, frame.columns.get_loc('a')] = 10\n"
                    "frame.loc['y', 'b'] = 40\n"
                ),
                check="frame['a'].tolist() == [10, 2] and frame['b'].tolist() == [3, 40]",
            ),
        ),
    ),
    Rule(
        id="pandas.chained-inplace",
        library="pandas",
        changed_in="3.0",
        summary=(
            "copy-on-write: `df['a'].fillna(v, inplace=True)` (also `replace`, `clip`, "
            "`interpolate`, `ffill`, `bfill`, `where`, `mask`) -> `df['a'] = df['a'].fillna(v)`"
        ),
        kind=Kind.SILENT,
        rewrite=cst_rewrite(ChainedInplace, ("inplace",), _chained_inplace),
        gone=_copy_on_write,
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'age': [20.0, None], 'sex': ['m', 'f']})\n"
                    "frame['age'].fillna(frame['age'].mean(), inplace=True)\n"
                    "frame.sex.replace('m', 'male', inplace=True)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'age': [20.0, None], 'sex': ['m', 'f']})\n"
                    "frame['age'] = frame['age'].fillna(frame['age'].mean())\n"
                    "frame['sex'] = frame['sex'].replace('m', 'male')\n"
                ),
                check="frame['age'].tolist() == [20.0, 20.0] and frame['sex'].tolist() == ['male', 'f']",
            ),
        ),
    ),
)
