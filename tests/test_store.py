"""The revision store, on a local folder and on a real S3-protocol server (moto's server mode)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from nbmodernizer.store import RevisionExistsError, StoreError
from nbmodernizer.store.layout import NOTEBOOK, RESULT
from nbmodernizer.store.revisions import LocalStore, RevisionStore, S3Store, open_store
from testing.s3server import (
    S3Bucket,
    closed_port_url,
    s3_bucket_fixture,  # noqa: F401
    use_endpoint,
)

# Every byte value, invalid UTF-8 and a NUL among them: the store must not decode anything.
BINARY = bytes(range(256)) + b"\xff\xfe\x00\xc3\x28" + "naïve ✓".encode()

PREFIX = "some/prefix"


@dataclass
class Backend:
    store: RevisionStore
    # Writes `data` at `key` under the store's root, bypassing the store.
    write_raw: Callable[[str, bytes], None]
    # Reads the bytes at `key` under the store's root, bypassing the store.
    read_raw: Callable[[str], bytes]
    # The URI of `key` under the store's root.
    uri_of_key: Callable[[str], str]


def local_backend(root: Path) -> Backend:
    def write_raw(key: str, data: bytes) -> None:
        path = root / key
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

    return Backend(
        store=LocalStore(root),
        write_raw=write_raw,
        read_raw=lambda key: (root / key).read_bytes(),
        uri_of_key=lambda key: (root.resolve() / key).as_uri(),
    )


def s3_backend(bucket: S3Bucket, prefix: str) -> Backend:
    def full(key: str) -> str:
        return f"{prefix}/{key}" if prefix else key

    return Backend(
        store=S3Store(bucket.uri(prefix)),
        write_raw=lambda key, data: bucket.put(full(key), data),
        read_raw=lambda key: bucket.read(full(key)),
        uri_of_key=lambda key: f"s3://{bucket.name}/{full(key)}",
    )


@pytest.fixture(params=["local", "s3", "s3-no-prefix"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "local":
        return local_backend(tmp_path / "store")
    bucket: S3Bucket = request.getfixturevalue("s3_bucket")
    return s3_backend(bucket, PREFIX if request.param == "s3" else "")


def test_put_then_get_round_trips_bytes_exactly(backend: Backend) -> None:
    uri = backend.store.put(3, NOTEBOOK, BINARY)
    assert backend.store.get(3, NOTEBOOK) == BINARY
    assert backend.read_raw("revisions/0003/notebook.ipynb") == BINARY
    assert uri == backend.store.uri_of(3, NOTEBOOK)
    backend.store.put(3, RESULT, b"")
    assert backend.store.get(3, RESULT) == b""


def test_uri_of_names_the_revision_file(backend: Backend) -> None:
    expected = backend.uri_of_key("revisions/0003/notebook.ipynb")
    assert backend.store.uri_of(3) == expected
    assert backend.store.uri_of(3, NOTEBOOK) == expected
    assert backend.store.uri_of(12, RESULT) == backend.uri_of_key("revisions/0012/result.json")


def test_uri_of_forms() -> None:
    assert S3Store("s3://bkt/some/prefix", client=object()).uri_of(3) == (
        "s3://bkt/some/prefix/revisions/0003/notebook.ipynb"
    )
    assert S3Store("s3://bkt/some/prefix/", client=object()).uri_of(3) == (
        "s3://bkt/some/prefix/revisions/0003/notebook.ipynb"
    )
    assert S3Store("s3://bkt", client=object()).uri_of(3) == (
        "s3://bkt/revisions/0003/notebook.ipynb"
    )
    assert S3Store("s3://bkt/", client=object()).uri_of(7, RESULT) == (
        "s3://bkt/revisions/0007/result.json"
    )


def test_local_uri_of_is_a_file_uri(tmp_path: Path) -> None:
    uri = LocalStore(tmp_path).uri_of(3)
    assert uri.startswith("file:///")
    assert uri.endswith("/revisions/0003/notebook.ipynb")
    assert uri == (tmp_path.resolve() / "revisions" / "0003" / "notebook.ipynb").as_uri()


def test_put_of_identical_bytes_twice_is_a_no_op(backend: Backend) -> None:
    first = backend.store.put(1, NOTEBOOK, BINARY)
    second = backend.store.put(1, NOTEBOOK, BINARY)
    assert first == second
    assert backend.store.get(1, NOTEBOOK) == BINARY


def test_put_of_other_bytes_raises_and_keeps_the_original(backend: Backend) -> None:
    backend.store.put(2, NOTEBOOK, b"original")
    with pytest.raises(RevisionExistsError, match=r"0002/notebook\.ipynb"):
        backend.store.put(2, NOTEBOOK, b"overwritten")
    with pytest.raises(RevisionExistsError):
        backend.store.put(2, NOTEBOOK, b"")
    assert backend.store.get(2, NOTEBOOK) == b"original"
    assert backend.read_raw("revisions/0002/notebook.ipynb") == b"original"


def test_put_does_not_clobber_a_file_written_behind_its_back(backend: Backend) -> None:
    backend.write_raw("revisions/0004/result.json", b'{"score": 1}')
    with pytest.raises(RevisionExistsError):
        backend.store.put(4, RESULT, b'{"score": 2}')
    assert backend.read_raw("revisions/0004/result.json") == b'{"score": 1}'


def test_exists(backend: Backend) -> None:
    assert not backend.store.exists(0, NOTEBOOK)
    backend.store.put(0, NOTEBOOK, b"x")
    assert backend.store.exists(0, NOTEBOOK)
    assert not backend.store.exists(0, RESULT)
    assert not backend.store.exists(1, NOTEBOOK)


def test_get_of_a_missing_file_raises_file_not_found(backend: Backend) -> None:
    with pytest.raises(FileNotFoundError):
        backend.store.get(5, NOTEBOOK)


def test_revisions_lists_the_numbers_with_files_sorted(backend: Backend) -> None:
    assert backend.store.revisions() == []
    for revision in (10, 2, 0):
        backend.store.put(revision, NOTEBOOK, b"nb")
    backend.store.put(2, RESULT, b"{}")
    # Keys that are not revision folders are ignored.
    backend.write_raw("revisions/notes.txt", b"n")
    backend.write_raw("revisions/draft/notebook.ipynb", b"d")
    backend.write_raw("other/0007/notebook.ipynb", b"o")
    backend.write_raw("revisions0009/notebook.ipynb", b"o")
    assert backend.store.revisions() == [0, 2, 10]


def test_s3_revisions_ignore_keys_outside_the_prefix(s3_bucket: S3Bucket) -> None:
    store = S3Store(s3_bucket.uri(PREFIX))
    store.put(1, NOTEBOOK, b"nb")
    s3_bucket.put("revisions/0005/notebook.ipynb", b"root")
    s3_bucket.put(f"{PREFIX}2/revisions/0006/notebook.ipynb", b"sibling")
    s3_bucket.put("some/revisions/0008/notebook.ipynb", b"parent")
    assert store.revisions() == [1]
    assert not store.exists(5, NOTEBOOK)


def test_s3_store_writes_the_keys_it_names(s3_bucket: S3Bucket) -> None:
    S3Store(s3_bucket.uri(PREFIX)).put(3, NOTEBOOK, b"a")
    S3Store(s3_bucket.uri()).put(3, NOTEBOOK, b"b")
    S3Store(f"s3://{s3_bucket.name}").put(4, RESULT, b"c")
    assert s3_bucket.keys() == [
        "revisions/0003/notebook.ipynb",
        "revisions/0004/result.json",
        f"{PREFIX}/revisions/0003/notebook.ipynb",
    ]
    assert s3_bucket.read("revisions/0003/notebook.ipynb") == b"b"
    assert s3_bucket.read(f"{PREFIX}/revisions/0003/notebook.ipynb") == b"a"


def test_s3_server_honours_if_none_match(s3_bucket: S3Bucket) -> None:
    """The store relies on the server refusing a conditional write over an existing key."""
    from botocore.exceptions import ClientError

    s3_bucket.put("k", b"one")
    with pytest.raises(ClientError) as caught:
        s3_bucket.client.put_object(Bucket=s3_bucket.name, Key="k", Body=b"two", IfNoneMatch="*")
    assert caught.value.response["Error"]["Code"] == "PreconditionFailed"
    assert s3_bucket.read("k") == b"one"


def test_s3_store_on_a_missing_bucket_raises_store_error(s3_bucket: S3Bucket) -> None:
    store = S3Store(f"s3://{s3_bucket.name}-missing/{PREFIX}")
    with pytest.raises(StoreError, match="missing"):
        store.put(0, NOTEBOOK, b"x")
    with pytest.raises(StoreError, match="missing"):
        store.get(0, NOTEBOOK)


def test_open_store_picks_the_backend(s3_bucket: S3Bucket, tmp_path: Path) -> None:
    s3_store = open_store(s3_bucket.uri(PREFIX))
    assert isinstance(s3_store, S3Store)
    assert (s3_store.bucket, s3_store.prefix) == (s3_bucket.name, PREFIX)
    s3_store.put(1, NOTEBOOK, b"via open_store")
    assert s3_bucket.read(f"{PREFIX}/revisions/0001/notebook.ipynb") == b"via open_store"

    local = open_store(str(tmp_path / "runs"))
    assert isinstance(local, LocalStore)
    assert local.root == (tmp_path / "runs").resolve()
    local.put(1, NOTEBOOK, b"local")
    assert (tmp_path / "runs" / "revisions" / "0001" / "notebook.ipynb").read_bytes() == b"local"


def test_s3_store_on_an_unreachable_endpoint_raises_store_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    use_endpoint(monkeypatch, closed_port_url())
    store = S3Store(f"s3://bucket/{PREFIX}")
    started = time.monotonic()
    with pytest.raises(StoreError, match=r"s3://bucket/some/prefix/revisions/0000/notebook\.ipynb"):
        store.put(0, NOTEBOOK, b"x")
    with pytest.raises(StoreError, match="cannot reach S3"):
        store.get(0, NOTEBOOK)
    with pytest.raises(StoreError, match="cannot"):
        store.exists(0, NOTEBOOK)
    with pytest.raises(StoreError, match="cannot"):
        store.revisions()
    assert time.monotonic() - started < 15
