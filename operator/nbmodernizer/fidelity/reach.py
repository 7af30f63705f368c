"""Reaching outside: a revision that newly reads credentials, the process table, the network,
the answers or files outside the inputs and the working directory.

A fix (an LLM's reply, above all) is untrusted code; it is there to repair the notebook, never
to look around. Compared per notebook, as the other detectors are: what the original already
did is not flagged (the notebook is contained like any notebook); what the revision adds is.
A `reaches-outside` flag blocks the fix (`BLOCKING` kinds): the LLM fixer rejects such a reply
and asks again, saying why.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable, Sequence

from nbmodernizer.fidelity.kinds import REACHES_OUTSIDE
from nbmodernizer.fidelity.syntax import clip, code, dotted
from nbmodernizer.notebook import CodeCell
from nbmodernizer.status import RiskFlag

# Modules whose import is a reach: credentials, the network, other processes.
_MODULES = {
    "boto3": "cloud credentials",
    "botocore": "cloud credentials",
    "s3fs": "cloud credentials",
    "requests": "the network",
    "urllib2": "the network",  # Python 2's, which a rule rewrites to urllib.request
    "httplib": "the network",
    "httplib2": "the network",
    "urllib": "the network",
    "urllib3": "the network",
    "httpx": "the network",
    "aiohttp": "the network",
    "http": "the network",
    "socket": "the network",
    "ftplib": "the network",
    "smtplib": "the network",
    "paramiko": "the network",
    "subprocess": "other processes",
    "ctypes": "the process's memory",
}
# Attribute chains and calls that read the environment or run commands.
_NAMES = {
    "os.environ": "the environment",
    "os.environb": "the environment",
    "os.getenv": "the environment",
    "os.getenvb": "the environment",
    "os.system": "other processes",
    "os.popen": "other processes",
    "os.exec": "other processes",
    "os.spawn": "other processes",
}
# Paths in string literals: allowed are the inputs and the working directory.
_ALLOWED_PATH = re.compile(r"^(\.\./input|/kaggle/input|/kaggle/working|\./|[^/.~])")
_OUTSIDE_PATH = re.compile(r"^(/|~|\.\./(?!input))")
_PROC = re.compile(r"^/proc(/|$)")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)


def _reaches(cell: CodeCell, answers: str | None) -> Iterable[tuple[str, str]]:
    """(what, the code) for every reach in the cell."""
    if cell.tree is None:
        return
    # os.environ["X"] = "y" configures the notebook's own libraries: no reach
    written = {
        id(node.value)
        for node in ast.walk(cell.tree)
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del)
    }
    for node in ast.walk(cell.tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            for name in names:
                top = name.split(".")[0]
                if top in _MODULES:
                    yield _MODULES[top], code(node)
                if name == "os" and isinstance(node, ast.ImportFrom):
                    for alias in node.names:
                        if f"os.{alias.name}" in _NAMES or alias.name.startswith(("exec", "spawn")):
                            yield "the environment or other processes", code(node)
        elif isinstance(node, ast.Attribute) and id(node) not in written:
            chain = dotted(node) or ""
            for name, what in _NAMES.items():
                if chain == name or (name in ("os.exec", "os.spawn") and chain.startswith(name)):
                    yield what, chain
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.strip()
            if answers and answers in text:
                yield "the answers", text
            elif _URL.match(text):
                yield "the network", text
            elif _PROC.match(text):
                yield "the process table", text
            elif _OUTSIDE_PATH.match(text) and not _ALLOWED_PATH.match(text) and len(text) > 1:
                yield "files outside the inputs and the working directory", text


def _counted(cells: Sequence[CodeCell], answers: str | None) -> Counter[str]:
    return Counter(what for cell in cells for what, _ in _reaches(cell, answers))


def reach_flags(
    old: Sequence[CodeCell], new: Sequence[CodeCell], answers: str | None = None
) -> list[RiskFlag]:
    """A flag per reach of a kind the revision has more often than the original (so a
    rewritten import of the same kind is none); `answers` is the answers file's name (never to
    appear in a notebook)."""
    before = _counted(old, answers)
    flags: list[RiskFlag] = []
    for cell in new:
        for what, text in _reaches(cell, answers):
            if before[what] > 0:
                before[what] -= 1
                continue
            detail = f"reaches for {what}: {clip(text)}"
            flags.append(RiskFlag(kind=REACHES_OUTSIDE, cell=cell.index, detail=detail))
    return flags
