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
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import ensure_async
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

from nbmodernizer.environment import imported_packages, input_files, visible_gpus
from nbmodernizer.kernelhost import KERNEL_ENV_DEFAULTS, kernel_env
from nbmodernizer.notebook import Notebook, as_node, code_cells
from nbmodernizer.remotekernel import remote_kernel_manager, reported_gpus
from nbmodernizer.status import CellError, ExecutionResult, ExecutionStatus

KAGGLE_INPUT = "/kaggle/input"
KAGGLE_WORKING = "/kaggle/working"
# A kernel that does not answer in time is started once more, given longer: on a busy node
# (a CI runner, a GPU node packed with Jobs) starting one can take a minute. No cell has run.
STARTUP_TIMEOUTS_SECONDS = (60, 180)

# (code cells done, code cells in all, seconds since start)
ProgressCallback = Callable[[int, int, float], None]
# Awaited after each code cell ran, with the cell's index and the kernel's client: what
# observes the kernel between cells (the oracle's fingerprints, `bound_cells`) without being
# a cell itself, so the executed notebook and its execution counts are the same without it.
CellHook = Callable[[int, Any], Awaitable[None]]

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


def kernel_environment(source: Mapping[str, str]) -> dict[str, str]:
    """The allowlisted part of `source` that a kernel gets (locally and in pods), with the
    kernel host's defaults and fixed settings (`kernelhost.kernel_env`: their one home)."""
    return kernel_env(
        {
            name: value
            for name, value in source.items()
            if name in KERNEL_ENV_NAMES or name.startswith(KERNEL_ENV_PREFIXES)
        }
    )


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
class Kernel:
    """Which interpreter runs the notebook's kernel (it needs only ipykernel; nbmodernizer need
    not be installed there), and the versions of the packages the notebook imports as that
    interpreter has them (its environment facts' `packages`), recorded with every run."""

    python: str = sys.executable
    packages: Mapping[str, str] | None = None  # None: this process's (`python` is this one)


