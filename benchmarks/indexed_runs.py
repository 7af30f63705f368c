"""Benchmark: one iteration of `runs: 4` in the cluster (one Indexed Job, four pods at once)
against one of `runs: 1`, through the real operator on the emulator.

The real `nbmod operator` process, S3 on moto's server (a process of its own), and the test
kubelet running each pod's real runner command (`nbmod run-iteration` through the pod shim
of testing/k8s: pre-signed grants, a real kernel per pod). The notebook reads its input,
waits about `--seconds` (a stand-in for a model training on its own GPU: the time is spent
outside this machine's two cores), fits a small model, and writes its submission; it
reproduces at revision 0, so the modernization is one iteration. Per round, one `runs: 1`
and one `runs: 4` modernization, one after the other (never at the same time), with the
operator already warm. Reported: the medians of the time from creating the resource to its
phase Succeeded, the ratio (the goal: well under 2), and how many runs were graded.

    python benchmarks/indexed_runs.py [--rounds 3] [--seconds 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from testing.k8s.client import K8sApi, wait_until
from testing.k8s.emulator import EmulatorServer
from testing.k8s.kubelet import Kubelet
from testing.k8s.product import (
    TEST_RUNNER_IMAGE,
    NbmodOperator,
    moto_server_process,
    pod_base_env,
    pod_shim,
    push_case,
)
from testing.k8s.resources import NBMS
from testing.notebooks import PREDICT, READ, WRITE
from testing.s3server import ACCESS_KEY, REGION, SECRET_KEY, new_bucket


def waiting_notebook(seconds: float) -> list[str]:
    wait = f"import time\ntime.sleep({seconds})"
    fit = (
        "import numpy as np\nfrom sklearn.linear_model import LogisticRegression\n"
        "rng = np.random.default_rng(0)\n"
        "LogisticRegression(max_iter=200).fit(rng.random((2000, 20)), rng.integers(0, 2, 2000))"
    )
    return [READ, wait, fit, PREDICT, WRITE]


def finished(api: K8sApi, name: str) -> dict[str, Any] | None:
    found = api.find(NBMS, name)
    phase = ((found or {}).get("status") or {}).get("phase")
    return found if phase in ("Succeeded", "Failed") else None


def once(
    api: K8sApi, root: Path, bucket: Any, name: str, runs: int, seconds: float
) -> tuple[float, dict[str, Any]]:
    case = push_case(root, bucket, name, *waiting_notebook(seconds), score={"runs": runs})
    started = time.perf_counter()
    api.create(NBMS, case)
    wait_until(lambda: finished(api, name), timeout=600, interval=0.1, what=f"{name} to finish")
    elapsed = time.perf_counter() - started
    status = (finished(api, name) or {}).get("status") or {}
    return elapsed, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    timings: dict[int, list[float]] = {1: [], 4: []}
    graded: list[int] = []
    with moto_server_process() as (endpoint, _log), tempfile.TemporaryDirectory() as scratch:
        os.environ.update(
            AWS_ENDPOINT_URL_S3=endpoint,
            AWS_ACCESS_KEY_ID=ACCESS_KEY,
            AWS_SECRET_ACCESS_KEY=SECRET_KEY,
            AWS_DEFAULT_REGION=REGION,
        )
        root = Path(scratch)
        bucket = new_bucket(endpoint)
        with EmulatorServer() as server:
            kubeconfig = server.write_kubeconfig(root / "kubeconfig")
            api = K8sApi(kubeconfig, server=server)
            operator = NbmodOperator(
                Path("nbmod"),
                kubeconfig=kubeconfig,
                namespace="default",
                log_path=root / "operator.log",
                env={k: v for k, v in os.environ.items() if k.startswith("AWS_")},
                args=[
                    "--s3-bucket", bucket.name, "--s3-prefix", "runs",
                    "--s3-endpoint", endpoint, "--runner-image", TEST_RUNNER_IMAGE,
                    "--metrics-port", "0", "--health-port", "0", "--max-parallel-runs", "4",
                ],
            )  # fmt: skip
            kubelet = Kubelet(
                api, base_env=pod_base_env(root), executables={"nbmod": str(pod_shim(root))}
            )
            with kubelet:
                operator.start()
                once(api, root, bucket, "warm-up", 1, 0.0)  # imports, kopf's first listings
                for n in range(args.rounds):
                    for runs in (1, 4):
                        elapsed, status = once(
                            api, root, bucket, f"r{n}-runs-{runs}", runs, args.seconds
                        )
                        assert status.get("outcome") == "ErrorFreeReproducible", status
                        timings[runs].append(elapsed)
                        if runs == 4:
                            graded.append(len(status["revisions"][0].get("scores") or []))
            operator.stop()
    for runs, values in timings.items():
        shown = ", ".join(f"{v:.1f}" for v in values)
        print(f"runs: {runs}  iteration median {statistics.median(values):6.1f} s  ({shown})")
    ratio = statistics.median(timings[4]) / statistics.median(timings[1])
    print(f"runs: 4 / runs: 1 (one Indexed Job, 4 pods at once): {ratio:.2f}")
    print(f"runs graded per runs: 4 iteration: {graded}")


if __name__ == "__main__":
    main()
