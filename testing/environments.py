"""Another environment for the tests: a venv that stands for a notebook image that is not ours.

It holds ipykernel and other versions of the libraries than the test environment's (an older
pandas), and no nbmodernizer: what `spec.execution.image` may name (Kaggle's image, a
company's). The test kubelet maps an image name to its python (`Kubelet.images`), as a node
would run that image. Built once with pip under /tmp (`NBM_TEST_ENVIRONMENTS` moves it) and
reused while its requirements and base interpreter are the same.
"""

from __future__ import annotations

import contextlib
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

OTHER_IMAGE = "registry.example/other-environment:pandas-2.2"
# pandas 2.2 (the test environment's is 3.x), with the numpy it was built for
OTHER_REQUIREMENTS = ("ipykernel", "pandas==2.2.3", "numpy<2.1")
CACHE_ENV = "NBM_TEST_ENVIRONMENTS"
BUILD_TIMEOUT_SECONDS = 900


@dataclass(frozen=True)
class Environment:
    """A venv standing for an image: its interpreter and its distributions' versions."""

    image: str
    python: Path
    versions: dict[str, str]


def base_python() -> Path:
    """The interpreter the test venv was made from (a venv of a venv would share its site)."""
    for name in (f"python{sys.version_info.major}.{sys.version_info.minor}", "python3"):
        found = Path(sys.base_prefix) / "bin" / name
        if found.exists():
            return found
    raise FileNotFoundError(f"no python under {sys.base_prefix}/bin")


def _versions(python: Path) -> dict[str, str]:
    listing = subprocess.run(
        [str(python), "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return {item["name"].lower(): item["version"] for item in json.loads(listing.stdout)}


def build_environment(image: str, requirements: tuple[str, ...]) -> Environment:
    """The venv for `image` with `requirements`, built with pip unless already there."""
    python = base_python()
    key = hashlib.sha256(json.dumps([str(python), *requirements]).encode()).hexdigest()[:12]
    root = Path(os.environ.get(CACHE_ENV) or Path(tempfile.gettempdir()) / "nbm-environments")
    target = root / key
    ready = target / "nbm-ready"
    if not ready.exists():
        root.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(prefix=f"{key}-", dir=root))
        try:
            subprocess.run([str(python), "-m", "venv", str(building)], check=True, timeout=300)
            install = [str(building / "bin" / "python"), "-m", "pip", "install", "--quiet",
                       "--disable-pip-version-check", *requirements]  # fmt: skip
            done = subprocess.run(
                install, capture_output=True, text=True, timeout=BUILD_TIMEOUT_SECONDS
            )
            if done.returncode != 0:
                pytest.fail(f"pip could not build the {image} venv:\n{done.stderr[-3000:]}")
            (building / "nbm-ready").write_text(json.dumps(requirements))
            with contextlib.suppress(OSError):  # another process got there first: use its
                building.rename(target)
        finally:
            shutil.rmtree(building, ignore_errors=True)
    python_in = target / "bin" / "python"
    return Environment(image, python_in, _versions(python_in))


@pytest.fixture(scope="session")
def other_environment() -> Environment:
    """A venv standing for another image: ipykernel, pandas 2.2, no nbmodernizer."""
    return build_environment(OTHER_IMAGE, OTHER_REQUIREMENTS)
