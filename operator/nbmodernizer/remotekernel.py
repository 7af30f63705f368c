"""A Jupyter kernel in another container of the pod, driven over ZMQ (the pod split).

In a runner pod the notebook's kernel runs in a container of its own (`kernel`) that holds no
grant; the container that drives it (`executor`, nbclient) alone holds the write grants. The
containers share the pod's network namespace (the kernel's ports are on 127.0.0.1) and one
emptyDir, the kernel folder, through which they agree on a kernel, and nothing else: not
their processes (`shareProcessNamespace: false`), not the executor's files.

The protocol, in the kernel folder (file names carry the kernel's id):

    kernel-ID.json   the connection file (ports, key), written by the executor (nbclient's
                     manager picks free ports on the shared loopback)
    start-ID         then written by the executor: "start this kernel"
    signal-ID-N      a signal number for the kernel's process group (interrupt, kill)
    exit-ID          its exit status, written by the kernel's host when the kernel ended
    gpus             how many GPUs the kernel's container sees (its host's count, at start):
                     the executor's container has none; context for the fixers, no more
    done             the executor has finished: the host kills what runs and exits 0

`RemoteKernelManager` is the executor's side (a jupyter_client manager whose provisioner
writes requests instead of starting a process); `host_kernels` is the kernel container's
(`nbmod run-iteration --stage kernel`). Each file is written whole (a rename), so neither
side reads half of one. The kernel can write into the folder too: it can only disturb its
own run (a fake exit or `done` fails the run), never what the executor records of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jupyter_client.connect import KernelConnectionInfo
from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning.local_provisioner import LocalProvisioner

from nbmodernizer.environment import visible_gpus

POLL_SECONDS = 0.05
EXIT_WAIT_SECONDS = 30.0  # how long the executor waits for a dying kernel's exit status
DONE = "done"
GPUS = "gpus"
MAX_GPUS = 1024
KERNEL_ARGUMENTS = ("--HistoryManager.enabled=False", "--IPKernelApp.log_level=ERROR")


def write_whole(path: Path, text: str) -> None:
    """Write `path` under another name first, then rename it: readers see all or nothing."""
    partial = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}")
    partial.write_text(text)
    partial.replace(path)


def connection_file(folder: Path, kernel_id: str) -> Path:
    return folder / f"kernel-{kernel_id}.json"


class RemoteProvisioner(LocalProvisioner):
    """LocalProvisioner's ports and connection file; the process is the host's to start."""

    folder: Path
    launched: bool = False
    signals: int = 0

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> KernelConnectionInfo:
        write_whole(self.folder / f"start-{self.kernel_id}", str(self.kernel_id))
        self.launched = True
        return self.connection_info

    @property
    def has_process(self) -> bool:
        return self.launched

    def _exit_status(self) -> int | None:
        try:
            return int((self.folder / f"exit-{self.kernel_id}").read_text().strip())
        except (FileNotFoundError, ValueError):
            return None

    async def poll(self) -> int | None:
        return self._exit_status() if self.launched else 0

    async def wait(self) -> int | None:
        deadline = time.monotonic() + EXIT_WAIT_SECONDS
        while self.launched and time.monotonic() < deadline:
            status = self._exit_status()
            if status is not None:
                self.launched = False
                return status
            await asyncio.sleep(POLL_SECONDS)
        self.launched = False  # its host is gone (or the kernel lies): nothing more to wait for
        return None

    async def send_signal(self, signum: int) -> None:
        if self.launched:
            self.signals += 1
            write_whole(self.folder / f"signal-{self.kernel_id}-{self.signals}", str(int(signum)))

    async def kill(self, restart: bool = False) -> None:
        await self.send_signal(signal.SIGKILL)

    async def terminate(self, restart: bool = False) -> None:
        await self.send_signal(signal.SIGTERM)

    async def cleanup(self, restart: bool = False) -> None:
        if "shell_port" in self.connection_info:  # it got as far as choosing ports
            await super().cleanup(restart)
        with contextlib.suppress(FileNotFoundError):
            connection_file(self.folder, str(self.kernel_id)).unlink()


def remote_kernel_manager(folder: Path, kernel_name: str = "python3") -> AsyncKernelManager:
    """A manager for a kernel the host in `folder` starts; nbclient uses it as its own."""
    folder.mkdir(parents=True, exist_ok=True)
    kernel_id = uuid.uuid4().hex
    manager = AsyncKernelManager(kernel_name=kernel_name, kernel_id=kernel_id)
    manager.connection_file = str(connection_file(folder, kernel_id))
    manager.cache_ports = True
    provisioner = RemoteProvisioner(
        kernel_id=kernel_id, kernel_spec=manager.kernel_spec, parent=manager
    )
    provisioner.folder = folder
    manager.provisioner = provisioner
    return manager


# -- the kernel container's side -----------------------------------------------------------


def _deliver_signals(folder: Path, kernel_id: str, process: subprocess.Popen[bytes]) -> None:
    for request in sorted(folder.glob(f"signal-{kernel_id}-*")):
        with contextlib.suppress(ValueError, OSError):
            os.killpg(process.pid, int(request.read_text().strip()))
        request.unlink(missing_ok=True)


def _run_kernel(folder: Path, kernel_id: str, working: Path, env: Mapping[str, str]) -> int:
    """Start one kernel, deliver its signals, and record how it ended."""
    command = [
        sys.executable, "-m", "ipykernel_launcher",
        "-f", str(connection_file(folder, kernel_id)), *KERNEL_ARGUMENTS,
    ]  # fmt: skip
    process = subprocess.Popen(
        command, env=dict(env), cwd=working, stdin=subprocess.DEVNULL, start_new_session=True
    )
    while process.poll() is None:
        _deliver_signals(folder, kernel_id, process)
        if (folder / DONE).exists():
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            break
        time.sleep(POLL_SECONDS)
    status = process.returncode
    write_whole(folder / f"exit-{kernel_id}", str(status))
    return int(status)


def host_kernels(folder: Path, working: Path, env: Mapping[str, str]) -> int:
    """Start each kernel the executor asks for, one at a time, until it says `done`."""
    folder.mkdir(parents=True, exist_ok=True)
    write_whole(folder / GPUS, str(visible_gpus()))
    while not (folder / DONE).exists():
        requests = sorted(folder.glob("start-*"), key=lambda path: path.stat().st_mtime)
        if not requests:
            time.sleep(POLL_SECONDS)
            continue
        request = requests[0]
        kernel_id = request.name.removeprefix("start-")
        request.unlink(missing_ok=True)
        working.mkdir(parents=True, exist_ok=True)
        _run_kernel(folder, kernel_id, working, env)
    return 0


def reported_gpus(folder: Path) -> int:
    """The kernel container's GPU count, as its host wrote it (0 when absent or malformed:
    the kernel can write into the folder too)."""
    try:
        return max(0, min(int((folder / GPUS).read_text().strip()), MAX_GPUS))
    except (OSError, ValueError):
        return 0


def finish(folder: Path) -> None:
    """The executor's last word: the kernel's host may exit."""
    write_whole(folder / DONE, "done")
