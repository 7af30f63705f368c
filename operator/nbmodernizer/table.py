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
_NUMBER = re.compile(
    r"\s*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?|inf(?:inity)?)\s*", re.IGNORECASE | re.ASCII
)
_INTEGER = re.compile(r"\s*[+-]?\d+\s*", re.ASCII)


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


def kind_of(cell: str) -> Kind:
    if cell in NA_SPELLINGS:
        return Kind.MISSING
    if _NUMBER.fullmatch(cell):
        return Kind.NUMBER
    if cell in TRUE_SPELLINGS or cell in FALSE_SPELLINGS:
        return Kind.TRUTH
    return Kind.LABEL


def joined(kind: Kind, cell: Kind) -> Kind:
    """The kind of a column of `kind` with one more cell of kind `cell`."""
    if cell is Kind.MISSING or cell is kind:
        return kind
    if kind is Kind.MISSING:
        return cell
    return Kind.LABEL  # numbers and truth values mixed, or a label among them


def column_kind(cells: Sequence[str]) -> Kind:
    kind = Kind.MISSING
    for cell in cells:
        kind = joined(kind, kind_of(cell))
    return kind


def typed_column(cells: Sequence[str], kind: Kind) -> Column:
    """The column of these cells (none missing) as a column of `kind` reads them."""
    if kind is Kind.LABEL:
        return Labels(tuple(cells))
    if kind is Kind.TRUTH:
        return Numbers(tuple(1.0 if cell in TRUE_SPELLINGS else 0.0 for cell in cells))
    return Numbers(tuple(float(cell) for cell in cells))


def canonical_id(cell: str) -> str:
    """An id as text; an integer written `007`, `+7` or ` 7` is `7`."""
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
    for row in _lines(reader):
        if len(row) > width:
            raise CsvError(f"expected {width} fields in line {reader.line_num}, saw {len(row)}")
        if len(row) < width:
            row.extend([""] * (width - len(row)))
        yield row


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
