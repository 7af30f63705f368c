"""Where the spec's files come from: local paths and s3:// URIs on a real S3-protocol server."""

from __future__ import annotations

from pathlib import Path

import pytest

from nbmodernizer.store import StoreError
from nbmodernizer.store.s3 import (
    fetch_dir,
    fetch_file,
    head_s3,
    is_s3,
    local_path,
    read_bytes,
    read_s3,
    read_s3_at_most,
)
from testing.s3server import S3Bucket, s3_bucket_fixture  # noqa: F401

BINARY = b"\x00\xff\xfe\x80 not utf-8 \xc3\x28"


def test_is_s3_and_local_path(tmp_path: Path) -> None:
    assert is_s3("s3://bucket/key")
    assert not is_s3("data/s3://x")
    assert local_path("data/train.csv", tmp_path) == tmp_path / "data" / "train.csv"
    assert local_path(str(tmp_path / "abs.csv"), Path("/elsewhere")) == tmp_path / "abs.csv"


def test_read_bytes_of_a_path_relative_to_the_base(tmp_path: Path, monkeypatch) -> None:
    base = tmp_path / "spec"
    (base / "data").mkdir(parents=True)
    (base / "data" / "train.csv").write_bytes(BINARY)
    # Relative to `base`, not to the working directory.
    monkeypatch.chdir(tmp_path)
    assert read_bytes("data/train.csv", base) == BINARY
    with pytest.raises(FileNotFoundError):
        read_bytes("train.csv", base)


def test_read_bytes_of_an_absolute_path(tmp_path: Path) -> None:
    target = tmp_path / "abs" / "notebook.ipynb"
    target.parent.mkdir()
    target.write_bytes(BINARY)
    assert read_bytes(str(target), tmp_path / "unrelated") == BINARY


def test_read_bytes_of_a_missing_local_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_bytes("missing.csv", tmp_path)
    with pytest.raises(FileNotFoundError):
        read_bytes(str(tmp_path / "missing.csv"), tmp_path)


def test_read_bytes_of_an_s3_uri(s3_bucket: S3Bucket, tmp_path: Path) -> None:
    s3_bucket.put("inputs/data/train.csv", BINARY)
    assert read_bytes(s3_bucket.uri("inputs/data/train.csv"), tmp_path) == BINARY


def test_read_bytes_of_a_missing_s3_key(s3_bucket: S3Bucket, tmp_path: Path) -> None:
    s3_bucket.put("inputs/data/train.csv", BINARY)
    with pytest.raises(FileNotFoundError, match=r"inputs/data/test\.csv"):
        read_bytes(s3_bucket.uri("inputs/data/test.csv"), tmp_path)


def test_read_bytes_of_a_missing_s3_bucket(s3_bucket: S3Bucket, tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="missing"):
        read_bytes(f"s3://{s3_bucket.name}-missing/key", tmp_path)


def test_the_readers_agree_on_a_missing_object_and_a_missing_bucket(s3_bucket: S3Bucket) -> None:
    client, bucket = s3_bucket.client, s3_bucket.name
    s3_bucket.put("there.csv", BINARY)
    assert head_s3(client, bucket, "there.csv")
    assert read_s3_at_most(client, bucket, "there.csv", 4) == len(BINARY)
    assert not head_s3(client, bucket, "absent.csv")  # HEAD's 404 has no code but the status
    assert read_s3_at_most(client, bucket, "absent.csv", 4) is None
    with pytest.raises(FileNotFoundError, match=r"absent\.csv"):
        read_s3(client, bucket, "absent.csv")
    # GET names a missing bucket (NoSuchBucket); HEAD cannot tell it from a missing key
    with pytest.raises(StoreError, match=rf"s3://{bucket}-missing/key"):
        read_s3(client, f"{bucket}-missing", "key")
    with pytest.raises(StoreError, match=rf"s3://{bucket}-missing/key"):
        read_s3_at_most(client, f"{bucket}-missing", "key", 4)


