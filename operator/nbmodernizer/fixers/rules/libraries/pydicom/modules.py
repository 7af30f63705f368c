"""pydicom's module and readers: imported as `dicom` before 1.0; `read_file` and `write_file`
(`dcmread` and `dcmwrite` since 1.0) gone in 3.0."""

from __future__ import annotations

from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.cells import chain
from nbmodernizer.fixers.rules.toolkit.moves import Move, move_modules, move_names, moved
from nbmodernizer.fixers.rules.toolkit.probes import all_of, lacks, module_gone, not_

# the module as notebooks imported it -> the module today
MOVED_MODULES = {"dicom": "pydicom"}


def _readers(package: str) -> dict[str, Move]:
    """The readers' old names -> their names since 1.0 (the old ones went in 3.0), in the
    package and in the modules that define them."""
    return {
        **moved(package, package, {"read_file": "dcmread", "write_file": "dcmwrite"}),
        **moved(f"{package}.filereader", f"{package}.filereader", {"read_file": "dcmread"}),
        **moved(f"{package}.filewriter", f"{package}.filewriter", {"write_file": "dcmwrite"}),
    }


# A dataset written by the snippet itself (no DICOM file in the repository), to read back.
_WRITE = (
    "ds = Dataset()\n"
    "ds.PatientName = 'Doe^John'\n"
    "ds.Rows = 2\n"
    "ds.is_little_endian, ds.is_implicit_VR = True, True\n"
)
# The round trip as pydicom spells it today: what both rules' examples come to.
_ROUND_TRIP = (
    "import pydicom\n"
    "from pydicom.dataset import Dataset\n" + _WRITE + "pydicom.dcmwrite('scan.dcm', ds)\n"
    "scan = pydicom.dcmread('scan.dcm', force=True)\n"
)

RULES = (
    Rule(
        id="pydicom.dicom-module",
        library="pydicom",
        changed_in="1.0",
        summary=(
            "`import dicom` -> `import pydicom` (its submodules follow: `dicom.dataset` -> "
            "`pydicom.dataset`); `dicom.read_file` / `write_file` -> `pydicom.dcmread` / "
            "`dcmwrite`"
        ),
        kind=Kind.API,
        # the readers are renamed in the old module first, while the notebook's names for it
        # (`import dicom as dcm`) still say what they are; then the module moves
        rewrite=chain(
            move_names(_readers("dicom")),
            move_modules(MOVED_MODULES),
        ),
        symptoms=(Symptom("ModuleNotFoundError", r"No module named 'dicom(\.\w+)*'"),),
        gone=all_of(module_gone("dicom"), not_(module_gone("pydicom"))),
        examples=(
            Example(
                before=(
                    "import dicom\n"
                    "from dicom.dataset import Dataset\n"
                    + _WRITE
                    + "dicom.write_file('scan.dcm', ds)\n"
                    "scan = dicom.read_file('scan.dcm', force=True)\n"
                ),
                after=_ROUND_TRIP,
                error="ModuleNotFoundError",
                check="str(scan.PatientName) == 'Doe^John' and scan.Rows == 2",
            ),
        ),
    ),
    Rule(
        id="pydicom.read-file",
        library="pydicom",
        changed_in="3.0",
        summary="`pydicom.read_file` / `write_file` -> `pydicom.dcmread` / `dcmwrite`",
        kind=Kind.API,
        rewrite=move_names(_readers("pydicom")),
        symptoms=(
            Symptom("AttributeError", r"module 'pydicom' has no attribute '(read|write)_file'"),
            Symptom("ImportError", r"cannot import name '(read|write)_file' from 'pydicom'"),
        ),
        gone=lacks("pydicom", "read_file", "write_file"),
        examples=(
            Example(
                before=(
                    "import pydicom\n"
                    "from pydicom.dataset import Dataset\n"
                    + _WRITE
                    + "pydicom.write_file('scan.dcm', ds)\n"
                    "scan = pydicom.read_file('scan.dcm', force=True)\n"
                ),
                after=_ROUND_TRIP,
                error="AttributeError",
                check="str(scan.PatientName) == 'Doe^John' and scan.Rows == 2",
            ),
            Example(
                before=(
                    "from pydicom import read_file, write_file\n"
                    "from pydicom.dataset import Dataset\n"
                    + _WRITE
                    + "write_file('scan.dcm', ds)\n"
                    "scans = [read_file(path, force=True) for path in ['scan.dcm']]\n"
                ),
                after=(
                    "from pydicom import dcmread, dcmwrite\n"
                    "from pydicom.dataset import Dataset\n" + _WRITE + "dcmwrite('scan.dcm', ds)\n"
                    "scans = [dcmread(path, force=True) for path in ['scan.dcm']]\n"
                ),
                error="ImportError",
                check="scans[0].Rows == 2",
            ),
        ),
    ),
)
