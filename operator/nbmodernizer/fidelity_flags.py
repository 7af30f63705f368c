"""Risk flags: what a revision changed that can change what the notebook means.

Each detector compares the code cells of both notebooks: subsampling added or shrunk, fewer
estimators, epochs or folds, a model class swapped, a code cell removed. Patterns are counted and
numeric settings matched per notebook, not per cell position, so moving cells raises nothing.
"""

from __future__ import annotations

import ast
import difflib
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from nbmodernizer.fidelity_cells import Cell, ratio
from nbmodernizer.status import RiskFlag

SUBSAMPLING = "subsampling"
FEWER_ESTIMATORS = "fewer-estimators"
FEWER_EPOCHS = "fewer-epochs"
FEWER_FOLDS = "fewer-folds"
MODEL_CLASS_CHANGED = "model-class-changed"
CELL_REMOVED = "cell-removed"

# Below this similarity to every revision cell, an original cell counts as removed.
REMOVED_BELOW = 0.5
_DETAIL_CHARS = 80
_CANDIDATES = 3  # revision cells compared in full with a changed original cell


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Numeric settings whose decrease is a risk: name -> (flag kind, family). Settings of one family
# are compared with each other, so a keyword rename (nb_epoch -> epochs) is no change.
_SETTINGS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(
        _words(
            "n_estimators num_boost_round num_round num_rounds nrounds iterations num_iterations "
            "max_iter n_iter num_trees"
        ),
        (FEWER_ESTIMATORS, "estimators"),
    ),
    **dict.fromkeys(
        _words("epochs nb_epoch nb_epochs num_epochs n_epochs max_epochs"),
        (FEWER_EPOCHS, "epochs"),
    ),
    **dict.fromkeys(_words("n_splits n_folds nfold nfolds num_folds cv"), (FEWER_FOLDS, "folds")),
    "nrows": (SUBSAMPLING, "rows"),
    "max_rows": (SUBSAMPLING, "rows"),
}
# Subsampling keywords that only mean so in `.sample(...)`.
_SAMPLE_SETTINGS = {"frac": "fraction", "n": "rows"}

# A called CamelCase name is a model class if it ends with one of these or is a known one.
_MODEL_SUFFIXES = _words(
    "Classifier Regressor Regression Model SVC SVR Net Boost Forest Trees NB KMeans"
)
_MODELS = frozenset(
    _words(
        """LogisticRegression LogisticRegressionCV Ridge RidgeCV Lasso LassoCV ElasticNet
    ElasticNetCV Perceptron Sequential XGBClassifier XGBRegressor LGBMClassifier LGBMRegressor
    CatBoostClassifier CatBoostRegressor LinearDiscriminantAnalysis QuadraticDiscriminantAnalysis
    GaussianMixture DBSCAN AgglomerativeClustering OneClassSVM Prophet ARIMA SARIMAX OLS GLM"""
    )
)
_CAMEL = re.compile(r"[A-Z][A-Za-z0-9]*")

_T = TypeVar("_T")
_K = TypeVar("_K")


# ---------------------------------------------------------------- syntax helpers


def _callee(call: ast.Call) -> str | None:
    """The last name segment of what is called: `fit` for `model.fit(...)`."""
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    return None


def _number(node: ast.expr | None) -> float | None:
    """The value of a numeric literal or of simple arithmetic on literals (`10 ** 3`)."""
    try:
        value = _evaluate(node)
    except (ArithmeticError, ValueError):
        return None
    return value if value is not None and math.isfinite(value) else None


def _evaluate(node: ast.expr | None) -> float | None:
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        return float(value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _evaluate(node.operand)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.BinOp):
        return _arithmetic(node)
    if isinstance(node, ast.Call) and _callee(node) in {"int", "float"} and len(node.args) == 1:
        inner = _evaluate(node.args[0])
        return float(math.trunc(inner)) if inner is not None and _callee(node) == "int" else inner
    return None


