"""`nbmod push spec.yaml --to s3://bucket/prefix`: from local to cluster in one step.

Uploads the spec's notebook, inputs and answers under `<prefix>/<name>/` and prints the same
spec with s3:// URIs, ready for `kubectl apply -f -`. Objects are written once: pushing the
same files again is a no-op; a different file where one was pushed is refused.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from nbmodernizer.spec import NotebookModernization, parse_modernization
from nbmodernizer.store.s3 import (
    is_s3,
    join_key,
    local_path,
    parse_s3_uri,
    s3_client,
    write_s3_once,
)


class PushError(Exception):
    """A file the spec names cannot be pushed; the message names the field."""


def _upload_file(client: Any, path: Path, bucket: str, key: str, field: str) -> str:
    if not path.is_file():
        raise PushError(f"{field}: file not found: {path}")
    return write_s3_once(client, bucket, key, path.read_bytes())


def _upload_dir(client: Any, folder: Path, bucket: str, key: str, field: str) -> str:
    if not folder.is_dir():
        raise PushError(f"{field}: not a directory: {folder}")
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    if not files:
        raise PushError(f"{field}: {folder} holds no files")
    for path in files:
        write_s3_once(
            client, bucket, f"{key}/{path.relative_to(folder).as_posix()}", path.read_bytes()
        )
    return f"s3://{bucket}/{key}/"


def push(spec_path: Path, to: str, client: Any | None = None) -> dict[str, Any]:
    """Upload what `spec_path` names; return the spec document with s3:// URIs."""
    document = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
    resource: NotebookModernization = parse_modernization(document, str(spec_path))
    spec = resource.spec
    bucket, prefix = parse_s3_uri(to)
    root = join_key(prefix, resource.metadata.name)
    client = client if client is not None else s3_client()
    base = spec_path.resolve().parent
    pushed: dict[str, Any] = copy.deepcopy(document)
    wire = pushed["spec"]
    if not is_s3(spec.notebook):
        path = local_path(spec.notebook, base)
        wire["notebook"] = _upload_file(
            client, path, bucket, f"{root}/{path.name}", "spec.notebook"
        )
    if spec.inputs and not is_s3(spec.inputs):
        wire["inputs"] = _upload_dir(
            client, local_path(spec.inputs, base), bucket, f"{root}/input", "spec.inputs"
        )
    if not is_s3(spec.score.answers):
        path = local_path(spec.score.answers, base)
        wire["score"]["answers"] = _upload_file(
            client, path, bucket, f"{root}/answers/{path.name}", "spec.score.answers"
        )
    return pushed


def render(document: dict[str, Any]) -> str:
    return yaml.safe_dump(document, sort_keys=False)
