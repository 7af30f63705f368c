"""Smoke test of a locked environment: every locked distribution is installed at its locked
version, and every top-level module of each imports, all in this one process.

The runner's environment must be sound: a notebook should fail on its own code, never at
`import tensorflow` (in a survey of real Kaggle notebooks run in a modern image, one in five
failed there, on a protobuf conflict). The image builds run it, and so does
tests/test_images.py in the test environment.

    python runner-image/smoke.py LOCK...

prints a JSON report on stdout, {"imported": [...], "failed": {module: error},
"missing": {distribution: problem}}, and exits 1 when anything failed or is missing.
Standard library only: it runs in the image, where only the lock is installed.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import re
import sys
from importlib.metadata import Distribution, PackageNotFoundError, distribution
from pathlib import PurePath

# Top-level packages that some distributions ship but that are not meant to be imported.
NOT_FOR_IMPORT = frozenset(
    {
        "tests",  # test suites shipped by mistake; importing one may need pytest
        "testing",
        "benchmarks",
        "examples",
    }
)


def read_lock(path: str) -> dict[str, str]:
    """The pins of a lock: canonical name -> version."""
    pins: dict[str, str] = {}
    with open(path) as lock:
        for line in lock:
            line = line.split("#", 1)[0].strip()
            if line:
                name, _, version = line.partition("==")
                pins[canonical(name)] = version.strip()
    return pins


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).strip().lower()


def top_level_modules(dist: Distribution) -> set[str]:
    """The modules to import for a distribution, read from its installed files: top-level
    modules and packages; under a namespace directory (no __init__.py, e.g. `google/`), its
    outermost packages (`google.protobuf`)."""
    paths = [PurePath(str(path)) for path in dist.files or ()]
    modules: set[str] = set()
    packages: set[tuple[str, ...]] = set()
    for path in paths:
        if not all(part.isidentifier() for part in path.parts[:-1]):
            continue  # `../../bin/x`, `numpy.libs/`, `*.dist-info/`
        if len(path.parts) == 1:
            name = inspect.getmodulename(path.name)  # a.py, a.cpython-311-x86_64-linux-gnu.so
            if name is not None and name.isidentifier():
                modules.add(name)
        elif path.name == "__init__.py":
            packages.add(path.parts[:-1])
    for package in packages:
        if not any(package[:depth] in packages for depth in range(1, len(package))):
            modules.add(".".join(package))
    return {
        name
        for name in modules
        if not name.startswith("_") and name.split(".")[0] not in NOT_FOR_IMPORT
    }


def check_installed(pins: dict[str, str]) -> tuple[list[Distribution], dict[str, str]]:
    found: list[Distribution] = []
    missing: dict[str, str] = {}
    for name, version in sorted(pins.items()):
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            missing[name] = "not installed"
            continue
        installed = dist.version.split("+")[0]  # torch 2.13.0+cpu is torch==2.13.0
        if installed != version:
            missing[name] = f"installed {dist.version}, locked {version}"
        found.append(dist)
    return found, missing


def import_all(modules: list[str]) -> dict[str, str]:
    failed: dict[str, str] = {}
    with contextlib.redirect_stdout(sys.stderr):  # the report owns stdout
        for name in modules:
            try:
                importlib.import_module(name)
            except (Exception, SystemExit) as error:
                failed[name] = f"{type(error).__name__}: {error}".splitlines()[0][:500]
    return failed


def main(lock_paths: list[str]) -> int:
    pins: dict[str, str] = {}
    for path in lock_paths:
        pins.update(read_lock(path))
    dists, missing = check_installed(pins)
    modules = sorted({name for dist in dists for name in top_level_modules(dist)})
    failed = import_all(modules)
    imported = [name for name in modules if name not in failed]
    print(json.dumps({"imported": imported, "failed": failed, "missing": missing}, indent=1))
    return 1 if failed or missing or not pins else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(f"usage: {sys.argv[0]} LOCK...")
    sys.exit(main(sys.argv[1:]))
