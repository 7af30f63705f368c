"""A run's outputs and the run folder that holds them.

`nbmod modernize --out DIR` writes a run folder, and `nbmod pull` downloads one from a
cluster; both have the same layout, so every tool that reads one reads the other:

    DIR/report.json     the status object (pulled: the resource's `.status`, verbatim)
    DIR/report.html     the HTML report (`report.render_html`: one renderer for both)
    DIR/final.ipynb     the best revision, executed
    DIR/revisions/NNNN/ every revision's files (the layout of `nbmodernizer.store`)

The operator stores `report.html` and `final.ipynb` beside the revisions under the
modernization's S3 prefix, write-once like every revision file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from nbmodernizer.engine import MAX_EXECUTED_BYTES, load_notebook
from nbmodernizer.notebook import serialise
from nbmodernizer.report import render_html
from nbmodernizer.spec import ScoreSpec
from nbmodernizer.status import OPERATOR_STATUS_FIELDS, ModernizationStatus
from nbmodernizer.store.layout import EXECUTED, FINAL_NOTEBOOK, REPORT_HTML, REPORT_JSON
from nbmodernizer.store.revisions import LocalStore, RevisionStore, write_file_once
from nbmodernizer.store.s3 import parse_s3_uri, s3_client, write_s3_once

DEFAULT_TOLERANCE: float = ScoreSpec.model_fields["tolerance"].default


class RunFolderError(Exception):
    """A folder that is not a run folder, or one that cannot be read."""


def report_files(
    store: RevisionStore, status: ModernizationStatus, name: str, tolerance: float
) -> dict[str, bytes]:
    """`report.html` and `final.ipynb` of a finished run from its revisions; none when no
    revision was executed (a run that could not start)."""
    best = status.best_revision
    # a runner wrote it: bounded
    executed = store.get_at_most(best, EXECUTED, MAX_EXECUTED_BYTES) if best is not None else None
    if best is None or executed is None:
        return {}
    source = load_notebook(store, best)
    html = render_html(status, name, load_notebook(store, 0), source, tolerance)
    final = executed if isinstance(executed, bytes) else serialise(source)
    return {REPORT_HTML: html.encode(), FINAL_NOTEBOOK: final}


def status_json(status: dict[str, Any]) -> str:
    """report.json's text: the status object as `nbmod modernize` writes it."""
    return json.dumps(status, indent=2, sort_keys=False) + "\n"


def uri_beside(store: RevisionStore, name: str) -> str:
    """The URI of `name` at the top of the store, beside `revisions/`."""
    return f"{store.uri.rstrip('/')}/{name}"


def put_beside(store: RevisionStore, name: str, data: bytes) -> str:
    """Write `name` at the top of the store, beside `revisions/`, once: the same bytes again
    are a no-op, other bytes raise RevisionExistsError. Returns its URI."""
    uri = uri_beside(store, name)
    if uri.startswith("s3://"):
        bucket, key = parse_s3_uri(uri)
        return write_s3_once(s3_client(), bucket, key, data)
    return write_file_once(Path(unquote(urlparse(uri).path)), data)


# -- reading a run folder ----------------------------------------------------------------------


def read_status(folder: Path) -> ModernizationStatus:
    """The status in a run folder's report.json (a pulled one may carry the operator's
    `observedGeneration` and `conditions` as well: they are not the model's)."""
    try:
        document = json.loads((folder / REPORT_JSON).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RunFolderError(f"{folder}: no {REPORT_JSON}: not a run folder") from None
    except (OSError, ValueError) as error:
        raise RunFolderError(f"{folder / REPORT_JSON}: {error}") from None
    if not isinstance(document, dict):
        raise RunFolderError(f"{folder / REPORT_JSON}: not a status object")
    model = {k: v for k, v in document.items() if k not in OPERATOR_STATUS_FIELDS}
    try:
        return ModernizationStatus.model_validate(model)
    except ValueError as error:
        raise RunFolderError(f"{folder / REPORT_JSON}: {error}") from None


def render_folder(folder: Path, name: str | None = None) -> str:
    """The HTML report of a run folder, rendered again from its report.json and revisions:
    the same page `nbmod modernize` (or the operator) wrote for it."""
    status = read_status(folder)
    score = status.score
    tolerance = score.tolerance if score and score.tolerance is not None else DEFAULT_TOLERANCE
    files = report_files(LocalStore(folder), status, name or folder.resolve().name, tolerance)
    if REPORT_HTML not in files:
        raise RunFolderError(f"{folder}: no revision was executed: there is nothing to report")
    return files[REPORT_HTML].decode()
