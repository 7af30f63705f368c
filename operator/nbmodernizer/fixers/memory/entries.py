"""The fix memory: entries learnt from paid fixes, and how each later use of them went.

Layout under the memory's root (a folder or an S3 prefix), every object written once:

    <signature key>/<entry id>/pattern.json          the signature and the pattern
    <signature key>/<entry id>/origin-<hash>.json    a paid fix it was learnt from
    <signature key>/<entry id>/use-fixed-<hash>.json a later use that fixed the error
    <signature key>/<entry id>/use-failed-<hash>.json one that did not

The entry id is the hash of `pattern.json`'s bytes, so every operator that learns the same
pattern writes the same object; an origin's or a use's name is the hash of the run and
revision it comes from, so a driver that repeats a step after a restart writes nothing new.
Nothing is ever read, changed and written back: an entry's score is the count of its use
objects (their names say how each went), aggregated on read. One listing of a signature's
folder finds its entries and their scores; a pattern or origin object is read once per
process (they never change).

An entry that keeps failing is retired: after `RETIRE_AFTER_USES` uses with fewer than
`RETIRE_BELOW` of them fixing the error, it is not offered again (it is still listed).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from pydantic import ConfigDict, Field

from nbmodernizer.clock import now
from nbmodernizer.fixers.memory.objects import Objects, open_objects
from nbmodernizer.fixers.memory.pattern import Pattern
from nbmodernizer.fixers.memory.signature import Signature
from nbmodernizer.spec import CamelModel

RETIRE_AFTER_USES = 3
RETIRE_BELOW = 0.5
PATTERN = "pattern.json"
_CACHED_OBJECTS = 20_000


def digest(text: str, length: int = 16) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:length]


def _json(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode()


class _Record(CamelModel):
    """A stored object: camelCase on the wire; fields a later version adds are ignored."""

    model_config = ConfigDict(**{**CamelModel.model_config, "extra": "ignore"})


class Example(_Record):
    """The statements a fix changed, as a notebook wrote them, the error they raised, and
    the notebook's imports of the names they use."""

    before: str
    after: str
    error: str = ""  # "AttributeError: module 'legacy_lib' has no attribute 'old_call'"
    setup: str = ""  # "import legacy_lib as ll"


class Origin(_Record):
    """A paid fix an entry was learnt from."""

    run: str  # the run's revision store
    revision: int  # the revision the fix made
    cost_usd: float
    example: Example
    fixer: str = "llm"
    learnt_at: str = Field(default_factory=now)


class Use(_Record):
    """A later use of an entry by the memory fixer, scored once the revision it made ran."""

    run: str
    revision: int
    fixed: bool
    saved_usd: float
    example: Example
    used_at: str = Field(default_factory=now)


@dataclass(frozen=True)
class Entry:
    id: str
    signature: Signature
    pattern: Pattern
    origins: tuple[Origin, ...]
    fixed: int = 0  # uses that fixed the error
    failed: int = 0  # uses that did not

    @property
    def folder(self) -> str:
        return f"{self.signature.key}/{self.id}"

    @property
    def uses(self) -> int:
        return self.fixed + self.failed

    @property
    def success_rate(self) -> float | None:
        return self.fixed / self.uses if self.uses else None

    @property
    def retired(self) -> bool:
        return self.uses >= RETIRE_AFTER_USES and self.fixed / self.uses < RETIRE_BELOW

    @property
    def cost_usd(self) -> float:
        """What the paid fixes it was learnt from cost, on average: what a use saves."""
        if not self.origins:
            return 0.0
        return round(sum(o.cost_usd for o in self.origins) / len(self.origins), 9)

    def rank(self) -> tuple[float, int, str]:
        """Best first: the most likely to fix (successes smoothed), the most used, the id."""
        return (-(self.fixed + 1) / (self.uses + 2), -self.uses, self.id)


def pattern_document(signature: Signature, pattern: Pattern) -> bytes:
    return _json({"signature": signature.to_wire(), "pattern": pattern.to_wire()})


