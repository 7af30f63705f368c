"""The rules fixer: apply every rule that the installed libraries or the errors call for."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from nbmodernizer import cells
from nbmodernizer.fixers.base import FixAttempt, FixProposal, FixRequest
from nbmodernizer.fixers.rules import amend, batch
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Kind, Library, Rule
from nbmodernizer.fixers.rules.occurrences import Recorder, records
from nbmodernizer.fixers.rules.toolkit.bindings import notebook_frames
from nbmodernizer.fixers.rules.toolkit.cells import CstRewrite, walkable
from nbmodernizer.notebook import Notebook, code_cells, copy_notebook
from nbmodernizer.status import FixType, RuleOccurrence, RuleUse

# Python 2 rules first: they make cells parseable for the LibCST rules after them.
KIND_ORDER = (Kind.PYTHON2, Kind.ENVIRONMENT, Kind.API, Kind.SILENT)


@dataclass(frozen=True)
class Activation:
    everywhere: tuple[Rule, ...]  # proactive: the installed library lacks the legacy API
    in_cells: dict[int, tuple[Rule, ...]]  # reactive: a cell's error matches the rule's symptom


# Rules that restore a legacy *default* (n_estimators=10, solver='liblinear', ...): the code
# runs either way, so they are used only when the score deviates.
SCORE_CALIBRATION_TAG = "score-calibration"


def relevant(rule: Rule, imported: set[str], modules: Mapping[str, frozenset[str]]) -> bool:
    """A rule is relevant to a notebook that imports one of its library's modules (a library
    that names none, or that is not known, is always relevant)."""
    library = modules.get(rule.library)
    return not library or not library.isdisjoint(imported)


def probe(rule: Rule) -> bool:
    """Whether the installed library lacks the rule's legacy API (False without a probe)."""
    return rule.gone is not None and rule.gone()


def proactive(
    rules: Sequence[Rule],
    imported: set[str],
    modules: Mapping[str, frozenset[str]],
    *,
    calibrating: bool = False,
    gone: Callable[[Rule], bool] = probe,
) -> tuple[Rule, ...]:
    """The rules applied to every cell before anything fails: relevant to the notebook's
    imports and gone from the installed library (and, when calibrating a score, the rules
    that restore a legacy default). `nbmod scan` and `nbmod fix` use exactly these."""
    return tuple(
        rule
        for rule in rules
        if relevant(rule, imported, modules)
        and (gone(rule) or (calibrating and SCORE_CALIBRATION_TAG in rule.tags))
    )


def notebook_context(
    sources: Sequence[str], gpu_available: bool, input_dir: Path | None
) -> tuple[RuleContext, set[str]]:
    """What the rules know of a notebook (its imports), and the top-level modules it imports."""
    aliases = cells.imports(sources)
    frames = notebook_frames(sources, aliases)
    context = RuleContext(aliases, gpu_available, input_dir, frames=frames)
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
    everywhere = proactive(rules, imported, modules, calibrating=calibrating)
    in_cells: dict[int, tuple[Rule, ...]] = {}
    for error in request.execution.cell_errors:
        matching = tuple(
            rule
            for rule in rules
            if rule not in everywhere and rule.matches_error(error.ename, error.evalue)
        )
        if matching:
            in_cells[error.cell_index] = in_cells.get(error.cell_index, ()) + matching
    return Activation(everywhere, in_cells)


# Told of each rule that changed a cell: the rule, the source before it, the source after it.
OnChange = Callable[[Rule, str, str], None]


def rewrite_cell(
    source: str, rules: Sequence[Rule], context: RuleContext, on_change: OnChange | None = None
) -> tuple[str, list[str]]:
    applied: list[str] = []
    ordered = sorted(rules, key=lambda r: KIND_ORDER.index(r.kind))
    # LibCST rules are first asked, all in one walk, whether they would change the cell as it
    # is now (`batch`); only those that would are run, and the question is asked again once
    # the cell changed. Other rules run one by one. The result is the same as running each.
    steps = {n: walkable(rule.rewrite) for n, rule in enumerate(ordered)}
    pending: set[int] | None = None
    for position, rule in enumerate(ordered):
        if steps[position] is not None:
            if pending is None:
                pending = _would_change(source, steps, position, context)
            if position not in pending:
                continue
        rewritten = rule.rewrite(source, context)
        if rewritten != source:
            applied.append(rule.id)
            if on_change is not None:
                on_change(rule, source, rewritten)
            source = rewritten
            pending = None
    return source, applied


def _would_change(
    source: str,
    steps: dict[int, tuple[CstRewrite, ...] | None],
    start: int,
    context: RuleContext,
) -> set[int]:
    """The positions (from `start` on) of the walkable rules that would change the cell."""
    owners: list[int] = []
    rewrites: list[CstRewrite] = []
    for position, found in steps.items():
        if position >= start and found is not None:
            owners += [position] * len(found)
            rewrites += found
    return {owners[n] for n in batch.would_change(source, rewrites, context)}


def _summary(applied: dict[str, list[int]], notes: list[str]) -> str:
    parts = [
        f"{rule} (cell{'s' if len(cells) > 1 else ''} {', '.join(map(str, cells))})"
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
            [cell.source for cell in code], request.execution.gpus > 0, request.input_dir
        )
        own = self._own_errors(request, notebook, context)
        if own is not None:
            return own
        activation = activate(self.rules, request, imported, self.modules)
        banned = amend.reverted(request.fixes)
        applied: dict[str, list[int]] = {}
        occurrences: dict[str, list[RuleOccurrence]] = {}
        for code_cell in code:
            index = code_cell.index
            rules = activation.everywhere + activation.in_cells.get(index, ())
            rules = tuple(rule for rule in rules if rule.id not in banned.get(index, ()))
            recorder = Recorder()
            source, used = rewrite_cell(code_cell.source, rules, context, recorder)
            if not used:
                continue
            cell = notebook.cells[index]
            cell.source, cell.outputs, cell.execution_count = source, [], None
            for rule_id in used:
                applied.setdefault(rule_id, []).append(index)
            for rule_id, spans in recorder.spans().items():
                occurrences.setdefault(rule_id, []).extend(records(index, spans))
        if not applied:
            return FixAttempt(None, note="no rule applies")
        uses = tuple(
            RuleUse(rule=rule, cells=cells, occurrences=occurrences.get(rule, []))
            for rule, cells in applied.items()
        )
        summary = _summary(applied, context.notes)
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
