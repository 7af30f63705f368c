"""The runnable corpus's case folders: read one, and say everything that is wrong with it.

A case (corpus/cases/<name>/, the format of issue #9 part 3) is a reduced legacy notebook
that keeps a real Kaggle kernel's failing lines, its data, its private answers, a spec for
`nbmod modernize` and a hand-modernized reference. `load_case` reads one and raises
`CaseError` listing every problem, each naming the case and the field; nothing here runs a
notebook (corpus/runs.py does).

One addition to the format: an `expect: environment-stop` case may hold, in
`reference/input/`, the files the environment lacks (an attached dataset), so that its
reference can run and its target be measured; the legacy notebook and the loop never see them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from corpus.coverage import EXCLUDED_COMPETITIONS, CensusRow, read_census
from nbmodernizer.grade import AnswersError, load_answers
from nbmodernizer.notebook import NotebookError, parse_notebook
from nbmodernizer.spec import NotebookModernization, SpecError, load_spec_file

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "corpus" / "cases"

CLASSES = ("api-drift", "environment", "notebook-bug")
EXPECTS = ("rules", "environment-stop", "llm")
KEYS = (
    "census",
    "competition",
    "class",
    "library",
    "exception",
    "message",
    "apis",
    "expect",
    "note",
)
# Optional: the census row's message, where today's library words the same failure otherwise
# (pandas 3's string dtype); `message` is then what it raises today.
# `gap`: a drift case the rules do not bring back yet, and which rule is missing; the sample
# test then checks that it stays a gap (a new rule that closes it fails the test: remove it).
OPTIONAL_KEYS = ("census_message", "gap")
NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")
MAX_INPUT_BYTES = 300 * 1024
NOTEBOOK, SPEC, CASE_YAML, ANSWERS, INPUT = (
    "notebook.ipynb",
    "spec.yaml",
    "case.yaml",
    "answers.csv",
    "input",
)
REFERENCE = Path("reference") / "notebook.ipynb"
# Only for `expect: environment-stop`: the files the environment lacks (an attached dataset),
# which the reference reads beside input/ so that its score, the target, can be measured.
REFERENCE_INPUTS = Path("reference") / "input"
# What every case's spec says besides its metric, target and id column.
SPEC_TOLERANCE = 0.10
# 60 s, or 300 s for a case whose training is slow under load: its reference needs more than
# a third of 60 s on the 2-core CI machine at a load of ~15 (corpus/README.md, "Deadlines")
SPEC_TIMEOUTS_SECONDS = (60, 300)
SPEC_MAX_ITERATIONS = 4
SPEC_FIXERS = ("rules",)


class CaseError(ValueError):
    """A case folder that does not follow the format; one line per problem."""

    def __init__(self, name: str, problems: Sequence[str]) -> None:
        self.name = name
        self.problems = list(problems)
        super().__init__(f"case {name}:\n" + "\n".join(f"  - {p}" for p in self.problems))


@dataclass(frozen=True)
class Case:
    name: str
    folder: Path
    census: tuple[str, ...]
    competition: str
    klass: str
    library: str
    exception: str
    message: str
    apis: tuple[str, ...]
    expect: str
    note: str
    resource: NotebookModernization
    gap: str | None = None  # which rule is missing, for an `expect: rules` case not yet met

    @property
    def spec_path(self) -> Path:
        return self.folder / SPEC

    @property
    def notebook(self) -> Path:
        return self.folder / NOTEBOOK

    @property
    def reference(self) -> Path:
        return self.folder / REFERENCE

    @property
    def answers(self) -> Path:
        return self.folder / ANSWERS

    @property
    def inputs(self) -> Path:
        return self.folder / INPUT

    @property
    def reference_inputs(self) -> Path | None:
        """The files the environment lacks, for the reference only (environment-stop)."""
        folder = self.folder / REFERENCE_INPUTS
        return folder if folder.is_dir() else None


def case_folders(root: Path = CASES) -> list[Path]:
    """Every case folder (a folder with a case.yaml), sorted by name."""
    if not root.is_dir():
        return []
    return sorted(p.parent for p in root.glob(f"*/{CASE_YAML}"))


def load_cases(root: Path = CASES, census: Sequence[CensusRow] | None = None) -> list[Case]:
    """Every case under `root`; CaseError for the first case that is wrong."""
    rows = read_census() if census is None else census
    return [load_case(folder, rows) for folder in case_folders(root)]


def load_case(folder: Path, census: Sequence[CensusRow]) -> Case:
    name = folder.name
    problems: list[str] = []
    facts = _read_facts(folder, problems)
    resource = _read_spec(folder, name, problems)
    if not NAME.match(name):
        problems.append(f"folder name {name!r}: lower-case words joined by dashes")
    _check_facts(name, facts, census, problems)
    _check_files(folder, resource, problems)
    if (folder / REFERENCE_INPUTS).is_dir() and facts.get("expect") != "environment-stop":
        problems.append(f"{REFERENCE_INPUTS}/: only an environment-stop case has one")
    if problems or resource is None:
        raise CaseError(name, problems)
    return Case(
        name=name,
        folder=folder,
        census=tuple(facts["census"]),
        competition=facts["competition"],
        klass=facts["class"],
        library=facts["library"],
        exception=facts["exception"],
        message=facts["message"],
        apis=tuple(facts["apis"]),
        expect=facts["expect"],
        note=facts["note"],
        resource=resource,
        gap=facts.get("gap"),
    )


def _read_facts(folder: Path, problems: list[str]) -> dict[str, Any]:
    path = folder / CASE_YAML
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        problems.append(f"{CASE_YAML}: missing")
        return {}
    except yaml.YAMLError as error:
        problems.append(f"{CASE_YAML}: not valid YAML: {error}")
        return {}
    if not isinstance(document, dict):
        problems.append(f"{CASE_YAML}: expected a mapping of {', '.join(KEYS)}")
        return {}
    missing = [k for k in KEYS if k not in document]
    extra = sorted(str(k) for k in document if k not in KEYS + OPTIONAL_KEYS)
    if missing:
        problems.append(f"{CASE_YAML}: missing key(s) {', '.join(missing)}")
    if extra:
        problems.append(f"{CASE_YAML}: unknown key(s) {', '.join(extra)}")
    facts: dict[str, Any] = {}
    for key in KEYS + OPTIONAL_KEYS:
        if key not in document:
            continue
        value = document[key]
        if key in ("census", "apis"):
            if not (
                isinstance(value, list) and value and all(isinstance(v, str) and v for v in value)
            ):
                problems.append(f"{CASE_YAML}: {key}: a non-empty list of non-empty strings")
                continue
        elif not isinstance(value, str) or (not value and key != "library"):
            problems.append(f"{CASE_YAML}: {key}: a non-empty string (got {value!r})")
            continue
        facts[key] = value
    return facts


def _check_facts(
    name: str, facts: dict[str, Any], census: Sequence[CensusRow], problems: list[str]
) -> None:
    """Checks each fact that was read (a missing or mistyped key is already reported)."""
    klass, expect = facts.get("class"), facts.get("expect")
    competition = facts.get("competition")
    if klass is not None and klass not in CLASSES:
        problems.append(f"{CASE_YAML}: class {klass!r} not one of {', '.join(CLASSES)}")
    if expect is not None and expect not in EXPECTS:
        problems.append(f"{CASE_YAML}: expect {expect!r} not one of {', '.join(EXPECTS)}")
    if competition is not None:
        if competition in EXCLUDED_COMPETITIONS:
            problems.append(f"{CASE_YAML}: competition {competition!r} is excluded (issue #9)")
        if not name.startswith(competition + "-"):
            problems.append(
                f"folder name: starts with the competition {competition!r} "
                "(<competition>-<library>-<what>)"
            )
    if "gap" in facts and expect != "rules":
        problems.append(f"{CASE_YAML}: gap: only a case that expects rules has one")
    if "\n" in facts.get("note", ""):
        problems.append(f"{CASE_YAML}: note: one line")
    agreeing = ("exception", "message", "competition", "library")
    for source in facts.get("census", []):
        rows = [r for r in census if r.source == source]
        if not rows:
            problems.append(
                f"{CASE_YAML}: census: no row of corpus/census.csv has source {source!r}"
            )
        elif all(k in facts for k in agreeing) and not any(_agrees(facts, r) for r in rows):
            seen = "; ".join(
                f"{r.exception} {r.message[:60]!r} ({r.competition}, {r.library or '-'})"
                for r in rows[:3]
            )
            problems.append(
                f"{CASE_YAML}: census {source!r}: no row agrees on exception "
                f"{facts['exception']!r}, message {facts['message']!r} (a substring), "
                f"competition {facts['competition']!r} and library {facts['library']!r}; "
                f"the row(s) say: {seen}"
            )


def _agrees(facts: dict[str, Any], row: CensusRow) -> bool:
    return (
        row.exception == facts["exception"]
        and facts.get("census_message", facts["message"]) in row.message
        and row.competition == facts["competition"]
        and row.library == facts["library"]
    )


def _read_spec(folder: Path, name: str, problems: list[str]) -> NotebookModernization | None:
    try:
        resource, _ = load_spec_file(folder / SPEC)
    except SpecError as error:
        problems.append(f"{SPEC}: {error}")
        return None
    spec = resource.spec
    expected: list[tuple[str, object, object]] = [
        ("metadata.name", resource.metadata.name, name),
        ("spec.notebook", spec.notebook, NOTEBOOK),
        ("spec.inputs", spec.inputs, INPUT),
        ("spec.score.submission", spec.score.submission, "submission.csv"),
        ("spec.score.answers", spec.score.answers, ANSWERS),
        ("spec.score.tolerance", spec.score.tolerance, SPEC_TOLERANCE),
        ("spec.fix.maxIterations", spec.fix.max_iterations, SPEC_MAX_ITERATIONS),
        ("spec.fix.fixers", tuple(spec.fix.fixers), SPEC_FIXERS),
    ]
    for field, value, want in expected:
        if value != want:
            problems.append(f"{SPEC}: {field} is {value!r}, the format says {want!r}")
    timeout = spec.execution.timeout_seconds
    if timeout not in SPEC_TIMEOUTS_SECONDS:
        problems.append(
            f"{SPEC}: spec.execution.timeoutSeconds is {timeout!r}, the format says one of "
            f"{list(SPEC_TIMEOUTS_SECONDS)}"
        )
    target = spec.score.target
    if target != float(f"{target:.4g}") and round(target, 4) != target:
        problems.append(
            f"{SPEC}: spec.score.target {target} has more than 4 decimals (or 4 significant digits)"
        )
    return resource


def _check_files(folder: Path, resource: NotebookModernization | None, problems: list[str]) -> None:
    for notebook in (NOTEBOOK, str(REFERENCE)):
        path = folder / notebook
        try:
            parse_notebook(path.read_bytes())
        except FileNotFoundError:
            problems.append(f"{notebook}: missing")
        except NotebookError as error:
            problems.append(f"{notebook}: {error}")
    inputs = folder / INPUT
    if not inputs.is_dir():
        problems.append(f"{INPUT}/: missing (the data the notebook reads)")
    files = [p for root in (inputs, folder / REFERENCE_INPUTS) for p in root.rglob("*")]
    files = [p for p in files if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    if size > MAX_INPUT_BYTES:
        problems.append(
            f"{INPUT}/ and {REFERENCE_INPUTS}/: {size} bytes, over the {MAX_INPUT_BYTES} limit"
        )
    answers_bytes = (folder / ANSWERS).read_bytes() if (folder / ANSWERS).is_file() else None
    for path in files:
        if path.name == ANSWERS or (
            answers_bytes is not None and path.read_bytes() == answers_bytes
        ):
            problems.append(f"{path.relative_to(folder)} holds the answers")
    if resource is not None:
        try:
            load_answers(folder / ANSWERS, resource.spec.score.id_column)
        except AnswersError as error:
            problems.append(f"{ANSWERS}: {error}")
