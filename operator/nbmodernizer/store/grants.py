"""Grants: what one runner Job may read and write in the store, as pre-signed URLs.

A runner pod holds no S3 credential. For each Job the operator pre-signs (with its own
credentials, `make_grants`) exactly:

    GET  revisions/NNNN/notebook.ipynb                the revision to execute
    GET  <spec.inputs>/<each object>                  the inputs (bounded: count and bytes)
    PUT  revisions/NNNN/executed.ipynb                the Job's own outputs, each with
    PUT  revisions/NNNN/execution.json                `If-None-Match: *` signed in: a key
    PUT  revisions/NNNN/submission.csv                that exists already is never
    PUT  revisions/NNNN/environment.json              overwritten
    PUT  revisions/NNNN/submission-N.csv (N < runs)
    PUT  revisions/NNNN/executed-N.ipynb (N < runs)   (runs > 1: run N's own, as an
    PUT  revisions/NNNN/execution-N.json (N < runs)   Indexed Job's index N writes them)

and nothing else: no list, no other revision, no result.json, fix.json or spec.json, no
answers, no other modernization. The URLs expire after the Job's deadline plus a margin.
They travel in a per-Job Secret (`cluster/jobs.py`), mounted as a file; the runner reads
them with `read_grants` and uses plain HTTP only (`GrantedStore`, `fetch_granted_inputs`).

In the cluster they are split (`split_grants`): the pod's fetch container mounts the reads,
its executor the writes, and the notebook's container neither.

The file (JSON, `Grants.to_json`):

    {"version": 1, "revision": 3, "expiresAt": "2026-12-01T16:00:00Z",
     "notebook": URL, "inputs": [{"path": "train.csv", "size": 123, "url": URL}, ...],
     "outputs": {"executed.ipynb": URL, "execution.json": URL, "submission.csv": URL}}

Works on any store that pre-signs SigV4 query URLs: AWS S3, MinIO, Ceph RGW, moto's server.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path, PurePosixPath
from typing import Any

from nbmodernizer.store import RevisionExistsError, StoreError
from nbmodernizer.store.layout import (
    ENVIRONMENT,
    EXECUTED,
    EXECUTION,
    NOTEBOOK,
    run_output_names,
    submission_name,
)

VERSION = 1
# A Secret holds at most 1 MiB; the grants must fit with room to spare.
MAX_GRANTS_BYTES = 900 * 1024
DEFAULT_MAX_INPUT_FILES = 1000
DEFAULT_MAX_INPUT_BYTES = 20 * 2**30  # 20 GiB
HTTP_TIMEOUT_SECONDS = 60
CHUNK = 2**20
MAX_EXPIRES_SECONDS = 7 * 24 * 3600  # SigV4: a pre-signed URL lives at most a week


class GrantsError(ValueError):
    """The grants cannot be made (too many or too large inputs) or read (a malformed file)."""


def output_names(runs: int) -> list[str]:
    """The names a Job of `runs` executions may write in its own revision folder: run 0's,
    and with several runs (one Indexed Job, a pod per run) each further run's own
    (`layout.run_output_names`). All of them travel in the one Secret every pod of the Job
    mounts: a pod could write another run's names before that run's runner does; the runner
    then finds them taken (write-once), fails, and the operator counts that run as an Error
    (a failed index's files are never graded). `environment.json`, the environment's facts:
    every pod of the Job probes the same image; the first to store them wins."""
    further = [name for run in range(1, runs) for name in run_output_names(run)]
    return [EXECUTED, EXECUTION, submission_name(0), ENVIRONMENT, *further]


@dataclass(frozen=True)
class InputGrant:
    path: str  # relative to the inputs prefix, '/'-separated
    size: int
    url: str


@dataclass(frozen=True)
class Grants:
    revision: int
    expires_at: str
    notebook: str
    outputs: dict[str, str]
    inputs: list[InputGrant] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps(
            {
                "version": VERSION,
                "revision": self.revision,
                "expiresAt": self.expires_at,
                "notebook": self.notebook,
                "inputs": [{"path": i.path, "size": i.size, "url": i.url} for i in self.inputs],
                "outputs": dict(self.outputs),
            },
            indent=1,
            sort_keys=True,
        )


def split_grants(grants: Grants) -> tuple[Grants, Grants]:
    """(reads, writes): the fetch container's grants (notebook and inputs, no output) and the
    executor's (the outputs; the notebook's address without its signature, a name only)."""
    reads = Grants(grants.revision, grants.expires_at, grants.notebook, {}, list(grants.inputs))
    writes = Grants(grants.revision, grants.expires_at, _describe(grants.notebook), grants.outputs)
    return reads, writes


def _safe_relative(path: str) -> str:
    """An input's path below the input folder; refuses absolute paths and `..`."""
    pure = PurePosixPath(path)
    if not path or pure.is_absolute() or any(part in ("..", "") for part in path.split("/")):
        raise GrantsError(f"refusing input path {path!r}")
    return str(pure)


