"""Admission: whether a modernization's inputs can run, checked the same way by both drivers.

`admit` checks every file the spec names, keeps the original notebook as revision 0 (byte for
byte, before it is parsed, so an unreadable notebook is kept too) and returns what the loop
needs. What cannot run raises InvalidInputError naming the field:

    spec.notebook: file not found: notebook.ipynb
    spec.score.answers: answers file ... has no id column 'id' (...); set spec.score.idColumn
    spec.inputs: in a cluster it must be an s3:// URI (or use execution.inputsVolumeClaim): 'in'

A file that cannot be read because S3 cannot be reached raises StoreError (its message
names the field too): the operator retries it, the CLI reports it as invalid input.

The local CLI reads relative paths from the spec file's folder (`base`) and downloads s3://
files into `scratch`. In a cluster (`base` None) there is no local file: every file must be
an s3:// URI (the inputs may come from `execution.inputsVolumeClaim` instead), and the inputs
are fetched by each Job, not here.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from nbmodernizer.grade import Answers, AnswersError, load_answers
from nbmodernizer.notebook import NotebookError, parse_notebook
from nbmodernizer.spec import ModernizationSpec, ScoreSpec
from nbmodernizer.store import StoreError
from nbmodernizer.store.layout import NOTEBOOK
from nbmodernizer.store.revisions import RevisionStore, read_if_there
from nbmodernizer.store.s3 import fetch_dir, fetch_file, is_s3, read_bytes

NO_BASE = Path("/")  # in a cluster every ref is an s3:// URI: nothing is relative


class InvalidInputError(Exception):
    """Input that cannot be run; the message names the field and what is wrong."""


@dataclass(frozen=True)
class Admitted:
    """What the loop needs from an admitted modernization."""

    answers: Answers
    inputs: Path | None
    """The notebook's input folder on this machine; None without inputs, and in a cluster."""
    notes: list[str] = field(default_factory=list)
    """What reading the notebook noted (e.g. `upgraded from nbformat 3 to 4`)."""


def admit(
    spec: ModernizationSpec,
    base: Path | None,
    store: RevisionStore,
    scratch: Path | None = None,
    answers: Answers | None = None,
) -> Admitted:
    """Check the spec's files and keep revision 0 in `store`; InvalidInputError naming the field
    when the modernization cannot run. `base`: the spec file's folder; None in a cluster.
    `scratch`: where a local run downloads s3:// inputs. `answers`: the spec's answers, read
    and checked already (the operator reads each answers URI once)."""
    if base is None:
        require_s3(spec)
    original = keep_original(spec.notebook, base, store)
    try:
        notes = parse_notebook(original).notes
    except NotebookError as error:
        raise InvalidInputError(f"spec.notebook: {error}") from None
    if answers is None:
        answers = read_answers(spec.score, base)
    inputs = None
    if base is not None:  # a local run: the kernel runs here, on these inputs
        if scratch is None:
            raise ValueError("admit: a local run needs a scratch folder")
        inputs = fetch_inputs(spec.inputs, base, scratch)
    return Admitted(answers, inputs, list(notes))


def require_s3(spec: ModernizationSpec) -> None:
    """In a cluster the operator and the Jobs can only read s3:// URIs."""
    for name, ref in (("spec.notebook", spec.notebook), ("spec.score.answers", spec.score.answers)):
        if not is_s3(ref):
            raise InvalidInputError(f"{name}: in a cluster it must be an s3:// URI: {ref!r}")
    if spec.inputs and not is_s3(spec.inputs) and spec.execution.inputs_volume_claim is None:
        raise InvalidInputError(
            f"spec.inputs: in a cluster it must be an s3:// URI (or use "
            f"execution.inputsVolumeClaim): {spec.inputs!r}"
        )


def keep_original(ref: str, base: Path | None, store: RevisionStore) -> bytes:
    """The original notebook, kept as revision 0 (read from `ref` only when not kept yet)."""
    kept = read_if_there(store, 0, NOTEBOOK)
    if kept is not None:
        return kept
    with _named("spec.notebook"):
        try:
            original = read_bytes(ref, base or NO_BASE)
        except (FileNotFoundError, IsADirectoryError):
            raise InvalidInputError(f"spec.notebook: file not found: {ref}") from None
    store.put(0, NOTEBOOK, original)
    return original


def read_answers(score: ScoreSpec, base: Path | None) -> Answers:
    """The private answers, checked (an id column, a target column, unique ids)."""
    with tempfile.TemporaryDirectory(prefix="nbmod-answers-") as scratch:
        with _named("spec.score.answers"):
            path = _fetch_answers(score.answers, base, Path(scratch))
        try:
            return load_answers(path, score.id_column)
        except AnswersError as error:
            raise InvalidInputError(f"spec.score.answers: {error}") from None


def _fetch_answers(ref: str, base: Path | None, scratch: Path) -> Path:
    try:
        path = fetch_file(ref, base or NO_BASE, scratch)
    except FileNotFoundError:
        path = None
    if path is None or not path.is_file():
        raise InvalidInputError(f"spec.score.answers: file not found: {ref}")
    return path


def fetch_inputs(ref: str | None, base: Path, scratch: Path) -> Path | None:
    """The input folder on this machine (an s3:// prefix is downloaded into `scratch`)."""
    if not ref:
        return None
    with _named("spec.inputs"):
        try:
            return fetch_dir(ref, base, scratch / "input")
        except FileNotFoundError as error:
            raise InvalidInputError(f"spec.inputs: {error}") from None


@contextmanager
def _named(name: str) -> Iterator[None]:
    """A StoreError reading what field `name` refers to, named by it."""
    try:
        yield
    except StoreError as error:
        raise StoreError(f"{name}: {error}") from None
