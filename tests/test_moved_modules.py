"""Modules that moved to another name (`dicom` is `pydicom` since 1.0, `fbprophet` is `prophet`)
are code drift an import rule rewrites, not a package to install (issue 20)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nbmodernizer.cli import main
from nbmodernizer.diagnose import diagnose
from nbmodernizer.fixers.rules.libraries.prophet.modules import MOVED_MODULES as PROPHET
from nbmodernizer.fixers.rules.libraries.pydicom.modules import MOVED_MODULES as PYDICOM
from nbmodernizer.known_packages import distribution_providing
from testing.factories import scored
from testing.notebooks import PREDICT, READ, WRITE, kaggle_folder
from tests.test_missing_packages import no_module

MOVED = {**PYDICOM, **PROPHET}


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_a_moved_module_goes_to_the_rules_and_its_new_name_is_a_package(old: str, new: str) -> None:
    assert distribution_providing(old) is None  # else a missing `dicom` would stop the loop
    assert diagnose(no_module(old), scored(None)).environment is None
    assert distribution_providing(new) == new  # where the new module is missing, it is
    assert diagnose(no_module(new), scored(None)).environment is not None  # the image's


@pytest.mark.kernel
def test_a_notebook_importing_dicom_runs_once_the_rules_moved_it(tmp_path: Path) -> None:
    """A legacy notebook reading its scan with `dicom` (two cells: the import, the use) runs
    after the rules alone, on a real kernel, with the image's pydicom."""
    scan = (
        "from dicom.dataset import Dataset\n"
        "ds = Dataset()\n"
        "ds.Rows = 2\n"
        "ds.is_little_endian, ds.is_implicit_VR = True, True\n"
        "dicom.write_file('scan.dcm', ds)\n"
        "rows = dicom.read_file('scan.dcm', force=True).Rows\n"
        "test['x'] = test['x'] * rows"
    )
    spec = kaggle_folder(tmp_path / "case", READ, "import dicom", scan, PREDICT, WRITE)
    assert main(["modernize", str(spec), "--out", str(tmp_path / "out")]) == 0
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["outcome"] == "ErrorFreeReproducible", report["stopReason"]
    final = json.loads((tmp_path / "out" / "final.ipynb").read_text())
    code = ["".join(cell["source"]) for cell in final["cells"] if cell["cell_type"] == "code"]
    assert code[1] == "import pydicom"
    assert "pydicom.dcmwrite('scan.dcm', ds)" in code[2]
    assert "pydicom.dcmread('scan.dcm', force=True).Rows" in code[2]
