"""Errors no code change can repair are the environment's: the loop says what is missing and
pays no LLM for it (issue: half the real first errors are missing inputs, downloads and
broken packages, corpus/census.csv)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nbmodernizer import metrics
from nbmodernizer.cli import main
from nbmodernizer.diagnose import diagnose
from nbmodernizer.loop import Executed, Finish, NotFixed, RequestFix, start, step
from nbmodernizer.status import (
    CellError,
    EnvironmentKind,
    ExecutionResult,
    ExecutionStatus,
    InputFile,
    Issue,
)
from testing.factories import scored
from testing.llm_server import scripted_llm
from testing.notebooks import PREDICT, READ, WRITE, kaggle_folder

INPUTS = [InputFile(path="train.csv", size_bytes=10), InputFile(path="test.csv", size_bytes=10)]


def failed(
    ename: str, evalue: str, inputs: list[InputFile] = INPUTS, total: int = 2
) -> ExecutionResult:
    return ExecutionResult(
        status=ExecutionStatus.COMPLETED,
        duration_seconds=1.0,
        cells_total=3,
        cells_executed=3,
        cell_errors=[CellError(cell_index=2, ename=ename, evalue=evalue)],
        inputs=inputs,
        inputs_total=total,
    )


MISSING = "[Errno 2] No such file or directory: '../input/glove-twitter/glove.27B.200d.txt'"


@pytest.mark.parametrize(
    "evalue",
    [
        MISSING,
        "[Errno 2] No such file or directory: '/kaggle/input/glove-twitter/glove.27B.200d.txt'",
        # where the kernel mapped /kaggle/input to the real folder (a laptop)
        "[Errno 2] No such file or directory: "
        "'/tmp/nbmod-run-x/run/input/glove-twitter/glove.27B.200d.txt'",
    ],
)
def test_a_file_the_inputs_do_not_have_is_a_missing_input(evalue: str) -> None:
    diagnosis = diagnose(failed("FileNotFoundError", evalue), scored(None))
    assert diagnosis.issue is Issue.ERROR and diagnosis.environment is EnvironmentKind.MISSING_INPUT
    assert diagnosis.detail == (
        "cell 2: missing input: ../input/glove-twitter/glove.27B.200d.txt is not among the "
        "inputs (spec.inputs has 2 file(s): train.csv, test.csv)"
    )


def test_a_file_the_inputs_have_elsewhere_is_for_the_fixers() -> None:
    nested = [InputFile(path="competition/train.csv", size_bytes=10)]
    evalue = "[Errno 2] No such file or directory: '../input/train.csv'"
    assert (
        diagnose(failed("FileNotFoundError", evalue, nested, 1), scored(None)).environment is None
    )


@pytest.mark.parametrize(
    ("missing", "present"),
    [
        # census: spooky-author-identification, denoising-dirty-documents, icecube (real rows)
        ("spooky-author-identification/sample_submission.zip", "sample_submission.csv"),
        ("denoising-dirty-documents/train.zip", "train/101.png"),
        ("icecube-neutrinos-in-deep-ice/sample_submission.parquet", "sample_submission.csv"),
    ],
)
def test_a_file_the_inputs_have_in_another_form_is_for_the_fixers(
    missing: str, present: str
) -> None:
    """Unpacked or converted by whoever prepared the data: the code can read that instead."""
    folder = missing.split("/")[0]
    inputs = [InputFile(path=f"{folder}/{present}", size_bytes=10)]
    evalue = f"[Errno 2] No such file or directory: '/kaggle/input/{missing}'"
    diagnosis = diagnose(failed("FileNotFoundError", evalue, inputs, 1), scored(None))
    assert diagnosis.issue is Issue.ERROR and diagnosis.environment is None


def test_a_file_of_another_name_is_still_missing() -> None:
    """`train_5folds.csv` is not `train.csv` in another form: another kernel's output."""
    inputs = [InputFile(path="lmsys-chatbot-arena/train.csv", size_bytes=10)]
    evalue = "[Errno 2] No such file or directory: '/kaggle/input/folds-lmsys/train_5folds.csv'"
    diagnosis = diagnose(failed("FileNotFoundError", evalue, inputs, 1), scored(None))
    assert diagnosis.environment is EnvironmentKind.MISSING_INPUT


def test_inputs_listed_in_part_cannot_tell() -> None:
    assert (
        diagnose(failed("FileNotFoundError", MISSING, total=500), scored(None)).environment is None
    )


def test_a_missing_file_outside_the_inputs_is_the_notebooks() -> None:
    evalue = "[Errno 2] No such file or directory: 'submission/sub.csv'"
    assert diagnose(failed("FileNotFoundError", evalue), scored(None)).environment is None


