"""Proven entries as rule proposals: Python a person reviews and adds to the rulebook.

An entry is proposed when it has been used at least `min_uses` times, fixed the error at
least `min_success` of those, and is not retired. Each proposal is a `Rule(...)` in the
rulebook's shape (`fixers/rules/model.py`): the pattern as its rewrite (`learnt_rewrite`, or
a hand-written LibCST rewrite in its place), the error as its symptom, and the statements of
the notebooks that proved it as its examples, with the imports they use. What a machine
cannot know is marked `TODO`: the version that changed, and each example's `check` (an
expression that holds when the rewritten snippet means what the legacy one meant).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from nbmodernizer.fixers.memory.apply import rewrite_cell
from nbmodernizer.fixers.memory.entries import Entry, Example, FixMemory
from nbmodernizer.fixers.memory.pattern import Pattern
from nbmodernizer.status import Issue

MAX_EXAMPLES = 3
HEADER = '''"""Rule proposals from the fix memory (`nbmod memory export`): review each, fill in the
TODOs, and add it to the library's rules."""

from nbmodernizer.fixers.memory.export import learnt_rewrite
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom

RULES = (
'''
_PLACEHOLDERS = {
    "<str>": r"""(?:'[^']*'|"[^"]*")""",
    "<num>": r"[-+.\w]+",
    "<name>": r"[\w.]+",
    "<path>": r"\S+",
}


def learnt_rewrite(pattern: dict[str, Any]) -> Callable[[str, Any], str]:
    """A rule's rewrite from a pattern's wire form: the cell with every match rewritten.
    The rule's context gives the notebook's imports (`RuleContext.aliases`)."""
    compiled = Pattern.from_wire(pattern)

    def rewrite(source: str, context: Any) -> str:
        done = rewrite_cell(source, [("rule", compiled)], getattr(context, "aliases", {}))
        return done.source if done is not None else source

    return rewrite


def proven(entries: list[Entry], min_uses: int, min_success: float) -> list[Entry]:
    return [
        e
        for e in entries
        if not e.retired and e.uses >= min_uses and (e.success_rate or 0.0) >= min_success
    ]


def export(memory: FixMemory, min_uses: int = 3, min_success: float = 0.8) -> str:
    """A Python module of rule proposals, one per proven entry."""
    chosen = proven(memory.entries(), min_uses, min_success)
    blocks = []
    for entry in chosen:
        fixed = [use.example for use in memory.uses_of(entry) if use.fixed]
        blocks.append(proposal(entry, [*[o.example for o in entry.origins], *fixed]))
    return HEADER + "".join(blocks) + ")\n"


def proposal(entry: Entry, examples: list[Example]) -> str:
    shown = entry.pattern.shown()
    library = entry.pattern.refs[0].split(".")[0] if entry.pattern.refs else "python"
    rate = f"{entry.fixed}/{entry.uses}"
    kind = "SILENT" if entry.signature.issue == Issue.SCORE_DEVIATION.value else "API"
    distinct = list({(e.before, e.after): e for e in examples}.values())[:MAX_EXAMPLES]
    lines = [
        f"    # fix memory entry {entry.id}: fixed {rate} uses; learnt from "
        f"{len(entry.origins)} paid fix(es), ${entry.cost_usd:.4f} each",
        f"    # {entry.signature}",
        f"    #     {shown}",
        "    Rule(",
        f"        id={_literal(f'{library}.learnt-{entry.id[:8]}')},  # TODO: name the drift",
        f"        library={_literal(library)},",
        '        changed_in="TODO",',
        f"        summary={_literal(shown)},",
        f"        kind=Kind.{kind},",
        f"        rewrite=learnt_rewrite({_literal(entry.pattern.to_wire())}),",
    ]
    if entry.signature.ename:
        lines.append(f"        symptoms=({_symptom(entry, examples)},),")
    lines.append("        examples=(")
    for example in distinct:
        lines += [
            "            Example(",
            f"                before={_literal(_snippet(example.setup, example.before))},",
            f"                after={_literal(_snippet(example.setup, example.after))},",
            '                check="True",  # TODO: true when `after` means what `before` meant',
        ]
        if entry.signature.ename:
            lines.append(f"                error={_literal(entry.signature.ename)},")
        lines.append("            ),")
    lines += ["        ),", "    ),", ""]
    return "\n".join(lines) + "\n"


def _snippet(setup: str, code: str) -> str:
    return f"{setup}\n{code}\n" if setup else f"{code}\n"


def _symptom(entry: Entry, examples: list[Example]) -> str:
    """The error's message as a pattern: the very message when every example raised the
    same one, else the signature with its placeholders opened up."""
    messages = {e.error.partition(": ")[2] for e in examples if e.error}
    if len(messages) == 1:
        pattern = _escape(messages.pop())
    else:
        parts = re.split(r"(<str>|<num>|<name>|<path>)", entry.signature.message)
        pattern = "".join(_PLACEHOLDERS.get(part, _escape(part)) for part in parts)
    return f"Symptom({_literal(entry.signature.ename)}, {_literal(pattern)})"


def _escape(text: str) -> str:
    """`re.escape` that leaves spaces and quotes alone (easier to read in a rule)."""
    return re.sub(r"([.^$*+?{}\[\]\\|()])", r"\\\1", text)


def _literal(value: object) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)