def _arithmetic(node: ast.BinOp) -> float | None:
    left, right = _evaluate(node.left), _evaluate(node.right)
    if left is None or right is None:
        return None
    op = node.op
    if isinstance(op, ast.Add):
        return left + right
    if isinstance(op, ast.Sub):
        return left - right
    if isinstance(op, ast.Mult):
        return left * right
    if isinstance(op, ast.Div):
        return left / right
    if isinstance(op, ast.FloorDiv):
        return float(left // right)
    if isinstance(op, ast.Pow) and abs(left) <= 1e6 and right.is_integer() and 0 <= right <= 32:
        return float(left**right)
    return None


def _code(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except (RecursionError, ValueError):
        return "…"
    return _clip(text)


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _DETAIL_CHARS else text[: _DETAIL_CHARS - 1] + "…"


def _fmt(value: float) -> str:
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:g}"


def _displayed(tree: ast.Module) -> set[int]:
    """Nodes only shown, not computed with: an expression statement's value, print(...) args."""
    shown: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Expr):
            continue
        value = node.value
        if isinstance(value, ast.Call) and _callee(value) in {"print", "display"}:
            shown.update(id(inner) for inner in ast.walk(value))
        else:
            shown.add(id(value))
    return shown


def _document_order(cell: Cell, node: ast.AST) -> tuple[int, int, int]:
    return cell.index, getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


# ---------------------------------------------------------------- subsampling


@dataclass(frozen=True)
class _Pattern:
    """One subsampling construct: `df.sample(frac=0.1)`, `X[:1000]`, `nrows=500`, ..."""

    key: str
    text: str
    at: tuple[int, int, int]  # cell index, line, column


def _subsamples(cell: Cell) -> Iterator[_Pattern]:
    if cell.tree is None:
        return
    shown = _displayed(cell.tree)
    for node in ast.walk(cell.tree):
        if id(node) in shown:
            continue
        key = _subsample_key(node)
        if key is not None:
            yield _Pattern(key, _code(node), _document_order(cell, node))


def _subsample_key(node: ast.AST) -> str | None:
    if isinstance(node, ast.Subscript):
        return "slice" if isinstance(node.ctx, ast.Load) and _leading_slice(node.slice) else None
    if not isinstance(node, ast.Call):
        return None
    name = _callee(node)
    if name == "sample" and _samples_data(node):
        return "sample"
    if name == "head" and (node.args or _keyword(node, "n") is not None):
        return "head"
    if _keyword(node, "nrows") is not None or _keyword(node, "max_rows") is not None:
        return "nrows"
    if name == "train_test_split" and _keyword(node, "train_size") is not None:
        return "train_size"
    return None


def _samples_data(call: ast.Call) -> bool:
    """`df.sample(...)` draws a subset; `np.random.sample(n)` draws numbers, frac=1 shuffles."""
    receiver = _dotted(call.func.value) if isinstance(call.func, ast.Attribute) else None
    if receiver is not None and receiver.endswith(".random"):
        return False
    frac = _number(_keyword(call, "frac"))
    return frac is None or frac < 1


def _leading_slice(node: ast.expr) -> bool:
    """`[:1000]`, `[0:5000, :]` (at least 100 rows) or `[::10]`."""
    if isinstance(node, ast.Tuple) and node.elts:
        node = node.elts[0]
    if not isinstance(node, ast.Slice):
        return False
    lower, upper, step = (
        _number(part) if part else None for part in (node.lower, node.upper, node.step)
    )
    starts = node.lower is None or lower == 0
    if starts and node.step is None and upper is not None:
        return upper >= 100
    return node.lower is None and node.upper is None and step is not None and step >= 2


def subsampling_flags(
    old: Sequence[Cell],
    new: Sequence[Cell],
    old_settings: Sequence[_Setting],
    new_settings: Sequence[_Setting],
) -> list[RiskFlag]:
    """Subsampling constructs the revision has more of, then sample sizes that shrank."""
    before = [p for cell in old for p in _subsamples(cell)]
    after = [p for cell in new for p in _subsamples(cell)]
    flags: list[tuple[tuple[int, int, int], RiskFlag]] = []
    for key, group in _grouped(after, lambda p: p.key).items():
        olds = [p for p in before if p.key == key]
        extra = len(group) - len(olds)
        if extra <= 0:
            continue
        known = Counter(p.text for p in olds)
        fresh = [p for p in group if not _take(known, p.text)]
        chosen = (fresh + [p for p in group if p not in fresh])[:extra]
        flags.extend(
            (p.at, RiskFlag(kind=SUBSAMPLING, cell=p.at[0], detail=f"adds {p.text}"))
            for p in chosen
        )
    flagged = {at for at, _ in flags}
    for was, now in _decreases(old_settings, new_settings, SUBSAMPLING):
        if now.at not in flagged:
            flags.append((now.at, _setting_flag(was, now)))
    return [flag for _, flag in sorted(flags, key=lambda item: item[0])]


