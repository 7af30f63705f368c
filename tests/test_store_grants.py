"""Grants: pre-signed URLs for exactly one Job's reads and writes, used with plain HTTP."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from nbmodernizer.store import RevisionExistsError
from nbmodernizer.store.grants import (
    GrantedStore,
    GrantsError,
    fetch_granted_inputs,
    http_get,
    make_grants,
    output_names,
    parse_grants,
)
from nbmodernizer.store.s3 import signing_client
from testing.s3server import S3Bucket, signing_s3_bucket_fixture  # noqa: F401

FOLDER = "runs/ns/tiny/revisions/0002/"


@pytest.fixture(name="s3_bucket")
def checked_bucket(signing_s3_bucket: S3Bucket) -> S3Bucket:
    """Every test here talks to moto behind the signature check (testing/s3signatures.py), as
    runner pods talk to AWS S3, MinIO or Ceph: a changed or expired URL is refused there."""
    return signing_s3_bucket


def edit_key(url: str, key: str) -> str:
    """A pre-signed URL with its object key replaced (the bucket, query and signature kept)."""
    parts = urllib.parse.urlsplit(url)
    bucket = parts.path.split("/")[1]
    return urllib.parse.urlunsplit(parts._replace(path=f"/{bucket}/{key}"))


def refusal(request: urllib.request.Request | str) -> tuple[int, str]:
    """The HTTP status and S3 error code a request is refused with."""
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    body = refused.value.read().decode()
    return refused.value.code, body.split("<Code>", 1)[1].split("</Code>", 1)[0]


def put_request(url: str, data: bytes) -> urllib.request.Request:
    headers = {"If-None-Match": "*", "Content-Type": "application/octet-stream"}
    return urllib.request.Request(url, data=data, method="PUT", headers=headers)


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
        "environment.json",
        "executed-1.ipynb",
        "submission-1.csv",
        "execution-1.json",
        "executed-2.ipynb",
        "submission-2.csv",
        "execution-2.json",
    ]
    assert output_names(1) == [
        "executed.ipynb", "execution.json", "submission.csv", "environment.json",
    ]  # fmt: skip


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
    """A granted URL whose key is edited (to revision 0's notebook, into another
    modernization's folder, to the answers) or whose method is changed is refused by the
    store: 403 SignatureDoesNotMatch; what it aimed at is unchanged."""
    s3_bucket.put("inputs/tiny/train.csv", b"x")
    revision_zero = "runs/ns/tiny/revisions/0000/notebook.ipynb"
    s3_bucket.put(revision_zero, b'{"cells": []}')
    s3_bucket.put("fleet/tiny/answers/answers.csv", b"id,y\n1,1\n")
    store = grants_for(s3_bucket, runs=1)
    put = store.grants.outputs["submission.csv"]
    assert "X-Amz-Signature=" in put and "X-Amz-Expires=60" in put
    assert "if-none-match" in put.lower()  # the write-once header is signed into the URL
    for key in (
        revision_zero,
        "runs/ns/other/revisions/0000/notebook.ipynb",
        "runs/ns/other/revisions/0001/result.json",
        FOLDER + "result.json",
    ):
        assert refusal(put_request(edit_key(put, key), b"forged")) == (403, "SignatureDoesNotMatch")
    answers = edit_key(store.grants.notebook, "fleet/tiny/answers/answers.csv")
    assert refusal(answers) == (403, "SignatureDoesNotMatch")
    as_get = urllib.request.Request(put, method="GET", headers={"If-None-Match": "*"})
    assert refusal(as_get) == (403, "SignatureDoesNotMatch")
    assert refusal(put_request(store.grants.notebook, b"{}")) == (403, "SignatureDoesNotMatch")
    assert s3_bucket.read(revision_zero) == b'{"cells": []}'  # byte-identical
    assert s3_bucket.keys() == [
        "fleet/tiny/answers/answers.csv",
        "inputs/tiny/train.csv",
        revision_zero,
    ]
    store.put(2, "submission.csv", b"id,y\n")  # the URL as granted still works
    assert s3_bucket.read(FOLDER + "submission.csv") == b"id,y\n"


def test_a_grant_used_after_its_expiry_is_refused(s3_bucket: S3Bucket) -> None:
    s3_bucket.put(FOLDER + "notebook.ipynb", b"{}")
    client = signing_client(s3_bucket.endpoint)
    made = make_grants(client, s3_bucket.name, FOLDER, 2, 1, expires_seconds=1)
    assert http_get(made.notebook) == b"{}"  # within its second
    time.sleep(2.2)
    assert refusal(made.notebook) == (403, "AccessDenied")
    assert refusal(put_request(made.outputs["execution.json"], b"{}")) == (403, "AccessDenied")
    assert FOLDER + "execution.json" not in s3_bucket.keys()  # noqa: SIM118


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


def test_a_request_without_a_grant_is_refused(s3_bucket: S3Bucket) -> None:
    """What a pod with no grant and no credential can send: an unsigned request. The store
    refuses it; the granted URL, with its signed header, works once."""
    s3_bucket.put("inputs/tiny/train.csv", b"x")
    store = grants_for(s3_bucket, runs=1)
    granted = store.grants.outputs["submission.csv"]
    unsigned = granted.split("?", 1)[0]
    assert refusal(put_request(unsigned, b"id,y\n")) == (403, "AccessDenied")
    assert refusal(unsigned) == (403, "AccessDenied")
    without_header = urllib.request.Request(granted, data=b"id,y\n", method="PUT")
    assert refusal(without_header) == (403, "SignatureDoesNotMatch")
    with urllib.request.urlopen(put_request(granted, b"id,y\n")) as response:
        assert response.status == 200
    assert refusal(put_request(granted, b"id,y\n")) == (412, "PreconditionFailed")


def test_grants_expire_within_a_week(s3_bucket: S3Bucket) -> None:
    made = make_grants(signing_client(s3_bucket.endpoint), s3_bucket.name, FOLDER, 2, 1, 10**7)
    assert "X-Amz-Expires=604800" in made.outputs["execution.json"]
