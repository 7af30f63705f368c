"""Pure: whether two fingerprints of a bound value (printed by bound_values.py, in two
environments) describe the same value, within a tolerance for floats.

What is compared is what a value means, not how a library version spells it: an int and a
float of the same value agree (numpy scalars are plain numbers), a list and a tuple of the same
items agree, datetimes agree in any unit, dtypes agree by kind (`int64`/`int32`,
`object`/`str`), a frame's columns agree by label in any order, a Series' name is not compared
(pandas 2 named value_counts()'s result "count"), an opaque value (a model, a figure) is not
compared.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

Fingerprint = Mapping[str, Any]

RELATIVE = 1e-6
ABSOLUTE = 1e-9
NUMBERS = frozenset({"int", "float"})
# dtype kinds that mean the same values: signed/unsigned integers; text held as objects,
# unicode or pandas' `str` (whose kind is "O")
_KINDS = {"u": "i", "U": "O", "S": "O"}


def comparable(fingerprint: Fingerprint) -> bool:
    return fingerprint.get("kind") not in ("opaque", "error")


def _number(value: Any) -> float:
    return float(value)  # "nan", "inf" and "-inf" arrive as strings, float() reads them


def _close(a: Any, b: Any) -> bool:
    x, y = _number(a), _number(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return math.isclose(x, y, rel_tol=RELATIVE, abs_tol=ABSOLUTE)


def _plain(a: Any, b: Any, where: str) -> str | None:
    """Values as tolist() gave them (nested lists, numbers, strings, fingerprints)."""
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: length {len(a)} != {len(b)}"
        for n, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _plain(x, y, f"{where}[{n}]")
            if found:
                return found
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        return difference(a, b, where)
    if _numeric(a) and _numeric(b):
        return None if _close(a, b) else f"{where}: {a!r} != {b!r}"
    return None if a == b else f"{where}: {a!r} != {b!r}"


def _numeric(value: Any) -> bool:
    """A number in tolist()'s output (nan and infinities arrive as strings)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int | float) or value in ("nan", "inf", "-inf")


def _kinds(kinds: Sequence[str]) -> list[str]:
    return [_KINDS.get(kind, kind) for kind in kinds]


def _array(a: Fingerprint, b: Fingerprint, where: str) -> str | None:
    if a["shape"] != b["shape"]:
        return f"{where}: shape {a['shape']} != {b['shape']}"
    if _kinds([a["dtype_kind"]]) != _kinds([b["dtype_kind"]]):
        return f"{where}: dtype {a['dtype']} != {b['dtype']}"
    if a["values"] is not None and b["values"] is not None:
        return _plain(a["values"], b["values"], where)
    summaries = (a["summary"] or {}, b["summary"] or {})
    for statistic in sorted(summaries[0].keys() & summaries[1].keys()):
        x, y = summaries[0][statistic], summaries[1][statistic]
        if not _close(x, y):
            return f"{where}: {statistic} {x!r} != {y!r}"
    return None


def difference(a: Fingerprint, b: Fingerprint, where: str = "value") -> str | None:
    """The first way in which `b` is not the value `a` is; None when they agree (or either is
    opaque: not compared)."""
    if not comparable(a) or not comparable(b):
        return None
    kind, other = a["kind"], b["kind"]
    if kind in NUMBERS and other in NUMBERS:
        return None if _close(a["value"], b["value"]) else f"{where}: {a['value']} != {b['value']}"
    if kind != other:
        return f"{where}: a {kind} became a {other}"
    if kind == "complex":  # [real, imaginary], each within the tolerance of a float
        same = all(_close(x, y) for x, y in zip(a["value"], b["value"], strict=True))
        return None if same else f"{where}: {a['value']!r} != {b['value']!r}"
    if kind in ("none", "bool", "str", "bytes", "time"):
        same = a.get("length") == b.get("length") and a["value"] == b["value"]
        return None if same else f"{where}: {a['value']!r} != {b['value']!r}"
    if kind in ("sequence", "set", "mapping"):
        if a["length"] != b["length"]:
            return f"{where}: length {a['length']} != {b['length']}"
        return _plain(a["items"], b["items"], where)
    if kind == "array":
        return _array(a, b, where)
    if kind == "sparse":
        if a["shape"] != b["shape"] or a["nnz"] != b["nnz"]:
            return f"{where}: sparse {a['shape']}/{a['nnz']} != {b['shape']}/{b['nnz']}"
        if a["values"] is not None and b["values"] is not None:
            return _array(a["values"], b["values"], where)
        return None
    if kind == "frame":
        return _frame(a, b, where)
    if kind == "series":
        return difference(a["index"], b["index"], f"{where}.index") or difference(
            a["values"], b["values"], where
        )
    raise ValueError(f"{where}: unknown fingerprint kind {kind!r}")


def _frame(a: Fingerprint, b: Fingerprint, where: str) -> str | None:
    """Columns are matched by label: their order is not compared (pandas before 0.23 sorted
    the keys of a dict it was given, today's keeps their order)."""
    if a["shape"] != b["shape"]:
        return f"{where}: shape {a['shape']} != {b['shape']}"
    found = difference(a["index"], b["index"], f"{where}.index")
    if found:
        return found
    ours = {json.dumps(label, sort_keys=True): column for label, column in a["columns"]}
    theirs = {json.dumps(label, sort_keys=True): column for label, column in b["columns"]}
    if ours.keys() != theirs.keys():
        labels = [[label.get("value") for label, _ in f["columns"]] for f in (a, b)]
        return f"{where}: columns {labels[0]} != {labels[1]}"
    for key, column in ours.items():
        found = difference(column, theirs[key], f"{where}[{json.loads(key).get('value')!r}]")
        if found:
            return found
    return None
