"""A real S3-protocol server for the tests: moto's server mode on 127.0.0.1, one per session.

The S3 code talks to it over HTTP through AWS_ENDPOINT_URL_S3, exactly as it would talk to
MinIO or AWS; nothing in boto3 is patched. Use the `s3_bucket` fixture:

    from testing.s3server import S3Bucket, s3_bucket_fixture  # noqa: F401

    def test_something(s3_bucket: S3Bucket) -> None:
        s3_bucket.client.put_object(Bucket=s3_bucket.name, Key="k", Body=b"v")
"""

from __future__ import annotations

import atexit
import functools
import socket
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from nbmodernizer.store.s3 import s3_client

ACCESS_KEY = "testing"
# Distinctive: the hostile tests look for it wherever a notebook could print it.
SECRET_KEY = "hostile-test-aws-secret-4711"
REGION = "us-east-1"


@functools.cache
def s3_endpoint_url() -> str:
    """Start moto's server on a free port of 127.0.0.1 (once per process); its URL."""
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    atexit.register(server.stop)
    host, port = server.get_host_and_port()
    return f"http://{host}:{port}"


def closed_port_url() -> str:
    """The URL of a port on 127.0.0.1 that nothing listens on (connections are refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def use_endpoint(
    monkeypatch: pytest.MonkeyPatch,
    endpoint: str,
    access_key: str = ACCESS_KEY,
    secret_key: str = SECRET_KEY,
) -> None:
    """Point boto3 at `endpoint` with these credentials, ignoring the machine's AWS setup."""
    for name in (
        "AWS_ENDPOINT_URL",
        "AWS_PROFILE",
        "AWS_DEFAULT_PROFILE",
        "AWS_SESSION_TOKEN",
        "AWS_SECURITY_TOKEN",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "http_proxy",
        "https_proxy",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ENDPOINT_URL_S3", endpoint)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", access_key)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", secret_key)
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent/aws-config")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/aws-credentials")


@dataclass(frozen=True)
class S3Bucket:
    """A fresh, empty bucket on the test server, and a client to look inside it."""

    name: str
    endpoint: str
    client: Any

    def uri(self, prefix: str = "") -> str:
        return f"s3://{self.name}/{prefix}"

    def put(self, key: str, data: bytes) -> None:
        self.client.put_object(Bucket=self.name, Key=key, Body=data)

    def read(self, key: str) -> bytes:
        return bytes(self.client.get_object(Bucket=self.name, Key=key)["Body"].read())

    def keys(self) -> list[str]:
        paginator = self.client.get_paginator("list_objects_v2")
        pages = paginator.paginate(Bucket=self.name)
        return sorted(item["Key"] for page in pages for item in page.get("Contents", []))

    def remove(self) -> None:
        """Delete every object, then the bucket (servers that outlive the tests: MinIO)."""
        for key in self.keys():
            self.client.delete_object(Bucket=self.name, Key=key)
        self.client.delete_bucket(Bucket=self.name)


def new_bucket(endpoint: str) -> S3Bucket:
    """A fresh bucket on the server the environment points boto3 at (`use_endpoint`)."""
    client = s3_client()
    name = f"test-{uuid.uuid4().hex[:16]}"
    client.create_bucket(Bucket=name)
    return S3Bucket(name=name, endpoint=endpoint, client=client)


@pytest.fixture(name="s3_bucket")
def s3_bucket_fixture(monkeypatch: pytest.MonkeyPatch) -> Iterator[S3Bucket]:
    """The session's moto server in the environment, and a bucket of this test's own."""
    endpoint = s3_endpoint_url()
    use_endpoint(monkeypatch, endpoint)
    yield new_bucket(endpoint)


def signing_s3_endpoint_url() -> str:
    """moto's server behind the tests' signature check (testing/s3signatures.py): a store that,
    like AWS S3, MinIO and Ceph, refuses a request whose SigV4 signature does not hold."""
    from testing.s3signatures import signing_store_url

    return signing_store_url(s3_endpoint_url(), ACCESS_KEY, SECRET_KEY)


@pytest.fixture(name="signing_s3_bucket")
def signing_s3_bucket_fixture(monkeypatch: pytest.MonkeyPatch) -> Iterator[S3Bucket]:
    """A bucket of this test's own on moto's server behind the signature check."""
    endpoint = signing_s3_endpoint_url()
    use_endpoint(monkeypatch, endpoint)
    yield new_bucket(endpoint)
