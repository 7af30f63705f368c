"""The pre-commit hooks (.pre-commit-hooks.yaml), tried by pre-commit itself on a throwaway
git repository, offline: the `-system` hooks run the `nbmod` on PATH (here: this checkout)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import yaml

from testing.notebooks import notebook, write_notebook
from testing.tools import missing_tool

ROOT = Path(__file__).resolve().parent.parent


def pre_commit() -> list[str]:
    found = shutil.which("pre-commit")
    if found:
        return [found]
    if importlib.util.find_spec("pre_commit") is not None:
        return [sys.executable, "-m", "pre_commit"]
    missing_tool("pre-commit is not installed (pip install -e '.[dev]')")


def test_hooks_are_declared() -> None:
    hooks = {
        hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    }
    assert {"nbmod-scan", "nbmod-fix"} <= set(hooks)
    for hook_id in ("nbmod-scan", "nbmod-fix"):
        assert hooks[hook_id]["language"] == "python"
        assert hooks[hook_id]["files"] == r"\.(ipynb|py)$"
    assert hooks["nbmod-scan-system"]["entry"] == "nbmod scan"
    assert hooks["nbmod-fix-system"]["entry"] == "nbmod fix"


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    work = tmp_path / "notebooks"
    work.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "nbmod"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m nbmodernizer.cli "$@"\n')
    shim.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT / "operator"),
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    subprocess.run(["git", "init", "-q", str(work)], check=True, env=env)
    write_notebook(
        work / "legacy.ipynb", notebook("import pandas as pd\nx = pd.DataFrame().ix[0, 'a']")
    )
    (work / "modern.py").write_text("import pandas as pd\nx = pd.DataFrame().loc[0, 'a']\n")
    subprocess.run(["git", "add", "."], cwd=work, check=True, env=env)
    return work, env


def try_repo(work: Path, env: dict[str, str], hook: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*pre_commit(), "try-repo", str(ROOT), hook, "--files", "legacy.ipynb", "modern.py"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_scan_hook_fails_on_legacy_code(repo: tuple[Path, dict[str, str]]) -> None:
    work, env = repo
    done = try_repo(work, env, "nbmod-scan-system")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "legacy.ipynb:cell 2:2:20: pandas.ix-indexer" in done.stdout


def test_fix_hook_rewrites_and_then_passes(repo: tuple[Path, dict[str, str]]) -> None:
    work, env = repo
    done = try_repo(work, env, "nbmod-fix-system")
    assert done.returncode == 1, done.stdout + done.stderr  # files were modified
    fixed = nbformat.read(work / "legacy.ipynb", as_version=4)
    assert fixed.cells[1].source == "import pandas as pd\nx = pd.DataFrame().loc[0, 'a']"
    subprocess.run(["git", "add", "."], cwd=work, check=True, env=env)
    assert try_repo(work, env, "nbmod-scan-system").returncode == 0