# ---------------------------------------------------------------- numeric settings


@dataclass(frozen=True)
class _Setting:
    """A numeric setting: `n_estimators=500` in `RandomForestClassifier(...)`, `EPOCHS = 50`."""

    kind: str
    family: str
    owner: str  # the callee (`fit`), `=NAME` for an assignment, `for` for a loop
    label: str  # how the detail names it
    value: float
    text: str
    at: tuple[int, int, int]

    @property
    def group(self) -> tuple[str, str, str]:
        return self.kind, self.family, self.owner

    @property
    def effective(self) -> float:
        return math.inf if self.value < 0 else self.value  # max_iter=-1: no limit


def all_settings(cells: Iterable[Cell]) -> list[_Setting]:
    return [setting for cell in cells for setting in _settings(cell)]


def _settings(cell: Cell) -> Iterator[_Setting]:
    if cell.tree is None:
        return
    for node in ast.walk(cell.tree):
        at = _document_order(cell, node)
        for owner, label, value_node in _setting_nodes(node):
            kind_family = _setting_kind(owner, label)
            value = _number(value_node)
            if kind_family is not None and value is not None:
                yield _Setting(*kind_family, owner, label, value, _code(value_node), at)
        if isinstance(node, ast.Call) and _callee(node) == "train_test_split":
            yield from _train_fraction(cell, node)
        if isinstance(node, ast.For):
            yield from _epoch_loop(cell, node)


def _setting_kind(owner: str, name: str) -> tuple[str, str] | None:
    if owner == "sample" and name in _SAMPLE_SETTINGS:
        return SUBSAMPLING, _SAMPLE_SETTINGS[name]
    return _SETTINGS.get(name.lower())


def _setting_nodes(node: ast.AST) -> Iterator[tuple[str, str, ast.expr]]:
    """(owner, name, value) of keywords, dict entries, assignments and parameter defaults."""
    if isinstance(node, ast.Call):
        owner = _callee(node) or "?"
        yield from ((owner, k.arg, k.value) for k in node.keywords if k.arg is not None)
    elif isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values, strict=True):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                yield "dict", key.value, value
    elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            yield from _assigned(target, node.value)
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        defaulted = positional[len(positional) - len(args.defaults) :]
        pairs: list[tuple[ast.arg, ast.expr | None]] = [*zip(defaulted, args.defaults, strict=True)]
        pairs += zip(args.kwonlyargs, args.kw_defaults, strict=True)
        yield from ((node.name, arg.arg, default) for arg, default in pairs if default is not None)


def _assigned(target: ast.expr, value: ast.expr) -> Iterator[tuple[str, str, ast.expr]]:
    """`EPOCHS = 50`, `config.epochs = 50`, `params["n_estimators"] = 50`."""
    if isinstance(target, ast.Subscript):
        key = target.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            yield "dict", key.value, value
        return
    name = _dotted(target)
    if name is not None:
        yield f"={name}", name.rsplit(".", 1)[-1], value


def _train_fraction(cell: Cell, call: ast.Call) -> Iterator[_Setting]:
    """The share of rows `train_test_split` trains on (0.75 by default)."""
    train, test = _keyword(call, "train_size"), _keyword(call, "test_size")
    train = None if isinstance(train, ast.Constant) and train.value is None else train
    test = None if isinstance(test, ast.Constant) and test.value is None else test
    at = _document_order(cell, call)
    if train is not None:
        value = _number(train)
        if value is None:
            return
        family = "train fraction" if value < 1 else "train rows"
        yield _Setting(
            SUBSAMPLING, family, "train_test_split", "train_size", value, _code(train), at
        )
        return
    test_value = 0.25 if test is None else _number(test)
    if test_value is None or not 0 < test_value < 1:
        return
    text = "0.75 (default)" if test is None else f"{_fmt(1 - test_value)} (test_size={_code(test)})"
    yield _Setting(
        SUBSAMPLING, "train fraction", "train_test_split", "train_size", 1 - test_value, text, at
    )


