"""Error signatures: what a remembered fix answers, with nothing specific to one notebook.

A signature is the issue, the exception's name and its message normalised: quoted strings,
paths, numbers and code names (dotted, snake_case, or called: `fit()`) are replaced by
placeholders, so that `module 'legacy_lib' has no attribute 'old_call'` and the same error
in any other notebook read `module <str> has no attribute <str>`. What a fix changes is
told apart by its pattern (see `pattern`), not by its signature.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from nbmodernizer.status import CellError, Issue

MAX_MESSAGE = 300

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_QUOTED = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|`[^`\n]*`")
_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\w.~-]*[/\\])+[\w.-]*")
_NAME = re.compile(r"\b[A-Za-z_]\w*(?:\.\w+)+|\b\w*_\w*|\b[A-Za-z_]\w*(?=\()")
_NUMBER = re.compile(r"[-+]?\b(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:e[-+]?\d+)?)\b")
_SPACES = re.compile(r"\s+")


def normalise(message: str) -> str:
    """The message with no names, numbers, quoted strings or paths; one line, bounded."""
    text = _ANSI.sub("", message).strip().split("\n", 1)[0]
    text = _QUOTED.sub("<str>", text)
    text = _PATH.sub("<path>", text)
    text = _NAME.sub("<name>", text)
    text = _NUMBER.sub("<num>", text)
    return _SPACES.sub(" ", text).strip()[:MAX_MESSAGE]


@dataclass(frozen=True)
class Signature:
    """What went wrong, normalised: `Error` with an exception, or `ScoreDeviation`/`Timeout`."""

    issue: str
    ename: str = ""
    message: str = ""

    @property
    def key(self) -> str:
        """A short stable hash: the folder of the memory that holds this signature's entries."""
        text = f"{self.issue}\n{self.ename}\n{self.message}"
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def __str__(self) -> str:
        if not self.ename:
            return self.issue
        return f"{self.ename}: {self.message}" if self.message else self.ename

    def to_wire(self) -> dict[str, str]:
        return {"issue": self.issue, "ename": self.ename, "message": self.message}

    @classmethod
    def from_wire(cls, data: dict[str, str]) -> Signature:
        return cls(data["issue"], data.get("ename", ""), data.get("message", ""))


def of_error(error: CellError) -> Signature:
    return Signature(Issue.ERROR.value, error.ename, normalise(error.evalue))


def of_issue(issue: Issue) -> Signature:
    """Issues without an exception (ScoreDeviation, Timeout): the issue is the signature."""
    return Signature(issue.value)
