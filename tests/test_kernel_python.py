"""`nbmod modernize --python PATH` (issue #20): the notebook's kernel and the probes of its
environment run in another interpreter, a venv with other library versions and without
nbmodernizer (`testing/environments.py`: pandas 1.5, numpy 1.26); its versions are the ones
recorded, and the rules decide what is gone by its facts (environment.json), not by this
process's libraries."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import nbmodernizer
from nbmodernizer.admit import InvalidInputError
from nbmodernizer.cli import main
from nbmodernizer.environment import kernel_interpreter
from nbmodernizer.execute import Kernel, execute_notebook, prepare_run_folder
from testing.environments import Environment, other_environment  # noqa: F401
from testing.notebooks import WRITE, kaggle_folder, notebook

pytestmark = pytest.mark.kernel

HERE_PANDAS = pd.__version__
OTHER_PANDAS, OTHER_NUMPY = "1.5.3", "1.26.4"  # testing/environments.py's REQUIREMENTS


@pytest.fixture(scope="session")
def other_python(other_environment: Environment) -> str:  # noqa: F811 (the fixture)
    """The other environment's interpreter, made once (and kept between test runs)."""
    return str(other_environment.python)


def test_the_other_environment_is_another_one(other_python: str) -> None:
    """What the tests below rely on: other versions there, and no nbmodernizer."""
    done = subprocess.run(
        [
            other_python,
            "-c",
            "import importlib.util as u, pandas, numpy\n"
            "print(pandas.__version__, numpy.__version__, u.find_spec('nbmodernizer') is None)",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={"PATH": "/usr/bin:/bin"},  # no PYTHONPATH: what the venv itself holds
    )
    assert done.stdout.split() == [OTHER_PANDAS, OTHER_NUMPY, "True"]
    assert HERE_PANDAS != OTHER_PANDAS


def test_the_kernel_runs_in_the_interpreter_given(tmp_path: Path, other_python: str) -> None:
    nb = notebook("import sys, pandas\nprint(sys.executable, pandas.__version__)")
    kernel = Kernel(other_python, {"pandas": OTHER_PANDAS})
    result = execute_notebook(nb, prepare_run_folder(tmp_path / "run", None), 120, kernel=kernel)
    assert result.cell_errors == []
    assert nb.cells[1].outputs[0].text == f"{other_python} {OTHER_PANDAS}\n"
    assert result.packages == {"pandas": OTHER_PANDAS}  # the kernel's environment's facts


def test_what_the_notebook_runs_by_name_is_the_kernels_environments(
    tmp_path: Path, other_python: str
) -> None:
    """`!python` and `!pip` in a cell are the interpreter's the kernel runs in, not nbmod's."""
    nb = notebook("!python -c 'import sys, pandas; print(sys.prefix, pandas.__version__)'")
    folder = prepare_run_folder(tmp_path / "run", None)
    result = execute_notebook(nb, folder, 120, kernel=Kernel(other_python, {}))
    assert result.cell_errors == []
    venv = str(Path(other_python).parent.parent)
    assert nb.cells[1].outputs[0].text.strip() == f"{venv} {OTHER_PANDAS}"


# -- a PATH that cannot run a kernel: a clear error naming the flag, before anything runs ----


def test_interpreters_that_cannot_run_a_kernel_are_refused_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="nope: no such file or command"):
        kernel_interpreter(str(tmp_path / "nope"))
    plain = tmp_path / "plain.txt"
    plain.write_text("not a program")
    with pytest.raises(ValueError, match=r"plain\.txt: not an executable file"):
        kernel_interpreter(str(plain))
    with pytest.raises(ValueError, match="/bin/false: not a Python 3 interpreter"):
        kernel_interpreter("/bin/false")
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    with pytest.raises(ValueError, match=r"bin/python \(Python 3\.\d+\.\d+\) has no ipykernel"):
        kernel_interpreter(str(bare / "bin" / "python"))


def test_the_venvs_own_python_is_kept_unresolved(other_python: str) -> None:
    """A venv's bin/python is a link to its base Python: resolved, the venv would be lost."""
    assert Path(other_python).is_symlink()
    assert kernel_interpreter(other_python) == other_python


def test_a_bad_python_flag_stops_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, out = kaggle_folder(tmp_path / "case"), tmp_path / "out"
    code = main(["modernize", str(spec), "--out", str(out), "--python", str(tmp_path / "nope")])
    assert code == 2
    said = capsys.readouterr().err
    assert f"nbmod: --python: {tmp_path / 'nope'}: no such file or command" in said
    assert not out.exists()
    with pytest.raises(InvalidInputError, match=r"^python=: /bin/false: not a Python 3"):
        nbmodernizer.modernize(spec, out, python="/bin/false")
    assert not out.exists()


