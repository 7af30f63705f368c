"""The runnable corpus (corpus/cases/, issue #9 part 3): every case follows the format, and a
sample of them really runs.

The static checks read every case (corpus/cases.py: keys, types, census rows, files, the
spec). The sample runs real kernels: the legacy notebook fails today with the exception and
message its case records, and a case that expects `rules` comes back with the rules loop
alone (`nbmod modernize` with fixers [rules]), reproduced within tolerance, without a
blocking fidelity flag — or, where its `gap` names a rule still missing, does not yet; a
case that expects `environment-stop` stops after its first
execution with a reason. The full benchmark (every case, independently re-graded) is
`python benchmarks/corpus.py`, not part of the test command.

How the sample is chosen: the cases sorted by name are grouped by library (`-` for none) and
taken round-robin, one library after the other in name order, until SAMPLE_SIZE are taken,
so every library is in it and the choice changes only when cases are added or removed.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
import yaml

from corpus.cases import Case, CaseError, case_folders, load_case, load_cases
from corpus.coverage import read_census
from corpus.runs import (
    blocking_flags,
    execute_and_grade,
    first_error_of_revision,
    modernize,
    stopped_for_environment,
)

SAMPLE_SIZE = 10
CENSUS = read_census()
FOLDERS = case_folders()


def sample(cases: Sequence[Case], size: int = SAMPLE_SIZE) -> list[Case]:
    """Round-robin over libraries (in name order), each library's cases in name order."""
    by_library: dict[str, list[Case]] = {}
    for case in sorted(cases, key=lambda c: c.name):
        by_library.setdefault(case.library or "-", []).append(case)
    queues = [by_library[library] for library in sorted(by_library)]
    chosen: list[Case] = []
    while len(chosen) < size and any(queues):
        for queue in queues:
            if queue and len(chosen) < size:
                chosen.append(queue.pop(0))
    return chosen


def valid_cases() -> list[Case]:
    """The cases that follow the format (test_case_follows_the_format names the others), so
    that one broken case fails its own test instead of the whole module's collection."""
    cases: list[Case] = []
    for folder in FOLDERS:
        try:
            cases.append(load_case(folder, CENSUS))
        except CaseError:
            continue
    return cases


SAMPLE = sample(valid_cases())


def test_the_corpus_has_cases_of_every_class() -> None:
    cases = load_cases()
    assert len(cases) >= SAMPLE_SIZE
    assert {c.klass for c in cases} >= {"api-drift", "environment", "notebook-bug"}
    assert {c.expect for c in cases} >= {"rules", "environment-stop", "llm"}


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_case_follows_the_format(folder: Path) -> None:
    case = load_case(folder, CENSUS)  # CaseError lists every problem
    assert case.apis and case.census


def test_a_case_that_breaks_the_format_is_told_field_by_field(tmp_path: Path) -> None:
    good = FOLDERS[0]
    broken = tmp_path / "house-prices-pandas-broken"
    broken.mkdir()
    facts = yaml.safe_load((good / "case.yaml").read_text())
    facts.pop("apis")
    facts["class"] = "drift"
    facts["competition"] = "leaf-classification"
    facts["census"] = ["nowhere@0"]
    (broken / "case.yaml").write_text(yaml.safe_dump(facts))
    spec = yaml.safe_load((good / "spec.yaml").read_text())
    spec["spec"]["fix"]["fixers"] = ["rules", "llm"]
    spec["spec"]["execution"]["timeoutSeconds"] = 90
    (broken / "spec.yaml").write_text(yaml.safe_dump(spec))
    (broken / "input").mkdir()
    (broken / "input" / "answers.csv").write_text("id,y\n1,2\n")
    with pytest.raises(CaseError) as raised:
        load_case(broken, CENSUS)
    text = str(raised.value)
    assert text.startswith("case house-prices-pandas-broken:")
    for expected in (
        "missing key(s) apis",
        "class 'drift' not one of",
        "competition 'leaf-classification' is excluded",
        "no row of corpus/census.csv has source 'nowhere@0'",
        "metadata.name",
        "spec.fix.fixers",
        "spec.execution.timeoutSeconds is 90, the format says one of [60, 300]",
        "notebook.ipynb: missing",
        "reference/notebook.ipynb: missing",
        "input/answers.csv holds the answers",
        "answers.csv: answers file not found",
    ):
        assert expected in text, (expected, text)


def test_a_census_row_that_disagrees_is_named(tmp_path: Path) -> None:
    folder = tmp_path / FOLDERS[0].name
    shutil.copytree(FOLDERS[0], folder)
    facts = yaml.safe_load((folder / "case.yaml").read_text())
    facts["exception"] = "ZeroDivisionError"
    (folder / "case.yaml").write_text(yaml.safe_dump(facts))
    with pytest.raises(CaseError, match=r"no row agrees on exception 'ZeroDivisionError'"):
        load_case(folder, CENSUS)


def test_the_sample_spreads_over_libraries() -> None:
    libraries = {c.library or "-" for c in load_cases()}
    assert len(SAMPLE) == min(SAMPLE_SIZE, len(FOLDERS))
    assert {c.library or "-" for c in SAMPLE} == libraries or len(libraries) > SAMPLE_SIZE


@pytest.mark.kernel
@pytest.mark.parametrize("case", SAMPLE, ids=[c.name for c in SAMPLE])
def test_sampled_case_fails_today_and_comes_back_as_expected(case: Case, tmp_path: Path) -> None:
    if case.expect == "llm":  # only the legacy failure is checked: no LLM in tests
        graded = execute_and_grade(case, case.notebook, tmp_path / "legacy")
        error = graded.error
    else:
        status = modernize(case, tmp_path / "out")
        error = first_error_of_revision(tmp_path / "out")
    assert error is not None, f"{case.name}: the legacy notebook ran without an error"
    assert (error.ename, case.message in error.evalue) == (case.exception, True), (
        f"{case.name}: expected {case.exception}: ...{case.message}..., "
        f"got {error.ename}: {error.evalue[:300]}"
    )
    if case.expect == "rules" and case.gap is not None:  # a known gap stays one until closed
        assert not (status.outcome is not None and status.outcome.reproducible), (
            f"{case.name}: the rules bring it back now; remove its gap ({case.gap})"
        )
    elif case.expect == "rules":
        assert status.outcome is not None and status.outcome.reproducible, (
            f"{case.name}: {status.outcome} {status.message}"
        )
        assert status.cost.usd == 0.0
        assert all(fix.fixer == "rules" for fix in status.fixes)
        assert blocking_flags(status) == []
    elif case.expect == "environment-stop":
        assert stopped_for_environment(status), (
            f"{case.name}: {status.iterations} executions; {status.last_error}; "
            f"{status.stop_reason}"
        )
