"""The revision store: every revision's files, written once, never overwritten.

Layout under the store's root (a local folder or an S3 prefix):

    revisions/0000/notebook.ipynb   the revision (revision 0: the original, byte-identical)
    revisions/0000/executed.ipynb   the notebook after execution
    revisions/0000/execution.json   every run's execution facts (errors, duration, versions)
    revisions/0000/submission.csv   what the notebook wrote, when it did (-N.csv: run N)
    revisions/0000/result.json      execution, score and diagnosis
    revisions/0001/fix.json         how revision 1 was made from revision 0
    ...

Writing a file that exists with other content raises RevisionExistsError; writing the same
bytes again is a no-op, so a driver that restarts mid-step can safely repeat its writes.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlparse

NOTEBOOK = "notebook.ipynb"
EXECUTED = "executed.ipynb"
EXECUTION = "execution.json"
RESULT = "result.json"
SUBMISSION = "submission.csv"
FIX = "fix.json"

# Beside revisions/, at the top of a run folder or an S3 prefix: what a finished run leaves.
REPORT_JSON = "report.json"  # the status object (a run folder only; in a cluster: .status)
REPORT_HTML = "report.html"  # report.render_html
FINAL_NOTEBOOK = "final.ipynb"  # the best revision, executed


def submission_name(run: int) -> str:
    """Run 0's submission is `submission.csv`; further runs (score.runs > 1) are numbered."""
    return SUBMISSION if run == 0 else f"submission-{run}.csv"


class RevisionExistsError(Exception):
    """A revision file exists already with other content; revisions are never overwritten."""


class StoreError(Exception):
    """The store cannot be reached or read."""


def revision_key(revision: int, name: str) -> str:
    return f"revisions/{revision:04d}/{name}"


class RevisionStore(Protocol):
    @property
    def uri(self) -> str: ...

    def uri_of(self, revision: int, name: str = NOTEBOOK) -> str: ...

    def put(self, revision: int, name: str, data: bytes) -> str: ...

    def get(self, revision: int, name: str) -> bytes: ...

    def exists(self, revision: int, name: str) -> bool: ...

    def revisions(self) -> list[int]: ...


class LocalStore:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    @property
    def uri(self) -> str:
        return self.root.as_uri()

    def uri_of(self, revision: int, name: str = NOTEBOOK) -> str:
        return (self.root / revision_key(revision, name)).as_uri()

    def put(self, revision: int, name: str, data: bytes) -> str:
        return write_file_once(self.root / revision_key(revision, name), data)

    def get(self, revision: int, name: str) -> bytes:
        return (self.root / revision_key(revision, name)).read_bytes()

    def exists(self, revision: int, name: str) -> bool:
        return (self.root / revision_key(revision, name)).is_file()

    def revisions(self) -> list[int]:
        folder = self.root / "revisions"
        if not folder.is_dir():
            return []
        return sorted(int(p.name) for p in folder.iterdir() if p.name.isdigit())


def write_file_once(path: Path, data: bytes) -> str:
    """Write a local file that must never change: the same bytes again are a no-op, other
    bytes raise RevisionExistsError. Returns its file:// URI."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with path.open("xb") as handle:
            handle.write(data)
    except FileExistsError:
        if path.read_bytes() != data:
            raise RevisionExistsError(f"{path} exists with other content") from None
    return path.as_uri()


def parse_s3_uri(uri: str) -> tuple[str, str]:
    """`s3://bucket/some/prefix` -> ("bucket", "some/prefix")."""
    parsed = urlparse(uri)
    if parsed.scheme != "s3" or not parsed.netloc:
        raise ValueError(f"not an s3:// URI: {uri!r}")
    return parsed.netloc, parsed.path.lstrip("/")


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


class S3Store:
    def __init__(self, uri: str, client: Any | None = None) -> None:
        self.bucket, prefix = parse_s3_uri(uri)
        self.prefix = prefix.strip("/")
        self.client = client if client is not None else s3_client()

    @property
    def uri(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}"

    def _key(self, revision: int, name: str) -> str:
        return "/".join(p for p in (self.prefix, revision_key(revision, name)) if p)

    def uri_of(self, revision: int, name: str = NOTEBOOK) -> str:
        return f"s3://{self.bucket}/{self._key(revision, name)}"

    def put(self, revision: int, name: str, data: bytes) -> str:
        return write_s3_once(self.client, self.bucket, self._key(revision, name), data)

    def get(self, revision: int, name: str) -> bytes:
        return read_s3(self.client, self.bucket, self._key(revision, name))

    def exists(self, revision: int, name: str) -> bool:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            self.client.head_object(Bucket=self.bucket, Key=self._key(revision, name))
        except BotoCoreError as error:
            raise StoreError(
                f"cannot reach S3 for {self.uri_of(revision, name)}: {error}"
            ) from None
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return False
            raise StoreError(f"cannot read {self.uri_of(revision, name)}: {error}") from None
        return True

    def revisions(self) -> list[int]:
        from botocore.exceptions import BotoCoreError, ClientError

        root = "/".join(p for p in (self.prefix, "revisions") if p) + "/"
        paginator = self.client.get_paginator("list_objects_v2")
        found: set[int] = set()
        try:
            for page in paginator.paginate(Bucket=self.bucket, Prefix=root, Delimiter="/"):
                for common in page.get("CommonPrefixes", []):
                    name = common["Prefix"][len(root) :].strip("/")
                    if name.isdigit():
                        found.add(int(name))
        except (BotoCoreError, ClientError) as error:
            raise StoreError(f"cannot list s3://{self.bucket}/{root}: {error}") from None
        return sorted(found)


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


def read_s3(client: Any, bucket: str, key: str) -> bytes:
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        body = client.get_object(Bucket=bucket, Key=key)["Body"]
        return bytes(body.read())
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code")
        if code in ("NoSuchKey", "404"):
            raise FileNotFoundError(f"s3://{bucket}/{key}") from None
        raise StoreError(f"cannot read s3://{bucket}/{key}: {error}") from None
    except BotoCoreError as error:
        raise StoreError(f"cannot reach S3 for s3://{bucket}/{key}: {error}") from None


def open_store(uri_or_path: str) -> RevisionStore:
    if uri_or_path.startswith("s3://"):
        return S3Store(uri_or_path)
    return LocalStore(Path(uri_or_path))


def delete_prefix(uri: str) -> None:
    """Delete every object under an s3:// prefix (retention: Delete)."""
    bucket, prefix = parse_s3_uri(uri)
    client = s3_client()
    paginator = client.get_paginator("list_objects_v2")
    for page in paginator.paginate(Bucket=bucket, Prefix=prefix.rstrip("/") + "/"):
        keys = [{"Key": item["Key"]} for item in page.get("Contents", [])]
        if keys:
            client.delete_objects(Bucket=bucket, Delete={"Objects": keys})