def test_an_interpreter_whose_environment_cannot_be_probed_stops_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It passes the check (it answers `-c`) but envprobe.py fails in it: the run stops
    before the notebook runs, saying so, rather than run without the environment's facts."""
    broken = tmp_path / "python"
    broken.write_text(
        f'#!/bin/sh\ncase "$1" in -c) exec {sys.executable} "$@";; esac\n'
        "echo 'no site-packages here' >&2\nexit 3\n"
    )
    broken.chmod(0o755)
    spec, out = kaggle_folder(tmp_path / "case"), tmp_path / "out"
    assert main(["modernize", str(spec), "--out", str(out), "--python", str(broken)]) == 2
    report = json.loads((out / "report.json").read_text())
    assert report["outcome"] == "Failed"
    assert report["lastError"] == (
        f"the environment of {broken} cannot be probed: "
        f"envprobe.py in {broken} exited 3: no site-packages here"
    )
    assert not (out / "revisions" / "0000" / "executed.ipynb").exists()
    assert "no site-packages here" in capsys.readouterr().err


# -- a whole run in the other environment ------------------------------------------------------

# np.float is gone in both environments: the error that makes the loop ask the rules. The
# notebook reads its data with read_csv(error_bad_lines=False): there (pandas 1.5) the parameter
# still exists, here (pandas >= 2) it is gone, so only here do the rules rewrite it.
BAD_LINES = "pandas.read-csv-bad-lines"
LEGACY = (
    "import numpy as np\nscale = np.float(1)",
    "import pandas as pd\ntest = pd.read_csv('../input/test.csv', error_bad_lines=False)",
    "test['y'] = (test['x'] * scale > 0).astype(int)",
    WRITE,
)


def modernize(root: Path, *python: str) -> Path:
    spec, out = kaggle_folder(root, *LEGACY), root / "out"
    flags = ["--python", *python] if python else []
    code = main(["modernize", str(spec), "--out", str(out), *flags])
    report = json.loads((out / "report.json").read_text())
    assert code == 0, report
    assert report["outcome"] == "ErrorFreeReproducible"
    return out


@pytest.fixture(scope="module")
def there_and_here(
    tmp_path_factory: pytest.TempPathFactory, other_python: str
) -> tuple[Path, Path]:
    """The legacy notebook modernized with --python the other environment, and without."""
    root = tmp_path_factory.mktemp("modernized")
    return modernize(root / "there", other_python), modernize(root / "here")


def revision_file(out: Path, revision: int, name: str) -> Any:
    return json.loads((out / "revisions" / f"{revision:04d}" / name).read_text())


def test_a_run_in_the_other_environment_records_its_versions(
    there_and_here: tuple[Path, Path], other_python: str
) -> None:
    there, here = there_and_here
    for revision in (0, 1):  # every revision's execution and environment facts are the kernel's
        [run] = revision_file(there, revision, "execution.json")["runs"]
        assert run["packages"] == {"numpy": OTHER_NUMPY, "pandas": OTHER_PANDAS}
        facts = revision_file(there, revision, "environment.json")
        assert facts["executable"] == other_python
        assert facts["packages"] == run["packages"]
    facts_here = revision_file(here, 0, "environment.json")
    assert facts_here["executable"] == sys.executable
    assert facts_here["packages"]["pandas"] == HERE_PANDAS
    [run_here] = revision_file(here, 0, "execution.json")["runs"]
    assert run_here["packages"] == facts_here["packages"]


def test_the_rules_follow_the_facts_of_the_environment_the_kernel_runs_in(
    there_and_here: tuple[Path, Path],
) -> None:
    """The two environments disagree about one legacy API: read_csv's error_bad_lines is
    there in pandas 1.5, gone here. Each run's rules follow its own environment's facts, not
    the libraries of the process that applies them (this one, in both runs)."""
    there, here = there_and_here
    assert revision_file(there, 0, "environment.json")["probes"][BAD_LINES] is False
    assert revision_file(here, 0, "environment.json")["probes"][BAD_LINES] is True
    fixed_there = revision_file(there, 1, "notebook.ipynb")["cells"]
    fixed_here = revision_file(here, 1, "notebook.ipynb")["cells"]
    for fixed in (fixed_there, fixed_here):  # np.float: gone in both
        assert "".join(fixed[1]["source"]) == "import numpy as np\nscale = float(1)"
    assert "error_bad_lines=False" in "".join(fixed_there[2]["source"])
    assert "on_bad_lines='warn'" in "".join(fixed_here[2]["source"])
    rules_there = {use["rule"] for use in revision_file(there, 1, "fix.json")["rules"]}
    assert BAD_LINES not in rules_there


def test_the_probe_runs_once_for_revisions_that_import_the_same(tmp_path: Path) -> None:
    """Every revision gets its environment.json, but envprobe.py runs again only when the
    interpreter or the imports change: here revision 1 imports what revision 0 did."""
    log = tmp_path / "probes.log"
    counting = tmp_path / "python"  # this interpreter, noting each envprobe.py it runs
    counting.write_text(
        f'#!/bin/sh\ncase "$1" in *envprobe.py) echo "$2" >> {log};; esac\n'
        f'exec {sys.executable} "$@"\n'
    )
    counting.chmod(0o755)
    out = modernize(tmp_path / "case", str(counting))
    assert len(log.read_text().splitlines()) == 1
    first, second = (revision_file(out, n, "environment.json") for n in (0, 1))
    assert second == first and first["packages"]["pandas"] == HERE_PANDAS
