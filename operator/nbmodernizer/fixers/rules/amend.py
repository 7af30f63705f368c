"""When the revision the rules made raises at a line a rule wrote: what the rules do about it.

Rules are written from what changed in a library, not from the notebook's data, and a few
rewrites depend on the data (`.ix` took labels or positions). So when the revision the rules
made fails in a cell they changed, at a line one rule's rewrite produced, that rule is the
suspect, and the rules answer the error before anything else:

- a rule with an `alternative` (its other reading of the legacy code) gets the cell redone
  from what it was before the rules touched it, with the alternative in the rule's place;
- a rule whose rewrite means what the legacy code meant only for some data and that has no
  other reading (silent drift: the legacy code still runs) is reverted: the cell as it was,
  and the rule is not applied to that cell again;
- otherwise (an API that is gone, or an alternative that raised too) the line is the next
  fixer's: saying "no rule applies" would blame the notebook for an error of our own making.

Pure: the fix records say what each rule changed (`RuleUse`) and what the cell was before.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Kind, Rule
from nbmodernizer.status import CellError, FixRecord, RuleUse

APPLIED, ALTERNATIVE, REVERTED = "applied", "alternative", "reverted"
# What the rules did to a cell: which rules, each applied as written or as its alternative.
CellRules = tuple[tuple[Rule, str], ...]
# rewrite_cell: a cell's source, rules, context -> the new source and the rules that changed it
Rewriter = Callable[[str, Sequence[Rule], RuleContext], tuple[str, list[str]]]


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
            return f"{raised}: used the rule's other reading of the legacy code"
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
    made_by: FixRecord | None,
    sources: Mapping[int, str],
    rules: Mapping[str, Rule],
    context: RuleContext,
    rewrite: Rewriter,
) -> list[Suspect]:
    """The rules whose rewrite wrote a line that raised, in the revision `made_by` made.

    `sources`: the revision's cells by position. A rule is a suspect when the cell redone
    from before the fix without it no longer has the line that raised."""
    if made_by is None or made_by.fixer != "rules" or not made_by.rules:
        return []
    found: list[Suspect] = []
    for error in errors:
        cell, line = error.cell_index, error.failing_line()
        before = next(
            (c.before for c in made_by.changes if c.index == cell and c.kind == "modified"), None
        )
        used = _cell_rules(made_by.rules, cell, rules)
        lines = sources.get(cell, "").splitlines()
        if before is None or not used or line is None or not 0 < line <= len(lines):
            continue
        suspect = _suspect(error, cell, line, lines[line - 1], before, used, context, rewrite)
        if suspect is not None:
            found.append(suspect)
    return found


def _cell_rules(uses: Sequence[RuleUse], cell: int, rules: Mapping[str, Rule]) -> CellRules:
    return tuple(
        (rules[use.rule], use.action)
        for use in uses
        if cell in use.cells and use.rule in rules and use.action in (APPLIED, ALTERNATIVE)
    )


def _suspect(
    error: CellError,
    cell: int,
    line: int,
    raised: str,
    before: str,
    used: CellRules,
    context: RuleContext,
    rewrite: Rewriter,
) -> Suspect | None:
    for position in reversed(range(len(used))):
        rule, action = used[position]
        others = used[:position] + used[position + 1 :]
        without, _ = rewrite(before, [as_applied(r, a) for r, a in others], context)
        if raised.strip() in {text.strip() for text in without.splitlines()}:
            continue  # the line is there without this rule: it did not write it
        return _answer(error, cell, line, before, rule, action, others, context, rewrite)
    return None


def _answer(
    error: CellError,
    cell: int,
    line: int,
    before: str,
    rule: Rule,
    action: str,
    others: CellRules,
    context: RuleContext,
    rewrite: Rewriter,
) -> Suspect:
    rest = [as_applied(r, a) for r, a in others]
    if action == APPLIED and rule.alternative is not None:
        source, ids = rewrite(before, [*rest, as_applied(rule, ALTERNATIVE)], context)
        now = ALTERNATIVE
    elif rule.kind is Kind.SILENT:
        source, ids = rewrite(before, rest, context)
        now = REVERTED
    else:
        return Suspect(rule, cell, line, error, "", None, ())
    actions = {r.id: a for r, a in others} | {rule.id: now}
    uses = tuple(RuleUse(rule=i, cells=[cell], action=actions.get(i, APPLIED)) for i in ids)
    if now == REVERTED:
        uses += (RuleUse(rule=rule.id, cells=[cell], action=REVERTED),)
    return Suspect(rule, cell, line, error, now, source, uses)
