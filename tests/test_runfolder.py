"""Run folders: the report a local run writes is rendered again from the folder; the operator's
report files are stored write-once beside the revisions; `pull_run` makes the same folder
from a store and a status."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from nbmodernizer.cli import main
from nbmodernizer.cluster.outputs import publish, published
from nbmodernizer.local import modernize_file
from nbmodernizer.pull import PullError, pull_run, store_prefix
from nbmodernizer.runfolder import (
    RunFolderError,
    put_beside,
    read_status,
    render_folder,
    uri_beside,
)
from nbmodernizer.status import ModernizationStatus
from nbmodernizer.store import RevisionExistsError
from nbmodernizer.store.layout import FINAL_NOTEBOOK, REPORT_HTML, REPORT_JSON
from nbmodernizer.store.revisions import LocalStore, S3Store
from testing.notebooks import PREDICT, READ, WRITE, kaggle_folder
from testing.s3server import (
    S3Bucket,
    s3_bucket_fixture,  # noqa: F401
)

pytestmark = pytest.mark.kernel
TOLERANCE = 0.1


def files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A local run with a fix (revision 1 from the rules): its run folder."""
    root = tmp_path_factory.mktemp("local")
    spec = kaggle_folder(
        root / "case", READ, "import numpy as np\nscale = np.float(1)", PREDICT, WRITE
    )
    result = modernize_file(spec, root / "run")
    assert result.status.outcome is not None and result.status.outcome.reproducible
    assert result.status.iterations == 2
    return result.out_dir


def upload(run: Path, bucket: S3Bucket, prefix: str) -> S3Store:
    """The run's revisions under an S3 prefix, as the operator's store holds them."""
    for path in sorted((run / "revisions").rglob("*")):
        if path.is_file():
            bucket.put(f"{prefix}/{path.relative_to(run).as_posix()}", path.read_bytes())
    return S3Store(bucket.uri(prefix))


def test_a_run_folder_renders_again_to_its_report(local_run: Path, tmp_path: Path) -> None:
    written = (local_run / REPORT_HTML).read_text(encoding="utf-8")
    assert render_folder(local_run, "tiny") == written
    assert main(["render", str(local_run), "--name", "tiny", "-o", str(tmp_path / "r.html")]) == 0
    assert (tmp_path / "r.html").read_text(encoding="utf-8") == written
    assert read_status(local_run).score is not None
    assert read_status(local_run).score.tolerance == TOLERANCE  # type: ignore[union-attr]


def test_a_folder_without_a_report_json_is_not_a_run_folder(tmp_path: Path) -> None:
    with pytest.raises(RunFolderError, match="not a run folder"):
        render_folder(tmp_path)
    assert main(["render", str(tmp_path)]) == 1


def test_files_beside_the_revisions_are_written_once(tmp_path: Path, s3_bucket: S3Bucket) -> None:
    for store in (LocalStore(tmp_path), S3Store(s3_bucket.uri("runs/x"))):
        uri = put_beside(store, REPORT_HTML, b"<p>one</p>")
        assert uri == uri_beside(store, REPORT_HTML) == f"{store.uri}/report.html"
        assert put_beside(store, REPORT_HTML, b"<p>one</p>") == uri  # the same bytes: a no-op
        with pytest.raises(RevisionExistsError):
            put_beside(store, REPORT_HTML, b"<p>two</p>")
    assert s3_bucket.read("runs/x/report.html") == b"<p>one</p>"


def test_publish_stores_the_local_runs_report_and_pull_makes_its_folder(
    local_run: Path, s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    store = upload(local_run, s3_bucket, "runs/team-a/tiny")
    status = read_status(local_run)
    published_status = publish(store, status, "tiny", TOLERANCE)
    prefix = s3_bucket.uri("runs/team-a/tiny")
    assert published_status.report == f"{prefix}/report.html"
    assert published_status.final_notebook == f"{prefix}/final.ipynb"
    # one renderer: the page the operator stores is the page the CLI wrote
    assert s3_bucket.read("runs/team-a/tiny/report.html") == (local_run / REPORT_HTML).read_bytes()
    assert (
        s3_bucket.read("runs/team-a/tiny/final.ipynb") == (local_run / FINAL_NOTEBOOK).read_bytes()
    )
    assert publish(store, status, "tiny", TOLERANCE) == published_status  # a restart repeats it
    wire = published_status.to_wire() | {"observedGeneration": 1, "conditions": []}
    assert published(wire) == f"report: {prefix}/report.html; final notebook: {prefix}/final.ipynb"
    assert store_prefix(wire) == prefix

    pulled = pull_run(wire, tmp_path / "pulled")
    assert files(tmp_path / "pulled") == files(local_run)  # the layout of `nbmod modernize`
    assert pulled.report and pulled.kept == 0
    assert json.loads((tmp_path / "pulled" / REPORT_JSON).read_text()) == wire
    assert render_folder(tmp_path / "pulled", "tiny") == (local_run / REPORT_HTML).read_text()
    again = pull_run(wire, tmp_path / "pulled")  # up to date: nothing downloaded
    assert again.downloaded == 0 and again.kept == pulled.downloaded


def test_a_stored_report_of_other_bytes_is_kept(local_run: Path, s3_bucket: S3Bucket) -> None:
    store = upload(local_run, s3_bucket, "runs/team-a/kept")
    s3_bucket.put("runs/team-a/kept/report.html", b"<p>an earlier operator's page</p>")
    status = publish(store, read_status(local_run), "tiny", TOLERANCE)
    assert status.report == s3_bucket.uri("runs/team-a/kept/report.html")
    assert s3_bucket.read("runs/team-a/kept/report.html") == b"<p>an earlier operator's page</p>"


def test_a_run_that_never_executed_publishes_nothing(tmp_path: Path) -> None:
    status = ModernizationStatus.model_validate({"phase": "Failed", "outcome": "Failed"})
    assert publish(LocalStore(tmp_path), status, "x", TOLERANCE) == status
    assert published(status.to_wire()) is None and not any(tmp_path.iterdir())


def test_pull_refuses_a_folder_of_another_run(
    local_run: Path, s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    store = upload(local_run, s3_bucket, "runs/team-a/other")
    wire: dict[str, Any] = publish(store, read_status(local_run), "tiny", TOLERANCE).to_wire()
    mine = tmp_path / "local"
    shutil.copytree(local_run, mine)
    with pytest.raises(PullError, match="holds another run"):
        pull_run(wire, mine)
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(PullError, match="not a run folder"):
        pull_run(wire, tmp_path / "busy")


def test_an_unfinished_run_pulls_its_revisions_so_far(
    local_run: Path, s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    upload(local_run, s3_bucket, "runs/team-a/running")
    prefix = s3_bucket.uri("runs/team-a/running")
    running = {
        "phase": "Fixing",
        "revisions": [{"iteration": 0, "uri": f"{prefix}/revisions/0000/notebook.ipynb"}],
    }
    pulled = pull_run(running, tmp_path / "pulled")
    assert not pulled.report
    assert files(tmp_path / "pulled") == {
        f for f in files(local_run) if f not in (REPORT_HTML, FINAL_NOTEBOOK)
    }
    with pytest.raises(RunFolderError, match="nothing to report"):  # no best revision yet
        render_folder(tmp_path / "pulled")
