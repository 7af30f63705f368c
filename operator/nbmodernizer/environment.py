"""Facts about the environment a notebook meets: which packages it imports, at which versions."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from functools import cache
from importlib import metadata
from pathlib import Path

from IPython.core.inputtransformer2 import TransformerManager

from nbmodernizer import cells
from nbmodernizer.kernelhost import visible_gpus as visible_gpus  # its home: the kernel host
from nbmodernizer.notebook import Notebook, code_cells
from nbmodernizer.status import InputFile

MAX_INPUT_FILES = 30


def python_source(cell_source: str) -> str:
    """Cell source with IPython syntax (magics, `!shell`) turned into plain Python."""
    return str(TransformerManager().transform_cell(cell_source))


def imported_modules(notebook: Notebook) -> set[str]:
    """Top-level module names the notebook's code cells import."""
    return cells.imported_modules(cell.source for cell in code_cells(notebook))


@cache
def _distributions_by_module() -> dict[str, list[str]]:
    return dict(metadata.packages_distributions())


def installed_versions(modules: set[str]) -> dict[str, str]:
    """Distribution name -> installed version for each non-stdlib module that is installed."""
    versions: dict[str, str] = {}
    for module in sorted(modules - set(sys.stdlib_module_names)):
        for distribution in _distributions_by_module().get(module, []):
            try:
                versions[distribution] = metadata.version(distribution)
            except metadata.PackageNotFoundError:
                continue
    return versions


INTERPRETER_CHECK_SECONDS = 60
# Run in the interpreter asked for: its version, and whether ipykernel is there (not imported:
# cheap). Python 2 prints too, so an interpreter too old to run a kernel says what it is.
_KERNEL_CHECK = (
    "import sys; print(sys.version.split()[0]); "
    "import importlib.util as u; print(u.find_spec('ipykernel_launcher') is not None)"
)


def kernel_interpreter(path: str) -> str:
    """`path` (a file, or a command on PATH) as the absolute path of a Python interpreter that
    can run the notebook's kernel: it runs and has ipykernel. ValueError saying what is wrong.
    Links are not resolved: a venv's `bin/python` is one, and resolving it loses the venv."""
    found = shutil.which(path)
    if found is None:
        what = "not an executable file" if os.path.exists(path) else "no such file or command"
        raise ValueError(f"{path}: {what}")
    absolute = os.path.abspath(found)
    try:
        done = subprocess.run(
            [absolute, "-c", _KERNEL_CHECK],
            capture_output=True,
            text=True,
            timeout=INTERPRETER_CHECK_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise ValueError(f"{absolute}: no answer in {INTERPRETER_CHECK_SECONDS} s") from None
    except OSError as error:
        raise ValueError(f"{absolute}: cannot be run: {error.strerror or error}") from None
    lines = done.stdout.split()
    if done.returncode != 0 or len(lines) != 2:
        said = (done.stderr.strip().splitlines() or ["no output"])[-1][:300]
        raise ValueError(f"{absolute}: not a Python 3 interpreter ({said})")
    version, has_ipykernel = lines
    if has_ipykernel != "True":
        raise ValueError(
            f"{absolute} (Python {version}) has no ipykernel to run the notebook's kernel: "
            f"install it there (`{absolute} -m pip install ipykernel`)"
        )
    return absolute


def imported_packages(notebook: Notebook) -> dict[str, str]:
    return installed_versions(imported_modules(notebook))


def input_files(input_dir: Path | None) -> tuple[list[InputFile], int]:
    """The first MAX_INPUT_FILES files under `input_dir` (path, size, a CSV's header), and
    how many there are in all. Recorded where the notebook runs: in a cluster, the operator
    that asks the fixers has no copy of the inputs."""
    if input_dir is None or not input_dir.is_dir():
        return [], 0
    files = sorted(p for p in input_dir.rglob("*") if p.is_file())
    described = []
    for path in files[:MAX_INPUT_FILES]:
        columns = None
        if path.suffix.lower() == ".csv":
            with path.open(encoding="utf-8", errors="replace") as handle:
                columns = handle.readline().strip()[:300]
        described.append(
            InputFile(
                path=path.relative_to(input_dir).as_posix(),
                size_bytes=path.stat().st_size,
                columns=columns,
            )
        )
    return described, len(files)
