"""A fake cluster for hands-on work: the emulator and the kubelet, until Ctrl-C.

    .venv/bin/python -m testing.k8s.fake_cluster --kubeconfig /tmp/fake.kubeconfig
    KUBECONFIG=/tmp/fake.kubeconfig .tools/bin/kubectl get nbm
    KUBECONFIG=/tmp/fake.kubeconfig .venv/bin/kopf run --standalone -A testing/k8s/toy_operator.py

Pointing ``NBM_E2E_KUBECONFIG`` at it runs the test suite in its "real cluster" mode (a
namespace per test, no in-process emulator or kubelet), which is how that mode is tested
without a cluster. ``--runner`` runs the runner Jobs' ``nbmod`` the way the product tests'
kubelet does (a pod's own /kaggle folders), for the product tests in that mode
(docs/testing-kubernetes.md).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import tempfile
import threading
from pathlib import Path

from testing.k8s.client import K8sApi
from testing.k8s.emulator import EmulatorServer
from testing.k8s.kopf_process import isolated_env
from testing.k8s.kubelet import Kubelet


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m testing.k8s.fake_cluster")
    parser.add_argument("--kubeconfig", type=Path, required=True, help="where to write it")
    parser.add_argument("--port", type=int, default=None, help="default: a free port")
    parser.add_argument("--instant", action="store_true", help="complete Jobs without running")
    parser.add_argument("--echo", action="store_true", help="print the Jobs' output")
    parser.add_argument("--runner", action="store_true", help="run `nbmod` Jobs as pods would")
    args = parser.parse_args(argv)
    executables = None
    if args.runner:
        from testing.k8s.product import pod_shim

        executables = {"nbmod": str(pod_shim(Path(tempfile.mkdtemp(prefix="fake-cluster-"))))}

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with EmulatorServer(port=args.port) as server:
        kubeconfig = server.write_kubeconfig(args.kubeconfig)
        api = K8sApi(kubeconfig, server=server)
        env = isolated_env(kubeconfig)
        kubelet = Kubelet(
            api, base_env=env, instant=args.instant, echo=args.echo, executables=executables
        )
        with kubelet:
            print(f"Serving {server.url}; kubeconfig: {kubeconfig}; Ctrl-C to stop.", flush=True)
            with contextlib.suppress(KeyboardInterrupt):
                stop.wait()


if __name__ == "__main__":
    main()
