"""`nbmod push`: a local spec's files go to S3 and the spec comes back with s3:// URIs."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from nbmodernizer.cli import main
from nbmodernizer.spec import parse_modernization
from testing.notebooks import kaggle_folder
from testing.s3server import S3Bucket, s3_bucket_fixture  # noqa: F401


def test_push_uploads_and_rewrites_the_spec(
    s3_bucket: S3Bucket, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = kaggle_folder(tmp_path / "case")
    assert main(["push", str(spec), "--to", s3_bucket.uri("fleet")]) == 0
    pushed = yaml.safe_load(capsys.readouterr().out)
    resource = parse_modernization(pushed)
    bucket = s3_bucket.name
    assert resource.spec.notebook == f"s3://{bucket}/fleet/tiny/notebook.ipynb"
    assert resource.spec.inputs == f"s3://{bucket}/fleet/tiny/input/"
    assert resource.spec.score.answers == f"s3://{bucket}/fleet/tiny/answers/answers.csv"
    assert resource.spec.score.target == 1.0 and resource.spec.fix.max_iterations == 3
    assert s3_bucket.keys() == [
        "fleet/tiny/answers/answers.csv",
        "fleet/tiny/input/test.csv",
        "fleet/tiny/notebook.ipynb",
    ]
    assert (
        s3_bucket.read("fleet/tiny/notebook.ipynb")
        == (tmp_path / "case/notebook.ipynb").read_bytes()
    )
    # pushing again is a no-op; pushing a changed file is refused and changes nothing
    assert main(["push", str(spec), "--to", s3_bucket.uri("fleet")]) == 0
    capsys.readouterr()
    (tmp_path / "case" / "answers.csv").write_text("id,y\n1,0\n")
    assert main(["push", str(spec), "--to", s3_bucket.uri("fleet")]) == 2
    assert "exists with other content" in capsys.readouterr().err
    assert s3_bucket.read("fleet/tiny/answers/answers.csv") == b"id,y\n1,1\n2,0\n3,1\n4,0\n"


def test_push_names_the_missing_file(
    s3_bucket: S3Bucket, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = kaggle_folder(tmp_path / "case")
    (tmp_path / "case" / "answers.csv").unlink()
    assert main(["push", str(spec), "--to", s3_bucket.uri("fleet")]) == 2
    assert "spec.score.answers: file not found" in capsys.readouterr().err
