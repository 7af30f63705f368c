"""Rewriting cells that do not parse as Python 3 (Python 2 syntax): a lexer that masks string
literals and comments so that regexes only ever see code, the logical lines and simple
statements found on that mask, and edits applied back to the source (see
`toolkit.cells.text_rewrite`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

# ---------------------------------------------------------------------------------------------
# Lexing: strings and comments masked, so that regexes only match code
# ---------------------------------------------------------------------------------------------

_STRING_START = re.compile(r"(?i)(?<![\w.])(ur|ub|br|rb|fr|rf|u|b|r|f)?('''|\"\"\"|'|\")")


@dataclass(frozen=True)
class StringToken:
    start: int
    end: int
    prefix: str
    quote: str

    def body(self, source: str) -> str:
        return source[self.start + len(self.prefix) + len(self.quote) : self.end - len(self.quote)]


def string_tokens(source: str) -> list[StringToken]:
    """Every string literal of the source (Python 2 or 3), in order; comments skipped."""
    tokens: list[StringToken] = []
    index, length = 0, len(source)
    while index < length:
        char = source[index]
        if char == "#":
            newline = source.find("\n", index)
            index = length if newline < 0 else newline
            continue
        match = _STRING_START.match(source, index) if char.isalpha() or char in "'\"" else None
        if match is None or (char.isalpha() and match.group(1) is None):
            if char.isalnum() or char == "_":  # skip the rest of an identifier or number
                while index < length and (source[index].isalnum() or source[index] == "_"):
                    index += 1
            else:
                index += 1
            continue
        prefix, quote = match.group(1) or "", match.group(2)
        position = match.end()
        while position < length:
            current = source[position]
            if current == "\\":
                position += 2
                continue
            if source.startswith(quote, position):
                position += len(quote)
                break
            if current == "\n" and len(quote) == 1:  # unterminated: stop at the line end
                break
            position += 1
        end = min(position, length)
        tokens.append(StringToken(index, end, prefix, quote))
        index = end
    return tokens


@functools.lru_cache(maxsize=64)  # every text rule masks the same cell: mask it once
def code_mask(source: str) -> str:
    """The source, same length, string literals as `"___"` and comments as `#   `.

    Positions in the mask are positions in the source, so a regex run on the mask only
    matches code, and its match offsets can edit the source.
    """
    chars = list(source)
    for token in string_tokens(source):
        inner = range(token.start + 1, token.end - 1)
        chars[token.start] = '"'
        chars[token.end - 1] = '"'
        for position in inner:
            chars[position] = "_"
    masked = "".join(chars)
    # comments: whatever follows a `#` that is left in the mask (not in a string)
    return re.sub(r"#[^\n]*", lambda m: "#" + " " * (len(m.group()) - 1), masked)


Span = tuple[int, int]


def logical_lines(mask: str) -> list[Span]:
    """Spans of the logical lines (brackets and backslashes join physical lines)."""
    spans: list[Span] = []
    depth, start, index = 0, 0, 0
    while index < len(mask):
        char = mask[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char == "\\" and mask.startswith("\n", index + 1):
            index += 2
            continue
        elif char == "\n" and depth == 0:
            spans.append((start, index))
            start = index + 1
        index += 1
    spans.append((start, len(mask)))
    return spans


def _top_level(mask: str, span: Span) -> Iterator[int]:
    """The positions in a span of the mask where no bracket is open (brackets excluded)."""
    depth = 0
    for index in range(span[0], span[1]):
        char = mask[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0:
            yield index


def split_top_level(mask: str, span: Span, separator: str = ",") -> list[Span]:
    """Split a span of the mask at the separator where no bracket is open."""
    parts: list[Span] = []
    start = span[0]
    for index in _top_level(mask, span):
        if mask.startswith(separator, index):
            parts.append((start, index))
            start = index + len(separator)
    parts.append((start, span[1]))
    return parts


def strip_span(mask: str, span: Span) -> Span:
    """The span without surrounding whitespace, backslash continuations and comments."""
    start, end = span
    comment = mask.find("#", start, end)
    if comment >= 0:
        end = comment
    while start < end and (mask[start].isspace() or mask[start] == "\\"):
        start += 1
    while end > start and (mask[end - 1].isspace() or mask[end - 1] == "\\"):
        end -= 1
    return start, end


_COMPOUND = re.compile(r"(if|elif|else|for|while|with|try|except|finally|def|class|async)\b")


def header_colon(mask: str, span: Span) -> int | None:
    """Where the `:` that ends a compound statement's header is (lambdas skipped)."""
    lambdas = 0
    for index in _top_level(mask, span):
        if re.match(r"(?<![\w.])lambda\b", mask[index:]) and (
            index == 0 or not (mask[index - 1].isalnum() or mask[index - 1] == "_")
        ):
            lambdas += 1
        elif mask[index] == ":" and not mask.startswith(":=", index):
            if lambdas:
                lambdas -= 1
            else:
                return index
    return None


def simple_statements(mask: str) -> list[Span]:
    """Spans of the simple statements, also those after a compound header on one line."""
    statements: list[Span] = []
    for line in logical_lines(mask):
        start, end = strip_span(mask, line)
        if start >= end:
            continue
        if _COMPOUND.match(mask, start):
            colon = header_colon(mask, (start, end))
            if colon is None:
                continue
            start = colon + 1
        for part in split_top_level(mask, (start, end), ";"):
            stripped = strip_span(mask, part)
            if stripped[0] < stripped[1]:
                statements.append(stripped)
    return statements


def compound_headers(mask: str) -> list[tuple[str, Span]]:
    """(keyword, span of the header between the keyword and its colon) of each compound line."""
    headers: list[tuple[str, Span]] = []
    for line in logical_lines(mask):
        start, end = strip_span(mask, line)
        match = _COMPOUND.match(mask, start)
        if match is None:
            continue
        colon = header_colon(mask, (start, end))
        if colon is not None:
            headers.append((match.group(1), (match.end(), colon)))
    return headers


Edit = tuple[int, int, str]  # replace source[start:end] by text


def apply_edits(source: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits (later ones overlapping an earlier one are ignored)."""
    result: list[str] = []
    position = 0
    for start, end, text in sorted(edits, key=lambda edit: (edit[0], edit[1])):
        if start < position:
            continue
        result.append(source[position:start])
        result.append(text)
        position = end
    result.append(source[position:])
    return "".join(result)
