#!/usr/bin/env python3
"""Make, once, a venv standing for "another environment" and print its interpreter's path.

The venv has other library versions than nbmodernizer's own environment (pandas 1.5, where
`DataFrame.iteritems` and `read_csv(error_bad_lines=...)` still exist; numpy 1.26) and only
ipykernel besides them: no nbmodernizer. The tests run notebooks in it with
`nbmod modernize --python` (and the cluster's tests may stand it in for "another image").

It is made from this interpreter's base Python (the same minor version) and kept under
CACHE/<key>, the key a hash of REQUIREMENTS and that Python, so later runs reuse it. Made
under a lock (two test processes wait for one build) and marked complete last, so a build
that was interrupted is made again. Needs PyPI (pandas 1.5 is on no local mirror); pip's own
cache makes a rebuild cheap.

Usage: scripts/other_venv.py            prints the venv's bin/python (exit 1 and why when
                                         it cannot be made)
Environment: NBMOD_VENV_CACHE           the folder to keep venvs in (default: TMPDIR/nbmod-venvs)
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REQUIREMENTS = ("ipykernel==6.29.5", "numpy==1.26.4", "pandas==1.5.3")
COMPLETE = ".complete"  # written last: the venv is whole
INSTALL_TIMEOUT_SECONDS = 900


class VenvError(Exception):
    pass


def base_python() -> Path:
    """The interpreter venvs are made from: this one's base installation's."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    path = Path(sys.base_prefix) / "bin" / version
    if not path.is_file():
        raise VenvError(f"no base interpreter at {path} (sys.base_prefix {sys.base_prefix})")
    return path


def cache_folder() -> Path:
    configured = os.environ.get("NBMOD_VENV_CACHE")
    return Path(configured) if configured else Path(tempfile.gettempdir()) / "nbmod-venvs"


def venv_folder(base: Path) -> Path:
    key = hashlib.sha256("\n".join((str(base), *REQUIREMENTS)).encode()).hexdigest()[:16]
    return cache_folder() / f"other-{key}"


def _run(command: list[str], what: str) -> None:
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_SECONDS, check=False
        )
    except subprocess.TimeoutExpired:
        raise VenvError(f"{what}: no end after {INSTALL_TIMEOUT_SECONDS} s") from None
    if done.returncode != 0:
        said = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise VenvError(f"{what} failed (exit {done.returncode}):\n{said}")


def make_venv() -> Path:
    """The venv's bin/python, made first when it is not there whole."""
    base = base_python()
    folder = venv_folder(base)
    python = folder / "bin" / "python"
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process building it: wait for it
        if (folder / COMPLETE).is_file():
            return python
        shutil.rmtree(folder, ignore_errors=True)  # an interrupted build
        _run([str(base), "-m", "venv", str(folder)], f"{base} -m venv {folder}")
        install = [str(python), "-m", "pip", "install", "--quiet", *REQUIREMENTS]
        _run(install, f"pip install {' '.join(REQUIREMENTS)} into {folder}")
        (folder / COMPLETE).write_text("\n".join(REQUIREMENTS) + "\n")
    return python


def main() -> int:
    try:
        print(make_venv())
    except VenvError as error:
        message = f"scripts/other_venv.py: cannot make the other environment's venv: {error}"
        print(message, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
