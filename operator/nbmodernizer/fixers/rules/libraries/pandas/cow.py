"""Chained assignment under pandas copy-on-write: its rules and transforms.

Every transform here acts only on a name the notebook binds only to DataFrames / Series
(`toolkit.bindings`): `data['tra']['dow'] = v` on a dict of frames is left alone."""

from __future__ import annotations

import ast
from collections.abc import Iterator

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.pandas.common import is_module_receiver
from nbmodernizer.fixers.rules.model import Example, Kind, Rule
from nbmodernizer.fixers.rules.toolkit.bindings import known_frames, pandas_objects
from nbmodernizer.fixers.rules.toolkit.calls import call_arguments
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.needles import nodes
from nbmodernizer.fixers.rules.toolkit.nodes import (
    dotted_name,
    literal_bool,
    single_index,
    string_literal,
    subscript_of,
    with_commas,
)
from nbmodernizer.fixers.rules.toolkit.probes import rejects
from nbmodernizer.fixers.rules.toolkit.traversal import look

# --------------------------------------------------------------------------- copy-on-write

# attributes of a frame that are not columns
NOT_COLUMNS = frozenset(
    {
        "loc", "iloc", "at", "iat", "ix", "values", "index", "columns", "T", "str", "dt", "cat",
        "shape", "dtypes", "dtype", "array", "flags", "attrs", "axes", "plot", "sparse",
    }
)  # fmt: skip


class _Evidence(cst.CSTVisitor):
    """What the cell shows about names used as labels: lists (not a column label) and text."""

    def __init__(self) -> None:
        super().__init__()
        self.lists: set[str] = set()  # bound to a list: not a column label
        self.texts: set[str] = set()  # bound to text: a column label

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if not isinstance(target.target, cst.Name):
                continue
            if string_literal(node.value) is not None:
                self.texts.add(target.target.value)
            elif isinstance(node.value, cst.List | cst.Tuple | cst.ListComp | cst.Set):
                self.lists.add(target.target.value)

    def visit_For(self, node: cst.For) -> None:
        items, target = node.iter, node.target
        if not isinstance(target, cst.Name):
            return
        if isinstance(items, cst.List | cst.Tuple | cst.Set):
            if items.elements and all(
                string_literal(element.value) is not None for element in items.elements
            ):
                self.texts.add(target.value)
        elif isinstance(items, cst.Call) and dotted_name(items.func) in ("range", "enumerate"):
            return
        elif dotted_name(items) is not None:  # `for col in cols`, `for col in df.columns`
            self.texts.add(target.value)


# the last cell's evidence: the three rules here read the same tree of a cell in turn (its
# tree is kept by `toolkit.cells.read_cell`), and the walk that gathers it is their main cost
_LAST_EVIDENCE: list[tuple[cst.Module, _Evidence]] = []


def _evidence(module: cst.Module) -> _Evidence:
    if _LAST_EVIDENCE and _LAST_EVIDENCE[0][0] is module:
        return _LAST_EVIDENCE[0][1]
    evidence = _Evidence()
    look(module, evidence)
    _LAST_EVIDENCE[:] = [(module, evidence)]
    return evidence


class CowBase(cst.CSTTransformer):
    """Shared: find `df['col']` / `df.col` column selections that pandas 3 treats as copies."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.evidence = _Evidence()
        self.frames: frozenset[str] | None = None

    def visit_Module(self, node: cst.Module) -> None:
        self.evidence = _evidence(node)
        self.frames = known_frames(self.context, node)

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
            # `obj.attr[...]` is any object's attribute unless the cell shows a DataFrame
            return node.value, cst.SimpleString(f"'{node.attr.value}'"), False
        return None

    def is_frame(self, frame: cst.BaseExpression) -> bool:
        return isinstance(frame, cst.Name) and frame.value in (self.frames or ())


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
        frame, label, _ = found
        if not self.is_frame(frame):
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
        frame, label, _ = found
        if not self.is_frame(frame):
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
        frame, label, _ = found
        if not self.is_frame(frame):
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


def _frames(tree: ast.Module, context: RuleContext) -> frozenset[str]:
    """`known_frames` on the `ast` tree: the notebook's, or the cell's own."""
    if context.frames is not None:
        return context.frames
    return pandas_objects([tree], context.aliases)


def _on_frame(node: ast.expr, frames: frozenset[str]) -> bool:
    """`frame[...]` or `frame.a` for a known frame (what `CowBase.column` and `is_frame` need)."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Name) and node.value.id in frames
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.attr not in NOT_COLUMNS
        and node.value.id in frames
    )


def _chained_assignment(tree: ast.Module, context: RuleContext) -> bool:
    """`frame[...][key] = v` or `frame.a[key] = v` on a known frame."""
    targets = list(_assigned_subscripts(tree))
    if not targets:
        return False
    frames = _frames(tree, context)
    return any(_on_frame(target.value, frames) for target in targets)


def _chained_indexer(tree: ast.Module, context: RuleContext) -> bool:
    """`frame[...].iloc[key] = v` or `frame.a.loc[key] = v` on a known frame."""
    targets = [
        target.value.value
        for target in _assigned_subscripts(tree)
        if isinstance(target.value, ast.Attribute)
        and target.value.attr in ("loc", "iloc", "at", "iat")
    ]
    if not targets:
        return False
    frames = _frames(tree, context)
    return any(_on_frame(column, frames) for column in targets)


def _chained_inplace(tree: ast.Module, context: RuleContext) -> bool:
    """A statement `frame[...].method(..., inplace=...)` for a method of `_INPLACE`, on a
    known frame."""
    columns = [
        node.value.func.value
        for node in nodes(tree, ast.Expr)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr in _INPLACE
        and any(keyword.arg == "inplace" for keyword in node.value.keywords)
    ]
    if not columns:
        return False
    frames = _frames(tree, context)
    return any(_on_frame(column, frames) for column in columns)


# a chained assignment on a tiny frame does not reach the frame
COPY_ON_WRITE = rejects(
    "import pandas as pd\n"
    "frame = pd.DataFrame({'a': [1, 2]})\n"
    "frame['a'][frame['a'] > 1] = 0\n"
    "if frame['a'].iloc[1] == 2:\n"
    "    raise ValueError('copy on write')"
)


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
        gone=COPY_ON_WRITE,
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
        gone=COPY_ON_WRITE,
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
        gone=COPY_ON_WRITE,
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
