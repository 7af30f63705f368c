"""The store's layout is a contract with every stored run (a restarted operator replays runs
that an older version wrote): the files of a stored run, their names, and the shape and form
of each JSON file are pinned here. A change that fails this test changes the layout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nbmodernizer.cluster.jobs import JobSettings, revision_uri
from nbmodernizer.engine import (
    fix_step,
    grade_revision,
    record_result,
    replay,
    store_execution,
    store_run,
)
from nbmodernizer.fixers import FixerChain
from nbmodernizer.loop import Finish, RequestFix, start
from nbmodernizer.notebook import serialise
from nbmodernizer.revision import RunOutput
from nbmodernizer.status import FixRecord
from nbmodernizer.store import layout
from nbmodernizer.store.revisions import LocalStore, read_spec, write_spec
from testing.factories import ran
from testing.notebooks import notebook
from tests.test_engine import ANSWERS, GOOD, SPEC, ChangeOneCell


@pytest.fixture
def run(tmp_path: Path) -> Path:
    """A stored run: revision 0 runs twice (an error, then a submission) and is fixed;
    revision 1 reproduces."""
    store = LocalStore(tmp_path / "run")
    original = notebook("broken = 1 / 0")
    store.put(0, layout.NOTEBOOK, serialise(original))
    write_spec(store, SPEC, 3)
    state, _ = start(4)
    outputs = [
        RunOutput(original, ran((1, "ZeroDivisionError")), None),
        RunOutput(original, ran(), GOOD),
    ]
    store_execution(store, 0, outputs)
    state, action = record_result(store, state, 0, *grade_revision(store, 0, ANSWERS, SPEC))
    assert isinstance(action, RequestFix)
    outcome = fix_step(store, state, action, FixerChain([ChangeOneCell()]), SPEC, None)
    store_execution(store, 1, [RunOutput(original, ran(), GOOD)])
    _, action = record_result(store, outcome.state, 1, *grade_revision(store, 1, ANSWERS, SPEC))
    assert isinstance(action, Finish) and replay(store, 4)[1] == action
    return store.root


def files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def read_json(root: Path, key: str) -> dict[str, object]:
    document: dict[str, object] = json.loads((root / key).read_bytes())
    return document


def test_a_stored_run_holds_these_files(run: Path) -> None:
    assert files(run) == [
        "revisions/0000/executed.ipynb",
        "revisions/0000/execution.json",
        "revisions/0000/notebook.ipynb",
        "revisions/0000/result.json",
        "revisions/0000/spec.json",
        "revisions/0000/submission-1.csv",  # run 0 wrote none
        "revisions/0001/executed.ipynb",
        "revisions/0001/execution.json",
        "revisions/0001/fix.json",
        "revisions/0001/notebook.ipynb",
        "revisions/0001/result.json",
        "revisions/0001/submission.csv",
    ]


def test_the_names_of_the_layout() -> None:
    names = (layout.NOTEBOOK, layout.EXECUTED, layout.EXECUTION, layout.RESULT, layout.FIX)
    assert names == (
        "notebook.ipynb",
        "executed.ipynb",
        "execution.json",
        "result.json",
        "fix.json",
    )
    assert (layout.SPEC, layout.SUBMISSION) == ("spec.json", "submission.csv")
    assert [layout.submission_name(run) for run in range(3)] == [
        "submission.csv",
        "submission-1.csv",
        "submission-2.csv",
    ]
    # An Indexed Job's run N (runs: N > 1 in a cluster): its own files; run 0's are those
    # of a single run, so `runs: 1` stores what it always stored.
    assert [layout.run_output_names(run) for run in (0, 2)] == [
        ["executed.ipynb", "submission.csv", "execution.json"],
        ["executed-2.ipynb", "submission-2.csv", "execution-2.json"],
    ]
    assert layout.revision_key(3, layout.NOTEBOOK) == "revisions/0003/notebook.ipynb"
    assert layout.revision_key(12345, "") == "revisions/12345/"


def test_the_json_files_are_indented_sorted_and_end_in_a_newline(run: Path) -> None:
    for key in files(run):
        if key.endswith(".json") and not key.endswith(layout.FIX):
            data = (run / key).read_bytes()
            document = json.loads(data)
            assert data == (json.dumps(document, indent=2, sort_keys=True) + "\n").encode(), key
    fix = (run / "revisions/0001/fix.json").read_bytes()  # pydantic's field order, not sorted
    assert (
        fix
        == (
            FixRecord.model_validate_json(fix).model_dump_json(by_alias=True, indent=2) + "\n"
        ).encode()
    )


# One run's execution facts, as execution.json holds each run and result.json the
# representative one (indented to where each file puts it).
RUN = """{
  "cellErrors": [],
  "cellsExecuted": 5,
  "cellsTotal": 5,
  "durationSeconds": 1.0,
  "gpus": 0,
  "inputs": [],
  "inputsTotal": 0,
  "packages": {},
  "status": "completed"
}"""

EXECUTION_1 = '{\n  "runs": [\n    ' + RUN.replace("\n", "\n    ") + "\n  ]\n}\n"

RESULT_1 = (
    """{
  "diagnosis": {
    "detail": "accuracy 1 vs target 1 (relative gap 0.0%)",
    "issue": "Reproducible",
    "outcome": "ErrorFreeReproducible"
  },
  "execution": """
    + RUN.replace("\n", "\n  ")
    + """,
  "score": {
    "metric": "accuracy",
    "relativeGap": 0.0,
    "reproduced": true,
    "target": 1.0,
    "value": 1.0,
    "values": [
      1.0
    ]
  }
}
"""
)


def test_execution_and_result_bytes(run: Path) -> None:
    assert (run / "revisions/0001/execution.json").read_text() == EXECUTION_1
    assert (run / "revisions/0001/result.json").read_text() == RESULT_1


def test_the_shape_of_each_json_file(run: Path) -> None:
    execution = read_json(run, "revisions/0000/execution.json")
    assert list(execution) == ["runs"]
    runs = execution["runs"]
    assert isinstance(runs, list) and len(runs) == 2
    assert runs[0]["cellErrors"][0]["ename"] == "ZeroDivisionError"
    result = read_json(run, "revisions/0000/result.json")
    assert list(result) == ["diagnosis", "execution", "score"]
    diagnosis = result["diagnosis"]
    assert isinstance(diagnosis, dict) and diagnosis["issue"] == "Error"
    assert sorted(diagnosis) == ["detail", "fixType", "issue", "outcome"]
    fix = read_json(run, "revisions/0001/fix.json")
    assert list(fix)[:5] == ["iteration", "issue", "type", "fixer", "summary"]
    assert (fix["iteration"], fix["fixer"]) == (1, "scripted")
    assert fix["cost"] == {
        "usd": 0.25,
        "inputTokens": 0,
        "outputTokens": 0,
        "requests": 1,
        "rejectedReplies": 0,
        "estimatedReplies": 0,
        "savedUsd": 0.0,
    }
    spec = read_json(run, "revisions/0000/spec.json")
    assert spec == {"generation": 3, "spec": SPEC.to_wire()}


def test_the_spec_snapshot_round_trips(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    assert read_spec(store) is None
    write_spec(store, SPEC, None)
    assert read_spec(store) == SPEC
    assert json.loads(store.get(0, layout.SPEC))["generation"] is None


def test_the_job_names_a_revision_folder_the_runner_parses() -> None:
    settings = JobSettings(
        runner_image="r", s3_bucket="bkt", s3_credentials_secret=None, s3_prefix="/runs/"
    )
    uri = revision_uri(settings, "ns", "wine", 3)
    assert uri == "s3://bkt/runs/ns/wine/revisions/0003/"
    assert layout.parse_revision_folder_uri(uri) == ("s3://bkt/runs/ns/wine", 3)
    assert layout.parse_revision_folder_uri(uri.rstrip("/")) == ("s3://bkt/runs/ns/wine", 3)
    assert layout.revision_folder_uri("s3://bkt/runs/ns/wine/", 3) == uri
    assert layout.parse_revision_folder_uri("s3://bkt/runs/ns/wine/") is None
    assert layout.parse_revision_folder_uri("s3://bkt/revisions/draft/") is None


def test_run_0_of_an_indexed_job_stores_what_a_single_run_stores(tmp_path: Path) -> None:
    single, indexed = LocalStore(tmp_path / "single"), LocalStore(tmp_path / "indexed")
    output = RunOutput(notebook("x = 1"), ran(), GOOD)
    store_execution(single, 0, [output])
    store_run(indexed, 0, 0, output)
    assert files(single.root) == files(indexed.root)
    for key in files(single.root):
        assert (single.root / key).read_bytes() == (indexed.root / key).read_bytes()
    store_run(indexed, 0, 1, RunOutput(notebook("x = 1"), ran(), None))
    assert read_json(indexed.root, "revisions/0000/execution-1.json") == read_json(
        single.root, "revisions/0000/execution.json"
    )
