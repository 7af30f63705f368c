"""Subsampling added or shrunk: `df.sample(frac=0.1)`, `X[:1000]`, `nrows=500`, a smaller
train split."""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from nbmodernizer.fidelity.kinds import SUBSAMPLING
from nbmodernizer.fidelity.settings import Setting, decreases, setting_flag
from nbmodernizer.fidelity.syntax import (
    callee,
    code,
    displayed,
    document_order,
    dotted,
    grouped,
    keyword,
    number,
    take,
)
from nbmodernizer.notebook import CodeCell
from nbmodernizer.status import RiskFlag


@dataclass(frozen=True)
class _Pattern:
    """One subsampling construct: `df.sample(frac=0.1)`, `X[:1000]`, `nrows=500`, ..."""

    key: str
    text: str
    at: tuple[int, int, int]  # cell index, line, column


def _subsamples(cell: CodeCell) -> Iterator[_Pattern]:
    if cell.tree is None:
        return
    shown = displayed(cell.tree)
    for node in ast.walk(cell.tree):
        if id(node) in shown:
            continue
        key = _subsample_key(node)
        if key is not None:
            yield _Pattern(key, code(node), document_order(cell, node))


def _subsample_key(node: ast.AST) -> str | None:
    if isinstance(node, ast.Subscript):
        return "slice" if isinstance(node.ctx, ast.Load) and _leading_slice(node.slice) else None
    if not isinstance(node, ast.Call):
        return None
    name = callee(node)
    if name == "sample" and _samples_data(node):
        return "sample"
    if name == "head" and (node.args or keyword(node, "n") is not None):
        return "head"
    if keyword(node, "nrows") is not None or keyword(node, "max_rows") is not None:
        return "nrows"
    if name == "train_test_split" and keyword(node, "train_size") is not None:
        return "train_size"
    return None


def _samples_data(call: ast.Call) -> bool:
    """`df.sample(...)` draws a subset; `np.random.sample(n)` draws numbers, frac=1 shuffles."""
    receiver = dotted(call.func.value) if isinstance(call.func, ast.Attribute) else None
    if receiver is not None and receiver.endswith(".random"):
        return False
    frac = number(keyword(call, "frac"))
    return frac is None or frac < 1


def _leading_slice(node: ast.expr) -> bool:
    """`[:1000]`, `[0:5000, :]` (at least 100 rows) or `[::10]`."""
    if isinstance(node, ast.Tuple) and node.elts:
        node = node.elts[0]
    if not isinstance(node, ast.Slice):
        return False
    lower, upper, step = (
        number(part) if part else None for part in (node.lower, node.upper, node.step)
    )
    starts = node.lower is None or lower == 0
    if starts and node.step is None and upper is not None:
        return upper >= 100
    return node.lower is None and node.upper is None and step is not None and step >= 2


def subsampling_flags(
    old: Sequence[CodeCell],
    new: Sequence[CodeCell],
    old_settings: Sequence[Setting],
    new_settings: Sequence[Setting],
) -> list[RiskFlag]:
    """Subsampling constructs the revision has more of, then sample sizes that shrank."""
    before = [p for cell in old for p in _subsamples(cell)]
    after = [p for cell in new for p in _subsamples(cell)]
    flags: list[tuple[tuple[int, int, int], RiskFlag]] = []
    for key, group in grouped(after, lambda p: p.key).items():
        olds = [p for p in before if p.key == key]
        extra = len(group) - len(olds)
        if extra <= 0:
            continue
        known = Counter(p.text for p in olds)
        fresh = [p for p in group if not take(known, p.text)]
        chosen = (fresh + [p for p in group if p not in fresh])[:extra]
        flags.extend(
            (p.at, RiskFlag(kind=SUBSAMPLING, cell=p.at[0], detail=f"adds {p.text}"))
            for p in chosen
        )
    flagged = {at for at, _ in flags}
    for was, now in decreases(old_settings, new_settings, SUBSAMPLING):
        if now.at not in flagged:
            flags.append((now.at, setting_flag(was, now)))
    return [flag for _, flag in sorted(flags, key=lambda item: item[0])]
