"""What a rule is: one piece of API drift, its symptom, its probe, its rewrite, its proof; and
what a library of rules is."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from nbmodernizer.fixers.rules.context import RuleContext

# A rewrite takes a cell's source and returns the new source (unchanged when it does not apply).
Rewrite = Callable[[str, RuleContext], str]


class Kind(StrEnum):
    API = "api"  # a removed or changed API: the code fails today
    SILENT = "silent"  # the code runs today but computes something else
    ENVIRONMENT = "environment"  # the notebook assumes an environment it does not get
    PYTHON2 = "python2"  # Python 2 leftovers


@dataclass(frozen=True)
class Symptom:
    """The error this drift raises today: exception name and a pattern of its message."""

    ename: str
    evalue: str = ""

    def matches(self, ename: str, evalue: str) -> bool:
        return ename == self.ename and re.search(self.evalue, evalue) is not None


class Probe(Protocol):
    """Whether an environment lacks a rule's legacy API, as data that envprobe.py evaluates
    where the notebook runs (the kinds are in `toolkit/probes.py`)."""

    def to_json(self) -> dict[str, Any]: ...

    def describe(self) -> str: ...


@dataclass(frozen=True)
class Example:
    """Proof that the rule is right, run by the tests on the installed libraries.

    `before` fails today with `error` (or, for silent drift, runs but leaves `check` false);
    the rule rewrites it to exactly `after`, which runs and leaves `check` true: the snippet
    means today what it meant when it was written.
    """

    before: str
    after: str
    check: str
    error: str | None = None
    # files to create under a Kaggle-style root before running (`input/train.csv`: ...);
    # snippets run in `working/` and the rule's context has `input_dir` = `input/`
    files: dict[str, str] = field(default_factory=dict)
    # the lines of `before` that raised, for a rule that rewrites only those (the context's
    # `raising_lines`)
    raising_lines: tuple[int, ...] = ()
    # name bound by the snippet -> why an era environment binds another value there although
    # the rule keeps its meaning (the library's own change since: an algorithm, a default the
    # rule is not about). The proof against the past still runs and compares everything:
    # a difference in one of these names is reported with its reason ("differs"), any other
    # difference still fails (past.py)
    era_differences: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Rule:
    id: str
    library: str
    changed_in: str
    summary: str
    kind: Kind
    rewrite: Rewrite
    examples: tuple[Example, ...]
    symptoms: tuple[Symptom, ...] = ()
    # Whether the environment no longer has the legacy API, evaluated where the notebook runs
    # (the environment's facts): when it is, the rule is applied to every cell before anything
    # fails. None: never proactive.
    gone: Probe | None = None
    # probes whose answers the rewrite reads (`context.gone(name)`), each by a name unique in
    # the catalog (`numpy.builtin-type-aliases:float`), evaluated with the rule's own probe
    reads: tuple[tuple[str, Probe], ...] = ()
    # callables whose parameters the rewrite reads (`context.parameters(path)`)
    signatures: tuple[str, ...] = ()
    # modules whose public names the rewrite reads (`context.public_names(module)`)
    names: tuple[str, ...] = ()
    tags: frozenset[str] = field(default_factory=frozenset)
    # The other reading of the same legacy code, where what it meant depends on the data
    # (`.ix` took labels or positions): used when the rewrite raised at a line it wrote.
    alternative: Rewrite | None = None

    def probes(self) -> dict[str, dict[str, Any]]:
        """What envprobe.py evaluates for this rule, by name: its own probe (by its id) and
        those its rewrite reads."""
        found = {} if self.gone is None else {self.id: self.gone.to_json()}
        return found | {name: probe.to_json() for name, probe in self.reads}

    def matches_error(self, ename: str, evalue: str) -> bool:
        return any(symptom.matches(ename, evalue) for symptom in self.symptoms)


@dataclass(frozen=True)
class Library:
    """A library's rules (a package under `rules/libraries/`) and when they are relevant.

    `modules`: the top-level modules whose import makes the library's rules relevant to a
    notebook: a rule is applied proactively only to a notebook that imports one, so its
    probe (which may import a heavy library such as TensorFlow) runs only then; empty: always
    relevant. `order`: where the library's rules stand in the catalog (and in docs/rules.md);
    a cell gets the rules of one kind in this order.
    """

    name: str
    modules: frozenset[str]
    order: int


def relevant(rule: Rule, imported: set[str], modules: Mapping[str, frozenset[str]]) -> bool:
    """A rule is relevant to a notebook that imports one of its library's modules (a library
    that names none, or that is not known, is always relevant): only then is it probed."""
    library = modules.get(rule.library)
    return not library or not library.isdisjoint(imported)
