"""s3:// URIs and the objects they name, on any S3-compatible endpoint; and the spec's files,
each an s3:// URI or a path relative to the spec file (`ref`), which the readers take both.

Objects written here are write-once (`write_s3_once`): the same bytes again are a no-op,
other bytes raise RevisionExistsError. S3 errors are StoreError; a missing object is
FileNotFoundError.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from nbmodernizer.store import RevisionExistsError, StoreError


def is_s3(ref: str) -> bool:
    return ref.startswith("s3://")


def parse_s3_uri(uri: str) -> tuple[str, str]:
    """`s3://bucket/some/prefix` -> ("bucket", "some/prefix")."""
    parsed = urlparse(uri)
    if parsed.scheme != "s3" or not parsed.netloc:
        raise ValueError(f"not an s3:// URI: {uri!r}")
    return parsed.netloc, parsed.path.lstrip("/")


def join_key(*parts: str) -> str:
    """The key of the non-empty `parts`, each stripped of slashes: ("a/", "", "b") -> "a/b"."""
    return "/".join(part.strip("/") for part in parts if part.strip("/"))


_CLIENTS: dict[tuple[str | None, ...], Any] = {}
_CLIENTS_LOCK = threading.Lock()


def s3_client() -> Any:
    """A boto3 S3 client; honours AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL (MinIO, Ceph, moto).

    Clients are thread-safe and costly to make (tens of milliseconds, and a new connection
    pool each), so one is shared per endpoint and credentials."""
    endpoint = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
    key = (
        endpoint,
        os.environ.get("AWS_ACCESS_KEY_ID"),
        os.environ.get("AWS_SECRET_ACCESS_KEY"),
        os.environ.get("AWS_SESSION_TOKEN"),
        os.environ.get("AWS_DEFAULT_REGION"),
        os.environ.get("AWS_PROFILE"),
    )
    with _CLIENTS_LOCK:
        if key not in _CLIENTS:
            import boto3
            from botocore.config import Config

            config = Config(retries={"max_attempts": 3, "mode": "standard"}, connect_timeout=5)
            _CLIENTS[key] = boto3.session.Session().client(
                "s3", endpoint_url=endpoint or None, config=config
            )
        return _CLIENTS[key]


def signing_client(endpoint: str | None, region: str | None = None) -> Any:
    """A client that pre-signs URLs for `endpoint` (the runner pods' address of the store)
    with this process's credentials: SigV4, path-style addressing on a custom endpoint
    (MinIO, Ceph, moto), so the URL names the endpoint the pods reach."""
    key = ("sign", endpoint, region, os.environ.get("AWS_ACCESS_KEY_ID"))
    with _CLIENTS_LOCK:
        if key not in _CLIENTS:
            import boto3
            from botocore.config import Config

            addressing = {"addressing_style": "path"} if endpoint else {}
            config = Config(signature_version="s3v4", s3=addressing)
            _CLIENTS[key] = boto3.session.Session().client(
                "s3",
                endpoint_url=endpoint or None,
                region_name=region or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1",
                config=config,
            )
        return _CLIENTS[key]


def write_s3_once(client: Any, bucket: str, key: str, data: bytes) -> str:
    """Write an object that must never change: the same bytes again are a no-op, other bytes
    raise RevisionExistsError. Returns its s3:// URI."""
    from botocore.exceptions import BotoCoreError, ClientError

    uri = f"s3://{bucket}/{key}"
    try:
        client.put_object(Bucket=bucket, Key=key, Body=data, IfNoneMatch="*")
    except BotoCoreError as error:
        raise StoreError(f"cannot reach S3 for {uri}: {error}") from None
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code", "")
        if code not in ("PreconditionFailed", "412", "ConditionalRequestConflict"):
            raise StoreError(f"cannot write {uri}: {error}") from None
        if read_s3(client, bucket, key) != data:
            raise RevisionExistsError(f"{uri} exists with other content") from None
    return uri


_MISSING = ("NoSuchKey", "404", "NotFound")  # GET's code, and HEAD's (which has no body)


@contextmanager
def _reading(uri: str) -> Iterator[None]:
    """S3's errors on reading `uri` as ours: FileNotFoundError for no such object, StoreError
    for any other refusal, or when S3 cannot be reached."""
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        yield
    except ClientError as error:
        if error.response.get("Error", {}).get("Code") in _MISSING:
            raise FileNotFoundError(uri) from None
        raise StoreError(f"cannot read {uri}: {error}") from None
    except BotoCoreError as error:
        raise StoreError(f"cannot reach S3 for {uri}: {error}") from None


def read_s3(client: Any, bucket: str, key: str) -> bytes:
    with _reading(f"s3://{bucket}/{key}"):
        data = bytes(client.get_object(Bucket=bucket, Key=key)["Body"].read())
    return data


def head_s3(client: Any, bucket: str, key: str) -> bool:
    """Whether the object exists."""
    try:
        with _reading(f"s3://{bucket}/{key}"):
            client.head_object(Bucket=bucket, Key=key)
    except FileNotFoundError:
        return False
    return True


def read_s3_at_most(client: Any, bucket: str, key: str, max_bytes: int) -> bytes | int | None:
    """The object (one GET), or its size when it is larger than `max_bytes` (its body is then
    not read), or None when there is no such object."""
    try:
        with _reading(f"s3://{bucket}/{key}"):
            reply = client.get_object(Bucket=bucket, Key=key)
            body = reply["Body"]
            size = int(reply.get("ContentLength", 0))
            if size > max_bytes:
                body.close()
                return size
            data = bytes(body.read(max_bytes + 1))
    except FileNotFoundError:
        return None
    return data if len(data) <= max_bytes else len(data)


def list_folders(client: Any, bucket: str, prefix: str) -> list[str]:
    """The names of the "folders" right under `prefix` (which ends in a slash)."""
    from botocore.exceptions import BotoCoreError, ClientError

    paginator = client.get_paginator("list_objects_v2")
    found: list[str] = []
    try:
        for page in paginator.paginate(Bucket=bucket, Prefix=prefix, Delimiter="/"):
            for common in page.get("CommonPrefixes", []):
                found.append(common["Prefix"][len(prefix) :].strip("/"))
    except (BotoCoreError, ClientError) as error:
        raise StoreError(f"cannot list s3://{bucket}/{prefix}: {error}") from None
    return found


def delete_prefix(uri: str) -> None:
    """Delete every object under an s3:// prefix (retention: Delete)."""
    bucket, prefix = parse_s3_uri(uri)
    client = s3_client()
    paginator = client.get_paginator("list_objects_v2")
    for page in paginator.paginate(Bucket=bucket, Prefix=prefix.rstrip("/") + "/"):
        keys = [{"Key": item["Key"]} for item in page.get("Contents", [])]
        if keys:
            client.delete_objects(Bucket=bucket, Delete={"Objects": keys})


# -- the spec's files: an s3:// URI, or a path relative to the spec file's folder (`base`) --


def local_path(ref: str, base: Path) -> Path:
    path = Path(ref).expanduser()
    return path if path.is_absolute() else base / path


def read_bytes(ref: str, base: Path) -> bytes:
    """The bytes at `ref`; FileNotFoundError when there is nothing there."""
    if is_s3(ref):
        bucket, key = parse_s3_uri(ref)
        return read_s3(s3_client(), bucket, key)
    return local_path(ref, base).read_bytes()


def fetch_file(ref: str, base: Path, scratch: Path) -> Path:
    """A local path holding the file at `ref` (downloaded into `scratch` if remote)."""
    if not is_s3(ref):
        return local_path(ref, base)
    target = scratch / Path(parse_s3_uri(ref)[1]).name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(read_bytes(ref, base))
    return target


def fetch_dir(ref: str, base: Path, scratch: Path) -> Path:
    """A local folder holding the tree at `ref` (an s3:// prefix is downloaded into `scratch`)."""
    if not is_s3(ref):
        path = local_path(ref, base)
        if not path.is_dir():
            raise FileNotFoundError(f"{path} is not a directory")
        return path
    bucket, prefix = parse_s3_uri(ref)
    prefix = prefix.rstrip("/") + "/" if prefix else ""
    client = s3_client()
    scratch.mkdir(parents=True, exist_ok=True)
    found = False
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        for item in page.get("Contents", []):
            relative = item["Key"][len(prefix) :]
            if not relative or relative.endswith("/"):
                continue
            target = scratch / relative
            if not target.resolve().is_relative_to(scratch.resolve()):
                raise StoreError(f"refusing key outside the input folder: {item['Key']}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(read_s3(client, bucket, item["Key"]))
            found = True
    if not found:
        raise FileNotFoundError(f"no objects under {ref}")
    return scratch
