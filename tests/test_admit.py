"""Admission, the same for both drivers: local paths relative to the spec file (the CLI), s3://
URIs only (the operator, `base` None); every error names the field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from nbmodernizer.admit import InvalidInputError, admit, keep_original
from nbmodernizer.spec import ModernizationSpec, load_spec_file
from nbmodernizer.store import StoreError
from nbmodernizer.store.layout import NOTEBOOK
from nbmodernizer.store.revisions import LocalStore
from testing.notebooks import kaggle_folder, nbformat3
from testing.s3server import S3Bucket, closed_port_url, s3_bucket_fixture, use_endpoint  # noqa: F401


@pytest.fixture
def case(tmp_path: Path) -> Path:
    """A spec folder: notebook.ipynb, input/, answers.csv, spec.yaml."""
    return kaggle_folder(tmp_path / "case").parent


def spec_of(case: Path, **changes: object) -> ModernizationSpec:
    spec = load_spec_file(case / "spec.yaml")[0].spec
    return spec.model_validate({**spec.to_wire(), **changes})


def refused(spec: ModernizationSpec, base: Path | None, store: LocalStore) -> str:
    with pytest.raises(InvalidInputError) as caught:
        admit(spec, base, store, store.root.parent / "scratch")
    return str(caught.value)


# -- the local CLI ----------------------------------------------------------------------------


def test_a_local_run_is_admitted_and_revision_0_kept(case: Path, tmp_path: Path) -> None:
    store = LocalStore(tmp_path / "out")
    admitted = admit(spec_of(case), case, store, tmp_path / "scratch")
    assert store.get(0, NOTEBOOK) == (case / "notebook.ipynb").read_bytes()
    assert admitted.inputs == case / "input"
    assert admitted.answers.targets == ("y",) and len(admitted.answers) == 4
    assert admitted.notes == []


def test_a_missing_notebook(case: Path, tmp_path: Path) -> None:
    (case / "notebook.ipynb").unlink()
    store = LocalStore(tmp_path / "out")
    assert refused(spec_of(case), case, store) == "spec.notebook: file not found: notebook.ipynb"
    assert store.revisions() == []
    (case / "notebook.ipynb").mkdir()
    assert refused(spec_of(case), case, store) == "spec.notebook: file not found: notebook.ipynb"


def test_an_unreadable_notebook_is_kept_as_revision_0(case: Path, tmp_path: Path) -> None:
    (case / "notebook.ipynb").write_bytes(b"{not json")
    store = LocalStore(tmp_path / "out")
    assert refused(spec_of(case), case, store).startswith("spec.notebook: not valid JSON: ")
    assert store.get(0, NOTEBOOK) == b"{not json"


def test_an_old_notebook_is_noted(case: Path, tmp_path: Path) -> None:
    (case / "notebook.ipynb").write_text(nbformat3("x = 1"))
    admitted = admit(spec_of(case), case, LocalStore(tmp_path / "out"), tmp_path / "scratch")
    assert admitted.notes == ["upgraded from nbformat 3 to 4"]


def test_answers_that_cannot_be_used(case: Path, tmp_path: Path) -> None:
    (case / "answers.csv").unlink()
    store = LocalStore(tmp_path / "out")
    assert refused(spec_of(case), case, store) == "spec.score.answers: file not found: answers.csv"
    (case / "answers.csv").write_text("Id,y\n1,1\n")
    message = refused(spec_of(case), case, store)
    assert message.startswith("spec.score.answers: answers file ")
    assert "no id column 'id'" in message and message.endswith("set spec.score.idColumn")


def test_inputs(case: Path, tmp_path: Path) -> None:
    shutil.rmtree(case / "input")
    assert refused(spec_of(case), case, LocalStore(tmp_path / "out")) == (
        f"spec.inputs: {case / 'input'} is not a directory"
    )
    spec = spec_of(case, inputs=None)
    admitted = admit(spec, case, LocalStore(tmp_path / "out2"), tmp_path / "scratch")
    assert admitted.inputs is None


def test_a_local_run_reads_s3_uris_too(case: Path, tmp_path: Path, s3_bucket: S3Bucket) -> None:
    s3_bucket.put("fleet/notebook.ipynb", (case / "notebook.ipynb").read_bytes())
    s3_bucket.put("fleet/answers.csv", (case / "answers.csv").read_bytes())
    s3_bucket.put("fleet/input/test.csv", b"id,x\n1,0.5\n")
    spec = spec_of(
        case,
        notebook=s3_bucket.uri("fleet/notebook.ipynb"),
        inputs=s3_bucket.uri("fleet/input/"),
        score={**spec_of(case).score.to_wire(), "answers": s3_bucket.uri("fleet/answers.csv")},
    )
    admitted = admit(spec, Path("/elsewhere"), LocalStore(tmp_path / "out"), tmp_path / "scratch")
    assert admitted.inputs == tmp_path / "scratch" / "input"
    assert (admitted.inputs / "test.csv").read_bytes() == b"id,x\n1,0.5\n"
    assert len(admitted.answers) == 4
    with pytest.raises(ValueError, match="scratch"):
        admit(spec, Path("/elsewhere"), LocalStore(tmp_path / "out"))


def test_an_unreachable_s3_names_the_field(
    case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_endpoint(monkeypatch, closed_port_url())
    spec = spec_of(case, notebook="s3://bucket/notebook.ipynb")
    with pytest.raises(StoreError, match=r"^spec\.notebook: cannot reach S3"):
        admit(spec, case, LocalStore(tmp_path / "out"), tmp_path / "scratch")


# -- the operator: s3:// URIs only --------------------------------------------------------------


def pushed(case: Path, bucket: S3Bucket) -> ModernizationSpec:
    bucket.put("tiny/notebook.ipynb", (case / "notebook.ipynb").read_bytes())
    bucket.put("tiny/answers.csv", (case / "answers.csv").read_bytes())
    score = {**spec_of(case).score.to_wire(), "answers": bucket.uri("tiny/answers.csv")}
    notebook, inputs = bucket.uri("tiny/notebook.ipynb"), bucket.uri("tiny/input/")
    return spec_of(case, notebook=notebook, inputs=inputs, score=score)


def test_in_a_cluster_every_file_is_an_s3_uri(case: Path, tmp_path: Path) -> None:
    store = LocalStore(tmp_path / "out")
    spec = spec_of(case)
    assert refused(spec, None, store) == (
        "spec.notebook: in a cluster it must be an s3:// URI: 'notebook.ipynb'"
    )
    spec = spec_of(case, notebook="s3://b/notebook.ipynb")
    assert refused(spec, None, store) == (
        "spec.score.answers: in a cluster it must be an s3:// URI: 'answers.csv'"
    )
    score = {**spec.score.to_wire(), "answers": "s3://b/answers.csv"}
    assert refused(spec_of(case, notebook="s3://b/n.ipynb", score=score), None, store) == (
        "spec.inputs: in a cluster it must be an s3:// URI (or use "
        "execution.inputsVolumeClaim): 'input'"
    )
    assert store.revisions() == []  # nothing was read or kept


def test_in_a_cluster_the_inputs_are_left_to_the_jobs(
    case: Path, tmp_path: Path, s3_bucket: S3Bucket
) -> None:
    spec = pushed(case, s3_bucket)  # no object under tiny/input/: the Job would fail on it
    store = LocalStore(tmp_path / "out")
    admitted = admit(spec, None, store)
    assert admitted.inputs is None and len(admitted.answers) == 4
    assert store.get(0, NOTEBOOK) == (case / "notebook.ipynb").read_bytes()
    claim = {**spec.execution.to_wire(), "inputsVolumeClaim": {"claimName": "kaggle"}}
    on_a_claim = spec.model_copy(update={"inputs": "input"})
    with pytest.raises(InvalidInputError, match="inputsVolumeClaim"):
        admit(on_a_claim, None, store)
    on_a_claim = spec_of(case, **{**on_a_claim.to_wire(), "execution": claim})
    assert admit(on_a_claim, None, store).inputs is None


def test_in_a_cluster_revision_0_is_read_once(
    case: Path, tmp_path: Path, s3_bucket: S3Bucket
) -> None:
    spec = pushed(case, s3_bucket)
    store = LocalStore(tmp_path / "out")
    admit(spec, None, store)
    s3_bucket.client.delete_object(Bucket=s3_bucket.name, Key="tiny/notebook.ipynb")
    assert keep_original(spec.notebook, None, store) == (case / "notebook.ipynb").read_bytes()
    fresh = LocalStore(tmp_path / "fresh")
    assert refused(spec, None, fresh) == f"spec.notebook: file not found: {spec.notebook}"


def test_in_a_cluster_missing_answers(case: Path, tmp_path: Path, s3_bucket: S3Bucket) -> None:
    spec = pushed(case, s3_bucket)
    s3_bucket.client.delete_object(Bucket=s3_bucket.name, Key="tiny/answers.csv")
    assert refused(spec, None, LocalStore(tmp_path / "out")) == (
        f"spec.score.answers: file not found: {spec.score.answers}"
    )
