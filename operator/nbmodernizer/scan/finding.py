"""Finding legacy API uses without running anything.

A file's cells get exactly the rules the loop applies proactively (`fixer.proactive`: relevant
to the notebook's imports, gone from the installed library, no score-calibration defaults),
through the loop's own `fixer.rewrite_cell`. Each rule that changes a cell is a finding at
each place it changed (the cell before and after that rule, diffed line by line; lines the
rule only inserted, an import say, are not findings unless it inserted nothing else), mapped
back to the cell as written. Reactive-only rules (no `gone` probe: `x.append(...)` on a
DataFrame, silent drift restored when a score deviates) need an error or a score to be
applied, so they cannot be found statically.

The probes are evaluated where the notebooks would run (`facts.gather` in the scanner's
interpreter, the current one by default), once per batch for the union of the batch's imports;
a library's probes run only when a notebook imports it.
"""

from __future__ import annotations

import difflib
import functools
import importlib.metadata
import platform
import re
import sys
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from nbmodernizer.facts import EnvironmentFacts, gather
from nbmodernizer.fixers.rules.fixer import (
    CellTooDeepError,
    notebook_context,
    proactive,
    rewrite_cell,
)
from nbmodernizer.fixers.rules.model import Library, Rule
from nbmodernizer.fixers.rules.toolkit.cells import read_text
from nbmodernizer.notebook import CodeCell
from nbmodernizer.scan.sources import SourceFile


@dataclass(frozen=True)
class Finding:
    path: str
    cell: int | None  # notebook cell number (1-based, every cell counted); None for .py
    line: int  # 1-based, in the cell (in the file for .py)
    column: int  # 1-based
    rule: str
    library: str
    message: str  # what replaces it
    changed_in: str  # the library version that removed or changed the API
    installed: str | None  # the installed version of the library (None: not a package)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "cell": self.cell,
            "line": self.line,
            "column": self.column,
            "rule": self.rule,
            "library": self.library,
            "message": self.message,
            "changedIn": self.changed_in,
            "installed": self.installed,
            "fixable": True,
        }


@dataclass(frozen=True)
class RuleDefect:
    """A rule's rewrite of a cell that `fixer.rewrite_cell` refused: it broke a cell that
    parsed, or was not idempotent. The rule is at fault, not the notebook."""

    path: str
    cell: int | None  # as Finding.cell
    rule: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "cell": self.cell,
            "rule": self.rule,
            "message": self.reason,
            "ruleDefect": True,
            "fixable": False,
        }


@dataclass
class FileReport:
    path: str
    findings: list[Finding] = field(default_factory=list)
    rewritten: dict[int, str] = field(default_factory=dict)  # cell index -> source after rules
    unreadable: list[int] = field(default_factory=list)  # Python cells no rule makes parse
    error: str | None = None  # the file could not be read
    # cells that could not be read or rewritten ("cell 3: its source is null"); the file's
    # other cells are scanned
    cell_errors: list[str] = field(default_factory=list)
    defects: list[RuleDefect] = field(default_factory=list)
    text_after: str | None = None  # the file after the rules (only when asked for)


def matches(rule: Rule, prefixes: Sequence[str]) -> bool:
    """Whether a rule id or its library starts with one of the prefixes (ruff's --select)."""
    return any(
        rule.id == p or rule.id.startswith(p) or rule.library.startswith(p) for p in prefixes
    )


def select(
    rules: Iterable[Rule], chosen: Sequence[str] = (), ignored: Sequence[str] = ()
) -> tuple[Rule, ...]:
    return tuple(
        rule
        for rule in rules
        if (not chosen or matches(rule, chosen)) and not (ignored and matches(rule, ignored))
    )


def build_scanner(
    only: Sequence[str] = (),
    ignore: Sequence[str] = (),
    gpu_available: bool = False,
    python: str = sys.executable,
) -> Scanner:
    """The scanner over the whole rulebook, narrowed by rule ids or library prefixes, with the
    probes evaluated by the interpreter `python`."""
    from nbmodernizer.fixers.rules import all_libraries, all_rules

    return Scanner(select(all_rules(), only, ignore), all_libraries(), gpu_available, python)


@functools.cache
def _distributions() -> dict[str, list[str]]:
    return dict(importlib.metadata.packages_distributions())


@functools.cache
def installed_version(library: str, modules: frozenset[str]) -> str | None:
    """The installed version of a library (Python's for the `python` library; None when it is
    not an installed package)."""
    if library == "python":
        return platform.python_version()
    for module in sorted(modules):
        for distribution in _distributions().get(module, []):
            try:
                return importlib.metadata.version(distribution)
            except importlib.metadata.PackageNotFoundError:
                continue
    return None


def places(before: str, after: str) -> list[tuple[int, int]]:
    """Where `after` differs from `before`: (line, column), 0-based, in `before`'s lines. Pure
    insertions, and import lines the rewrite only added to, count only when nothing else
    changed (the import a rewrite adds is not a legacy use)."""
    old, new = before.split("\n"), after.split("\n")
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    changed: list[tuple[int, int]] = []
    inserted: list[tuple[int, int]] = []
    for tag, i1, _i2, j1, _j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "insert":
            inserted.append((min(i1, len(old) - 1), 0))
            continue
        if tag == "delete":
            changed.append((i1, len(old[i1]) - len(old[i1].lstrip())))
            continue
        replacements = new[j1:_j2]
        for offset, line in enumerate(old[i1:_i2]):
            if _i2 - i1 == _j2 - j1:
                replacement = replacements[offset]
            else:  # lines added or dropped too: compare with the likeliest counterpart
                replacement = max(
                    replacements,
                    key=lambda other: difflib.SequenceMatcher(None, line, other).ratio(),
                )
            found = [(i1 + offset, column) for column in _columns(line, replacement)]
            added_to = _IMPORT.match(line) and replacement.startswith(line.rstrip(" \\)"))
            (inserted if added_to else changed).extend(found)
    return changed or inserted[:1]


