"""Run a kopf operator as a real, separate process: ``python -m kopf run ...``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Self

# In-cluster credentials win over KUBECONFIG in kopf's and the client's login: a CI pod with
# a service account would otherwise aim the operator at the real cluster it runs in.
IN_CLUSTER_VARIABLES = ("KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT")


def isolated_env(kubeconfig: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment, aimed at ``kubeconfig`` and never at an in-cluster API."""
    env = {k: v for k, v in os.environ.items() if k not in IN_CLUSTER_VARIABLES}
    env["KUBECONFIG"] = str(kubeconfig)
    env.update(extra or {})
    return env


class KopfProcess:
    """``python -m kopf run --standalone -n <namespace> --verbose <script>``, logged to a file.

    ``--standalone``: no peering objects (the emulator does not declare kopf's peering CRDs).
    ``namespace=None`` serves all namespaces (``-A``).
    """

    def __init__(
        self,
        script: Path,
        *,
        kubeconfig: Path,
        namespace: str | None,
        log_path: Path,
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
    ) -> None:
        self.script = script
        self.kubeconfig = kubeconfig
        self.namespace = namespace
        self.log_path = log_path
        self.env = dict(env or {})
        self.args = list(args)
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def argv(self) -> list[str]:
        scope = ["-A"] if self.namespace is None else ["-n", self.namespace]
        return [sys.executable, "-m", "kopf", "run", "--standalone", "--verbose",
                *scope, *self.args, str(self.script)]  # fmt: skip

    def start(self) -> Self:
        if self.running:
            raise RuntimeError("the operator is running already")
        self._log = open(self.log_path, "ab")  # noqa: SIM115  # closed in stop()/kill()
        self._log.write(f"\n===== start: {' '.join(self.argv)}\n".encode())
        self._log.flush()
        self._proc = subprocess.Popen(
            self.argv,
            env=isolated_env(self.kubeconfig, self.env),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C in pytest does not hit it; we stop it ourselves
        )
        return self

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def returncode(self) -> int | None:
        return None if self._proc is None else self._proc.poll()

    def wait(self, timeout: float = 30) -> int:
        if self._proc is None:
            raise RuntimeError("the operator was never started")
        code = self._proc.wait(timeout)
        self._close_log()
        return code

    def stop(self, timeout: float = 15) -> int | None:
        """Stop gracefully (SIGTERM, as Kubernetes does), SIGKILL if it takes too long."""
        if self._proc is None:
            return None
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGTERM)
            try:
                self._proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(timeout)
        self._close_log()
        return self._proc.returncode

    def kill(self) -> None:
        """Die at once (SIGKILL), as on a node failure or an OOM kill."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait(15)
        self._close_log()

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def wait_for_output(self, text: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output():
            if not self.running:
                raise AssertionError(f"the operator exited ({self.returncode}) before {text!r}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {text!r} in the operator's output in {timeout}s")
            time.sleep(0.05)
