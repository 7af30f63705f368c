"""Grants: pre-signed URLs for exactly one Job's reads and writes, used with plain HTTP."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from nbmodernizer.store import RevisionExistsError
from nbmodernizer.store.grants import (
    GrantedStore,
    GrantsError,
    fetch_granted_inputs,
    make_grants,
    output_names,
    parse_grants,
)
from nbmodernizer.store.s3 import signing_client
from tests.s3server import S3Bucket, s3_bucket_fixture  # noqa: F401

FOLDER = "runs/ns/tiny/revisions/0002/"


def grants_for(bucket: S3Bucket, runs: int = 2, **bounds: int) -> GrantedStore:
    client = signing_client(bucket.endpoint)
    made = make_grants(
        client, bucket.name, FOLDER, 2, runs, 60, (bucket.name, "inputs/tiny/"), **bounds
    )
    return GrantedStore(parse_grants(made.to_json()))  # through its file form


def test_output_names_are_fixed() -> None:
    assert output_names(3) == [
        "executed.ipynb",
        "execution.json",
        "submission.csv",
        "executed-1.ipynb",
        "submission-1.csv",
        "execution-1.json",
        "executed-2.ipynb",
        "submission-2.csv",
        "execution-2.json",
    ]
    assert output_names(1) == ["executed.ipynb", "execution.json", "submission.csv"]


def test_grants_read_the_revision_and_inputs_and_write_outputs_once(
    s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    s3_bucket.put(FOLDER + "notebook.ipynb", b"{}")
    s3_bucket.put("inputs/tiny/train.csv", b"id,x\n1,2\n")
    s3_bucket.put("inputs/tiny/sub/more.csv", b"id\n")
    store = grants_for(s3_bucket)
    assert store.get(2, "notebook.ipynb") == b"{}"
    fetch_granted_inputs(store.grants, tmp_path / "input")
    assert (tmp_path / "input" / "train.csv").read_bytes() == b"id,x\n1,2\n"
    assert (tmp_path / "input" / "sub" / "more.csv").read_bytes() == b"id\n"
    store.put(2, "execution.json", b'{"runs": []}')
    assert s3_bucket.read(FOLDER + "execution.json") == b'{"runs": []}'
    with pytest.raises(RevisionExistsError, match="written before"):
        store.put(2, "execution.json", b"forged")  # write-once: If-None-Match is signed in
    assert s3_bucket.read(FOLDER + "execution.json") == b'{"runs": []}'


def test_nothing_else_is_granted(s3_bucket: S3Bucket) -> None:
    s3_bucket.put("inputs/tiny/train.csv", b"x")
    store = grants_for(s3_bucket, runs=1)
    text = store.grants.to_json()
    for name in ("result.json", "fix.json", "spec.json", "revisions/0003", "revisions/0000"):
        assert name not in text
    with pytest.raises(PermissionError):
        store.put(2, "result.json", b"{}")
    with pytest.raises(PermissionError):
        store.put(2, "submission-1.csv", b"{}")  # runs=1: only submission.csv
    with pytest.raises(PermissionError):
        store.put(3, "notebook.ipynb", b"{}")
    with pytest.raises(PermissionError):
        store.get(2, "executed.ipynb")
    with pytest.raises(PermissionError):
        store.revisions()


def test_a_granted_url_is_bound_to_its_key_and_method(s3_bucket: S3Bucket) -> None:
    """Changing the key or the method of a pre-signed URL breaks its signature (checked by
    stores that check signatures; moto's server does not, so this checks the URL's form)."""
    s3_bucket.put("inputs/tiny/train.csv", b"x")
    store = grants_for(s3_bucket, runs=1)
    url = store.grants.outputs["execution.json"]
    assert "X-Amz-Signature=" in url and "X-Amz-Expires=60" in url
    assert "if-none-match" in url.lower()  # the write-once header is signed into the URL
    assert FOLDER + "execution.json" in url


def test_inputs_past_the_bounds_are_refused_with_a_reason(s3_bucket: S3Bucket) -> None:
    for n in range(3):
        s3_bucket.put(f"inputs/tiny/{n}.csv", b"0123456789")
    with pytest.raises(GrantsError, match="3 files, more than the 2"):
        grants_for(s3_bucket, max_input_files=2)
    with pytest.raises(GrantsError, match="30 bytes, more than the 20"):
        grants_for(s3_bucket, max_input_bytes=20)


def test_an_input_larger_than_granted_is_refused(s3_bucket: S3Bucket, tmp_path: Path) -> None:
    s3_bucket.put("inputs/tiny/train.csv", b"small")
    store = grants_for(s3_bucket)
    s3_bucket.put("inputs/tiny/train.csv", b"grown after the grant" * 100)
    with pytest.raises(Exception, match="larger than its 5 bytes"):
        fetch_granted_inputs(store.grants, tmp_path / "input")


def test_malformed_or_escaping_grants_are_refused() -> None:
    with pytest.raises(GrantsError):
        parse_grants("not json")
    document = {
        "version": 1,
        "revision": 0,
        "expiresAt": "x",
        "notebook": "http://s3/n",
        "outputs": {},
        "inputs": [{"path": "../../etc/passwd", "size": 1, "url": "http://s3/x"}],
    }
    with pytest.raises(GrantsError, match="refusing input path"):
        parse_grants(json.dumps(document))


def test_unsigned_writes_are_what_a_notebook_without_grants_has(s3_bucket: S3Bucket) -> None:
    """What the store sees from a pod with no grant: a request with no signature. moto's
    server accepts those (it checks no signature); real stores refuse them. Here: a granted
    PUT works with no credential at all in the client."""
    s3_bucket.put("inputs/tiny/train.csv", b"x")
    store = grants_for(s3_bucket, runs=1)
    request = urllib.request.Request(
        store.grants.outputs["submission.csv"],
        data=b"id,y\n",
        method="PUT",
        headers={"If-None-Match": "*", "Content-Type": "text/csv"},
    )
    with urllib.request.urlopen(request) as response:
        assert response.status == 200
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    assert refused.value.code == 412


def test_grants_expire_within_a_week(s3_bucket: S3Bucket) -> None:
    made = make_grants(signing_client(s3_bucket.endpoint), s3_bucket.name, FOLDER, 2, 1, 10**7)
    assert "X-Amz-Expires=604800" in made.outputs["execution.json"]