_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
_IMPORT = re.compile(r"[ \t]*(from[ \t]+[\w.]+[ \t]+)?import[ \t]")


def _columns(line: str, replacement: str) -> list[int]:
    """Where a line changed. Diffed by tokens; the same edit repeated (`.ix` -> `.loc` twice)
    is one place each time, different edits on one line (a call rewritten in three spots) are
    one place, at the first."""
    old, new = _TOKEN.findall(line), _TOKEN.findall(replacement)
    starts = [0]
    for token in old:
        starts.append(starts[-1] + len(token))
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    edits = [
        (starts[i1], "".join(old[i1:i2]), "".join(new[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]
    if not edits:
        return [len(line) - len(line.lstrip())]
    if len({(before, after) for _, before, after in edits}) == 1:
        return [min(column, max(len(line) - 1, 0)) for column, _, _ in edits]
    return [min(edits[0][0], max(len(line) - 1, 0))]


def _follow(origin: list[int], before: str, after: str) -> list[int]:
    """Each line of `after` -> the line of the cell as written it comes from (or stands for)."""
    old, new = before.split("\n"), after.split("\n")
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    followed: list[int] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            followed += origin[i1:i2]
            continue
        anchor = origin[min(i1, len(origin) - 1)]
        followed += [origin[i1 + k] if i1 + k < i2 else anchor for k in range(j2 - j1)]
    return followed


class Scanner:
    """The rules `nbmod scan` looks for and `nbmod fix` applies."""

    def __init__(
        self,
        rules: Sequence[Rule],
        libraries: Sequence[Library],
        gpu_available: bool = False,
        python: str = sys.executable,
    ) -> None:
        self.rules = tuple(rules)
        self.libraries = tuple(libraries)
        self.modules = {library.name: library.modules for library in libraries}
        self.gpu_available = gpu_available
        self.python = python  # the interpreter whose environment the probes describe
        self.environment: EnvironmentFacts | None = None
        self.probed: frozenset[str] = frozenset()  # the imports `environment` answers for
        self.gathered = 0  # how many times envprobe.py ran

    def warm(self, imported: set[str]) -> None:
        """Gather the facts these imports make relevant (envprobe.py in `python`, once for
        all of them), and read the installed distributions, before worker processes fork (the
        reading while envprobe.py runs: this process only waits for it)."""
        reading = threading.Thread(target=_distributions)
        reading.start()
        try:
            self.facts_for(imported)
        finally:
            reading.join()

    def facts_for(self, imported: set[str]) -> EnvironmentFacts:
        """The environment's facts, gathered again only for imports not yet probed (then for
        all imports seen so far)."""
        if self.environment is None or not imported <= self.probed:
            from nbmodernizer.fixers.rules.catalog import probe_request

            wanted = self.probed | imported
            request = probe_request(wanted, self.rules, self.libraries)
            self.environment = gather(self.python, request)
            self.probed = frozenset(wanted)
            self.gathered += 1
        return self.environment

    def scan(self, source: SourceFile) -> FileReport:
        path = str(source.path)
        report = FileReport(path, cell_errors=list(source.problems))
        sources = [cell.source for cell in source.cells]
        context, imported = notebook_context(sources, self.gpu_available, None)
        environment = self.facts_for(imported)
        context = replace(context, environment=environment)
        rules = proactive(self.rules, imported, self.modules, environment)
        if not rules:
            return report
        for cell in source.cells:
            origin = list(range(cell.source.count("\n") + 1))

            def changed(rule: Rule, before: str, after: str, cell: CodeCell = cell) -> None:
                nonlocal origin
                version = installed_version(
                    rule.library, self.modules.get(rule.library, frozenset())
                )
                for line, column in places(before, after):
                    report.findings.append(
                        Finding(
                            path=path,
                            cell=source.number(cell),
                            line=origin[min(line, len(origin) - 1)] + 1,
                            column=column + 1,
                            rule=rule.id,
                            library=rule.library,
                            message=rule.summary,
                            changed_in=rule.changed_in,
                            installed=version,
                        )
                    )
                origin = _follow(origin, before, after)

            def refused(rule: Rule, reason: str, cell: CodeCell = cell) -> None:
                report.defects.append(RuleDefect(path, source.number(cell), rule.id, reason))

            try:
                after, _ = rewrite_cell(cell.source, rules, context, changed, refused)
            except (CellTooDeepError, RecursionError) as error:
                number = source.number(cell)
                where = f"cell {number}: " if number is not None else ""
                why = error if isinstance(error, CellTooDeepError) else "too deeply nested"
                report.cell_errors.append(f"{where}{why}; no rule was applied to it")
                continue
            if after != cell.source:
                report.rewritten[cell.index] = after
            parsed = read_text(after)
            if parsed.is_python and parsed.tree is None:
                report.unreadable.append(source.number(cell) or 1)
        report.findings.sort(key=lambda f: (f.cell or 0, f.line, f.column, f.rule))
        return report
