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
