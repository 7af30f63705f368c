"""A Jupyter kernel in another container of the pod, driven over ZMQ (the pod split).

In a runner pod the notebook's kernel runs in a container of its own (`kernel`, the
environment image) that holds no grant; the container that drives it (`executor`, the runner
image, nbclient) alone holds the write grants. The containers share the pod's network
namespace (the kernel's ports are on 127.0.0.1) and one emptyDir, the kernel folder, through
which they agree on a kernel, and nothing else: not their processes
(`shareProcessNamespace: false`), not the executor's files.

The kernel container's side, and the protocol's file names, are `kernelhost` (stdlib only:
it runs in any image, with the image's own python). `RemoteKernelManager` here is the
executor's side: a jupyter_client manager whose provisioner writes requests instead of
starting a process.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
import uuid
from pathlib import Path
from typing import Any

from jupyter_client.connect import KernelConnectionInfo
from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning.local_provisioner import LocalProvisioner

from nbmodernizer.kernelhost import (
    DONE,
    GPUS,
    POLL_SECONDS,
    connection_file,
    exit_file,
    signal_file,
    start_file,
    write_whole,
)

EXIT_WAIT_SECONDS = 30.0  # how long the executor waits for a dying kernel's exit status
MAX_GPUS = 1024


class RemoteProvisioner(LocalProvisioner):
    """LocalProvisioner's ports and connection file; the process is the host's to start."""

    folder: Path
    launched: bool = False
    signals: int = 0

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> KernelConnectionInfo:
        write_whole(start_file(self.folder, str(self.kernel_id)), str(self.kernel_id))
        self.launched = True
        return self.connection_info

    @property
    def has_process(self) -> bool:
        return self.launched

    def _exit_status(self) -> int | None:
        try:
            return int(exit_file(self.folder, str(self.kernel_id)).read_text().strip())
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
            write_whole(
                signal_file(self.folder, str(self.kernel_id), self.signals), str(int(signum))
            )

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
