"""The real nbmodernizer operator in the harness: `nbmod operator` as a separate process, S3
on moto's server, and runner Jobs executed by the test kubelet through a pod shim.

On a real cluster (``NBM_E2E_KUBECONFIG``) the operator still runs here, the cluster runs the
Jobs in the runner image, and S3 is the cluster's (the MinIO that ``scripts/kind-up``
installs), which this machine and the pods reach at different addresses:

- ``NBM_E2E_S3_ENDPOINT``: S3 as the tests and the operator see it (kind-up: a NodePort
  on 127.0.0.1);
- ``NBM_E2E_RUNNER_S3_ENDPOINT``: S3 as the runner pods see it (the in-cluster Service);
- ``NBM_E2E_S3_ACCESS_KEY`` / ``NBM_E2E_S3_SECRET_KEY``: credentials for both;
- ``NBM_E2E_RUNNER_IMAGE``: the runner image the nodes have (default: the chart's).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import textwrap
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from testing.k8s.client import K8sApi, wait_until
from testing.k8s.fixtures import CLUSTER_ENV, cluster_kubeconfig
from testing.k8s.kopf_process import KopfProcess
from testing.k8s.kubelet import Kubelet
from testing.k8s.resources import NBMS, SECRETS
from testing.s3server import (
    ACCESS_KEY,
    SECRET_KEY,
    S3Bucket,
    new_bucket,
    signing_s3_endpoint_url,
    use_endpoint,
)

if TYPE_CHECKING:
    from nbmodernizer.cluster.kube import Kube

S3_SECRET = "nbmodernizer-s3"
TEST_RUNNER_IMAGE = "nbmodernizer-runner:test"  # the kubelet runs its python as this one


@dataclass(frozen=True)
class Store:
    """Where the product tests' S3 is, from this machine and from the runner pods."""

    endpoint: str
    runner_endpoint: str
    access_key: str = ACCESS_KEY
    secret_key: str = SECRET_KEY
    runner_image: str = TEST_RUNNER_IMAGE


def product_store() -> Store:
    """moto's server behind the tests' signature check (testing/s3signatures.py: a store that
    refuses a changed pre-signed URL, as AWS S3, MinIO and Ceph do) on the emulator; the
    cluster's S3 (NBM_E2E_S3_*) on a real cluster."""
    if cluster_kubeconfig() is None:
        moto = signing_s3_endpoint_url()
        return Store(endpoint=moto, runner_endpoint=moto)
    endpoint = os.environ.get("NBM_E2E_S3_ENDPOINT")
    if not endpoint:
        pytest.skip(
            f"the product's tests on a real cluster ({CLUSTER_ENV}) need NBM_E2E_S3_ENDPOINT: "
            "an S3 this machine and the cluster both reach (scripts/kind-up prints the lot)"
        )
    env = os.environ.get
    return Store(
        endpoint=endpoint,
        runner_endpoint=env("NBM_E2E_RUNNER_S3_ENDPOINT") or endpoint,
        access_key=env("NBM_E2E_S3_ACCESS_KEY") or ACCESS_KEY,
        secret_key=env("NBM_E2E_S3_SECRET_KEY") or SECRET_KEY,
        runner_image=env("NBM_E2E_RUNNER_IMAGE") or "ghcr.io/nbmodernizer/runner:0.1.0",
    )


@pytest.fixture
def store() -> Store:
    return product_store()


@pytest.fixture(name="s3_bucket")
def product_s3_bucket(store: Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[S3Bucket]:
    """A bucket of this test's own on the product tests' S3; removed after a real-cluster test
    (MinIO outlives the tests; moto's server does not)."""
    use_endpoint(monkeypatch, store.endpoint, store.access_key, store.secret_key)
    bucket = new_bucket(store.endpoint)
    yield bucket
    if cluster_kubeconfig() is not None:
        bucket.remove()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def moto_server_process() -> Iterator[tuple[str, Path]]:
    """moto's S3 server in a process of its own, so it does not share this one's GIL; its
    endpoint, and its request log (one line per request)."""
    port = free_port()
    with tempfile.NamedTemporaryFile(prefix="moto-", suffix=".log") as log:
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "moto_server"), "-H", "127.0.0.1", "-p", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        endpoint = f"http://127.0.0.1:{port}"
        try:
            wait_until(lambda: _answers(endpoint), timeout=30, what="moto_server")
            yield endpoint, Path(log.name)
        finally:
            server.terminate()
            server.wait(timeout=10)


def _answers(endpoint: str) -> bool:
    try:
        with urllib.request.urlopen(endpoint, timeout=1):
            return True
    except OSError:
        return False


class NbmodOperator(KopfProcess):
    """`nbmod operator -n <namespace> <flags>`: the product's own command line."""

    @property
    def argv(self) -> list[str]:
        scope = ["-A"] if self.namespace is None else ["-n", self.namespace]
        return [sys.executable, "-m", "nbmodernizer.cli", "operator", *scope, *self.args]


