"""pytest fixtures of the Kubernetes harness (``tests/k8s/conftest.py`` registers them).

By default everything runs against the in-process KMock emulator. With
``NBM_E2E_KUBECONFIG=<kubeconfig of a disposable cluster, e.g. kind>`` the same fixtures
target that cluster instead: each test gets a fresh namespace, the product's CRDs are
installed, there is no test kubelet (the cluster runs the Jobs), and emulator-only tests
(those asking for ``k8s_emulator``) are skipped.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from testing.k8s.client import ApiError, K8sApi, wait_until
from testing.k8s.emulator import EmulatorServer
from testing.k8s.kopf_process import KopfProcess, isolated_env
from testing.k8s.kubelet import Kubelet
from testing.k8s.resources import CRDS, NAMESPACES, REPO_ROOT, product_crds
from testing.tools import missing_tool

CLUSTER_ENV = "NBM_E2E_KUBECONFIG"
TOOLS_BIN = REPO_ROOT / ".tools" / "bin"
TOY_OPERATOR = Path(__file__).with_name("toy_operator.py")


def cluster_kubeconfig() -> Path | None:
    """The kubeconfig of the real cluster to test against, if one is configured."""
    value = os.environ.get(CLUSTER_ENV)
    return Path(value).expanduser() if value else None


@pytest.fixture(scope="session")
def kube_tools() -> Path:
    """``.tools/bin`` with kubectl v1.37 and helm v4 (fetched by scripts/fetch-kube-tools)."""
    if not ((TOOLS_BIN / "kubectl").exists() and (TOOLS_BIN / "helm").exists()):
        script = REPO_ROOT / "scripts" / "fetch-kube-tools"
        done = subprocess.run([str(script)], capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            missing_tool(f"kubectl/helm are unavailable: {script} failed:\n{done.stderr[-2000:]}")
    return TOOLS_BIN


@pytest.fixture
def k8s_server() -> Iterator[EmulatorServer | None]:
    """The running emulator (None when the tests target a real cluster)."""
    if cluster_kubeconfig() is not None:
        yield None
        return
    with EmulatorServer() as server:
        yield server
        print("Last requests to the emulator:", *server.request_log()[-40:], sep="\n  ")


@pytest.fixture
def k8s_emulator(k8s_server: EmulatorServer | None) -> EmulatorServer:
    """The emulator; skips the test when targeting a real cluster."""
    if k8s_server is None:
        pytest.skip(f"emulator-only test ({CLUSTER_ENV} targets a real cluster)")
    return k8s_server


@pytest.fixture
def k8s_api(k8s_server: EmulatorServer | None, tmp_path: Path) -> Iterator[K8sApi]:
    """A :class:`K8sApi` with ``url``, ``kubeconfig``, ``namespace`` (the test's namespace)."""
    if k8s_server is not None:
        kubeconfig = k8s_server.write_kubeconfig(tmp_path / "kubeconfig")
        api = K8sApi(kubeconfig, server=k8s_server)
        try:
            yield api
        finally:
            api.close()
        return

    cluster = cluster_kubeconfig()
    assert cluster is not None
    namespace = f"nbm-e2e-{secrets.token_hex(3)}"
    api = K8sApi(cluster, namespace=namespace)
    for crd in product_crds():
        try:
            api.create(CRDS, crd)
        except ApiError as e:
            if e.status != 409:
                raise
        name = crd["metadata"]["name"]
        api.wait_for(CRDS, name, _established, timeout=60, what="the CRD is established")
    api.create(NAMESPACES, {"metadata": {"name": namespace}})
    try:
        yield api
    finally:
        api.delete(NAMESPACES, namespace)
        api.close()


def _established(crd: Mapping[str, Any]) -> bool:
    conditions = (crd.get("status") or {}).get("conditions") or []
    return any(c["type"] == "Established" and c["status"] == "True" for c in conditions)


@pytest.fixture
def kubelet(k8s_api: K8sApi) -> Iterator[Kubelet | None]:
    """A started :class:`Kubelet` for the emulator (None on a real cluster: it has one).

    Jobs see this process's environment, minus in-cluster credentials, plus
    ``KUBECONFIG`` pointing at the emulator.
    """
    if not k8s_api.emulated:
        yield None
        return
    with Kubelet(k8s_api, base_env=isolated_env(k8s_api.kubeconfig)) as running:
        yield running
    if running.errors:
        print("Kubelet errors:", *running.errors, sep="\n  ")


class Kubectl:
    """``kubectl --kubeconfig <the test's> -n <the test's namespace> ...``, private cache."""

    def __init__(self, binary: Path, kubeconfig: Path, namespace: str, cache_dir: Path) -> None:
        self.binary = binary
        self.kubeconfig = kubeconfig
        self.namespace = namespace
        self.cache_dir = cache_dir

    def __call__(
        self, *args: str, check: bool = True, input: str | None = None, timeout: float = 30
    ) -> subprocess.CompletedProcess[str]:
        env = isolated_env(self.kubeconfig, {"KUBECACHEDIR": str(self.cache_dir)})
        argv = [str(self.binary), "--kubeconfig", str(self.kubeconfig), "-n", self.namespace]
        argv += args
        done = subprocess.run(
            argv, env=env, input=input, capture_output=True, text=True, timeout=timeout
        )
        if check and done.returncode != 0:
            raise AssertionError(
                f"kubectl {' '.join(args)} exited with {done.returncode}:\n"
                f"{done.stdout}\n{done.stderr}"
            )
        return done

    def json(self, *args: str) -> Any:
        return json.loads(self(*args, "-o", "json").stdout)


@pytest.fixture
def kubectl(kube_tools: Path, k8s_api: K8sApi, tmp_path: Path) -> Kubectl:
    """Run kubectl against the test's API: ``kubectl("get", "nbm", "x", "-o", "json")``."""
    cache = tmp_path / "kube-cache"
    return Kubectl(kube_tools / "kubectl", k8s_api.kubeconfig, k8s_api.namespace, cache)


OperatorFactory = Callable[..., KopfProcess]


@pytest.fixture
def kopf_operator(k8s_api: K8sApi, tmp_path: Path) -> Iterator[OperatorFactory]:
    """A factory of started operator processes; all are stopped at teardown.

    ``kopf_operator(script=TOY_OPERATOR, env={...}, args=[...], all_namespaces=False,
    start=True)``: the operator serves the test's namespace (``-n``), or all (``-A``).
    """
    made: list[KopfProcess] = []

    def factory(
        script: Path = TOY_OPERATOR,
        *,
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
        all_namespaces: bool = False,
        start: bool = True,
    ) -> KopfProcess:
        process = KopfProcess(
            script,
            kubeconfig=k8s_api.kubeconfig,
            namespace=None if all_namespaces else k8s_api.namespace,
            log_path=tmp_path / f"operator-{len(made)}.log",
            env=env,
            args=args,
        )
        made.append(process)
        return process.start() if start else process

    yield factory
    for process in made:
        process.stop()
    for process in made:  # shown by pytest when the test fails
        print(f"===== {process.log_path.name} (exit {process.returncode}):")
        print(process.output()[-6000:])


__all__ = [
    "CLUSTER_ENV",
    "TOY_OPERATOR",
    "Kubectl",
    "OperatorFactory",
    "cluster_kubeconfig",
    "k8s_api",
    "k8s_emulator",
    "k8s_server",
    "kopf_operator",
    "kube_tools",
    "kubectl",
    "kubelet",
    "wait_until",
]
