"""Whether a cell mentions a rule's trigger names (`needles`), without parsing it: a rule
whose needles a cell does not mention cannot change it, so the cell is not parsed for that
rule (pyupgrade's token pass). The names of a cell are read once per state of the cell.

A needle that is a name (`as_matrix`, `n_iter`) matches a whole word of the cell (`\\w+`: the
names, and the words inside its strings and comments), or an imported name that stands for a
qualified name with that part (`from scipy.misc import imread as read`: a cell that mentions
`read` mentions `imread`, `misc` and `scipy`); any other needle (`.ix[`, `'liblinear'`)
matches as text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Mapping

_WORD = re.compile(r"\w+")

# The tests turn this off to check that the needles never hide a finding.
ENABLED = True


@functools.lru_cache(maxsize=256)
def _words(source: str) -> frozenset[str]:
    return frozenset(_WORD.findall(source))


@functools.lru_cache(maxsize=1024)
def _split(needles: tuple[str, ...]) -> tuple[frozenset[str], tuple[str, ...]]:
    """The needles that are names, and the others (matched as text)."""
    return (
        frozenset(n for n in needles if n.isidentifier()),
        tuple(n for n in needles if not n.isidentifier()),
    )


class _Mentioned:
    """The last cell's names with its imported names' parts (the rules of a cell ask in turn
    about the same state of it, in the same notebook)."""

    def __init__(self) -> None:
        self.aliases: Mapping[str, str] | None = None  # held: its id is not reused meanwhile
        self.parts: dict[str, frozenset[str]] = {}
        self.source: str | None = None
        self.names: frozenset[str] = frozenset()

    def __call__(self, source: str, aliases: Mapping[str, str]) -> frozenset[str]:
        if aliases is not self.aliases:
            self.aliases, self.source = aliases, None
            self.parts = {
                local: frozenset(qualified.split("."))
                for local, qualified in aliases.items()
                if qualified != local
            }
        if source != self.source:
            words = _words(source)
            extra = [self.parts[word] for word in words.intersection(self.parts)]
            self.source, self.names = source, words.union(*extra) if extra else words
        return self.names


mentioned = _Mentioned()


def mentions(source: str, needles: Collection[str], aliases: Mapping[str, str]) -> bool:
    """Whether the cell mentions one of the needles (True when there are none)."""
    if not needles or not ENABLED:
        return True
    names, texts = _split(tuple(needles))
    return not names.isdisjoint(mentioned(source, aliases)) or any(t in source for t in texts)


def parts(*qualified: str) -> tuple[str, ...]:
    """Needles for rules that find qualified names (`numpy.float`, `sklearn.cross_validation`):
    each name's parts but its package, or the name itself when it has no package."""
    found: dict[str, None] = {}
    for name in qualified:
        pieces = name.split(".")
        for piece in pieces[1:] or pieces:
            found[piece] = None
    return tuple(found)