def test_fetch_file_of_a_local_path_is_the_path_itself(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    assert fetch_file("data/x.csv", tmp_path, scratch) == tmp_path / "data" / "x.csv"
    assert not scratch.exists()


def test_fetch_file_of_an_s3_uri_downloads_into_scratch(
    s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    s3_bucket.put("inputs/nb/legacy.ipynb", BINARY)
    scratch = tmp_path / "scratch"
    path = fetch_file(s3_bucket.uri("inputs/nb/legacy.ipynb"), tmp_path, scratch)
    assert path == scratch / "legacy.ipynb"
    assert path.read_bytes() == BINARY
    with pytest.raises(FileNotFoundError):
        fetch_file(s3_bucket.uri("inputs/nb/other.ipynb"), tmp_path, scratch)


def test_fetch_dir_of_an_s3_prefix_downloads_nested_keys(
    s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    files = {
        "train.csv": b"a,b\n1,2\n",
        "images/cat.png": BINARY,
        "images/deep/er/dog.png": b"dog",
    }
    for relative, data in files.items():
        s3_bucket.put(f"inputs/data/{relative}", data)
    # Neighbours that must not come along: a sibling prefix and the parent folder.
    s3_bucket.put("inputs/data2/other.csv", b"no")
    s3_bucket.put("inputs/readme.txt", b"no")
    scratch = tmp_path / "scratch" / "data"

    for ref in (s3_bucket.uri("inputs/data"), s3_bucket.uri("inputs/data/")):
        folder = fetch_dir(ref, tmp_path, scratch)
        assert folder == scratch
        found = {
            p.relative_to(folder).as_posix(): p.read_bytes()
            for p in folder.rglob("*")
            if p.is_file()
        }
        assert found == files


def test_fetch_dir_of_a_whole_bucket(s3_bucket: S3Bucket, tmp_path: Path) -> None:
    s3_bucket.put("a.txt", b"a")
    s3_bucket.put("sub/b.txt", b"b")
    folder = fetch_dir(s3_bucket.uri(), tmp_path, tmp_path / "scratch")
    assert (folder / "a.txt").read_bytes() == b"a"
    assert (folder / "sub" / "b.txt").read_bytes() == b"b"


def test_fetch_dir_of_an_empty_s3_prefix(s3_bucket: S3Bucket, tmp_path: Path) -> None:
    s3_bucket.put("inputs/data/train.csv", b"x")
    with pytest.raises(FileNotFoundError, match="inputs/nothing"):
        fetch_dir(s3_bucket.uri("inputs/nothing"), tmp_path, tmp_path / "scratch")
    # A prefix that only matches part of a key's name is not a folder.
    with pytest.raises(FileNotFoundError):
        fetch_dir(s3_bucket.uri("inputs/da"), tmp_path, tmp_path / "scratch")


def test_fetch_dir_of_an_empty_bucket(s3_bucket: S3Bucket, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        fetch_dir(s3_bucket.uri(), tmp_path, tmp_path / "scratch")


def test_fetch_dir_of_a_local_folder_is_the_folder_itself(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    scratch = tmp_path / "scratch"
    assert fetch_dir("data", tmp_path, scratch) == tmp_path / "data"
    assert fetch_dir(str(tmp_path / "data"), Path("/elsewhere"), scratch) == tmp_path / "data"
    assert not scratch.exists()


def test_fetch_dir_of_a_local_file_or_missing_path(tmp_path: Path) -> None:
    (tmp_path / "train.csv").write_bytes(b"x")
    with pytest.raises(FileNotFoundError, match="not a directory"):
        fetch_dir("train.csv", tmp_path, tmp_path / "scratch")
    with pytest.raises(FileNotFoundError):
        fetch_dir("missing", tmp_path, tmp_path / "scratch")


def test_fetch_dir_refuses_keys_that_escape_the_scratch_dir(
    s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    s3_bucket.put("inputs/data/../../escape.txt", b"evil")
    scratch = tmp_path / "scratch" / "data"
    with pytest.raises(StoreError, match="outside"):
        fetch_dir(s3_bucket.uri("inputs/data"), tmp_path, scratch)
    assert not (tmp_path / "escape.txt").exists()
    assert not (tmp_path / "scratch" / "escape.txt").exists()
