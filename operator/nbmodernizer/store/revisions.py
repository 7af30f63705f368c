"""Revision stores (a local folder, an S3 prefix) and the typed read/write of the layout's JSON
files: execution.json, result.json, fix.json, spec.json (formats in the package's docstring).
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.status import Diagnosis, ExecutionResult, FixRecord, ScoreResult
from nbmodernizer.store import RevisionExistsError
from nbmodernizer.store.layout import (
    EXECUTION,
    FIX,
    NOTEBOOK,
    RESULT,
    REVISIONS,
    SPEC,
    Oversized,
    read_stand_in,
    revision_key,
    stand_in,
    submission_name,
)
from nbmodernizer.store.s3 import (
    head_s3,
    join_key,
    list_folders,
    parse_s3_uri,
    read_s3,
    read_s3_at_most,
    s3_client,
    write_s3_once,
)


class RevisionStore(Protocol):
    @property
    def uri(self) -> str: ...

    def uri_of(self, revision: int, name: str = NOTEBOOK) -> str: ...

    def put(self, revision: int, name: str, data: bytes) -> str: ...

    def get(self, revision: int, name: str) -> bytes:
        """The file; FileNotFoundError when it is not there."""
        ...

    def exists(self, revision: int, name: str) -> bool: ...

    def get_at_most(self, revision: int, name: str, max_bytes: int) -> bytes | int | None:
        """The file, or its size when larger than `max_bytes` (not read), or None when it is
        not there: one request, for what a runner wrote (untrusted, so bounded)."""
        ...

    def revisions(self) -> list[int]: ...


TEMPORARY_PREFIX = ".tmp-"  # files being written; never a stored file's name


def create_file_once(path: Path, data: bytes) -> bool:
    """Create `path` holding `data`, or leave it as it is: False when it exists already.
    The bytes go to a temporary file that is then hard-linked to its name, so no reader ever
    sees half a file and of two writers racing for one name exactly one creates it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.parent / f"{TEMPORARY_PREFIX}{uuid.uuid4().hex}"
    temporary.write_bytes(data)
    try:
        os.link(temporary, path)
    except FileExistsError:
        return False
    finally:
        temporary.unlink()
    return True


def write_file_once(path: Path, data: bytes) -> str:
    """Write a local file that must never change: the same bytes again are a no-op, other
    bytes raise RevisionExistsError. Returns its file:// URI."""
    if not create_file_once(path, data) and path.read_bytes() != data:
        raise RevisionExistsError(f"{path} exists with other content")
    return path.as_uri()


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

    def get_at_most(self, revision: int, name: str, max_bytes: int) -> bytes | int | None:
        path = self.root / revision_key(revision, name)
        if not path.is_file():
            return None
        with path.open("rb") as file:
            data = file.read(max_bytes + 1)
        return data if len(data) <= max_bytes else path.stat().st_size

    def revisions(self) -> list[int]:
        folder = self.root / REVISIONS
        if not folder.is_dir():
            return []
        return sorted(int(p.name) for p in folder.iterdir() if p.name.isdigit())


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
        return head_s3(self.client, self.bucket, self._key(revision, name))

    def get_at_most(self, revision: int, name: str, max_bytes: int) -> bytes | int | None:
        return read_s3_at_most(self.client, self.bucket, self._key(revision, name), max_bytes)

    def revisions(self) -> list[int]:
        folders = list_folders(self.client, self.bucket, join_key(self.prefix, REVISIONS) + "/")
        return sorted({int(name) for name in folders if name.isdigit()})


def open_store(uri_or_path: str) -> RevisionStore:
    if uri_or_path.startswith("s3://"):
        return S3Store(uri_or_path)
    return LocalStore(Path(uri_or_path))


# -- the JSON files, typed --------------------------------------------------------------------


def _json(document: object) -> bytes:
    return (json.dumps(document, indent=2, sort_keys=True) + "\n").encode()


def write_execution(
    store: RevisionStore, revision: int, runs: list[ExecutionResult], name: str = EXECUTION
) -> None:
    """`execution.json`, or one run's own `execution-N.json` (`layout.execution_name`)."""
    store.put(revision, name, _json({"runs": [run.to_wire() for run in runs]}))


