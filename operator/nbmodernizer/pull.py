"""`nbmod pull`: a modernization's run folder, downloaded from the store its status names.

The folder has the layout `nbmod modernize --out` writes (see `nbmodernizer.runfolder`):
`report.json` is the resource's `.status`, verbatim; `report.html` and `final.ipynb` are the
files the operator stored when the run finished (`status.report`, `status.finalNotebook`);
`revisions/NNNN/...` is every revision file under the modernization's S3 prefix.

Pulling again brings a folder up to date: revision files are write-once in the store, so a
file already here with the same size is kept, a new one is added, and a different one (a
folder of another run) is refused; `report.json` is replaced by the status of now. A folder
that holds another run's report.json, or other files and no report.json, is refused.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nbmodernizer.runfolder import status_json
from nbmodernizer.store import RevisionExistsError, StoreError
from nbmodernizer.store.layout import FINAL_NOTEBOOK, REPORT_HTML, REPORT_JSON
from nbmodernizer.store.revisions import LocalStore, write_file_once
from nbmodernizer.store.s3 import parse_s3_uri, read_bytes, read_s3, s3_client

REVISIONS = "revisions"


class PullError(Exception):
    """The run cannot be pulled into that folder; the message says why."""


@dataclass(frozen=True)
class Pulled:
    folder: Path
    downloaded: int  # files fetched now
    kept: int  # files that were here already
    report: bool  # report.html is in the folder


def store_prefix(status: dict[str, Any]) -> str | None:
    """The s3:// prefix a modernization's files live under, from its status: the folder of
    its report, else of its revisions (`<prefix>/revisions/NNNN/notebook.ipynb`)."""
    report = status.get("report")
    if isinstance(report, str) and report.startswith("s3://"):
        return report.rsplit("/", 1)[0]
    for revision in status.get("revisions") or []:
        uri = str(revision.get("uri") or "")
        cut = uri.rfind(f"/{REVISIONS}/")
        if uri.startswith("s3://") and cut > 0:
            return uri[:cut]
    return None


def _check_folder(folder: Path, prefix: str | None) -> None:
    if not folder.exists():
        return
    if not folder.is_dir():
        raise PullError(f"{folder} is not a folder")
    here = folder / REPORT_JSON
    if not here.is_file():
        if any(folder.iterdir()):
            raise PullError(f"{folder} is not empty and holds no {REPORT_JSON}: not a run folder")
        return
    try:
        theirs = store_prefix(json.loads(here.read_text(encoding="utf-8")))
    except (OSError, ValueError, AttributeError) as error:
        raise PullError(f"{here}: {error}") from None
    if theirs != prefix:
        raise PullError(f"{folder} holds another run ({theirs or 'a local one'}), not {prefix}")


def _objects(bucket: str, prefix: str) -> list[tuple[str, int]]:
    from botocore.exceptions import BotoCoreError, ClientError

    paginator = s3_client().get_paginator("list_objects_v2")
    try:
        pages = list(paginator.paginate(Bucket=bucket, Prefix=prefix))
    except (BotoCoreError, ClientError) as error:
        raise StoreError(f"cannot list s3://{bucket}/{prefix}: {error}") from None
    return [(item["Key"], int(item["Size"])) for page in pages for item in page.get("Contents", [])]


def _pull_revisions(prefix: str, folder: Path) -> tuple[int, int]:
    bucket, root = parse_s3_uri(prefix)
    base = "/".join(part for part in (root.strip("/"), REVISIONS) if part) + "/"
    store = LocalStore(folder)
    downloaded = kept = 0
    for key, size in _objects(bucket, base):
        parts = key[len(base) :].split("/")
        if len(parts) != 2 or not parts[0].isdigit() or parts[1].startswith(".") or not parts[1]:
            continue  # not a revision file
        revision, name = int(parts[0]), parts[1]
        target = folder / REVISIONS / parts[0] / name
        if target.is_file() and target.stat().st_size == size:
            kept += 1
            continue
        store.put(revision, name, read_s3(s3_client(), bucket, key))
        downloaded += 1
    return downloaded, kept


def pull_run(status: dict[str, Any], folder: Path) -> Pulled:
    """Download the run a status describes into `folder` (made if absent)."""
    prefix = store_prefix(status)
    _check_folder(folder, prefix)
    folder.mkdir(parents=True, exist_ok=True)
    downloaded = kept = 0
    try:
        if prefix is not None:
            downloaded, kept = _pull_revisions(prefix, folder)
        for name, field in ((REPORT_HTML, "report"), (FINAL_NOTEBOOK, "finalNotebook")):
            uri = str(status.get(field) or "")
            if not uri or (folder / name).is_file():  # write-once: what is here is it
                kept += bool(uri)
                continue
            if not uri.startswith("s3://"):
                raise PullError(f"status.{field} is not an s3:// URI: {uri!r}")
            write_file_once(folder.resolve() / name, read_bytes(uri, folder))
            downloaded += 1
    except (StoreError, FileNotFoundError, ValueError) as error:
        raise PullError(f"cannot download from the store: {error}") from None
    except RevisionExistsError as error:
        raise PullError(f"{error}: {folder} holds another run") from None
    (folder / REPORT_JSON).write_text(status_json(status), encoding="utf-8")
    return Pulled(folder, downloaded, kept, (folder / REPORT_HTML).is_file())


def run_folder(root: Path, resource: dict[str, Any]) -> Path:
    """Where a fleet pull puts a resource's run: `root/<namespace>/<name>`."""
    meta = resource["metadata"]
    return root / str(meta["namespace"]) / str(meta["name"])


def pull_many(
    resources: Sequence[dict[str, Any]], root: Path, workers: int = 8
) -> list[tuple[dict[str, Any], Pulled | PullError]]:
    """Pull each resource into `run_folder(root, resource)`, `workers` at a time; a failure is
    returned in its place, not raised (one broken run does not stop the others)."""

    def one(resource: dict[str, Any]) -> Pulled | PullError:
        try:
            return pull_run(resource.get("status") or {}, run_folder(root, resource))
        except PullError as error:
            return error

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return list(zip(resources, pool.map(one, resources), strict=True))