def parse_grants(text: str) -> Grants:
    try:
        document = json.loads(text)
        if document.get("version") != VERSION:
            raise GrantsError(f"grants version {document.get('version')!r} is not {VERSION}")
        return Grants(
            revision=int(document["revision"]),
            expires_at=str(document["expiresAt"]),
            notebook=str(document["notebook"]),
            outputs={str(k): str(v) for k, v in document["outputs"].items()},
            inputs=[
                InputGrant(_safe_relative(str(i["path"])), int(i["size"]), str(i["url"]))
                for i in document.get("inputs") or []
            ],
        )
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as error:
        raise GrantsError(f"malformed grants: {error!r}") from None


def read_grants(path: Path) -> Grants:
    return parse_grants(path.read_text())


# -- the operator's side: pre-sign with its own credentials ------------------------------------


def list_inputs(client: Any, bucket: str, prefix: str) -> list[tuple[str, int]]:
    """(key, size) of every object under an s3:// prefix (ending in '/', or '' for all)."""
    from botocore.exceptions import BotoCoreError, ClientError

    found: list[tuple[str, int]] = []
    try:
        for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
            for item in page.get("Contents", []):
                if not item["Key"].endswith("/"):
                    found.append((item["Key"], int(item.get("Size", 0))))
    except (BotoCoreError, ClientError) as error:
        raise StoreError(f"cannot list s3://{bucket}/{prefix}: {error}") from None
    return found


def make_grants(
    client: Any,
    bucket: str,
    revision_folder_key: str,
    revision: int,
    runs: int,
    expires_seconds: int,
    inputs: tuple[str, str] | None = None,
    max_input_files: int = DEFAULT_MAX_INPUT_FILES,
    max_input_bytes: int = DEFAULT_MAX_INPUT_BYTES,
) -> Grants:
    """Pre-sign one Job's reads and writes. `client` signs for the address the pods use;
    `revision_folder_key` is the revision's folder key (ending in '/'); `inputs` is the
    (bucket, prefix) of `spec.inputs`. GrantsError when the inputs are past the bounds."""

    expires_seconds = max(1, min(expires_seconds, MAX_EXPIRES_SECONDS))

    def sign(method: str, params: dict[str, str]) -> str:
        return str(client.generate_presigned_url(method, Params=params, ExpiresIn=expires_seconds))

    folder = revision_folder_key.rstrip("/") + "/"
    granted: list[InputGrant] = []
    if inputs is not None:
        in_bucket, in_prefix = inputs
        prefix = in_prefix.rstrip("/") + "/" if in_prefix else ""
        listed = list_inputs(client, in_bucket, prefix)
        if not listed:
            raise GrantsError(f"spec.inputs: no objects under s3://{in_bucket}/{prefix}")
        total = sum(size for _, size in listed)
        if len(listed) > max_input_files:
            raise GrantsError(
                f"spec.inputs: {len(listed)} files, more than the {max_input_files} a Job may "
                "be granted (--max-input-files); pack them in fewer files or use "
                "execution.inputsVolumeClaim"
            )
        if total > max_input_bytes:
            raise GrantsError(
                f"spec.inputs: {total} bytes, more than the {max_input_bytes} a Job may be "
                "granted (--max-input-bytes); use execution.inputsVolumeClaim"
            )
        for key, size in listed:
            path = _safe_relative(key[len(prefix) :])
            url = sign("get_object", {"Bucket": in_bucket, "Key": key})
            granted.append(InputGrant(path, size, url))
    outputs = {
        name: sign("put_object", {"Bucket": bucket, "Key": folder + name, "IfNoneMatch": "*"})
        for name in output_names(runs)
    }
    expires = datetime.now(UTC) + timedelta(seconds=expires_seconds)
    grants = Grants(
        revision=revision,
        expires_at=expires.strftime("%Y-%m-%dT%H:%M:%SZ"),
        notebook=sign("get_object", {"Bucket": bucket, "Key": folder + NOTEBOOK}),
        outputs=outputs,
        inputs=granted,
    )
    if len(grants.to_json()) > MAX_GRANTS_BYTES:
        raise GrantsError(
            f"spec.inputs: {len(granted)} files need more grants than a Secret holds (1 MiB); "
            "pack them in fewer files or use execution.inputsVolumeClaim"
        )
    return grants


