"""Numeric settings that shrank: fewer estimators, epochs or folds, smaller samples.

Settings are matched per notebook, not per cell position: values found in both notebooks cancel
out, so moving cells raises nothing.
"""

from __future__ import annotations

import ast
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from nbmodernizer.fidelity.kinds import FEWER_EPOCHS, FEWER_ESTIMATORS, FEWER_FOLDS, SUBSAMPLING
from nbmodernizer.fidelity.syntax import (
    callee,
    code,
    document_order,
    dotted,
    fmt,
    grouped,
    keyword,
    number,
    words,
)
from nbmodernizer.notebook import CodeCell
from nbmodernizer.status import RiskFlag

# Numeric settings whose decrease is a risk: name -> (flag kind, family). Settings of one family
# are compared with each other, so a keyword rename (nb_epoch -> epochs) is no change.
_SETTINGS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(
        words(
            "n_estimators num_boost_round num_round num_rounds nrounds iterations num_iterations "
            "max_iter n_iter num_trees"
        ),
        (FEWER_ESTIMATORS, "estimators"),
    ),
    **dict.fromkeys(
        words("epochs nb_epoch nb_epochs num_epochs n_epochs max_epochs"),
        (FEWER_EPOCHS, "epochs"),
    ),
    **dict.fromkeys(words("n_splits n_folds nfold nfolds num_folds cv"), (FEWER_FOLDS, "folds")),
    "nrows": (SUBSAMPLING, "rows"),
    "max_rows": (SUBSAMPLING, "rows"),
}
# Subsampling keywords that only mean so in `.sample(...)`.
_SAMPLE_SETTINGS = {"frac": "fraction", "n": "rows"}


@dataclass(frozen=True)
class Setting:
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


def all_settings(cells: Iterable[CodeCell]) -> list[Setting]:
    return [setting for cell in cells for setting in _settings(cell)]


def _settings(cell: CodeCell) -> Iterator[Setting]:
    if cell.tree is None:
        return
    for node in ast.walk(cell.tree):
        at = document_order(cell, node)
        for owner, label, value_node in _setting_nodes(node):
            kind_family = _setting_kind(owner, label)
            value = number(value_node)
            if kind_family is not None and value is not None:
                yield Setting(*kind_family, owner, label, value, code(value_node), at)
        if isinstance(node, ast.Call) and callee(node) == "train_test_split":
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
        owner = callee(node) or "?"
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
    name = dotted(target)
    if name is not None:
        yield f"={name}", name.rsplit(".", 1)[-1], value


def _train_fraction(cell: CodeCell, call: ast.Call) -> Iterator[Setting]:
    """The share of rows `train_test_split` trains on (0.75 by default)."""
    train, test = keyword(call, "train_size"), keyword(call, "test_size")
    train = None if isinstance(train, ast.Constant) and train.value is None else train
    test = None if isinstance(test, ast.Constant) and test.value is None else test
    at = document_order(cell, call)
    if train is not None:
        value = number(train)
        if value is None:
            return
        family = "train fraction" if value < 1 else "train rows"
        yield Setting(SUBSAMPLING, family, "train_test_split", "train_size", value, code(train), at)
        return
    test_value = 0.25 if test is None else number(test)
    if test_value is None or not 0 < test_value < 1:
        return
    text = "0.75 (default)" if test is None else f"{fmt(1 - test_value)} (test_size={code(test)})"
    yield Setting(
        SUBSAMPLING, "train fraction", "train_test_split", "train_size", 1 - test_value, text, at
    )


def _epoch_loop(cell: CodeCell, loop: ast.For) -> Iterator[Setting]:
    """`for epoch in range(100)`: a hand-written training loop of 100 epochs."""
    if not (isinstance(loop.target, ast.Name) and "epoch" in loop.target.id.lower()):
        return
    iterator = loop.iter
    if isinstance(iterator, ast.Call) and callee(iterator) not in {"range", "trange"}:
        iterator = iterator.args[0] if iterator.args else iterator  # tqdm(range(...))
    if not (isinstance(iterator, ast.Call) and callee(iterator) in {"range", "trange"}):
        return
    bounds = [number(arg) for arg in iterator.args]
    if not 1 <= len(bounds) <= 3 or any(b is None or not b.is_integer() for b in bounds):
        return
    try:
        count = len(range(*(int(b) for b in bounds if b is not None)))
    except (ValueError, OverflowError):  # range(0, 10, 0), a range too long to count
        return
    label = f"for {loop.target.id} (iterations)"
    yield Setting(
        FEWER_EPOCHS, "epochs", "for", label, float(count), str(count), document_order(cell, loop)
    )


def decreases(
    old: Sequence[Setting], new: Sequence[Setting], kind: str
) -> Iterator[tuple[Setting, Setting]]:
    """(before, after) settings of one owner and family whose value went down.

    Values found in both notebooks cancel out (so moved cells change nothing); what is left on
    each side is paired in document order.
    """
    before = grouped((s for s in old if s.kind == kind), _group)
    after = grouped((s for s in new if s.kind == kind), _group)
    for group, news in after.items():
        olds = before.get(group, [])
        common = Counter(s.value for s in olds) & Counter(s.value for s in news)
        left_old = _without(olds, common.copy())
        left_new = _without(news, common.copy())
        for was, now in zip(left_old, left_new, strict=False):
            if now.effective < was.effective:
                yield was, now


def _group(setting: Setting) -> tuple[str, str, str]:
    return setting.group


def setting_flag(was: Setting, now: Setting) -> RiskFlag:
    if was.label == now.label:
        change = f"{now.label} {was.text} → {now.text}"
    else:
        change = f"{was.label} {was.text} → {now.label} {now.text}"
    called = now.owner.isidentifier() and now.owner not in {"dict", "for"}
    where = f" in {now.owner}()" if called else ""
    return RiskFlag(kind=now.kind, cell=now.at[0], detail=change + where)


def setting_flags(old: Sequence[Setting], new: Sequence[Setting], kind: str) -> list[RiskFlag]:
    found = sorted(decreases(old, new, kind), key=lambda pair: pair[1].at)
    return [setting_flag(was, now) for was, now in found]


def _without(settings: Sequence[Setting], common: Counter[float]) -> list[Setting]:
    left: list[Setting] = []
    for setting in settings:
        if common[setting.value] > 0:
            common[setting.value] -= 1
        else:
            left.append(setting)
    return left
