"""Where each rule wrote in a cell: its occurrences, as lines and column spans of the cell the
rules left.

`fixer.rewrite_cell` tells a `Recorder` the source before and after each rule that changed the
cell; the places a rule wrote are the stretches its step changed, carried through the steps of
the rules after it (which may add or remove lines). An occurrence is a stretch of one line:
two rewrites on one line far apart are two occurrences; a rewrite that spans lines is one per
line. A traceback names a line, so `amend` decides per line. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from nbmodernizer.fixers.rules.model import Rule
from nbmodernizer.status import RuleOccurrence


@dataclass(frozen=True)
class Span:
    line: int  # 1-based
    start: int  # 0-based column of the first character written
    end: int  # one past the last


def _word_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The span widened to whole identifiers (`ix` -> `iloc` wrote `iloc`, not `loc`)."""
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return start, end


def _in_line(line: int, old: str | None, new: str) -> list[Span]:
    """The stretches of `new` (line `line`) that differ from `old` (None: a new line)."""
    if old is None:
        body = new.strip()
        return [Span(line, len(new) - len(new.lstrip()), len(new.rstrip()))] if body else []
    stretches: list[tuple[int, int]] = []
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start, end = _word_bounds(new, j1, j2)
        if stretches and start <= stretches[-1][1]:
            start = stretches.pop()[0]
        stretches.append((start, end))
    return [Span(line, start, end) for start, end in stretches]


def changed(before: str, after: str) -> list[Span]:
    """The places in `after` that differ from `before`."""
    old, new = before.splitlines(), after.splitlines()
    spans: list[Span] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        paired = tag == "replace" and i2 - i1 == j2 - j1
        for offset, j in enumerate(range(j1, j2)):
            spans += _in_line(j + 1, old[i1 + offset] if paired else None, new[j])
    return spans


def follow(spans: Sequence[Span], before: str, after: str) -> list[Span]:
    """The spans of `before` where they are in `after` (a later rule's step); a span on a line
    that step removed is dropped, one on a line it rewrote stays on that line."""
    old, new = before.splitlines(), after.splitlines()
    moved: dict[int, int] = {}  # 0-based line of `before` -> of `after`
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            moved.update({i: j1 + i - i1 for i in range(i1, i2)})
        elif tag == "replace":
            moved.update({i: j1 + min(i - i1, j2 - j1 - 1) for i in range(i1, i2)})
    out: list[Span] = []
    for span in spans:
        line = moved.get(span.line - 1)
        if line is not None:
            width = len(new[line])
            out.append(Span(line + 1, min(span.start, width), min(span.end, width)))
    return out


@dataclass
class Recorder:
    """Told of each rule that changed a cell (`fixer.OnChange`): the rule, before, after."""

    steps: list[tuple[str, str, str]] = field(default_factory=list)

    def __call__(self, rule: Rule, before: str, after: str) -> None:
        self.steps.append((rule.id, before, after))

    def spans(self) -> dict[str, list[Span]]:
        """Rule id -> where it wrote, in the cell as the last step left it."""
        found: dict[str, list[Span]] = {}
        for position, (rule, before, after) in enumerate(self.steps):
            spans = changed(before, after)
            for _, later_before, later_after in self.steps[position + 1 :]:
                spans = follow(spans, later_before, later_after)
            found.setdefault(rule, []).extend(spans)
        return found


def records(cell: int, spans: Sequence[Span]) -> list[RuleOccurrence]:
    return [RuleOccurrence(cell=cell, line=s.line, start=s.start, end=s.end) for s in spans]
