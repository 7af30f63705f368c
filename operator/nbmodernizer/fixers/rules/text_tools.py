"""Helpers for rules that cannot use LibCST alone.

Two families, both candidates for a shared module later:

* text helpers for cells that do not parse as Python 3 (Python 2 syntax, IPython lines):
  a lexer that masks string literals and comments so regexes only ever see code, logical
  lines and simple statements found on that mask, and edits applied back to the source;
* LibCST helpers used by several library modules: which variables a cell builds from a
  given class, keyword lookup, appending keyword arguments, parenthesizing for precedence.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import libcst as cst

from nbmodernizer.fixers.rules.cells import (
    is_cell_magic,
    mask_ipython,
    unmask_ipython,
)
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import new_arg
from nbmodernizer.fixers.rules.model import Rewrite

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


def split_top_level(mask: str, span: Span, separator: str = ",") -> list[Span]:
    """Split a span of the mask at the separator where no bracket is open."""
    parts: list[Span] = []
    depth, start = 0, span[0]
    for index in range(span[0], span[1]):
        char = mask[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0 and mask.startswith(separator, index):
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
    depth, lambdas = 0, 0
    for index in range(span[0], span[1]):
        char = mask[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif (
            depth == 0
            and re.match(r"(?<![\w.])lambda\b", mask[index:])
            and (index == 0 or not (mask[index - 1].isalnum() or mask[index - 1] == "_"))
        ):
            lambdas += 1
        elif depth == 0 and char == ":" and not mask.startswith(":=", index):
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


def parses(source: str) -> bool:
    """Whether Python 3 accepts this code (IPython lines masked)."""
    try:
        ast.parse(mask_ipython(source)[0])
    except (SyntaxError, ValueError):
        return False
    return True


def text_rewrite(edit: Callable[[str, str, RuleContext], str]) -> Rewrite:
    """A Rewrite working on text: `edit(source, mask, context)` sees IPython lines masked."""

    def rewrite(source: str, context: RuleContext) -> str:
        if is_cell_magic(source):
            return source
        masked, originals = mask_ipython(source)
        changed = edit(masked, code_mask(masked), context)
        if changed == masked:
            return source
        return unmask_ipython(changed, originals)

    return rewrite


def rename_names(names: dict[str, str], *, calls_only: Sequence[str] = ()) -> Rewrite:
    """Rename bare names in code (not attributes, keyword arguments, assignments, imports).

    Names in `calls_only` are renamed only where they are called (`long(x)`).
    """
    pattern = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, names)) + r")\b")

    def edit(source: str, mask: str, _context: RuleContext) -> str:
        edits: list[Edit] = []
        skip = [
            span
            for span in simple_statements(mask)
            if re.match(r"(from|import)\b", mask[span[0] : span[1]])
        ]
        for match in pattern.finditer(mask):
            name = match.group(1)
            after = mask[match.end() :]
            if re.match(r"\s*=(?!=)", after) or re.search(
                r"\b(def|class)\s+$", mask[: match.start()]
            ):
                continue
            if name in calls_only and not re.match(r"\s*\(", after):
                continue
            if any(start <= match.start() < end for start, end in skip):
                continue
            edits.append((match.start(), match.end(), names[name]))
        return apply_edits(source, edits)

    return text_rewrite(edit)


# ---------------------------------------------------------------------------------------------
# LibCST helpers
# ---------------------------------------------------------------------------------------------


def without_keywords(call: cst.Call, names: Iterable[str]) -> cst.Call:
    """The call without these keyword arguments; the argument before a dropped one takes
    the dropped one's comma (and layout), so lines keep their shape."""
    drop = set(names)
    args: list[cst.Arg] = []
    for arg in call.args:
        if not (arg.keyword and arg.keyword.value in drop):
            args.append(arg)
        elif args:
            args[-1] = args[-1].with_changes(
                comma=arg.comma, whitespace_after_arg=arg.whitespace_after_arg
            )
    if len(args) == len(call.args):
        return call
    return call.with_changes(args=args)


def replace_keywords(
    call: cst.Call, names: Sequence[str], new: Sequence[tuple[str, cst.BaseExpression]]
) -> cst.Call:
    """Drop these keyword arguments and put the new ones where the first of them was."""
    first = next((arg for arg in call.args if arg.keyword and arg.keyword.value in names), None)
    if first is None:
        return with_keywords(call, new)
    if not new:
        return without_keywords(call, names)
    space = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    inserted = [
        first.with_changes(
            keyword=cst.Name(name),
            value=value,
            comma=space,
            whitespace_after_arg=cst.SimpleWhitespace(""),
        )
        for name, value in new
    ]
    inserted[-1] = inserted[-1].with_changes(
        comma=first.comma, whitespace_after_arg=first.whitespace_after_arg
    )
    args: list[cst.Arg] = []
    for arg in call.args:
        if arg is first:
            args.extend(inserted)
        elif arg.keyword and arg.keyword.value in names:
            args[-1] = args[-1].with_changes(
                comma=arg.comma, whitespace_after_arg=arg.whitespace_after_arg
            )
        else:
            args.append(arg)
    return call.with_changes(args=args)


