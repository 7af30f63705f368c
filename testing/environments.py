"""The tests' other environment: a venv that stands for a notebook image that is not ours.

One venv serves every test that needs "another environment": `nbmod modernize --python`
(tests/test_kernel_python.py) and a resource whose `spec.execution.image` is another image
(tests/k8s/, the test kubelet maps `OTHER_IMAGE` to its python, as a node would run that
image). It holds ipykernel and older libraries than the test environment's, and no
nbmodernizer: pandas 1.5, where `read_csv(error_bad_lines=...)`, `DataFrame.iteritems` and
`DataFrame.applymap` still exist (pandas 2 removed the first two, pandas 3 the last); numpy
1.26.

It is made from this interpreter's base Python (the same minor version) and kept under
CACHE/other-<key>, the key a hash of REQUIREMENTS and that Python, so later runs reuse it.
Made under a lock (two test processes wait for one build) and marked complete last, so a
build that was interrupted is made again. Needs PyPI the first time (pandas 1.5 is on no
local mirror); pip's own cache makes a rebuild cheap. The fixture `other_environment` makes
it on first use, so CI (a clean clone) builds it in the first test that needs it, and a build
that fails fails that test with pip's message.

Usage: python -m testing.environments   prints the venv's bin/python, made first if needed
                                         (exit 1 and why when it cannot be made)
Environment: NBMOD_VENV_CACHE           the folder to keep venvs in (default: TMPDIR/nbmod-venvs)
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

OTHER_IMAGE = "registry.example/other-environment:pandas-1.5"
REQUIREMENTS = ("ipykernel==6.29.5", "numpy==1.26.4", "pandas==1.5.3")
CACHE_ENV = "NBMOD_VENV_CACHE"
COMPLETE = ".complete"  # written last: the venv is whole
INSTALL_TIMEOUT_SECONDS = 900


class VenvError(Exception):
    pass


@dataclass(frozen=True)
class Environment:
    """A venv standing for an image: its interpreter and its distributions' versions."""

    image: str
    python: Path
    versions: dict[str, str]


def base_python() -> Path:
    """The interpreter venvs are made from: this one's base installation's (a venv of a venv
    would share its site)."""
    for name in (f"python{sys.version_info.major}.{sys.version_info.minor}", "python3"):
        found = Path(sys.base_prefix) / "bin" / name
        if found.is_file():
            return found
    raise VenvError(f"no base interpreter under {sys.base_prefix}/bin")


def cache_folder() -> Path:
    configured = os.environ.get(CACHE_ENV)
    return Path(configured) if configured else Path(tempfile.gettempdir()) / "nbmod-venvs"


def venv_folder(base: Path, requirements: tuple[str, ...]) -> Path:
    key = hashlib.sha256("\n".join((str(base), *requirements)).encode()).hexdigest()[:16]
    return cache_folder() / f"other-{key}"


def _run(command: list[str], what: str) -> str:
    # the venv stands for an image: what the caller's PYTHONPATH holds (a checkout's
    # nbmodernizer.egg-info) is not in it
    isolated = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT_SECONDS,
            check=False,
            env=isolated,
        )
    except subprocess.TimeoutExpired:
        raise VenvError(f"{what}: no end after {INSTALL_TIMEOUT_SECONDS} s") from None
    if done.returncode != 0:
        said = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise VenvError(f"{what} failed (exit {done.returncode}):\n{said}")
    return done.stdout


def make_venv(requirements: tuple[str, ...] = REQUIREMENTS) -> Path:
    """The venv's bin/python (unresolved: a venv's link), made first when it is not whole."""
    base = base_python()
    folder = venv_folder(base, requirements)
    python = folder / "bin" / "python"
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process building it: wait for it
        if (folder / COMPLETE).is_file():
            return python
        shutil.rmtree(folder, ignore_errors=True)  # an interrupted build
        _run([str(base), "-m", "venv", str(folder)], f"{base} -m venv {folder}")
        install = [str(python), "-m", "pip", "install", "--quiet",
                   "--disable-pip-version-check", *requirements]  # fmt: skip
        _run(install, f"pip install {' '.join(requirements)} into {folder}")
        (folder / COMPLETE).write_text("\n".join(requirements) + "\n")
    return python


def versions(python: Path) -> dict[str, str]:
    """Distribution (lower-case) -> version, of what the venv holds."""
    listing = _run(
        [str(python), "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
        f"pip list in {python}",
    )
    return {item["name"].lower(): item["version"] for item in json.loads(listing)}


@pytest.fixture(scope="session")
def other_environment() -> Environment:
    """The other environment (pandas 1.5, numpy 1.26, ipykernel; no nbmodernizer), made on
    first use and kept between test runs."""
    try:
        python = make_venv()
        return Environment(OTHER_IMAGE, python, versions(python))
    except VenvError as error:
        pytest.fail(f"the other environment cannot be made: {error}")


def main() -> int:
    try:
        print(make_venv())
    except VenvError as error:
        print(f"testing.environments: cannot make the other environment: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
