"""Run a notebook on a real Jupyter kernel: whole-notebook timeout, errors per cell, facts.

The notebook runs in a fresh working directory `RUN/working` with its inputs reachable the
Kaggle way, both as `../input/...` (a symlink `RUN/input`) and as `/kaggle/input/...`.
Where `/kaggle/input` is not the real input folder (a laptop, no root), a kernel-side IPython
input transformer rewrites the literal text `/kaggle/input` (and `/kaggle/working`) in each
cell's source as it is executed; the stored notebook is never changed by this.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import math
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jupyter_core.utils import ensure_async
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

from nbmodernizer.environment import imported_packages, input_files, visible_gpus
from nbmodernizer.notebook import Notebook, code_cell_indices
from nbmodernizer.status import CellError, ExecutionResult, ExecutionStatus

KAGGLE_INPUT = "/kaggle/input"
KAGGLE_WORKING = "/kaggle/working"
# A kernel that does not answer in time is started once more, given longer: on a busy node
# (a CI runner, a GPU node packed with Jobs) starting one can take a minute. No cell has run.
STARTUP_TIMEOUTS_SECONDS = (60, 180)

# (code cells done, code cells in all, seconds since start)
ProgressCallback = Callable[[int, int, float], None]

_PRELUDE = """
def _nbmodernizer_kaggle_paths(lines, _map={mapping!r}):
    out = []
    for line in lines:
        for old, new in _map:
            line = line.replace(old, new)
        out.append(line)
    return out
get_ipython().input_transformers_post.append(_nbmodernizer_kaggle_paths)
del _nbmodernizer_kaggle_paths
"""


# The kernel's environment is an allowlist: what a notebook needs to run as it would on
# Kaggle, and nothing else (no AWS_*, no API keys, no NBMOD_*, no proxies: their URLs may hold
# credentials). PYTHONPATH is kept: it is where a user's (or the image's) own modules are,
# holds no secret, and a notebook can only import what it could read anyway.
KERNEL_ENV_NAMES = frozenset(
    {
        "HOME", "PATH", "PYTHONPATH", "TMPDIR", "TEMP", "TMP", "TZ", "TERM",
        "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE",
        "MPLBACKEND", "MPLCONFIGDIR", "IPYTHONDIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME",
        "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS",
        "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "CUDA_HOME", "LD_LIBRARY_PATH",
        "VIRTUAL_ENV", "CONDA_PREFIX", "SSL_CERT_FILE", "SSL_CERT_DIR",
    }
)  # fmt: skip
KERNEL_ENV_PREFIXES = ("LC_", "JUPYTER_", "OPENBLAS_", "NVIDIA_")
DEFAULT_MPLBACKEND = "module://matplotlib_inline.backend_inline"


def kernel_environment(source: Mapping[str, str]) -> dict[str, str]:
    """The allowlisted part of `source` that a kernel gets (locally and in pods)."""
    env = {
        name: value
        for name, value in source.items()
        if name in KERNEL_ENV_NAMES or name.startswith(KERNEL_ENV_PREFIXES)
    }
    env.setdefault("MPLBACKEND", DEFAULT_MPLBACKEND)
    return env


def hide_this_process() -> bool:
    """Make this process's /proc/<pid>/environ, mem and the like unreadable to the kernels it
    starts (they run as the same user): Linux's PR_SET_DUMPABLE=0. Without CAP_SYS_PTRACE
    (dropped in runner pods) a notebook then cannot read the driver's environment or memory.
    False where it cannot be done (not Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(4, 0, 0, 0, 0)) == 0  # PR_SET_DUMPABLE, 0
    except (OSError, AttributeError):
        return False


@dataclass(frozen=True)
class RunFolder:
    root: Path
    working: Path
    input: Path | None


def prepare_run_folder(root: Path, inputs: Path | None) -> RunFolder:
    """Create `root/working` (empty) and `root/input` -> `inputs`."""
    working = root / "working"
    working.mkdir(parents=True, exist_ok=False)
    link: Path | None = None
    if inputs is not None:
        link = root / "input"
        link.symlink_to(inputs.resolve(), target_is_directory=True)
    return RunFolder(root=root, working=working, input=link)


def path_mapping(folder: RunFolder) -> list[tuple[str, str]]:
    """Which Kaggle paths to rewrite at execution time; none where they already are real."""
    mapping: list[tuple[str, str]] = []
    if folder.input is not None and Path(KAGGLE_INPUT).resolve() != folder.input.resolve():
        mapping.append((KAGGLE_INPUT, str(folder.input.resolve())))
    if Path(KAGGLE_WORKING).resolve() != folder.working.resolve():
        mapping.append((KAGGLE_WORKING, str(folder.working.resolve())))
    return mapping


def cell_errors(notebook: Notebook) -> list[CellError]:
    errors: list[CellError] = []
    for index, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                errors.append(
                    CellError(
                        cell_index=index,
                        ename=str(output.get("ename", "")),
                        evalue=str(output.get("evalue", "")),
                        traceback=[str(line) for line in output.get("traceback", [])],
                    )
                )
    return errors