# -- the runner's side: plain HTTP, no credential ----------------------------------------------


def _open(request: urllib.request.Request | str) -> Any:
    try:
        return urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_SECONDS)
    except urllib.error.HTTPError as error:
        error.close()
        raise
    except (urllib.error.URLError, OSError) as error:
        raise StoreError(f"cannot reach the store: {error}") from None


def _describe(url: str) -> str:
    return url.split("?", 1)[0]  # never the signature


def http_get(url: str, limit: int | None = None) -> bytes:
    try:
        with _open(url) as response:
            data = bytes(response.read() if limit is None else response.read(limit + 1))
    except urllib.error.HTTPError as error:
        if error.code == 404:
            raise FileNotFoundError(_describe(url)) from None
        raise StoreError(f"GET {_describe(url)}: HTTP {error.code}") from None
    if limit is not None and len(data) > limit:
        raise StoreError(f"GET {_describe(url)}: larger than the granted {limit} bytes")
    return data


def http_put_once(url: str, data: bytes) -> None:
    """PUT with `If-None-Match: *` (signed into the URL): RevisionExistsError when the key
    exists already: somebody wrote it before this runner did."""
    request = urllib.request.Request(
        url,
        data=data,
        method="PUT",
        headers={"If-None-Match": "*", "Content-Type": "application/octet-stream"},
    )
    try:
        with _open(request):
            pass
    except urllib.error.HTTPError as error:
        if error.code in (409, 412):
            raise RevisionExistsError(
                f"{_describe(url)} was written before this runner wrote it"
            ) from None
        raise StoreError(f"PUT {_describe(url)}: HTTP {error.code}") from None


class GrantedStore:
    """The RevisionStore a runner sees through its grants: the revision's notebook to read,
    its own outputs to write once; anything else is PermissionError."""

    def __init__(self, grants: Grants) -> None:
        self.grants = grants

    @property
    def uri(self) -> str:
        return _describe(self.grants.notebook).rsplit("/", 3)[0]

    def uri_of(self, revision: int, name: str = NOTEBOOK) -> str:
        return _describe(self.grants.notebook).rsplit("/", 1)[0] + "/" + name

    def _check(self, revision: int) -> None:
        if revision != self.grants.revision:
            raise PermissionError(f"no grant for revision {revision}")

    def put(self, revision: int, name: str, data: bytes) -> str:
        self._check(revision)
        url = self.grants.outputs.get(name)
        if url is None:
            raise PermissionError(f"no grant to write {name}")
        http_put_once(url, data)
        return self.uri_of(revision, name)

    def get(self, revision: int, name: str) -> bytes:
        self._check(revision)
        if name != NOTEBOOK:
            raise PermissionError(f"no grant to read {name}")
        return http_get(self.grants.notebook)

    def exists(self, revision: int, name: str) -> bool:
        raise PermissionError("a runner may not look into the store")

    def get_at_most(self, revision: int, name: str, max_bytes: int) -> bytes | int | None:
        raise PermissionError("a runner may not look into the store")

    def revisions(self) -> list[int]:
        raise PermissionError("a runner may not list the store")


def fetch_granted_inputs(grants: Grants, target: Path) -> Path:
    """Download every granted input into `target`, each no larger than its listed size."""
    target.mkdir(parents=True, exist_ok=True)
    root = target.resolve()
    for item in grants.inputs:
        path = target / item.path
        if not path.resolve().is_relative_to(root):
            raise StoreError(f"refusing input outside the input folder: {item.path}")
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with _open(item.url) as response, path.open("wb") as out:
                copied = 0
                while chunk := response.read(CHUNK):
                    copied += len(chunk)
                    if copied > item.size:
                        raise StoreError(f"input {item.path}: larger than its {item.size} bytes")
                    out.write(chunk)
        except urllib.error.HTTPError as error:
            raise StoreError(f"GET input {item.path}: HTTP {error.code}") from None
    return target