def test_a_download_is_the_network() -> None:
    evalue = (
        "HTTPSConnectionPool(host='storage.googleapis.com', port=443): Max retries exceeded "
        "(Caused by NewConnectionError: Failed to establish a new connection)"
    )
    diagnosis = diagnose(failed("ConnectionError", evalue), scored(None))
    assert diagnosis.environment is EnvironmentKind.NETWORK
    assert diagnosis.detail == (
        "cell 2: the notebook downloads from storage.googleapis.com (ConnectionError); "
        "runs have no network"
    )
    urlopen = "<urlopen error [Errno -3] Temporary failure in name resolution>"
    assert (
        diagnose(failed("URLError", urlopen), scored(None)).environment is EnvironmentKind.NETWORK
    )


def test_kaggles_own_service_is_the_network() -> None:
    """census: plant-pathology-2020-fgvc7, KaggleDatasets().get_gcs_path() outside Kaggle."""
    evalue = (
        "Unexpected response from the service. Response: {'errors': ['Unauthenticated'], "
        "'error': {'code': 16}, 'wasSuccessful': False}."
    )
    diagnosis = diagnose(failed("BackendError", evalue), scored(None))
    assert diagnosis.environment is EnvironmentKind.NETWORK
    assert "Kaggle's service" in diagnosis.detail
    other = "Unexpected response from the service. Response: {'errors': ['quota']}"
    assert diagnose(failed("BackendError", other), scored(None)).environment is None


@pytest.mark.parametrize(
    ("ename", "evalue"),
    [
        ("AttributeError", "'MessageFactory' object has no attribute 'GetPrototype'"),
        ("ImportError", "cannot import name '_message' from 'google.protobuf.pyext' (/usr/x)"),
    ],
)
def test_a_protobuf_that_does_not_match_tensorflow_is_a_broken_package(
    ename: str, evalue: str
) -> None:
    diagnosis = diagnose(failed(ename, evalue), scored(None))
    assert diagnosis.environment is EnvironmentKind.BROKEN_PACKAGE
    assert "protobuf in the image does not match TensorFlow" in diagnosis.detail


def test_ordinary_drift_is_not_the_environments() -> None:
    drift = failed("AttributeError", "'DataFrame' object has no attribute 'ix'")
    assert diagnose(drift, scored(None)).environment is None


def test_a_run_that_ends_on_it_is_counted_by_kind() -> None:
    counter = metrics.ENVIRONMENT_FAILURES.labels(EnvironmentKind.MISSING_INPUT.value)
    before = counter._value.get()
    execution = failed("FileNotFoundError", MISSING)
    state, _ = start(1)
    state, _ = step(state, Executed(0, execution, scored(None)))
    metrics.observe_finish(state)
    assert counter._value.get() == before + 1


def test_the_stop_reason_names_what_the_environment_lacks_when_no_fixer_can_help() -> None:
    state, _ = start(4)
    state, action = step(state, Executed(0, failed("FileNotFoundError", MISSING), scored(None)))
    assert isinstance(action, RequestFix)
    _, finish = step(state, NotFixed("rules: no rule applies"))
    assert isinstance(finish, Finish)
    assert finish.reason.startswith(
        "the environment lacks what the notebook needs (missing-input): cell 2: missing input: "
    )
    assert finish.reason.endswith("; no fixer changed the notebook: rules: no rule applies")


def stops_at_once_without_llm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cell: str) -> str:
    """Modernizes a Kaggle folder whose second cell is `cell` with fixers [rules, llm] against
    the tests' LLM server, on a real kernel; asserts no request came and the run stopped after
    one execution with the error kept (the cell is never used for the predictions) and no
    cost; returns the stop reason."""
    spec = kaggle_folder(
        tmp_path / "case",
        READ,
        cell,
        PREDICT,
        WRITE,
        fix={"fixers": ["rules", "llm"], "llm": {"model": "test-model"}},
    )
    with scripted_llm() as llm:  # any request would get an error: none may come
        monkeypatch.setenv("OPENAI_BASE_URL", llm.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        code = main(["modernize", str(spec), "--out", str(tmp_path / "out")])
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert llm.requests == []
    assert code == 0 and report["outcome"] == "ErrorReproducible" and report["iterations"] == 1
    assert "llm: not asked" in report["stopReason"]
    assert report["cost"]["usd"] == 0
    return str(report["stopReason"])


@pytest.mark.kernel
def test_the_loop_stops_at_once_naming_the_missing_input_and_pays_no_llm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embeddings = "emb = open('../input/glove-twitter/glove.27B.200d.txt').read()"
    reason = stops_at_once_without_llm(tmp_path, monkeypatch, embeddings)
    assert "missing input: ../input/glove-twitter/glove.27B.200d.txt" in reason