class _Run:
    """One execution: the client, the clock and what happened."""

    def __init__(
        self,
        notebook: Notebook,
        folder: RunFolder,
        timeout_seconds: float,
        progress: ProgressCallback | None,
    ) -> None:
        self.notebook = notebook
        self.folder = folder
        self.deadline_seconds = timeout_seconds
        self.progress = progress
        self.started = time.monotonic()
        self.status = ExecutionStatus.COMPLETED
        self.failure: str | None = None
        self.timed_out_cell: int | None = None
        self.executed = 0
        self.client: NotebookClient  # one per start of the kernel (`run`)

    def _client(self, startup_timeout: int) -> NotebookClient:
        return NotebookClient(
            self.notebook,
            kernel_name="python3",
            allow_errors=True,
            record_timing=True,
            shutdown_kernel="immediate",
            startup_timeout=startup_timeout,
            extra_arguments=["--HistoryManager.enabled=False", "--IPKernelApp.log_level=ERROR"],
            resources={"metadata": {"path": str(self.folder.working)}},
        )

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    async def run(self) -> None:
        for attempt, startup_timeout in enumerate(STARTUP_TIMEOUTS_SECONDS, start=1):
            self.client = self._client(startup_timeout)
            started = False
            try:
                async with self.client.async_setup_kernel(env=self._kernel_env()):
                    started = True
                    await self._install_prelude()
                    await self._run_cells()
                return
            except DeadKernelError as error:
                self.status, self.failure = ExecutionStatus.FAILED, f"the kernel died: {error}"
                return
            except asyncio.CancelledError:  # a run no longer needed (runsPolicy: adaptive)
                await self._abandon()
                raise
            except RuntimeError as error:  # nbclient's startup and prelude failures
                if not started:  # nbclient cleaned up, but leaves its exit hook behind
                    atexit.unregister(self.client._cleanup_kernel)
                if started or attempt == len(STARTUP_TIMEOUTS_SECONDS):
                    self.status, self.failure = ExecutionStatus.FAILED, str(error)
                    return

    async def _abandon(self) -> None:
        """Shut the kernel down now, wherever its start or its cells were cancelled."""
        atexit.unregister(self.client._cleanup_kernel)
        manager = self.client.km
        with contextlib.suppress(RuntimeError):
            if manager is not None and await ensure_async(manager.is_alive()):
                await ensure_async(manager.shutdown_kernel(now=True))

    def _kernel_env(self) -> dict[str, str]:
        return kernel_environment(os.environ)

    async def _install_prelude(self) -> None:
        mapping = path_mapping(self.folder)
        if not mapping:
            return
        assert self.client.kc is not None
        client: Any = self.client.kc  # an AsyncKernelClient; its stubs lack execute_interactive
        reply = await client.execute_interactive(
            _PRELUDE.format(mapping=mapping), silent=True, store_history=False, timeout=30
        )
        if reply["content"].get("status") != "ok":
            raise RuntimeError(f"could not set up Kaggle path mapping: {reply['content']}")

    async def _run_cells(self) -> None:
        indices = code_cell_indices(self.notebook)
        self.client.nb = self.notebook
        for position, index in enumerate(indices):
            remaining = self.deadline_seconds - self.elapsed()
            if remaining <= 0:
                self._time_out(index)
                return
            self.client.timeout = max(1, math.ceil(remaining))
            if self.progress is not None:
                self.progress(position, len(indices), self.elapsed())
            try:
                await self.client.async_execute_cell(self.notebook.cells[index], index)
            except CellTimeoutError:
                self._time_out(index)
                return
            self.executed += 1
        if self.progress is not None:
            self.progress(len(indices), len(indices), self.elapsed())

    def _time_out(self, index: int) -> None:
        self.status = ExecutionStatus.TIMEOUT
        self.timed_out_cell = index

    def result(self) -> ExecutionResult:
        language = self.notebook.metadata.get("language_info", {})
        inputs, inputs_total = input_files(self.folder.input)
        return ExecutionResult(
            status=self.status,
            duration_seconds=round(self.elapsed(), 3),
            cells_total=len(code_cell_indices(self.notebook)),
            cells_executed=self.executed,
            cell_errors=cell_errors(self.notebook),
            failure=self.failure,
            timed_out_cell=self.timed_out_cell,
            python_version=language.get("version") or sys.version.split()[0],
            packages=imported_packages(self.notebook),
            gpus=visible_gpus(),
            inputs=inputs,
            inputs_total=inputs_total,
        )


async def run_notebook(
    notebook: Notebook,
    folder: RunFolder,
    timeout_seconds: float,
    progress: ProgressCallback | None = None,
) -> ExecutionResult:
    """Execute `notebook` in place (outputs are written into it) and describe the run.

    Several may run at once in one event loop; cancelling one shuts its kernel down."""
    run = _Run(notebook, folder, timeout_seconds, progress)
    await run.run()
    return run.result()


def execute_notebook(
    notebook: Notebook,
    folder: RunFolder,
    timeout_seconds: float,
    progress: ProgressCallback | None = None,
) -> ExecutionResult:
    """`run_notebook` for callers without an event loop."""
    return asyncio.run(run_notebook(notebook, folder, timeout_seconds, progress))