def pod_shim(folder: Path) -> Path:
    """An executable standing in for the runner image's `nbmod`: it gives each pod its own
    `/kaggle/working` and `/kaggle/input` where the kubelet did not mount them (a volume
    claim; the kubelet mounts Secrets and emptyDirs), and finds this checkout's nbmodernizer
    as the image would find its own (the pod's environment has no PYTHONPATH)."""
    import nbmodernizer

    package_root = str(Path(nbmodernizer.__file__).resolve().parent.parent)
    shim = folder / "nbmod-in-pod"
    shim.write_text(
        textwrap.dedent(
            f"""\
            #!{sys.executable}
            import sys, tempfile
            sys.path.insert(0, {package_root!r})
            pod = tempfile.mkdtemp(prefix="pod-")
            argv = sys.argv[1:]
            for flag in ("--working-dir", "--input-dir"):  # unless the kubelet mounted it
                if flag in argv and argv[argv.index(flag) + 1].startswith("/kaggle"):
                    argv[argv.index(flag) + 1] = pod + argv[argv.index(flag) + 1]
            from nbmodernizer.cli import main
            sys.exit(main(argv))
            """
        )
    )
    shim.chmod(0o755)
    return shim


@pytest.fixture
def s3_secret(k8s_api: K8sApi, store: Store) -> None:
    """The Secret runner pods read S3 keys from under the opt-out (`--s3-secret`)."""
    k8s_api.create(
        SECRETS,
        {
            "metadata": {"name": S3_SECRET},
            "stringData": {
                "AWS_ACCESS_KEY_ID": store.access_key,
                "AWS_SECRET_ACCESS_KEY": store.secret_key,
            },
        },
    )


def pod_base_env(home: Path) -> dict[str, str]:
    """What a container gets besides its own `env`: PATH and HOME, nothing of this process
    (no AWS_*, no KUBECONFIG, no PYTHONPATH)."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}


@pytest.fixture
def runner_kubelet(k8s_api: K8sApi, tmp_path: Path) -> Iterator[Kubelet | None]:
    """The test kubelet, running Jobs' `nbmod` through the pod shim and `python` as this
    interpreter (None on a real cluster: its nodes run the Jobs in the runner image); set
    `images` on it for other images. The pods get only their container's
    environment (`pod_base_env`) and their Secret volumes as files."""
    if not k8s_api.emulated:
        yield None
        return
    shim = pod_shim(tmp_path)
    base = pod_base_env(tmp_path)
    with Kubelet(k8s_api, base_env=base, executables={"nbmod": str(shim)}) as kubelet:
        yield kubelet
    if kubelet.errors:
        print("Kubelet errors:", *kubelet.errors, sep="\n  ")


OperatorStarter = Callable[..., NbmodOperator]


@pytest.fixture
def nbmod_operator(
    k8s_api: K8sApi, s3_bucket: S3Bucket, store: Store, tmp_path: Path
) -> Iterator[OperatorStarter]:
    """Start `nbmod operator` processes on the test's namespace; all stopped at teardown."""
    made: list[NbmodOperator] = []

    def start(
        *flags: str, env: Mapping[str, str] | None = None, endpoint: str | None = None
    ) -> NbmodOperator:
        settings = {
            "--s3-bucket": s3_bucket.name,
            "--s3-prefix": "runs",
            "--s3-endpoint": endpoint or s3_bucket.endpoint,
            "--runner-s3-endpoint": store.runner_endpoint,
            "--runner-image": store.runner_image,
            "--metrics-port": "0",
            "--health-port": "0",
            "--retry-seconds": "0.5",
        }
        args: list[str] = []
        for flag, value in settings.items():
            if flag not in flags:
                args += [flag, value]
        process = NbmodOperator(
            Path("nbmod"),
            kubeconfig=k8s_api.kubeconfig,
            namespace=k8s_api.namespace,
            log_path=tmp_path / f"nbmod-operator-{len(made)}.log",
            env={**{k: v for k, v in os.environ.items() if k.startswith("AWS_")}, **(env or {})},
            args=[*args, *flags],
        )
        made.append(process)
        return process.start()

    yield start
    for process in made:
        process.stop()
    for process in made:
        print(f"===== {process.log_path.name} (exit {process.returncode}):")
        print(process.output()[-8000:])


def product_kube(api: K8sApi) -> Kube:
    """The operator's own Kubernetes client, on the API `api` talks to."""
    from kubernetes import client, config

    from nbmodernizer.cluster.kube import Kube

    configuration = client.Configuration()
    config.load_kube_config(config_file=str(api.kubeconfig), client_configuration=configuration)
    return Kube(configuration)


def status_of(obj: Mapping[str, Any]) -> dict[str, Any]:
    return dict(obj.get("status") or {})


def finished(obj: Mapping[str, Any]) -> bool:
    return status_of(obj).get("phase") in ("Succeeded", "Failed")


def wait_finished(
    api: K8sApi, name: str, operator: KopfProcess, timeout: float = 240
) -> dict[str, Any]:
    """Wait for the modernization to finish; fail at once if the operator process died."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        found = api.find(NBMS, name)
        if found is not None and finished(found):
            return found
        if not operator.running:
            raise AssertionError(
                f"the operator exited ({operator.returncode}) before {name} finished"
            )
        if time.monotonic() > deadline:
            raise AssertionError(
                f"{name} did not finish in {timeout}s; last status: {status_of(found or {})}"
            )
        time.sleep(0.1)


def push_case(
    root: Path, bucket: S3Bucket, name: str, *sources: str, **spec: Any
) -> dict[str, Any]:
    """A tiny Kaggle-style case (testing.notebooks) pushed to S3: the resource to create."""
    from nbmodernizer.push import push
    from testing.notebooks import kaggle_folder

    spec_path = kaggle_folder(root / name, *sources, **spec)
    spec_path.write_text(spec_path.read_text().replace("name: tiny", f"name: {name}"))
    return push(spec_path, bucket.uri("fleet"))
