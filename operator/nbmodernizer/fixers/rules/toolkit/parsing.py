"""LibCST's parser without validating the nodes it builds.

Every LibCST node validates itself when it is built (`CSTNode.__post_init__`): right for a
node a rule builds, wasted on the parser's, which are valid by construction; LibCST's own note
there says as much. In `nbmod scan` a third of the parser's time went to it. While this thread
parses, validation is skipped; everywhere else, and in every other thread, it runs as before.
"""

from __future__ import annotations

import threading

import libcst as cst


class _Parsing(threading.local):
    active = False


_PARSING = _Parsing()
_validate = cst.CSTNode.__post_init__


def _post_init(node: cst.CSTNode) -> None:
    if not _PARSING.active:
        _validate(node)


setattr(cst.CSTNode, "__post_init__", _post_init)  # noqa: B010 (a method replaced, on purpose)


def parse_module(code: str) -> cst.Module:
    """`libcst.parse_module`, its nodes not validated (they come from the parser)."""
    _PARSING.active = True
    try:
        return cst.parse_module(code)
    finally:
        _PARSING.active = False


def reparsed(original: cst.Module, changed: cst.Module, code: str) -> cst.Module | None:
    """The tree LibCST parses from `code`, the code of `changed` (a transform of `original`),
    parsing again only the top-level statements the transform replaced: a transformer's
    nodes are not always the parser's (`expression("x")` where the parser would own the
    whitespace differently), and the rules after it must see what they would see reading
    the cell afresh. None where that cannot be told statement by statement (the module's
    header, footer or layout changed, or a statement read alone is read otherwise): then
    parse `code` whole."""
    if (
        changed.header is not original.header
        or changed.footer is not original.footer
        or changed.encoding != original.encoding
        or changed.default_indent != original.default_indent
        or changed.default_newline != original.default_newline
        or changed.has_trailing_newline != original.has_trailing_newline
    ):
        return None
    kept = {id(statement) for statement in original.body}
    body: list[cst.BaseStatement] = []
    last = len(changed.body) - 1
    for n, statement in enumerate(changed.body):
        if id(statement) in kept:
            body.append(statement)
            continue
        alone = changed.code_for_node(statement)
        if n == last and not changed.has_trailing_newline:
            alone = alone.removesuffix(changed.default_newline)
        read = parse_module(alone)
        if (
            len(read.body) != 1
            or read.footer
            or read.default_indent != changed.default_indent
            or read.default_newline != changed.default_newline
        ):
            return None
        first = read.body[0]
        if read.header:
            first = first.with_changes(leading_lines=(*read.header, *first.leading_lines))
        body.append(first)
    return changed.with_changes(body=body)
