"""The executor on a real ipykernel kernel."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import pytest
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient

from nbmodernizer.execute import _Run, execute_notebook, prepare_run_folder
from nbmodernizer.status import ExecutionStatus
from testing.notebooks import notebook

pytestmark = pytest.mark.kernel


def run(tmp_path: Path, *sources: str, timeout: float = 60, inputs: Path | None = None):
    folder = prepare_run_folder(tmp_path / "run", inputs)
    nb = notebook(*sources)
    progress: list[tuple[int, int]] = []
    result = execute_notebook(
        nb, folder, timeout, lambda done, total, _t: progress.append((done, total))
    )
    return nb, result, folder, progress


def test_errors_are_recorded_per_cell_and_later_cells_still_run(tmp_path: Path) -> None:
    nb, result, folder, progress = run(
        tmp_path,
        "import numpy as np\nx = 1",
        "np.float(3)",
        "open('after.txt', 'w').write(str(x))",
    )
    assert result.status is ExecutionStatus.COMPLETED
    assert [(e.cell_index, e.ename) for e in result.cell_errors] == [(2, "AttributeError")]
    assert "np.float" in result.cell_errors[0].evalue or "float" in result.cell_errors[0].evalue
    assert result.cell_errors[0].traceback
    assert (folder.working / "after.txt").read_text() == "1"
    assert result.cells_executed == result.cells_total == 3
    assert progress[0] == (0, 3) and progress[-1] == (3, 3)
    assert nb.cells[1].outputs == [] and nb.cells[2].outputs[0].output_type == "error"


def test_timeout_stops_the_notebook_and_keeps_partial_outputs(tmp_path: Path) -> None:
    nb, result, _, _ = run(
        tmp_path,
        "print('started', flush=True)",
        "import time\ntime.sleep(60)",
        "print('never')",
        timeout=3,
    )
    assert result.status is ExecutionStatus.TIMEOUT
    assert result.timed_out_cell == 2
    assert result.cells_executed == 1
    assert 3 <= result.duration_seconds < 30
    assert nb.cells[1].outputs[0].text == "started\n"
    assert nb.cells[3].outputs == []


def test_kaggle_paths_and_relative_input_both_work(tmp_path: Path) -> None:
    inputs = tmp_path / "data"
    inputs.mkdir()
    (inputs / "train.csv").write_text("a\n1\n")
    _, result, folder, _ = run(
        tmp_path,
        "import os\nrel = open('../input/train.csv').read()\n"
        "abs_ = open('/kaggle/input/train.csv').read()",
        "open('/kaggle/working/out.txt', 'w').write(str(rel == abs_ == 'a\\n1\\n'))\nos.getcwd()",
        inputs=inputs,
    )
    assert result.cell_errors == []
    assert (folder.working / "out.txt").read_text() == "True"
    # what the notebook saw is recorded with the run (a cluster's operator has no copy)
    [seen] = result.inputs
    assert (seen.path, seen.size_bytes, seen.columns) == ("train.csv", 4, "a")
    assert result.inputs_total == 1


def test_environment_facts(tmp_path: Path) -> None:
    _, result, _, _ = run(
        tmp_path, "%matplotlib inline\nimport pandas as pd\nimport numpy\nimport os, json"
    )
    assert result.python_version and result.python_version.startswith("3.")
    import numpy
    import pandas

    assert result.packages == {"pandas": pandas.__version__, "numpy": numpy.__version__}
    assert result.gpus == 0


def test_a_kernel_slow_to_start_is_started_once_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a kernel that never answers (a process that sleeps), as a start on a packed node looks
    spec = tmp_path / "jupyter" / "kernels" / "mute" / "kernel.json"
    spec.parent.mkdir(parents=True)
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)", "{connection_file}"]
    spec.write_text(json.dumps({"argv": sleeper, "display_name": "mute", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setattr("nbmodernizer.execute.STARTUP_TIMEOUTS_SECONDS", (1, 60))
    started: list[int] = []
    make_client = _Run._client

    def mute_at_first(run: _Run, startup_timeout: int, mute: int = 1) -> NotebookClient:
        client = make_client(run, startup_timeout)
        started.append(startup_timeout)
        if len(started) <= mute:
            client.km = AsyncKernelManager(kernel_name="mute")
        return client

    monkeypatch.setattr(_Run, "_client", mute_at_first)
    _, result, _, _ = run(tmp_path / "retried", "x = 1", "x + 1")
    assert started == [1, 60]
    assert result.status is ExecutionStatus.COMPLETED and result.cells_executed == 2

    started.clear()
    monkeypatch.setattr("nbmodernizer.execute.STARTUP_TIMEOUTS_SECONDS", (1, 2))
    monkeypatch.setattr(_Run, "_client", functools.partialmethod(mute_at_first, mute=2))
    _, result, _, _ = run(tmp_path / "never", "x = 1")
    assert result.status is ExecutionStatus.FAILED and result.cells_executed == 0
    assert started == [1, 2] and result.failure == "Kernel didn't respond in 2 seconds"
