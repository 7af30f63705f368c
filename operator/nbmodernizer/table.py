"""CSV files read as `pandas.read_csv` reads them by default, with the standard library: the
private answers and the submissions the grader compares.

A cell is one of four kinds, as pandas' default parser types it:

* missing: empty, or one of pandas' NA spellings (`NA`, `nan`, `NULL`, `None`, ...);
* a number: a decimal or scientific literal, `inf`, `-Infinity` (spaces around it allowed);
* a truth value: `True`/`TRUE`/`true`, `False`/`FALSE`/`false`;
* a label: anything else.

A column is numbers when every cell that is not missing is a number, truth values (read as 1
and 0) when every such cell is one, and labels otherwise (a column of labels keeps each cell's
text, `"1"` included), so a submission grades as it did when pandas read it. Ids are text; an
integer id is the same id written with leading zeros, a sign or spaces (pandas read them as
numbers).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _csv import Reader

# pandas' default NA spellings (pandas._libs.parsers.STR_NA_VALUES)
NA_SPELLINGS = frozenset(
    {
        "",
        "#N/A",
        "#N/A N/A",
        "#NA",
        "-1.#IND",
        "-1.#QNAN",
        "-NaN",
        "-nan",
        "1.#IND",
        "1.#QNAN",
        "<NA>",
        "N/A",
        "NA",
        "NULL",
        "NaN",
        "None",
        "n/a",
        "nan",
        "null",
    }
)
TRUE_SPELLINGS = frozenset({"True", "TRUE", "true"})
FALSE_SPELLINGS = frozenset({"False", "FALSE", "false"})
_NUMBER = r"\s*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|(?i:inf(?:inity)?))\s*"
_MISSING = "|".join(re.escape(spelling) for spelling in sorted(NA_SPELLINGS, key=len, reverse=True))
_TRUTH = "|".join(sorted(TRUE_SPELLINGS | FALSE_SPELLINGS))
# A whole column is checked by one match over its cells joined by NUL (a cell holding one is
# a label): the regular expression engine's loop, not Python's.
_SEPARATOR = "\0"
_PLAIN_NUMBER_CHARACTERS = frozenset("0123456789.+-eE ")
_INTEGER = re.compile(r"\s*[+-]?\d+\s*", re.ASCII)
_NUMBERS = re.compile(rf"(?:{_NUMBER}|{_MISSING})(?:\0(?:{_NUMBER}|{_MISSING}))*", re.ASCII)
_TRUTHS = re.compile(rf"(?:{_TRUTH}|{_MISSING})(?:\0(?:{_TRUTH}|{_MISSING}))*")


class CsvError(ValueError):
    """Not a readable CSV; the message says where."""


@dataclass(frozen=True)
class Numbers:
    """A column of numbers (truth values read as 1.0 and 0.0)."""

    values: tuple[float, ...]


@dataclass(frozen=True)
class Labels:
    """A column of labels, each cell's text as written."""

    values: tuple[str, ...]


Column = Numbers | Labels


class Kind(Enum):
    MISSING = "missing"
    NUMBER = "number"
    TRUTH = "truth value"
    LABEL = "label"


def column_kind(cells: Sequence[str]) -> Kind:
    """Numbers when every cell not missing is one, truth values when every such cell is one,
    labels otherwise; missing when every cell is."""
    if NA_SPELLINGS.issuperset(cells):
        return Kind.MISSING
    if _plain_numbers(cells):
        return Kind.NUMBER
    column = _SEPARATOR.join(cells)
    if column.count(_SEPARATOR) != len(cells) - 1:
        return Kind.LABEL  # a cell holds a NUL: no number, truth value or NA spelling does
    if _NUMBERS.fullmatch(column):
        return Kind.NUMBER
    if _TRUTHS.fullmatch(column):
        return Kind.TRUTH
    return Kind.LABEL


def _plain_numbers(cells: Sequence[str]) -> bool:
    """The usual column, told fast: digits, signs, points and exponents that `float` reads
    (what it reads of these characters, pandas reads as a number too)."""
    if not _PLAIN_NUMBER_CHARACTERS.issuperset("".join(cells)):
        return False
    try:
        all(map(float, cells))
    except ValueError:
        return False
    return True


def has_missing(cells: Sequence[str]) -> bool:
    return not NA_SPELLINGS.isdisjoint(cells)


def typed_column(cells: Sequence[str], kind: Kind) -> Column:
    """The column of these cells (none missing) as a column of `kind` reads them."""
    if kind is Kind.LABEL:
        return Labels(tuple(cells))
    if kind is Kind.TRUTH:
        return Numbers(tuple(1.0 if cell in TRUE_SPELLINGS else 0.0 for cell in cells))
    return Numbers(tuple(map(float, cells)))


def canonical_id(cell: str) -> str:
    """An id as text; an integer written `007`, `+7` or ` 7` is `7`."""
    if cell.isascii() and cell.isdigit() and (cell[0] != "0" or len(cell) == 1):
        return cell  # the usual id, already canonical
    return str(int(cell)) if _INTEGER.fullmatch(cell) else cell


@dataclass(frozen=True)
class Sheet:
    """A CSV's header and its rows (each as long as the header), read as they are iterated:
    a malformed row raises CsvError then."""

    header: tuple[str, ...]
    rows: Iterator[list[str]]


def read_csv(data: bytes) -> Sheet:
    """The header (an empty name is `Unnamed: N`, a repeated one `name.1`, as pandas names
    them) and the rows: blank lines are skipped, a short row is padded with missing cells, a
    row longer than the header raises CsvError."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CsvError(str(error)) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    first = next(_lines(reader), None)
    if first is None:
        raise CsvError("no columns to parse from file")
    header = _names(first)
    return Sheet(header, _padded(reader, len(header)))


def _lines(reader: Reader) -> Iterator[list[str]]:
    """The rows that are not blank (a line of spaces is blank)."""
    try:
        for row in reader:
            if len(row) > 1 or (row and row[0].strip()):
                yield row
    except csv.Error as error:
        raise CsvError(f"line {reader.line_num}: {error}") from None


def _padded(reader: Reader, width: int) -> Iterator[list[str]]:
    try:
        for row in reader:
            if len(row) <= 1 and not (row and row[0].strip()):
                continue  # a blank line
            if len(row) == width:
                yield row
            elif len(row) > width:
                raise CsvError(f"expected {width} fields in line {reader.line_num}, saw {len(row)}")
            else:
                yield row + [""] * (width - len(row))
    except csv.Error as error:
        raise CsvError(f"line {reader.line_num}: {error}") from None


def _names(row: list[str]) -> tuple[str, ...]:
    names: list[str] = []
    seen: dict[str, int] = {}
    for index, name in enumerate(row):
        name = name or f"Unnamed: {index}"
        if name in seen:
            seen[name] += 1
            name = f"{name}.{seen[name]}"
        else:
            seen[name] = 0
        names.append(name)
    return tuple(names)
