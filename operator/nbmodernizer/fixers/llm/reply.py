"""The reply contract: {"diagnosis", "plan", "cells": [{"index", "source"}]}, parsed robustly
(code fences, prose around the JSON) and checked (Python that parses, allowed cells only)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from nbmodernizer.cells import parse

REPLY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["diagnosis", "plan", "cells"],
    "properties": {
        "diagnosis": {"type": "string"},
        "plan": {"type": "string"},
        "cells": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["index", "source"],
                "properties": {"index": {"type": "integer"}, "source": {"type": "string"}},
            },
        },
    },
}

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n(.*?)\n\s*```", re.DOTALL)


class ReplyError(Exception):
    """The reply cannot be used; the message says why (it is fed back on a retry)."""


@dataclass(frozen=True)
class Reply:
    diagnosis: str
    plan: str
    cells: dict[int, str]


def _candidates(content: str) -> list[str]:
    found = [content.strip()]
    found += [m.group(1) for m in _FENCE.finditer(content)]
    start = content.find("{")
    while start != -1:
        try:
            _, end = json.JSONDecoder().raw_decode(content[start:])
        except json.JSONDecodeError:
            start = content.find("{", start + 1)
            continue
        found.append(content[start : start + end])
        break
    return found


def extract_json(content: str) -> dict[str, Any]:
    for candidate in _candidates(content):
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    raise ReplyError("the reply holds no JSON object")


def _parses(source: str) -> str | None:
    parsed = parse(source)
    return parsed.error if parsed.is_python and parsed.tree is None else None


def parse_reply(
    content: str, editable: frozenset[int], sources: Mapping[int, str] | None = None
) -> Reply:
    """The reply's edits. A cell outside `editable` that the reply repeats unchanged (as it
    is in `sources`, the notebook's cells) is ignored; any real change to one is refused."""
    data = extract_json(content)
    cells = data.get("cells")
    if not isinstance(cells, list) or not cells:
        raise ReplyError('"cells" must be a non-empty list of {"index", "source"}')
    edits: dict[int, str] = {}
    for item in cells:
        if not isinstance(item, dict):
            raise ReplyError('each entry of "cells" must be an object')
        index, source = item.get("index"), item.get("source")
        if not isinstance(index, int) or isinstance(index, bool) or not isinstance(source, str):
            raise ReplyError('each entry of "cells" needs an integer "index" and a string "source"')
        if index not in editable:
            if sources is not None and sources.get(index) == source:
                continue  # an echo of a cell it was shown or remembered
            raise ReplyError(f"cell {index} may not be edited (editable: {sorted(editable)})")
        problem = _parses(source)
        if problem is not None:
            raise ReplyError(f"cell {index} is not valid Python: {problem}")
        edits[index] = source
    return Reply(str(data.get("diagnosis", "")), str(data.get("plan", "")), edits)
