"""The pod split's kernel: a host process (the kernel container) starts the kernels that the
executor's nbclient asks for through a shared folder, and the executor drives them over ZMQ.
Real kernels; the host is kernelhost.py run as a script (as the notebook's image runs it: no
nbmodernizer import), a separate process with a container's environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from nbmodernizer import kernelhost
from nbmodernizer.execute import RunFolder, execute_notebook
from nbmodernizer.remotekernel import finish
from nbmodernizer.status import ExecutionStatus
from testing.notebooks import notebook

pytestmark = pytest.mark.kernel


@pytest.fixture
def host(tmp_path: Path) -> Iterator[RunFolder]:
    """A kernel host (`python kernelhost.py`, isolated: no PYTHONPATH, no user site) on a
    folder of this test's own."""
    kernels, working = tmp_path / "kernels", tmp_path / "working"
    working.mkdir()
    command = [sys.executable, "-I", kernelhost.__file__,
               "--kernel-dir", str(kernels), "--working-dir", str(working)]  # fmt: skip
    bin_dir = tmp_path / "bin"  # the kernel's container sees 2 GPUs, this process none
    bin_dir.mkdir()
    (bin_dir / "nvidia-smi").write_text("#!/bin/sh\necho 'GPU 0: A'\necho 'GPU 1: B'\n")
    (bin_dir / "nvidia-smi").chmod(0o755)
    path = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {"PATH": path, "HOME": str(tmp_path), "IMAGE_OWN": "1"}  # a container's, no more
    process = subprocess.Popen(command, env=env)
    try:
        yield RunFolder(root=tmp_path, working=working, input=None, kernels=kernels)
    finally:
        finish(kernels)
        assert process.wait(timeout=30) == 0


def test_the_executor_drives_a_kernel_its_host_started(host: RunFolder) -> None:
    source = notebook(
        "import os, json\nprint(json.dumps({'pid': os.getpid(), 'ppid': os.getppid(), "
        "'cwd': os.getcwd(), 'env': sorted(os.environ)}))",
        "open('submission.csv', 'w').write('id,y\\n')",
        "1/0",
    )
    result = execute_notebook(source, host, timeout_seconds=60)
    assert result.status is ExecutionStatus.COMPLETED, result.failure
    [error] = result.cell_errors
    assert error.ename == "ZeroDivisionError"
    [first] = [cell for cell in source.cells if "ppid" in cell.source]
    seen = json.loads("".join(first.outputs[0]["text"]))
    assert seen["ppid"] != os.getpid()  # started by the host, not by this process
    assert Path(seen["cwd"]) == host.working.resolve()
    assert {"PATH", "HOME", "IMAGE_OWN"} <= set(seen["env"])  # its container's (its image's)
    assert {"PIP_NO_INDEX", "MPLBACKEND"} <= set(seen["env"])  # and the host's fixed ones
    assert "PYTEST_CURRENT_TEST" not in seen["env"]  # never this (the executor's) process's
    assert (host.working / "submission.csv").read_text() == "id,y\n"
    assert result.gpus == 2  # as the kernel's container counted them


def test_a_timeout_interrupts_and_a_dead_kernel_is_seen(host: RunFolder) -> None:
    slow = notebook("import time\ntime.sleep(60)", "print('never')")
    result = execute_notebook(slow, host, timeout_seconds=3)
    assert result.status is ExecutionStatus.TIMEOUT and result.cells_executed == 0
    assert result.duration_seconds < 30
    dying = notebook("import os\nos._exit(1)", "print('never')")
    result = execute_notebook(dying, host, timeout_seconds=60)
    assert result.status is ExecutionStatus.FAILED
    assert "died" in str(result.failure)
    again = notebook("print('fresh')")  # the host starts the next kernel as asked
    assert execute_notebook(again, host, timeout_seconds=60).status is ExecutionStatus.COMPLETED
