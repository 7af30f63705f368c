"""The rules fixer: apply every rule that the installed libraries or the errors call for."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from nbmodernizer import cells
from nbmodernizer.facts import EnvironmentFacts
from nbmodernizer.fixers.base import FixAttempt, FixProposal, FixRequest
from nbmodernizer.fixers.rules import amend, batch
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Kind, Library, Rule, relevant
from nbmodernizer.fixers.rules.occurrences import Recorder, records
from nbmodernizer.fixers.rules.toolkit.bindings import notebook_frames
from nbmodernizer.fixers.rules.toolkit.cells import CstRewrite, read_text, walkable
from nbmodernizer.fixers.rules.toolkit.needles import NeedleIndex
from nbmodernizer.notebook import Notebook, code_cells, copy_notebook
from nbmodernizer.status import FixType, RuleOccurrence, RuleUse

# Python 2 rules first: they make cells parseable for the LibCST rules after them.
KIND_ORDER = (Kind.PYTHON2, Kind.ENVIRONMENT, Kind.API, Kind.SILENT)


@dataclass(frozen=True)
class Activation:
    everywhere: tuple[Rule, ...]  # proactive: the installed library lacks the legacy API
    in_cells: dict[int, tuple[Rule, ...]]  # reactive: a cell's error matches the rule's symptom
    # cell -> its lines that raised (innermost notebook frames): what line-bound rules rewrite
    raising_lines: dict[int, frozenset[int]] = field(default_factory=dict)


# Rules that restore a legacy *default* (n_estimators=10, solver='liblinear', ...): the code
# runs either way, so they are used only when the score deviates.
SCORE_CALIBRATION_TAG = "score-calibration"


def probe(rule: Rule, environment: EnvironmentFacts | None) -> bool:
    """Whether the environment lacks the rule's legacy API, by its facts (False without a
    probe, or without facts)."""
    return rule.gone is not None and environment is not None and environment.gone(rule.id)


def proactive(
    rules: Sequence[Rule],
    imported: set[str],
    modules: Mapping[str, frozenset[str]],
    environment: EnvironmentFacts | None,
    *,
    calibrating: bool = False,
) -> tuple[Rule, ...]:
    """The rules applied to every cell before anything fails: relevant to the notebook's
    imports and gone from the environment the notebook runs in, by its facts (and, when
    calibrating a score, the rules that restore a legacy default). `nbmod scan` and
    `nbmod fix` use exactly these."""
    return tuple(
        rule
        for rule in rules
        if relevant(rule, imported, modules)
        and (probe(rule, environment) or (calibrating and SCORE_CALIBRATION_TAG in rule.tags))
    )


def notebook_context(
    sources: Sequence[str],
    gpu_available: bool,
    input_dir: Path | None,
    environment: EnvironmentFacts | None = None,
) -> tuple[RuleContext, set[str]]:
    """What the rules know of a notebook (its imports, the facts of the environment it runs
    in), and the top-level modules it imports."""
    aliases = cells.imports(sources, read_text)
    frames = notebook_frames(sources, aliases)
    context = RuleContext(aliases, gpu_available, input_dir, frames=frames, environment=environment)
    return context, {name.split(".")[0] for name in context.aliases.values()}


def activate(
    rules: Sequence[Rule],
    request: FixRequest,
    imported: set[str],
    modules: Mapping[str, frozenset[str]],
) -> Activation:
    calibrating = request.fix_type is FixType.SCORE_CALIBRATION
    if request.diagnosis.environment is not None:
        # what failed is the environment's: only its rules (paths, installs) can help; any
        # other rewrite would be executed again against the same missing file
        rules = [rule for rule in rules if rule.kind is Kind.ENVIRONMENT]
    everywhere = proactive(rules, imported, modules, request.environment, calibrating=calibrating)
    in_cells: dict[int, tuple[Rule, ...]] = {}
    raising: dict[int, frozenset[int]] = {}
    counts = {cell.get("execution_count"): n for n, cell in enumerate(request.executed.cells)}
    for error in request.execution.cell_errors:
        matching = tuple(
            rule
            for rule in rules
            if rule not in everywhere and rule.matches_error(error.ename, error.evalue)
        )
        if not matching:
            continue
        # the cell that ran, and the cell whose code raised (where a function it called is)
        frame = error.raising_frame()
        cells_hit = {error.cell_index}
        if frame is not None and frame[0] in counts:
            cells_hit.add(counts[frame[0]])
            raising[counts[frame[0]]] = raising.get(counts[frame[0]], frozenset()) | {frame[1]}
        for index in sorted(cells_hit):
            in_cells[index] = in_cells.get(index, ()) + matching
    return Activation(everywhere, in_cells, raising)


# Told of each rule that changed a cell: the rule, the source before it, the source after it.
OnChange = Callable[[Rule, str, str], None]
# Told of each rule whose rewrite of a cell was refused (a rule defect): the rule, and why.
OnRefuse = Callable[[Rule, str], None]

# The deepest nesting a cell may have for the rules to walk it (LibCST's walk recurses; a
# deeper cell is `CellTooDeepError`): far beyond what people write, far below the stack's limit.
MAX_DEPTH = 100
# RuleUse.action of a rule whose rewrite of these cells the gate refused (a rule defect)
REFUSED = "refused"
NOT_IDEMPOTENT = "not idempotent: it would change the cell again after it changed it"


class CellTooDeepError(Exception):
    """A cell nested too deeply for the parsers (`np.array([0]+[1]+...)` with thousands of
    `+`): no rule can read it, so none is applied."""


def rewrite_cell(
    source: str,
    rules: Sequence[Rule],
    context: RuleContext,
    on_change: OnChange | None = None,
    on_refuse: OnRefuse | None = None,
) -> tuple[str, list[str]]:
    """The cell after the rules, and the ids of those that changed it (in order): the one
    place every rewrite passes, in the loop and in `nbmod scan`/`nbmod fix`. It is a gate:

    * a rule's rewrite that makes a cell that parsed as Python 3 stop parsing is refused for
      that cell (the rules after it see the cell as it was);
    * the rules reach their fixpoint in one call: the rule set is run again on its output
      until nothing changes (a rule that another's output calls for applies then), and a rule
      that would change the cell again after it changed it once is refused for that cell,
      which is then rewritten again without it.

    A refused rule is told to `on_refuse` (a rule defect), once; `on_change` hears only the
    changes that stand. CellTooDeepError: a cell no parser here can walk."""
    _check_depth(source)
    refused: dict[str, str] = {}
    by_id = {rule.id: rule for rule in rules}
    while True:
        active = [rule for rule in rules if rule.id not in refused]
        answers = _Answers(_plan(active))
        changes: list[tuple[Rule, str, str]] = []
        result, applied = _one_pass(source, context, changes, refused, answers)
        again = applied
        while again:
            result, again = _one_pass(result, context, changes, refused, answers)
            repeated = [rule_id for rule_id in again if rule_id in applied]
            if repeated:
                for rule_id in repeated:
                    refused[rule_id] = NOT_IDEMPOTENT
                break
            applied += again
        else:
            for rule_id, reason in refused.items():
                if on_refuse is not None:
                    on_refuse(by_id[rule_id], reason)
            if on_change is not None:
                for change in changes:
                    on_change(*change)
            return result, applied


def _check_depth(source: str) -> None:
    parsed = read_text(source)
    if parsed.error == cells.TOO_DEEP or (
        parsed.tree is not None and cells.deeper_than(parsed.tree, MAX_DEPTH)
    ):
        raise CellTooDeepError(f"{cells.TOO_DEEP} (more than {MAX_DEPTH} levels)")


def _breaks(before: str, after: str) -> str | None:
    """Why `after` no longer parses as Python 3 when `before` did (None: it is no worse)."""
    if read_text(before).tree is None:
        return None
    parsed = read_text(after)
    return None if parsed.tree is not None else f"broke the cell ({parsed.error})"


@dataclass(frozen=True)
class _Plan:
    """A rule set as `_one_pass` runs it: the rules in order, the LibCST rewrites whose walk
    decides whether each changes a cell (`walkable`), those rewrites flattened with the
    position of the rule each belongs to, and their needles indexed."""

    rules: tuple[Rule, ...]
    steps: tuple[tuple[CstRewrite, ...] | None, ...]
    owners: tuple[int, ...]
    rewrites: tuple[CstRewrite, ...]
    needles: NeedleIndex

    @staticmethod
    def of(rules: Sequence[Rule]) -> _Plan:
        ordered = tuple(sorted(rules, key=lambda r: KIND_ORDER.index(r.kind)))
        steps = tuple(walkable(rule.rewrite) for rule in ordered)
        owners: list[int] = []
        rewrites: list[CstRewrite] = []
        for position, found in enumerate(steps):
            if found is not None:
                owners += [position] * len(found)
                rewrites += found
        needles = NeedleIndex([rewrite.needles for rewrite in rewrites])
        return _Plan(ordered, steps, tuple(owners), tuple(rewrites), needles)


# the plans of the last rule sets, by the identities of their rules (a notebook's cells share
# one rule set; the rules are held here, so their identities are not reused meanwhile)
_PLANS: dict[tuple[int, ...], tuple[tuple[Rule, ...], _Plan]] = {}
_PLANS_KEPT = 64


def _plan(rules: Sequence[Rule]) -> _Plan:
    key = tuple(map(id, rules))
    found = _PLANS.get(key)
    if found is not None:
        return found[1]
    plan = _Plan.of(rules)
    if len(_PLANS) >= _PLANS_KEPT:
        _PLANS.clear()
    _PLANS[key] = (tuple(rules), plan)
    return plan


@dataclass
class _Answers:
    """What the rules of a plan said of each state of one cell (a rule's rewrite is a function
    of the cell and the notebook's context): the fixpoint pass asks about the state the first
    pass ended on, and most of it was already asked there."""

    plan: _Plan
    # a state of the cell -> the positions of the LibCST rules that would change it
    would_change: dict[str, set[int]] = field(default_factory=dict)
    # (a rule's position, a state of the cell) -> the rule's rewrite of it
    rewritten: dict[tuple[int, str], str] = field(default_factory=dict)

    def would(self, source: str, context: RuleContext) -> set[int]:
        """The positions of the walkable rules that would change the cell."""
        found = self.would_change.get(source)
        if found is None:
            plan = self.plan
            changing = batch.would_change(source, plan.rewrites, context, plan.owners, plan.needles)
            found = self.would_change[source] = {plan.owners[n] for n in changing}
        return found

    def rewrite(self, position: int, source: str, context: RuleContext) -> str:
        found = self.rewritten.get((position, source))
        if found is None:
            rule = self.plan.rules[position]
            found = self.rewritten[position, source] = rule.rewrite(source, context)
        return found


def _one_pass(
    source: str,
    context: RuleContext,
    changes: list[tuple[Rule, str, str]],
    refused: dict[str, str],
    answers: _Answers,
) -> tuple[str, list[str]]:
    applied: list[str] = []
    # LibCST rules are first asked, all in one walk, whether they would change the cell as it
    # is now (`batch`); only those that would are run, and the question is asked again once
    # the cell changed (of all of them: the fixpoint pass asks the same of the state this
    # pass ends on). Other rules run one by one. The result is the same as running each.
    plan = answers.plan
    pending: set[int] | None = None
    for position, rule in enumerate(plan.rules):
        if plan.steps[position] is not None:
            if pending is None:
                pending = answers.would(source, context)
            if position not in pending:
                continue
        rewritten = answers.rewrite(position, source, context)
        if rewritten == source:
            continue
        broken = _breaks(source, rewritten)
        if broken is not None:
            refused.setdefault(rule.id, broken)
            continue
        applied.append(rule.id)
        changes.append((rule, source, rewritten))
        source = rewritten
        pending = None
    return source, applied


def _cells(positions: list[int]) -> str:
    return ", ".join(map(str, positions))


def _summary(applied: dict[str, list[int]], notes: list[str]) -> str:
    parts = [
        f"{rule} (cell{'s' if len(cells) > 1 else ''} {_cells(cells)})"
        for rule, cells in applied.items()
    ]
    return "; ".join(parts + notes)


class RulesFixer:
    name = "rules"

    def __init__(self, rules: Sequence[Rule], libraries: Sequence[Library] | None = None) -> None:
        self.rules = list(rules)
        self.by_id = {rule.id: rule for rule in self.rules}
        if libraries is None:
            from nbmodernizer.fixers.rules import all_libraries

            libraries = all_libraries()
        # library -> the modules whose import makes its rules relevant
        self.modules = {library.name: library.modules for library in libraries}

    def propose(self, request: FixRequest) -> FixAttempt:
        notebook = copy_notebook(request.notebook)
        code = code_cells(notebook)
        context, imported = notebook_context(
            [cell.source for cell in code],
            request.execution.gpus > 0,
            request.input_dir,
            request.environment,
        )
        context = replace(context, run_follows=True)
        own = self._own_errors(request, notebook, context)
        if own is not None:
            return own
        activation = activate(self.rules, request, imported, self.modules)
        banned = amend.reverted(request.fixes)
        applied: dict[str, list[int]] = {}
        occurrences: dict[str, list[RuleOccurrence]] = {}
        refused: dict[str, list[int]] = {}
        skipped: list[str] = []
        for code_cell in code:
            index = code_cell.index
            if not isinstance(notebook.cells[index].get("source"), str):
                skipped.append(f"cell {index} skipped: its source is not text")
                continue
            rules = activation.everywhere + activation.in_cells.get(index, ())
            rules = tuple(rule for rule in rules if rule.id not in banned.get(index, ()))
            lines = activation.raising_lines.get(index, frozenset())
            recorder = Recorder()

            def refuse(rule: Rule, _reason: str, index: int = index) -> None:
                refused.setdefault(rule.id, []).append(index)

            try:
                source, used = rewrite_cell(
                    code_cell.source,
                    rules,
                    replace(context, raising_lines=lines),
                    recorder,
                    on_refuse=refuse,
                )
            except (CellTooDeepError, RecursionError):
                skipped.append(f"cell {index} skipped: {cells.TOO_DEEP}")
                continue
            if not used:
                continue
            cell = notebook.cells[index]
            cell.source, cell.outputs, cell.execution_count = source, [], None
            for rule_id in used:
                applied.setdefault(rule_id, []).append(index)
            for rule_id, spans in recorder.spans().items():
                occurrences.setdefault(rule_id, []).extend(records(index, spans))
        notes = context.notes + skipped
        notes += [
            f"{rule} refused (a rule defect) in cells {_cells(at)}" for rule, at in refused.items()
        ]
        if not applied:
            return FixAttempt(None, note="; ".join(["no rule applies", *notes]))
        uses = tuple(
            RuleUse(rule=rule, cells=cells, occurrences=occurrences.get(rule, []))
            for rule, cells in applied.items()
        )
        uses += tuple(RuleUse(rule=rule, cells=at, action=REFUSED) for rule, at in refused.items())
        summary = _summary(applied, notes)
        return FixAttempt(FixProposal(notebook=notebook, summary=summary, rules=uses))

    def _own_errors(
        self, request: FixRequest, notebook: Notebook, context: RuleContext
    ) -> FixAttempt | None:
        """The errors the rules' own last rewrite caused (`amend`): redo those cells with the
        rule's alternative or without it, or leave them to the next fixer. None: there are
        no such errors."""
        found = amend.suspects(
            request.execution.cell_errors,
            request.fixes,
            {index: cell.source for index, cell in enumerate(notebook.cells)},
            self.by_id,
            context,
            rewrite_cell,
        )
        if not found:
            return None
        summary = "; ".join(suspect.note for suspect in found)
        redone = [(suspect, suspect.source) for suspect in found if suspect.source is not None]
        if not redone:
            return FixAttempt(None, note=summary)
        for suspect, source in redone:
            cell = notebook.cells[suspect.cell]
            cell.source, cell.outputs, cell.execution_count = source, [], None
        uses = tuple(use for suspect, _ in redone for use in suspect.uses)
        return FixAttempt(FixProposal(notebook=notebook, summary=summary, rules=uses))
