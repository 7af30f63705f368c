"""A fleet for the fix memory: notebooks sharing four API drifts that no rule covers.

`legacy_lib` is a tiny library the tests write into each notebook's inputs; the notebooks
were written against its old API:

    legacy_lib.old_call(x)         ->  legacy_lib.new_call(x).value     (AttributeError)
    table.to_frame()               ->  table.frame                      (AttributeError)
    legacy_lib.scale(v, factor=k)  ->  legacy_lib.scale(v, by=k)        (TypeError)
    legacy_lib.window(v, n)        ->  legacy_lib.window(v, size=n)     (TypeError)

Each drift sits in a cell of its own, with other names and other code around it in each
notebook; the prediction depends on every drifted value, so a wrong fix does not reproduce.
Some notebooks also use `np.float`, which the rules fix. The first four notebooks (the
"teachers") have one drift each; the others (the "students") several.

`answer` plays the LLM: it fixes the drifts it finds in the cells of a prompt.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from testing.llm_server import Answer, fix_reply
from testing.notebooks import kaggle_folder

DRIFTS = ("old_call", "to_frame", "factor", "window")
LLM = {"model": "test-model", "inputUSDPerMTok": 1.75, "outputUSDPerMTok": 14.0, "maxRetries": 2}
PROMPT_TOKENS, COMPLETION_TOKENS = 3000, 400
FIX_USD = (PROMPT_TOKENS * 1.75 + COMPLETION_TOKENS * 14.0) / 1_000_000

LEGACY_LIB = '''\
"""legacy_lib 2.0: the API the notebooks were written against changed."""


class Result:
    def __init__(self, value):
        self.value = value


def new_call(x):  # was old_call(x), returning x itself
    return Result(x)


class Table:
    def __init__(self, rows):
        self.frame = list(rows)  # was to_frame()


def load(rows):
    return Table(rows)


def scale(values, by=1):  # was factor=
    return [v * by for v in values]


def window(values, *, size):  # size was positional
    return list(values)[:size]
'''

SETUP = "import csv\nimport sys\nsys.path.insert(0, '../input')\nimport numpy as np"
READ = "with open('../input/test.csv') as f:\n    rows = list(csv.DictReader(f))"
PREDICT = "preds = [(r['id'], int(float(r['x']) > threshold)) for r in rows]"
WRITE = """with open('submission.csv', 'w') as f:
    f.write('id,y\\n' + ''.join(f'{i},{y}\\n' for i, y in preds))"""
_NAMES = ["base", "offset", "level", "cut", "shift", "bias", "floor", "zero", "anchor", "pivot"]
_ZEROS = ["0", "np.mean([0, 0])", "abs(-0.0)", "len([]) * 3", "int(np.sum([1, -1]))", "min(0, 4)"]


@dataclass(frozen=True)
class Case:
    name: str
    spec: Path
    drifts: tuple[str, ...]
    rules: bool  # uses np.float, which the rules fix


def _drift_cell(drift: str, alias: str, name: str, rng: random.Random) -> tuple[str, str]:
    """The cell (legacy code, with code around it) and the term it adds to the threshold."""
    comment = rng.choice(["", "# legacy API\n", "# computed once\n"])
    other = rng.choice(["", "\nprint('ready')", "\nsteps = [1, 2, 3]"])
    if drift == "old_call":
        return f"{comment}{name} = {alias}.old_call({rng.choice(_ZEROS)}){other}", name
    if drift == "to_frame":
        table = f"{name}_table"
        return (
            f"{comment}{table} = {alias}.load([0.0, 1.0])\n{name} = {table}.to_frame(){other}",
            f"{name}[0]",
        )
    if drift == "factor":
        k = rng.choice([2, 3, 10])
        return f"{comment}{name} = {alias}.scale([0, 1, 2], factor={k}){other}", f"{name}[0]"
    n = rng.choice([1, 2, 3])
    values = rng.choice(["[0, 5, 9]", "list(range(4))", "[0.0] * 3"])
    return f"{comment}{name} = {alias}.window({values}, {n}){other}", f"{name}[0]"


MEMORY_CHAIN = ("rules", "memory", "llm")


def make_fleet(
    root: Path,
    students: int = 16,
    seed: int = 7,
    fixers: tuple[str, ...] = MEMORY_CHAIN,
    max_iterations: int = 5,
) -> list[Case]:
    """4 teachers (one drift each), then `students` notebooks with one to four drifts."""
    rng = random.Random(seed)
    plans: list[tuple[tuple[str, ...], bool]] = [((drift,), False) for drift in DRIFTS]
    for n in range(students):
        drifts = tuple(d for d in DRIFTS if rng.random() < 0.6) or (DRIFTS[n % 4],)
        plans.append((drifts, n % 4 == 1))
    cases = []
    for number, (drifts, rules) in enumerate(plans):
        alias = rng.choice(["legacy_lib", "ll", "lib"])
        imported = "import legacy_lib" + ("" if alias == "legacy_lib" else f" as {alias}")
        setup = f"{SETUP}\n{imported}\n{READ}"
        if rules:
            setup += "\nunit = np.float(1)"
        names = rng.sample(_NAMES, len(drifts))
        cells, terms = [], []
        for drift, name in zip(drifts, names, strict=True):
            cell, term = _drift_cell(drift, alias, name, rng)
            cells.append(cell)
            terms.append(term)
        threshold = " + ".join(terms)
        predict = f"threshold = {threshold}\n{PREDICT}"
        name = f"{'teacher' if number < len(DRIFTS) else 'student'}-{number:02d}"
        fix = {"maxIterations": max_iterations, "fixers": list(fixers), "llm": LLM}
        path = kaggle_folder(root / name, setup, *cells, predict, WRITE, fix=fix)
        path.write_text(path.read_text().replace("name: tiny", f"name: {name}"))
        (root / name / "input" / "legacy_lib.py").write_text(LEGACY_LIB)
        cases.append(Case(name, path, drifts, rules))
    return cases


# -- the LLM's side ----------------------------------------------------------------------------

_CELL = re.compile(r"### cell (\d+) \(code, editable\)\n```python\n(.*?)\n```", re.DOTALL)


def _closing(text: str, opening: int) -> int:
    depth = 0
    for index in range(opening, len(text)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            return index
    raise ValueError("unbalanced")


def modernize(source: str) -> str:
    """What a good LLM answers: each drift rewritten to the new API."""
    while ".old_call(" in source:
        start = source.index(".old_call(")
        end = _closing(source, start + len(".old_call"))
        inside = source[start + len(".old_call(") : end]
        source = f"{source[:start]}.new_call({inside}).value{source[end + 1 :]}"
    source = source.replace(".to_frame()", ".frame")
    source = re.sub(r"(scale\(.*?), factor=", r"\1, by=", source)
    return re.sub(r"(window\((?:\[[^\]]*\]|[^,]+)), (\w+)\)", r"\1, size=\2)", source)


def answer(request: dict[str, Any]) -> Answer:
    prompt = request["messages"][1]["content"]
    fixed = {
        int(index): modernize(source)
        for index, source in _CELL.findall(prompt)
        if modernize(source) != source
    }
    return Answer(fix_reply(fixed, "the library's new API"), PROMPT_TOKENS, COMPLETION_TOKENS)


def reports(out: Path) -> dict[str, dict[str, Any]]:
    """Each run folder's report.json, by the folder's name."""
    return {p.parent.name: json.loads(p.read_text()) for p in sorted(out.glob("*/report.json"))}