def entry_id(signature: Signature, pattern: Pattern) -> str:
    return digest(pattern_document(signature, pattern).decode())


class _Cache:
    """Objects read once per process: pattern and origin objects never change."""

    def __init__(self, limit: int = _CACHED_OBJECTS) -> None:
        self.limit = limit
        self.items: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.lock = threading.Lock()

    def read(self, objects: Objects, key: str) -> dict[str, Any]:
        name = f"{objects.uri}|{key}"
        with self.lock:
            found = self.items.get(name)
        if found is None:
            found = json.loads(objects.get(key))
            with self.lock:
                self.items[name] = found
                while len(self.items) > self.limit:
                    self.items.popitem(last=False)
        return found


_CACHE = _Cache()


class FixMemory:
    def __init__(self, objects: Objects) -> None:
        self.objects = objects

    @classmethod
    def at(cls, location: str) -> FixMemory:
        return cls(open_objects(location))

    @property
    def uri(self) -> str:
        return self.objects.uri

    # -- writing ------------------------------------------------------------------------------

    def learn(self, signature: Signature, pattern: Pattern, origin: Origin) -> str:
        """Remember a pattern learnt from a paid fix; its entry id."""
        document = pattern_document(signature, pattern)
        identity = digest(document.decode())
        folder = f"{signature.key}/{identity}"
        self.objects.put_once(f"{folder}/{PATTERN}", document)
        name = digest(f"{origin.run}|{origin.revision}")
        self.objects.put_once(f"{folder}/origin-{name}.json", _json(origin.to_wire()))
        return identity

    def record_use(self, entry: Entry, use: Use) -> None:
        name = digest(f"{use.run}|{use.revision}")
        outcome = "fixed" if use.fixed else "failed"
        self.objects.put_once(f"{entry.folder}/use-{outcome}-{name}.json", _json(use.to_wire()))

    # -- reading ------------------------------------------------------------------------------

    def entries_for(self, signature: Signature) -> list[Entry]:
        """The entries for this signature, retired ones included, best first."""
        found = self._entries(self.objects.keys(f"{signature.key}/"))
        return sorted((e for e in found if e.signature == signature), key=Entry.rank)

    def candidates(self, signature: Signature) -> list[Entry]:
        """The entries for this signature that are not retired, best first."""
        return [e for e in self.entries_for(signature) if not e.retired]

    def entries(self) -> list[Entry]:
        """Every entry, retired ones included, best first."""
        return sorted(self._entries(self.objects.keys()), key=Entry.rank)

    def find(self, prefix: str) -> Entry | None:
        """The entry whose id starts with `prefix` (None: none or several)."""
        found = [e for e in self.entries() if e.id.startswith(prefix)]
        return found[0] if len(found) == 1 else None

    def uses_of(self, entry: Entry) -> list[Use]:
        keys = self.objects.keys(f"{entry.folder}/use-")
        return [Use.model_validate_json(self.objects.get(key)) for key in keys]

    def _entries(self, keys: list[str]) -> list[Entry]:
        folders: dict[str, list[str]] = {}
        for key in keys:
            parts = key.split("/")
            if len(parts) == 3:
                folders.setdefault(f"{parts[0]}/{parts[1]}", []).append(parts[2])
        found = []
        for folder, names in folders.items():
            if PATTERN not in names:
                continue  # a use or origin whose pattern is still being written
            document = _CACHE.read(self.objects, f"{folder}/{PATTERN}")
            origins = tuple(
                Origin.model_validate(_CACHE.read(self.objects, f"{folder}/{name}"))
                for name in sorted(names)
                if name.startswith("origin-")
            )
            found.append(
                Entry(
                    id=folder.split("/")[1],
                    signature=Signature.from_wire(document["signature"]),
                    pattern=Pattern.from_wire(document["pattern"]),
                    origins=origins,
                    fixed=sum(name.startswith("use-fixed-") for name in names),
                    failed=sum(name.startswith("use-failed-") for name in names),
                )
            )
        return found
