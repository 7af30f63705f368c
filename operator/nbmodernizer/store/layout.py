"""Every name of the store's layout (see the package's docstring): file names, revision keys
and revision folder URIs. No I/O, so the pure parts (the Job manifest) can name revisions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

REVISIONS = "revisions"

NOTEBOOK = "notebook.ipynb"
EXECUTED = "executed.ipynb"
EXECUTION = "execution.json"
ENVIRONMENT = "environment.json"  # the facts of the environment the revision's kernel ran in
RESULT = "result.json"
SUBMISSION = "submission.csv"
FIX = "fix.json"
SPEC = "spec.json"
# The environment's FACTS (envprobe.py's JSON), written once, before the notebook runs
ENVIRONMENT = "environment.json"
# The differential run (--oracle-python): revision 0's run in an era (revision 0 only), and
# what each cell of a revision's run today bound (`bound_cells`, `oracle`)
ORACLE = "oracle.json"
BOUND = "bound.json"
# At the top of a store, beside `revisions/`, once a run has finished:
REPORT_JSON = "report.json"  # the status object (a run folder only; in a cluster: .status)
REPORT_HTML = "report.html"  # report.render_html
FINAL_NOTEBOOK = "final.ipynb"  # the best revision, executed


@dataclass(frozen=True)
class Oversized:
    """A submission larger than the limit: never read whole, never kept; only its size."""

    size: int


# What a store keeps instead of an oversized submission: this line, then its size in bytes.
# Readers turn it back into `Oversized` (`read_stand_in`); grading never sees the line.
OVERSIZE_MARKER = b"#nbmodernizer: oversized submission: "
_STAND_IN_SIZE = re.compile(rb"(\d+) bytes")


def stand_in(oversized: Oversized) -> bytes:
    return OVERSIZE_MARKER + f"{oversized.size} bytes".encode() + b"\n"


def read_stand_in(data: bytes) -> Oversized | None:
    """The Oversized a stored stand-in says (an older runner's line too:
    `submission.csv is N bytes, more than ...`); None for a submission."""
    if not data.startswith(OVERSIZE_MARKER):
        return None
    found = _STAND_IN_SIZE.search(data, len(OVERSIZE_MARKER), len(OVERSIZE_MARKER) + 200)
    return Oversized(int(found.group(1)) if found else 0)


_REVISION_FOLDER = re.compile(rf"^(?P<root>.+?)/{REVISIONS}/(?P<number>\d+)/?$")


def _numbered(name: str, run: int) -> str:
    """Run 0 keeps the plain name; run N (score.runs > 1) numbers it: `name-N.ext`."""
    if run == 0:
        return name
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}-{run}{dot}{suffix}"


def submission_name(run: int) -> str:
    """Run 0's submission is `submission.csv`; further runs (score.runs > 1) are numbered."""
    return _numbered(SUBMISSION, run)


def executed_name(run: int) -> str:
    """What run N of an Indexed Job executed: `executed.ipynb` for run 0, `executed-N.ipynb`."""
    return _numbered(EXECUTED, run)


def execution_name(run: int) -> str:
    """Run N's execution facts when each run stores its own (an Indexed Job's index N):
    `execution.json` for run 0, `execution-N.json`. Written last of the run's files."""
    return _numbered(EXECUTION, run)


def run_output_names(run: int) -> list[str]:
    """The files run N of an Indexed Job writes, in the order it writes them."""
    return [executed_name(run), submission_name(run), execution_name(run)]


def revision_key(revision: int, name: str) -> str:
    """`revisions/0003/notebook.ipynb`; with name "" the revision's folder, `revisions/0003/`."""
    return f"{REVISIONS}/{revision:04d}/{name}"


def revision_folder_uri(root: str, revision: int) -> str:
    """The folder of a revision under a store's root URI: `<root>/revisions/0003/`."""
    return f"{root.rstrip('/')}/{revision_key(revision, '')}"


def parse_revision_folder_uri(uri: str) -> tuple[str, int] | None:
    """`<root>/revisions/0003/` -> (root, 3); None when `uri` is not a revision's folder."""
    match = _REVISION_FOLDER.match(uri)
    if match is None:
        return None
    return match.group("root"), int(match.group("number"))
