"""What the operator leaves when a modernization finishes: `report.html` and `final.ipynb`
beside its revisions (under the modernization's S3 prefix, write-once like every revision
file), and their URIs in the status (`status.report`, `status.finalNotebook`).

The report is rendered from the status and the stored revisions by the one renderer the CLI
uses (`report.render_html`), so it is the page `nbmod modernize` writes for the same run.
Publishing again (an operator restarted between storing the files and writing the status)
stores the same bytes: a no-op. Should a file already hold other bytes (an operator of
another version rendered it first), the stored one is kept: it reports the same run.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from nbmodernizer.cluster.wire import text
from nbmodernizer.runfolder import put_beside, report_files, uri_beside
from nbmodernizer.status import ModernizationStatus
from nbmodernizer.store import RevisionExistsError
from nbmodernizer.store.layout import FINAL_NOTEBOOK, REPORT_HTML
from nbmodernizer.store.revisions import RevisionStore

log = logging.getLogger("nbmodernizer.operator")


def publish(
    store: RevisionStore, status: ModernizationStatus, name: str, tolerance: float
) -> ModernizationStatus:
    """Store the finished run's report and final notebook; the status with their URIs."""
    uris: dict[str, str] = {}
    for file, data in report_files(store, status, name, tolerance).items():
        try:
            uris[file] = put_beside(store, file, data)
        except RevisionExistsError:
            uris[file] = uri_beside(store, file)
            log.warning("%s exists with other content; the stored one is kept", uris[file])
    if not uris:
        return status
    return status.model_copy(
        update={"report": uris[REPORT_HTML], "final_notebook": uris[FINAL_NOTEBOOK]}
    )


def published(status: Mapping[str, object]) -> str | None:
    """The Event message saying where a finished run's report and final notebook are (`status`:
    the wire form)."""
    report, final = text(status, "report"), text(status, "finalNotebook")
    if not report or not final:
        return None
    return f"report: {report}; final notebook: {final}"
