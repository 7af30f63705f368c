"""The Python API (`nbmodernizer.modernize`, `scan_files`, `fix_files`): the README's example
run for real, and the same results the command line gives."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import nbmodernizer
from nbmodernizer.cli import main
from nbmodernizer.scan.sources import SourceError
from nbmodernizer.status import ModernizationStatus, Outcome

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
WINE = EXAMPLES / "wine-removed-apis-2016" / "notebook.ipynb"


def python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "operator"), str(ROOT)])}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_import_is_cheap_and_the_api_loads_on_first_use(tmp_path: Path) -> None:
    done = python(
        "import sys, nbmodernizer\n"
        "heavy = ['pandas', 'libcst', 'nbclient', 'nbmodernizer.api']\n"
        "print([m for m in heavy if m in sys.modules])\n"
        "nbmodernizer.modernize\n"
        "print('nbmodernizer.api' in sys.modules)",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["[]", "True"]
    with pytest.raises(AttributeError, match="has no attribute 'modernise'"):
        nbmodernizer.modernise  # noqa: B018


def readme_python() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.mark.kernel
def test_modernize_as_the_readme_shows_it(tmp_path: Path) -> None:
    """The README's first-screen Python example, verbatim, in a fresh interpreter."""
    (tmp_path / "examples").symlink_to(EXAMPLES)
    code = readme_python()
    assert "nbmodernizer.modernize(" in code
    done = python(code + "import json\nprint(json.dumps(report.to_wire()))\n", tmp_path)
    assert done.returncode == 0, done.stderr
    printed, wire = done.stdout.splitlines()[-2:]
    written = json.loads((tmp_path / "runs" / "wine" / "report.json").read_text(encoding="utf-8"))
    assert json.loads(wire) == written  # the object report.json holds
    report = ModernizationStatus.model_validate(written)
    assert report.outcome is Outcome.ERROR_FREE_REPRODUCIBLE and report.score is not None
    assert printed == f"{report.outcome} {report.score.value}"
    assert [fix.fixer for fix in report.fixes] == ["rules"]
    assert (tmp_path / "runs" / "wine" / "final.ipynb").is_file()


@pytest.mark.kernel
def test_modernize_a_spec_file_from_python(tmp_path: Path) -> None:
    """The fastest example, as the issue asks: `python -c "import nbmodernizer; ..."`."""
    out = tmp_path / "run"
    done = python(
        "import nbmodernizer\n"
        f"nbmodernizer.modernize('examples/cancer-rf-2017/spec.yaml', out={str(out)!r})",
        ROOT,
    )
    assert done.returncode == 0, done.stderr
    report = ModernizationStatus.model_validate_json((out / "report.json").read_bytes())
    assert report.outcome is Outcome.ERROR_FREE_REPRODUCIBLE
    assert report.iterations == 1 and report.fixes == []


@pytest.mark.kernel
def test_modernize_a_spec_mapping_reads_its_paths_from_base(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    example = EXAMPLES / "cancer-rf-2017"
    document = yaml.safe_load((example / "spec.yaml").read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path)  # relative paths must come from `base`, not the current folder
    report = nbmodernizer.modernize(document, out="run", base=example, parallel_runs=1)
    assert report.outcome is Outcome.ERROR_FREE_REPRODUCIBLE
    kept = tmp_path / "run" / "revisions" / "0000" / "notebook.ipynb"
    assert kept.read_bytes() == (example / "notebook.ipynb").read_bytes()


def test_modernize_bad_spec_returns_a_failed_report(tmp_path: Path) -> None:
    document = yaml.safe_load((EXAMPLES / "cancer-rf-2017" / "spec.yaml").read_text())
    del document["spec"]["score"]["target"]
    report = nbmodernizer.modernize(document, out=tmp_path / "run", base=tmp_path)
    assert report.outcome is Outcome.FAILED
    assert report.last_error == "the spec given to modernize(): spec.score.target: Field required"


def test_scan_and_fix_give_what_the_command_line_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    by_api, by_cli = tmp_path / "api" / "nb.ipynb", tmp_path / "cli" / "nb.ipynb"
    for path in (by_api, by_cli):
        path.parent.mkdir()
        shutil.copyfile(WINE, path)

    reports = nbmodernizer.scan_files(by_api.parent)
    assert [report.path for report in reports] == [str(by_api)]
    rules = {finding.rule for finding in reports[0].findings}
    assert "sklearn.cross-validation-module" in rules and "pandas.ix-indexer" in rules
    assert main(["scan", str(by_cli), "--format", "json"]) == 1
    listed = json.loads(capsys.readouterr().out)
    assert [(f["cell"], f["line"], f["rule"]) for f in listed] == [
        (f.cell, f.line, f.rule) for f in reports[0].findings
    ]

    assert [r.path for r in nbmodernizer.fix_files([by_api], write=False)] == [str(by_api)]
    assert by_api.read_bytes() == WINE.read_bytes()  # write=False writes nothing
    assert [r.path for r in nbmodernizer.fix_files(by_api)] == [str(by_api)]
    assert main(["fix", str(by_cli)]) == 0
    assert by_api.read_bytes() == by_cli.read_bytes() != WINE.read_bytes()
    assert nbmodernizer.fix_files(by_api) == []  # a second pass changes nothing
    assert nbmodernizer.scan_files(by_api)[0].findings == []

    only = nbmodernizer.scan_files(str(WINE), select=["pandas"])[0].findings
    assert only and {finding.library for finding in only} == {"pandas"}


def test_scan_names_a_missing_path(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"missing\.ipynb"):
        nbmodernizer.scan_files(tmp_path / "missing.ipynb")
