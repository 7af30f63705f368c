"""Text similarity of code: difflib's ratio, computed line first to stay fast."""

from __future__ import annotations

import difflib
import re

_CHAR_DIFF_LIMIT = 250_000  # len(a) * len(b) above which changed lines are diffed by tokens
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


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