def with_keywords(call: cst.Call, extra: Sequence[tuple[str, cst.BaseExpression]]) -> cst.Call:
    """The call with keyword arguments appended after the existing ones, in the call's layout."""
    if not extra:
        return call
    space = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    new = [new_arg(name, value).with_changes(comma=space) for name, value in extra]
    args = list(call.args)
    if not args:
        new[-1] = new[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return call.with_changes(args=new)
    last = args[-1]
    if isinstance(last.comma, cst.Comma) and isinstance(
        last.comma.whitespace_after, cst.ParenthesizedWhitespace
    ):  # one argument a line, with a trailing comma: keep it so
        between = (
            args[-2].comma
            if len(args) > 1 and isinstance(args[-2].comma, cst.Comma)
            else cst.Comma(whitespace_after=call.whitespace_before_args)
        )
        args[-1] = last.with_changes(comma=between)
        new = [arg.with_changes(comma=between) for arg in new]
        new[-1] = new[-1].with_changes(comma=last.comma)
        return call.with_changes(args=[*args, *new])
    # the whitespace before `)` moves to the new last argument
    new[-1] = new[-1].with_changes(
        comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=last.whitespace_after_arg
    )
    comma = last.comma if isinstance(last.comma, cst.Comma) else space
    if isinstance(comma.whitespace_after, cst.SimpleWhitespace):
        comma = space
    args[-1] = last.with_changes(comma=comma, whitespace_after_arg=cst.SimpleWhitespace(""))
    return call.with_changes(args=[*args, *new])


_LOOSE = (
    cst.GeneratorExp,
    cst.IfExp,
    cst.Lambda,
    cst.BooleanOperation,
    cst.Comparison,
    cst.NamedExpr,
    cst.Yield,
    cst.Await,
    cst.BinaryOperation,
    cst.UnaryOperation,
)


def atom(node: cst.BaseExpression) -> cst.BaseExpression:
    """The expression, parenthesized unless it binds tighter than any operator."""
    if isinstance(node, _LOOSE) and not node.lpar:
        return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return node


def is_literal(node: cst.BaseExpression) -> bool:
    """Strings, numbers, booleans, None, and lists/tuples of them."""
    if isinstance(node, cst.SimpleString | cst.ConcatenatedString | cst.Integer | cst.Float):
        return True
    if isinstance(node, cst.Name):
        return node.value in ("True", "False", "None")
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return is_literal(node.expression)
    if isinstance(node, cst.List | cst.Tuple):
        return all(is_literal(element.value) for element in node.elements)
    return False


def module_alias(context: RuleContext, module: str) -> str | None:
    """The local name under which the notebook imported this module (`lgb` for lightgbm)."""
    for local, name in sorted(context.aliases.items()):
        if name == module:
            return local
    return None


_IMPORT = re.compile(r"import\s+(?P<names>.+)$", re.S)
_FROM_IMPORT = re.compile(r"from\s+(?P<module>[\w.]+)\s+import\s+\(?(?P<names>[^)]+)\)?$", re.S)
_ALIAS = re.compile(r"^(?P<name>[\w.]+)(?:\s+as\s+(?P<asname>\w+))?$")


def lenient_import_aliases(sources: Iterable[str]) -> dict[str, str]:
    """`cells.import_aliases` for cells that do not parse (Python 2 syntax): the imports
    found in their text. Cells that parse are left to `cells.import_aliases`."""
    aliases: dict[str, str] = {}
    for source in sources:
        if is_cell_magic(source) or parses(source):
            continue
        masked = mask_ipython(source)[0]
        mask = code_mask(masked)
        for start, end in simple_statements(mask):
            text = re.sub(r"\\\n|\s+", " ", masked[start:end]).strip()
            found = _FROM_IMPORT.match(text)
            if found and not found.group("module").startswith("."):
                for part in found.group("names").split(","):
                    alias = _ALIAS.match(part.strip())
                    if alias:
                        local = alias.group("asname") or alias.group("name")
                        aliases[local] = f"{found.group('module')}.{alias.group('name')}"
                continue
            found = _IMPORT.match(text)
            if found:
                for part in found.group("names").split(","):
                    alias = _ALIAS.match(part.strip())
                    if alias is None:
                        continue
                    if alias.group("asname"):
                        aliases[alias.group("asname")] = alias.group("name")
                    else:
                        top = alias.group("name").split(".")[0]
                        aliases.setdefault(top, top)
    return aliases
