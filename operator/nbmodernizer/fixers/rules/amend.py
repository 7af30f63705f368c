"""When the revision the rules made raises at a line a rule wrote: what the rules do about it.

Rules are written from what changed in a library, not from the notebook's data, and a few
rewrites depend on the data (`.ix` took labels or positions). So when the revision the rules
made fails in a cell they changed, at a line one rule's rewrite produced, that rule is the
suspect, and the rules answer the error before anything else:

- a rule with an `alternative` (its other reading of the legacy code) gets the occurrence on
  that line redone with the alternative: the cell is redone from what it was before the rules
  touched it, and the line that raised is taken from the alternative's reading while every
  other line keeps what the rules wrote (a cell with `.ix` by label on one line and by
  position on another comes out right). Where the alternative changes the cell's lines
  (or the mixed cell would not parse), the alternative is used for the whole cell;
- a rule whose rewrite means what the legacy code meant only for some data and that has no
  other reading (silent drift: the legacy code still runs) is reverted: the cell as it was,
  and the rule is not applied to that cell again;
- otherwise (an API that is gone, or an alternative that raised too, or reads that line the
  same) the line is the next fixer's: saying "no rule applies" would blame the notebook for an
  error of our own making.

The fix records say what each rule changed and where (`RuleUse` and its occurrences); a cell
amended before is redone from what it was before the first of the rules' fixes in a row, so a
second occurrence that raises later joins the first one. Pure.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Kind, Rule
from nbmodernizer.fixers.rules.occurrences import Recorder, Span, records
from nbmodernizer.fixers.rules.toolkit.cells import parses
from nbmodernizer.status import CellError, FixRecord, RuleUse

APPLIED, ALTERNATIVE, REVERTED = "applied", "alternative", "reverted"
# rewrite_cell: a cell's source, rules, context, a recorder of each rule's step -> the new
# source and the rules that changed it
Rewriter = Callable[[str, Sequence[Rule], RuleContext, Recorder], tuple[str, list[str]]]


@dataclass(frozen=True)
class Use:
    """How a rule was used in a cell: as written or as its alternative (`action`, for the whole
    cell), and the lines of the cell where its alternative replaced what it wrote."""

    rule: Rule
    action: str = APPLIED
    flipped: frozenset[int] = frozenset()


CellRules = tuple[Use, ...]


@dataclass(frozen=True)
class Redone:
    """A cell redone from before the rules, and what each rule did in it."""

    source: str
    uses: tuple[RuleUse, ...]


@dataclass(frozen=True)
class Suspect:
    """A rule whose rewrite wrote the line a cell raised at."""

    rule: Rule
    cell: int
    line: int
    error: CellError
    action: str  # what to do now: alternative, reverted, or "" (the next fixer's)
    source: str | None  # the cell redone (alternative or reverted), else None
    uses: tuple[RuleUse, ...]  # the rules in the redone cell, as the fix records them

    @property
    def note(self) -> str:
        where = f"cell {self.cell} line {self.line}"
        raised = f"{self.error.ename} at {where}, a line rule {self.rule.id} wrote"
        if self.action == ALTERNATIVE:
            return f"{raised}: used the rule's other reading of the legacy code on that line"
        if self.action == REVERTED:
            return f"{raised}: reverted it there (the legacy code runs today)"
        return f"{raised}: the rules have no other reading of it, so it is the next fixer's"


def as_applied(rule: Rule, action: str) -> Rule:
    """The rule as it was used: itself, or its alternative in its place."""
    if action != ALTERNATIVE or rule.alternative is None:
        return rule
    return dataclasses.replace(rule, rewrite=rule.alternative, alternative=None)


def reverted(fixes: Sequence[FixRecord]) -> dict[int, set[str]]:
    """Cell -> the rules reverted there by an earlier fix: never applied there again."""
    out: dict[int, set[str]] = {}
    for fix in fixes:
        for use in fix.rules or ():
            if use.action == REVERTED:
                for cell in use.cells:
                    out.setdefault(cell, set()).add(use.rule)
    return out


def suspects(
    errors: Sequence[CellError],
    fixes: Sequence[FixRecord],
    sources: Mapping[int, str],
    rules: Mapping[str, Rule],
    context: RuleContext,
    rewrite: Rewriter,
) -> list[Suspect]:
    """The rules whose rewrite wrote a line that raised, in the revision the last of `fixes`
    made.

    `sources`: the revision's cells by position. A rule is a suspect when the cell redone
    from before the rules without it no longer has the line that raised."""
    made_by = fixes[-1] if fixes else None
    if made_by is None or made_by.fixer != "rules" or not made_by.rules:
        return []
    found: list[Suspect] = []
    for error in errors:
        cell, line = error.cell_index, error.failing_line()
        before = origin(fixes, cell)
        used = _cell_rules(made_by.rules, cell, rules)
        lines = sources.get(cell, "").splitlines()
        if before is None or not used or line is None or not 0 < line <= len(lines):
            continue
        raised = _Raised(error, cell, line, lines[line - 1], before, used, context, rewrite)
        suspect = _suspect(raised)
        if suspect is not None:
            found.append(suspect)
    return found


def origin(fixes: Sequence[FixRecord], cell: int) -> str | None:
    """The cell as it was before the rules' fixes in a row that end `fixes`: an amend (a fix
    that used an alternative or reverted a rule there) redid the cell from what the fix before
    it started from. None: the last fix did not change the cell."""
    found: str | None = None
    for fix in reversed(fixes):
        before = next(
            (c.before for c in fix.changes if c.index == cell and c.kind == "modified"), None
        )
        if fix.fixer != "rules" or before is None:
            break
        found = before
        amended = any(use.action != APPLIED and cell in use.cells for use in fix.rules or ())
        if not amended:
            break
    return found


def _cell_rules(uses: Sequence[RuleUse], cell: int, rules: Mapping[str, Rule]) -> CellRules:
    """The rules a fix used in a cell, in its order. A use of a rule's alternative that names
    its occurrences in the cell flips those lines; one that names none (a record made before
    occurrences were kept) holds for the whole cell."""
    whole: dict[str, str] = {}
    flipped: dict[str, set[int]] = {}
    for use in uses:
        used = use.action in (APPLIED, ALTERNATIVE)  # not reverted, nor refused by the gate
        if cell not in use.cells or use.rule not in rules or not used:
            continue
        whole.setdefault(use.rule, APPLIED)
        lines = {o.line for o in use.occurrences if o.cell == cell}
        if use.action == ALTERNATIVE and lines:
            flipped.setdefault(use.rule, set()).update(lines)
        elif use.action == ALTERNATIVE:
            whole[use.rule] = ALTERNATIVE
    return tuple(Use(rules[i], a, frozenset(flipped.get(i, ()))) for i, a in whole.items())


@dataclass(frozen=True)
class _Raised:
    """A line that raised in a cell the rules rewrote, and what is needed to redo that cell."""

    error: CellError
    cell: int
    line: int
    text: str  # the line as it stands in the cell
    before: str  # the cell before the rules
    used: CellRules
    context: RuleContext
    rewrite: Rewriter


def _suspect(raised: _Raised) -> Suspect | None:
    used = raised.used
    for position in reversed(range(len(used))):
        others = used[:position] + used[position + 1 :]
        if raised.text.strip() in _lines_without(raised, others):
            continue  # the line is there without this rule: it did not write it
        return _answer(raised, position)
    return None


def _lines_without(raised: _Raised, others: CellRules) -> set[str]:
    """The lines the other rules write, each read both ways where it was flipped somewhere."""
    readings = [[as_applied(u.rule, u.action) for u in others]]
    if any(u.flipped for u in others):
        readings.append(
            [as_applied(u.rule, ALTERNATIVE if u.flipped else u.action) for u in others]
        )
    return {
        text.strip()
        for rules in readings
        for text in raised.rewrite(raised.before, rules, raised.context, Recorder())[0].splitlines()
    }


def _answer(raised: _Raised, position: int) -> Suspect:
    error, cell, line, used = raised.error, raised.cell, raised.line, raised.used
    use = used[position]
    rule = use.rule
    others = used[:position] + used[position + 1 :]
    if use.action == APPLIED and line not in use.flipped and rule.alternative is not None:
        flip = dataclasses.replace(use, flipped=use.flipped | {line})
        flipped = (*used[:position], flip, *used[position + 1 :])
        redone = compose(raised.before, flipped, cell, raised.context, raised.rewrite)
        lines = redone.source.splitlines()
        if line > len(lines) or lines[line - 1] != raised.text:
            return Suspect(rule, cell, line, error, ALTERNATIVE, redone.source, redone.uses)
        # the alternative reads this occurrence the same: it has no other reading of it
    if rule.kind is Kind.SILENT:
        redone = compose(raised.before, others, cell, raised.context, raised.rewrite)
        uses = (*redone.uses, RuleUse(rule=rule.id, cells=[cell], action=REVERTED))
        return Suspect(rule, cell, line, error, REVERTED, redone.source, uses)
    return Suspect(rule, cell, line, error, "", None, ())


def compose(
    before: str, used: CellRules, cell: int, context: RuleContext, rewrite: Rewriter
) -> Redone:
    """The cell redone from `before` as `used` says: each rule as written (or as its
    alternative for the whole cell), with its alternative's lines on the lines it flipped.
    A rule whose alternative changes the cell's lines, or whose mixed lines do not parse,
    is used as its alternative for the whole cell instead."""
    while True:
        mixed = _mix(before, used, context, rewrite)
        if isinstance(mixed, _Mixed):
            return _recorded(mixed, used, cell)
        used = tuple(Use(u.rule, ALTERNATIVE) if n == mixed else u for n, u in enumerate(used))


@dataclass(frozen=True)
class _Mixed:
    source: str
    ids: list[str]  # the rules that changed the cell, in order
    written: dict[str, list[Span]]  # rule -> where it wrote, as `used` says
    flipped: dict[str, list[Span]]  # rule -> where its alternative's lines were taken


def _mix(before: str, used: CellRules, context: RuleContext, rewrite: Rewriter) -> _Mixed | int:
    """The mixed cell, or the position of a rule whose alternative cannot be mixed in line
    by line."""
    plain = [as_applied(u.rule, u.action) for u in used]
    recorder = Recorder()
    source, ids = rewrite(before, plain, context, recorder)
    written = recorder.spans()
    flipped: dict[str, list[Span]] = {}
    lines = source.splitlines(keepends=True)
    for position, use in enumerate(used):
        if not use.flipped:
            continue
        other = Recorder()
        rules = [*plain[:position], as_applied(use.rule, ALTERNATIVE), *plain[position + 1 :]]
        alternative = rewrite(before, rules, context, other)[0].splitlines(keepends=True)
        if len(alternative) != len(lines) or max(use.flipped) > len(lines):
            return position
        for line in use.flipped:
            lines[line - 1] = alternative[line - 1]
        rule = use.rule.id
        written[rule] = [s for s in written.get(rule, []) if s.line not in use.flipped]
        flipped[rule] = [s for s in other.spans().get(rule, []) if s.line in use.flipped]
    mixed = "".join(lines)
    if mixed != source and parses(before) and not parses(mixed):
        return next(n for n, u in enumerate(used) if u.flipped)
    return _Mixed(mixed, ids, written, flipped)


def _recorded(mixed: _Mixed, used: CellRules, cell: int) -> Redone:
    """The fix records of a redone cell: per rule, where it wrote as it was used, and where
    its alternative's lines were taken (a use of its own)."""
    actions = {u.rule.id: u.action for u in used}
    uses: list[RuleUse] = []
    for rule in mixed.ids:
        written, flipped = mixed.written.get(rule, []), mixed.flipped.get(rule, [])
        if written or not flipped:
            action = actions.get(rule, APPLIED)
            uses.append(
                RuleUse(rule=rule, cells=[cell], action=action, occurrences=records(cell, written))
            )
        if flipped:
            occurrences = records(cell, flipped)
            uses.append(
                RuleUse(rule=rule, cells=[cell], action=ALTERNATIVE, occurrences=occurrences)
            )
    return Redone(mixed.source, tuple(uses))