def has_execution(store: RevisionStore, revision: int) -> bool:
    return store.exists(revision, EXECUTION)


def read_execution(
    store: RevisionStore, revision: int, name: str, max_bytes: int
) -> list[ExecutionResult] | None:
    """A runner's execution facts (untrusted: at most `max_bytes` are read); None when it
    stored none. ValueError when too large or not what the layout says (pydantic's too)."""
    data = store.get_at_most(revision, name, max_bytes)
    if data is None:
        return None
    if isinstance(data, int):
        raise ValueError(f"{name}: {data} bytes, more than {max_bytes}")
    document = json.loads(data)
    return [ExecutionResult.model_validate(run) for run in document["runs"]]


def read_submission(
    store: RevisionStore, revision: int, run: int, max_bytes: int
) -> bytes | Oversized | None:
    """What run `run` of the revision wrote; None when it wrote nothing. One larger than
    `max_bytes` is not read, nor is one its runner found too large to keep: Oversized."""
    data = store.get_at_most(revision, submission_name(run), max_bytes)
    if isinstance(data, int):
        return Oversized(data)
    if data is None:
        return None
    return read_stand_in(data) or data


def write_submission(
    store: RevisionStore, revision: int, run: int, submission: bytes | Oversized
) -> None:
    """Run `run`'s submission, or the stand-in of one too large to keep."""
    data = stand_in(submission) if isinstance(submission, Oversized) else submission
    store.put(revision, submission_name(run), data)


@dataclass(frozen=True)
class StoredResult:
    """result.json: a graded revision."""

    execution: ExecutionResult
    score: ScoreResult
    diagnosis: Diagnosis
    run: int = 0  # the run that speaks for the revision; older result.json files hold run 0's


def write_result(store: RevisionStore, revision: int, result: StoredResult) -> None:
    document: dict[str, object] = {
        "execution": result.execution.to_wire(),
        "score": result.score.to_wire(),
        "diagnosis": result.diagnosis.to_wire(),
    }
    if result.run:  # written only where it says more than the file's default
        document["run"] = result.run
    store.put(revision, RESULT, _json(document))


def read_if_there(store: RevisionStore, revision: int, name: str) -> bytes | None:
    """A file of the revision, or None when it is not there: one request (a GET, not a
    HEAD and then a GET), for the files the operator writes itself."""
    try:
        return store.get(revision, name)
    except FileNotFoundError:
        return None


def read_result(store: RevisionStore, revision: int) -> StoredResult | None:
    """None when the revision has not been graded yet."""
    data = read_if_there(store, revision, RESULT)
    if data is None:
        return None
    document = json.loads(data)
    run = document.get("run", 0)
    if not isinstance(run, int) or isinstance(run, bool) or run < 0:
        raise ValueError(f"revision {revision}'s {RESULT}: run is {run!r}, not a run index")
    return StoredResult(
        ExecutionResult.model_validate(document["execution"]),
        ScoreResult.model_validate(document["score"]),
        Diagnosis.model_validate(document["diagnosis"]),
        run,
    )


def write_fix(store: RevisionStore, record: FixRecord) -> None:
    """fix.json of the revision the fix made (`record.iteration`)."""
    data = (record.model_dump_json(by_alias=True, indent=2) + "\n").encode()
    store.put(record.iteration, FIX, data)


def read_fix(store: RevisionStore, revision: int) -> FixRecord | None:
    """None for revision 0, and for a revision whose fix was not recorded (yet)."""
    data = read_if_there(store, revision, FIX)
    return None if data is None else FixRecord.model_validate_json(data)


def write_spec(store: RevisionStore, spec: ModernizationSpec, generation: int | None) -> None:
    """The spec a run started with (the operator's; revision 0's spec.json)."""
    store.put(0, SPEC, _json({"generation": generation, "spec": spec.to_wire()}))


def read_spec(store: RevisionStore) -> ModernizationSpec | None:
    """The spec the run started with; None before it started."""
    data = read_if_there(store, 0, SPEC)
    return None if data is None else ModernizationSpec.model_validate(json.loads(data)["spec"])