class _OneKernelSpec(KernelSpecManager):
    """Serves the one kernel spec of a `Kernel`: ipykernel in its interpreter, whatever the
    name asked for (nbclient asks for the notebook's, "python3")."""

    def __init__(self, python: str) -> None:
        super().__init__()
        self.spec = KernelSpec(
            argv=[python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            display_name="Python 3",
            language="python",
        )

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return self.spec


def kernel_manager(python: str) -> AsyncKernelManager:
    """A manager starting ipykernel in the interpreter `python` (an absolute path: a venv's
    `bin/python` is a link that must not be resolved, or the venv is lost)."""
    return AsyncKernelManager(kernel_name="python3", kernel_spec_manager=_OneKernelSpec(python))


def interpreter_environment(env: Mapping[str, str], python: str) -> dict[str, str]:
    """`env` for a kernel in the interpreter `python`: for another interpreter than this one,
    its folder leads PATH and VIRTUAL_ENV is its venv (or unset), so what the notebook runs
    by name (`!python`, `!pip`) is that environment's, as in an image whose Python it is; and
    the default inline backend is left to its ipykernel, which sets its own (an era's
    ipykernel 5 has no matplotlib_inline: `import matplotlib.pyplot` would fail there)."""
    if python == sys.executable:
        return dict(env)
    folder = os.path.dirname(python)
    path = env.get("PATH")
    changed = {**env, "PATH": f"{folder}{os.pathsep}{path}" if path else folder}
    changed.pop("VIRTUAL_ENV", None)
    changed.pop("CONDA_PREFIX", None)
    if changed.get("MPLBACKEND") == KERNEL_ENV_DEFAULTS["MPLBACKEND"]:
        del changed["MPLBACKEND"]
    if os.path.isfile(os.path.join(folder, os.pardir, "pyvenv.cfg")):
        changed["VIRTUAL_ENV"] = os.path.dirname(folder)
    return changed


@dataclass(frozen=True)
class RunFolder:
    root: Path
    working: Path
    input: Path | None
    kernels: Path | None = None  # a kernel folder: the kernel runs in another container


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


# What a notebook prints is untrusted and unbounded; what is kept of it is bounded, with a
# marker saying how much was cut. Outputs in the executed notebook (per cell, per notebook),
# and the error texts that flow into execution.json, the status, the report and LLM prompts.
MAX_CELL_OUTPUT_CHARS = 1_000_000
MAX_NOTEBOOK_OUTPUT_CHARS = 20_000_000
MAX_ENAME_CHARS = 200
MAX_EVALUE_CHARS = 2_000
MAX_TRACEBACK_CHARS = 20_000
MAX_FAILURE_CHARS = 4_000
MAX_CELL_ERRORS = 50


def cut_marker(cut: int) -> str:
    return f"[nbmodernizer: {cut} characters cut]"


def truncated(text: str, limit: int, keep_end: bool = False) -> str:
    """`text` if it fits in `limit` characters, else its head (or its end) and a marker."""
    if len(text) <= limit:
        return text
    marker = cut_marker(len(text) - limit)
    return f"{marker}\n{text[-limit:]}" if keep_end else f"{text[:limit]}\n{marker}"


def bounded_error(error: CellError) -> CellError:
    """A cell error with bounded texts; a long traceback keeps its end (the raising frame)."""
    lines: list[str] = []
    budget = MAX_TRACEBACK_CHARS
    for line in reversed(error.traceback):
        if budget <= 0:
            cut = sum(len(x) for x in error.traceback) - sum(len(x) for x in lines)
            lines.append(cut_marker(cut))
            break
        lines.append(truncated(line, budget, keep_end=True))
        budget -= len(lines[-1])
    return CellError(
        cell_index=error.cell_index,
        ename=truncated(error.ename, MAX_ENAME_CHARS),
        evalue=truncated(error.evalue, MAX_EVALUE_CHARS),
        traceback=list(reversed(lines)),
    )


def bounded_execution(result: ExecutionResult) -> ExecutionResult:
    """An execution's facts with bounded texts (what a runner stored is not trusted to be)."""
    errors = [bounded_error(e) for e in result.cell_errors[:MAX_CELL_ERRORS]]
    failure = None if result.failure is None else truncated(result.failure, MAX_FAILURE_CHARS)
    return result.model_copy(update={"cell_errors": errors, "failure": failure})


def cell_errors(notebook: Notebook) -> list[CellError]:
    errors: list[CellError] = []
    for code in code_cells(notebook):
        for output in notebook.cells[code.index].outputs:
            if output.get("output_type") == "error":
                traceback = output.get("traceback")
                error = CellError(
                    cell_index=code.index,
                    ename=str(output.get("ename", "")),
                    evalue=str(output.get("evalue", "")),
                    traceback=[str(line) for line in traceback]
                    if isinstance(traceback, list)
                    else [],
                )
                errors.append(bounded_error(error))
    return errors[:MAX_CELL_ERRORS]


def _output_chars(output: Any) -> int:
    """About how large an output is: the lengths of its texts and data."""
    total = 0
    for key in ("text", "evalue", "ename"):
        value = output.get(key)
        if isinstance(value, str):
            total += len(value)
        elif isinstance(value, list):
            total += sum(len(str(v)) for v in value)
    total += sum(len(str(line)) for line in output.get("traceback") or [])
    data = output.get("data") or {}
    total += sum(len(str(v)) for v in data.values())
    return total


class BoundedClient(NotebookClient):
    """nbclient's client keeping at most MAX_CELL_OUTPUT_CHARS of outputs per cell and
    MAX_NOTEBOOK_OUTPUT_CHARS in all; what does not fit is dropped as it arrives (an endless
    print costs no memory) and one marker output per cell says how much. Errors are kept,
    bounded (`bounded_error`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept_total = 0
        self._kept: dict[int, int] = {}
        self._cut: dict[int, tuple[Any, int]] = {}  # cell -> (its marker output, chars cut)

    def output(self, outs: Any, msg: Any, display_id: Any, cell_index: int) -> Any:
        if msg.get("msg_type") == "error":
            content = msg.get("content") or {}
            error = bounded_error(
                CellError(
                    cell_index=cell_index,
                    ename=str(content.get("ename", "")),
                    evalue=str(content.get("evalue", "")),
                    traceback=[str(line) for line in content.get("traceback") or []],
                )
            )
            content.update(ename=error.ename, evalue=error.evalue, traceback=list(error.traceback))
            return super().output(outs, msg, display_id, cell_index)
        size = _output_chars(msg.get("content") or {})
        kept = self._kept.get(cell_index, 0)
        fits = kept + size <= MAX_CELL_OUTPUT_CHARS
        if fits and self._kept_total + size <= MAX_NOTEBOOK_OUTPUT_CHARS:
            self._kept[cell_index] = kept + size
            self._kept_total += size
            return super().output(outs, msg, display_id, cell_index)
        marker, cut = self._cut.get(cell_index, (None, 0))
        cut += size
        text = cut_marker(cut).replace("characters cut", "characters of output cut") + "\n"
        if marker is None or marker not in outs:
            marker = nbformat.v4.new_output("stream", name="stderr", text=text)
            outs.append(marker)
        else:
            marker["text"] = text
        self._cut[cell_index] = (marker, cut)
        return None


class _Run:
    """One execution: the client, the clock and what happened."""

    def __init__(
        self,
        notebook: Notebook,
        folder: RunFolder,
        timeout_seconds: float,
        progress: ProgressCallback | None,
        kernel: Kernel,
        after_cell: CellHook | None = None,
    ) -> None:
        self.notebook = notebook
        self.after_cell = after_cell
        self.folder = folder
        self.kernel = kernel
        self.deadline_seconds = timeout_seconds
        self.progress = progress
        self.started = time.monotonic()
        self.status = ExecutionStatus.COMPLETED
        self.failure: str | None = None
        self.timed_out_cell: int | None = None
        self.executed = 0
        self.client: NotebookClient  # one per start of the kernel (`run`)

    def _client(self, startup_timeout: int) -> NotebookClient:
        if self.folder.kernels is not None:  # the pod split: a kernel its host starts
            manager = remote_kernel_manager(self.folder.kernels)
        else:
            manager = kernel_manager(self.kernel.python)
        return BoundedClient(
            self.notebook,
            km=manager,
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
                async with self.client.async_setup_kernel(env=self._kernel_env(), cleanup_kc=True):
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
        return interpreter_environment(kernel_environment(os.environ), self.kernel.python)

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
        indices = [cell.index for cell in code_cells(self.notebook)]
        self.client.nb = as_node(self.notebook)
        for position, index in enumerate(indices):
            remaining = self.deadline_seconds - self.elapsed()
            if remaining <= 0:
                self._time_out(index)
                return
            self.client.timeout = max(1, math.ceil(remaining))
            if self.progress is not None:
                self.progress(position, len(indices), self.elapsed())
            try:
                await self.client.async_execute_cell(as_node(self.notebook.cells[index]), index)
            except CellTimeoutError:
                self._time_out(index)
                return
            self.executed += 1
            if self.after_cell is not None:
                await self.after_cell(index, self.client.kc)
        if self.progress is not None:
            self.progress(len(indices), len(indices), self.elapsed())

    def _time_out(self, index: int) -> None:
        self.status = ExecutionStatus.TIMEOUT
        self.timed_out_cell = index

    def _gpus(self) -> int:
        """The GPUs the kernel sees: here, or in the kernel's container (the pod split)."""
        if self.folder.kernels is not None:
            return reported_gpus(self.folder.kernels)
        return visible_gpus()

    def _python_version(self) -> str:
        """The kernel's, as nbclient recorded it in the notebook's language_info; else ours."""
        language = self.notebook.metadata.get("language_info")
        version = language.get("version") if isinstance(language, Mapping) else None
        return version if isinstance(version, str) and version else sys.version.split()[0]

    def _packages(self) -> dict[str, str]:
        if self.kernel.packages is not None:
            return dict(self.kernel.packages)
        return imported_packages(self.notebook)

    def result(self) -> ExecutionResult:
        inputs, inputs_total = input_files(self.folder.input)
        return ExecutionResult(
            status=self.status,
            duration_seconds=round(self.elapsed(), 3),
            cells_total=len(code_cells(self.notebook)),
            cells_executed=self.executed,
            cell_errors=cell_errors(self.notebook),
            failure=self.failure,
            timed_out_cell=self.timed_out_cell,
            python_version=self._python_version(),
            packages=self._packages(),
            gpus=self._gpus(),
            inputs=inputs,
            inputs_total=inputs_total,
        )


async def run_notebook(
    notebook: Notebook,
    folder: RunFolder,
    timeout_seconds: float,
    progress: ProgressCallback | None = None,
    kernel: Kernel | None = None,
    after_cell: CellHook | None = None,
) -> ExecutionResult:
    """Execute `notebook` in place (outputs are written into it) and describe the run; its
    kernel runs in `kernel.python` (default: this interpreter); `after_cell` is awaited after
    each code cell.

    Several may run at once in one event loop; cancelling one shuts its kernel down."""
    run = _Run(notebook, folder, timeout_seconds, progress, kernel or Kernel(), after_cell)
    await run.run()
    return run.result()


def execute_notebook(
    notebook: Notebook,
    folder: RunFolder,
    timeout_seconds: float,
    progress: ProgressCallback | None = None,
    kernel: Kernel | None = None,
    after_cell: CellHook | None = None,
) -> ExecutionResult:
    """`run_notebook` for callers without an event loop."""
    return asyncio.run(
        run_notebook(notebook, folder, timeout_seconds, progress, kernel, after_cell)
    )