def _epoch_loop(cell: Cell, loop: ast.For) -> Iterator[_Setting]:
    """`for epoch in range(100)`: a hand-written training loop of 100 epochs."""
    if not (isinstance(loop.target, ast.Name) and "epoch" in loop.target.id.lower()):
        return
    iterator = loop.iter
    if isinstance(iterator, ast.Call) and _callee(iterator) not in {"range", "trange"}:
        iterator = iterator.args[0] if iterator.args else iterator  # tqdm(range(...))
    if not (isinstance(iterator, ast.Call) and _callee(iterator) in {"range", "trange"}):
        return
    bounds = [_number(arg) for arg in iterator.args]
    if not 1 <= len(bounds) <= 3 or any(b is None or not b.is_integer() for b in bounds):
        return
    try:
        count = len(range(*(int(b) for b in bounds if b is not None)))
    except (ValueError, OverflowError):  # range(0, 10, 0), a range too long to count
        return
    label = f"for {loop.target.id} (iterations)"
    yield _Setting(
        FEWER_EPOCHS, "epochs", "for", label, float(count), str(count), _document_order(cell, loop)
    )


def _decreases(
    old: Sequence[_Setting], new: Sequence[_Setting], kind: str
) -> Iterator[tuple[_Setting, _Setting]]:
    """(before, after) settings of one owner and family whose value went down.

    Values found in both notebooks cancel out (so moved cells change nothing); what is left on
    each side is paired in document order.
    """
    before = _grouped((s for s in old if s.kind == kind), _group)
    after = _grouped((s for s in new if s.kind == kind), _group)
    for group, news in after.items():
        olds = before.get(group, [])
        common = Counter(s.value for s in olds) & Counter(s.value for s in news)
        left_old = _without(olds, common.copy())
        left_new = _without(news, common.copy())
        for was, now in zip(left_old, left_new, strict=False):
            if now.effective < was.effective:
                yield was, now


def _group(setting: _Setting) -> tuple[str, str, str]:
    return setting.group


def _setting_flag(was: _Setting, now: _Setting) -> RiskFlag:
    if was.label == now.label:
        change = f"{now.label} {was.text} → {now.text}"
    else:
        change = f"{was.label} {was.text} → {now.label} {now.text}"
    called = now.owner.isidentifier() and now.owner not in {"dict", "for"}
    where = f" in {now.owner}()" if called else ""
    return RiskFlag(kind=now.kind, cell=now.at[0], detail=change + where)


def setting_flags(old: Sequence[_Setting], new: Sequence[_Setting], kind: str) -> list[RiskFlag]:
    found = sorted(_decreases(old, new, kind), key=lambda pair: pair[1].at)
    return [_setting_flag(was, now) for was, now in found]


# ---------------------------------------------------------------- model classes


def _is_model_class(name: str) -> bool:
    """Whether a called name looks like an estimator or model class."""
    return bool(_CAMEL.fullmatch(name)) and (name in _MODELS or name.endswith(_MODEL_SUFFIXES))


def _model_classes(cells: Iterable[Cell]) -> dict[str, int]:
    """Instantiated model class -> index of the first cell that instantiates it."""
    found: dict[str, int] = {}
    for cell in cells:
        if cell.tree is None:
            continue
        for node in ast.walk(cell.tree):
            if isinstance(node, ast.Call):
                name = _callee(node)
                if name is not None and _is_model_class(name):
                    found.setdefault(name, cell.index)
    return found


def model_class_flags(
    old: Sequence[Cell], new: Sequence[Cell], pairs: Sequence[tuple[int | None, int | None]]
) -> list[RiskFlag]:
    """Model classes the revision no longer instantiates (a wrapper added around one is fine)."""
    before, after = _model_classes(old), _model_classes(new)
    added = [name for name in after if name not in before]
    into = {old[i].index: new[j].index for i, j in pairs if i is not None and j is not None}
    by_cell: dict[int, list[str]] = defaultdict(list)
    for name in added:
        by_cell[after[name]].append(name)
    flags: list[RiskFlag] = []
    for name, cell in before.items():
        if name in after:
            continue
        target = into.get(cell)
        replacements = by_cell.get(target, []) if target is not None else []
        replacements = replacements or added
        if target is None and replacements:
            target = after[replacements[0]]
        detail = (
            f"{name} → {', '.join(replacements)}"
            if replacements
            else f"{name} no longer instantiated"
        )
        flags.append(RiskFlag(kind=MODEL_CLASS_CHANGED, cell=target, detail=detail))
    return flags


# ---------------------------------------------------------------- removed cells


def _code_lines(source: str) -> list[str]:
    """Stripped lines that are code: no blanks, comments, magics or shell commands."""
    stripped = (line.strip() for line in source.splitlines())
    return [line for line in stripped if line and not line.startswith(("#", "%", "!"))]


def _similar(a: str, b: str) -> bool:
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < REMOVED_BELOW or matcher.quick_ratio() < REMOVED_BELOW:
        return False
    return ratio(a, b) >= REMOVED_BELOW


def _words_of(source: str) -> Counter[str]:
    return Counter(re.findall(r"\w+", source))


def _overlap(a: Counter[str], b: Counter[str]) -> float:
    total = a.total() + b.total()
    return 2 * (a & b).total() / total if total else 0.0


def _candidates(
    cell: Cell, partner: Cell | None, new: Sequence[tuple[Cell, Counter[str]]]
) -> list[Cell]:
    """The revision cells most likely similar to `cell`: its aligned partner, then the few
    cells sharing the most words with it (so that the check stays linear)."""
    words = _words_of(cell.source)
    ranked = sorted(new, key=lambda other: -_overlap(words, other[1]))
    return ([partner] if partner is not None else []) + [c for c, _ in ranked[:_CANDIDATES]]


def removed_cell_flags(
    old: Sequence[Cell], new: Sequence[Cell], pairs: Sequence[tuple[int | None, int | None]]
) -> list[RiskFlag]:
    """Original code cells with no similar cell in the revision, wherever it moved them.

    A cell also counts as kept when most of its lines are still somewhere in the revision
    (cells merged or split).
    """
    sources = {cell.source for cell in new}
    lines = {line for cell in new for line in _code_lines(cell.source)}
    partners = {i: new[j] for i, j in pairs if i is not None and j is not None}
    worded = [(other, _words_of(other.source)) for other in new]
    flags: list[RiskFlag] = []
    for position, cell in enumerate(old):
        code = _code_lines(cell.source)
        if cell.source in sources or not code:
            continue
        if sum(line in lines for line in code) / len(code) >= REMOVED_BELOW:
            continue
        candidates = _candidates(cell, partners.get(position), worded)
        if any(_similar(cell.source, other.source) for other in candidates):
            continue
        detail = f"original cell {cell.index} removed: {_clip(code[0])}"
        flags.append(RiskFlag(kind=CELL_REMOVED, cell=cell.index, detail=detail))
    return flags


# ---------------------------------------------------------------- small utilities


def _grouped(items: Iterable[_T], key: Callable[[_T], _K]) -> dict[_K, list[_T]]:
    groups: dict[_K, list[_T]] = defaultdict(list)
    for item in items:
        groups[key(item)].append(item)
    return dict(groups)


def _take(counts: Counter[str], text: str) -> bool:
    """Use up one `text` from `counts`; False if there was none left."""
    if counts[text] > 0:
        counts[text] -= 1
        return True
    return False


def _without(settings: Sequence[_Setting], common: Counter[float]) -> list[_Setting]:
    left: list[_Setting] = []
    for setting in settings:
        if common[setting.value] > 0:
            common[setting.value] -= 1
        else:
            left.append(setting)
    return left
