"""Benchmark: the operator on a fleet, on the emulator, with Jobs that complete instantly.

Every modernization takes two iterations: revision 0 "fails" on `np.float`, the rules fix it,
revision 1 reproduces. The test kubelet finishes each Job at once, writing the execution
result a real runner would have stored, so what is measured is the operator: its reaction
time from a Job's completion to the next Job's creation (p50, p99), the status updates it
writes per second, and its memory. The reaction time is clocked twice: by the kubelet
(revision 0's Job finished -> revision 1's Job run, as before; this includes the kubelet's
own queue: it runs the Jobs one after another, in one thread beside the emulator), and on a
watch of the API (revision 0's Job seen complete -> revision 1's Job seen created: the
operator's part alone).

    python benchmarks/operator_fleet.py --resources 200 1000
    python benchmarks/operator_fleet.py --resources 200 --compare-cache 3
    python benchmarks/operator_fleet.py --sustained 2 4 8 --seconds 60

`--sustained RATE...` creates modernizations one by one at RATE per second on average
(Poisson arrivals: exponential gaps, seeded) for `--seconds`, while the operator runs, so
Job completions arrive as a stream, not a burst; for each rate it reports the reaction time
and the operator's CPU seconds per iteration (from /proc), and names the highest rate whose
p99 stays within 1 s.

`--compare-cache N` runs the fleet N times with the operator's store cache and N times
without (`--store-cache-mib 0`), alternated, and reports the ratios of the medians.

Needs the dev extras (moto, kmock). Runs the real `nbmod operator` process.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from nbmodernizer.engine import environment_request, store_environment
from nbmodernizer.facts import EnvironmentFacts, gather
from nbmodernizer.notebook import serialise
from nbmodernizer.status import CellError, ExecutionResult, ExecutionStatus
from nbmodernizer.store.layout import (
    EXECUTED,
    NOTEBOOK,
    SUBMISSION,
    parse_revision_folder_uri,
)
from nbmodernizer.store.revisions import S3Store, write_execution
from nbmodernizer.store.s3 import s3_client
from testing.k8s.client import K8sApi, wait_until
from testing.k8s.emulator import EmulatorServer
from testing.k8s.kubelet import Kubelet
from testing.k8s.product import NbmodOperator, moto_server_process
from testing.k8s.resources import JOBS, NBMS, SECRETS
from testing.notebooks import notebook

BUCKET = "fleet-bench"
ANSWERS = b"id,y\n1,1\n2,0\n"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


LEGACY = notebook("import numpy as np", "x = np.float(1)")
# What a runner's probe stores before the notebook runs (environment.json): the facts of this
# interpreter for the notebook's imports, gathered once for the whole fleet (the rules decide
# from them that np.float is gone)
FACTS: list[EnvironmentFacts] = []


def environment_facts() -> EnvironmentFacts:
    if not FACTS:
        FACTS.append(gather(sys.executable, environment_request(LEGACY)))
    return FACTS[0]


# When the kubelet finished each Job (its revision 0 Job) and first saw the next one: the
# API's timestamps have one-second resolution, so the reaction time is clocked here.
FINISHED: dict[str, float] = {}
SEEN_NEXT: dict[str, float] = {}


def finish_instantly(job: Mapping[str, Any]) -> int:
    """Store what a runner would have stored for this Job's revision, then succeed."""
    name = job["metadata"]["labels"]["nbmodernizer.dev/modernization"]
    args = job["spec"]["template"]["spec"]["containers"][0]["args"]
    parsed = parse_revision_folder_uri(args[args.index("--revision") + 1])
    assert parsed is not None
    store, revision = S3Store(parsed[0]), parsed[1]
    failing = revision == 0
    execution = ExecutionResult(
        status=ExecutionStatus.COMPLETED,
        duration_seconds=1.0,
        cells_total=1,
        cells_executed=1,
        cell_errors=[CellError(cell_index=1, ename="AttributeError", evalue="np.float")]
        if failing
        else [],
    )
    store_environment(store, revision, environment_facts())
    store.put(revision, EXECUTED, store.get(revision, NOTEBOOK))
    if not failing:
        store.put(revision, SUBMISSION, ANSWERS)
    if not failing:
        SEEN_NEXT.setdefault(name, time.monotonic())
    write_execution(store, revision, [execution])
    if failing:
        FINISHED[name] = time.monotonic()  # the kubelet marks the Job complete right after
    return 0


class JobWatch:
    """When each Job was first seen complete and first seen at all, on a watch of the API of
    its own (a thread and a connection apart from the kubelet's): a Job's completion to the
    next Job's creation as the API shows them, whatever queue the instant kubelet keeps."""

    def __init__(self, api: K8sApi) -> None:
        self.api = api
        self.created: dict[str, float] = {}
        self.completed: dict[str, float] = {}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="job-watch", daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        version: str | None = None
        while not self.stopping.is_set():
            params = {"resourceVersion": version} if version else {}
            for event in self.api.watch(JOBS, "default", params=params, timeout=30):
                seen, job = time.monotonic(), event.get("object") or {}
                name = job.get("metadata", {}).get("name", "")
                version = job.get("metadata", {}).get("resourceVersion", version)
                self.created.setdefault(name, seen)
                conditions = (job.get("status") or {}).get("conditions") or []
                if any(c["type"] == "Complete" and c["status"] == "True" for c in conditions):
                    self.completed.setdefault(name, seen)
                if self.stopping.is_set():
                    return

    def reactions(self) -> list[float]:
        """Revision 0's Job complete -> revision 1's Job created, per modernization."""
        return [
            self.created[name[: -len("000")] + "001"] - done
            for name, done in self.completed.items()
            if name.endswith("-it-000") and name[: -len("000")] + "001" in self.created
        ]

    def stop(self) -> None:
        self.stopping.set()


S3_REQUEST = re.compile(r'"(GET|HEAD|PUT|POST|DELETE) /')


def s3_requests(log: Path) -> int:
    lines = log.read_text(errors="replace").splitlines()
    return sum(1 for line in lines if S3_REQUEST.search(line))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a live process (/proc/PID/stat, clock ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def poisson_arrivals(rate: float, seconds: float, seed: int = 20261201) -> list[float]:
    """Arrival offsets (seconds from the start) of a Poisson process of `rate` per second."""
    rng = random.Random(seed)
    offsets, now = [], rng.expovariate(rate)
    while now < seconds:
        offsets.append(now)
        now += rng.expovariate(rate)
    return offsets


def run(
    count: int, workers: int, *flags: str, arrivals: list[float] | None = None
) -> dict[str, float]:
    with moto_server_process() as (endpoint, log):
        result = run_on(endpoint, count, workers, *flags, arrivals=arrivals)
        result["s3_requests"] = s3_requests(log)
        return result


def modernization(bucket: str, n: int) -> dict[str, Any]:
    return {
        "apiVersion": "nbmodernizer.dev/v1alpha1",
        "kind": "NotebookModernization",
        "metadata": {"name": f"nb-{n:05d}"},
        "spec": {
            "notebook": f"s3://{bucket}/in/notebook.ipynb",
            "score": {
                "metric": "accuracy",
                "target": 1.0,
                "answers": f"s3://{bucket}/in/answers.csv",
            },
            "fix": {"fixers": ["rules"], "maxIterations": 4},
        },
    }


def run_on(
    endpoint: str, count: int, workers: int, *flags: str, arrivals: list[float] | None = None
) -> dict[str, float]:
    """All `count` modernizations at once before the operator starts (a burst), or, with
    `arrivals`, one at each offset after it started (a stream)."""
    FINISHED.clear()
    SEEN_NEXT.clear()
    os.environ.update(
        AWS_ENDPOINT_URL_S3=endpoint,
        AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing",
        AWS_DEFAULT_REGION="us-east-1",
    )
    client = s3_client()
    bucket = f"{BUCKET}-{count}-{int(time.time())}"
    client.create_bucket(Bucket=bucket)
    legacy = serialise(LEGACY)
    environment_facts()  # before the clock starts
    client.put_object(Bucket=bucket, Key="in/notebook.ipynb", Body=legacy)
    client.put_object(Bucket=bucket, Key="in/answers.csv", Body=ANSWERS)
    with tempfile.TemporaryDirectory() as scratch, EmulatorServer() as server:
        kubeconfig = server.write_kubeconfig(Path(scratch) / "kubeconfig")
        api = K8sApi(kubeconfig, server=server)
        api.create(SECRETS, {"metadata": {"name": "s3"}, "stringData": {"AWS_ACCESS_KEY_ID": "x"}})
        if arrivals is None:
            for n in range(count):
                api.create(NBMS, modernization(bucket, n))
        operator = NbmodOperator(
            Path("nbmod"),
            kubeconfig=kubeconfig,
            namespace="default",
            log_path=Path(scratch) / "operator.log",
            env={"AWS_ENDPOINT_URL_S3": endpoint},
            args=[
                "--s3-bucket", bucket, "--s3-secret", "s3", "--metrics-port", "0",
                "--health-port", "0", "--max-concurrent-jobs", str(count),
                "--workers", str(workers), "--s3-endpoint", endpoint, *flags,
            ],
        )  # fmt: skip
        watch = JobWatch(K8sApi(kubeconfig, server=server))
        with Kubelet(api, instant=True, instant_exit_code=finish_instantly, create_pods=False):
            started = time.monotonic()
            operator.start()
            peak, cpu_before = 0.0, 0.0
            if arrivals is not None:
                assert operator._proc is not None
                time.sleep(5)  # start-up (imports, kopf's first listings) is not the stream's
                started, cpu_before = time.monotonic(), cpu_seconds(operator._proc.pid)
                for n, offset in enumerate(arrivals):
                    time.sleep(max(0.0, started + offset - time.monotonic()))
                    api.create(NBMS, modernization(bucket, n))

            def done() -> bool:
                nonlocal peak
                peak = max(peak, rss_mib(operator._proc.pid)) if operator._proc else peak
                phases = [(o.get("status") or {}).get("phase") for o in api.list(NBMS)]
                return all(p in ("Succeeded", "Failed") for p in phases)

            wait_until(done, timeout=3600, interval=1.0, what="the fleet to finish")
            elapsed = time.monotonic() - started
            pid = operator._proc.pid if operator._proc else 0
            cpu = cpu_seconds(pid) - cpu_before
        operator.stop()
        watch.stop()
        reactions = [SEEN_NEXT[name] - FINISHED[name] for name in SEEN_NEXT if name in FINISHED]
        at_api = watch.reactions()
        requests = server.request_log()
        updates = sum(
            1 for line in requests if line.startswith("PATCH") and line.endswith("/status")
        )
        if os.environ.get("FLEET_REQUEST_LOG"):  # every API request, to count them per kind
            Path(os.environ["FLEET_REQUEST_LOG"]).write_text("\n".join(requests) + "\n")
        finished = api.list(NBMS)
        outcomes = [(o.get("status") or {}).get("outcome") for o in finished]
        for o in finished:  # what did not reproduce, and why
            status = o.get("status") or {}
            if status.get("outcome") != "ErrorFreeReproducible":
                print(
                    f"  {o['metadata']['name']}: {status.get('phase')} {status.get('outcome')}: "
                    f"{status.get('message') or status.get('lastError')}",
                    file=sys.stderr,
                )
    return {
        "resources": count,
        "succeeded": outcomes.count("ErrorFreeReproducible"),
        "seconds": elapsed,
        "reaction_p50": statistics.median(reactions) if reactions else float("nan"),
        "reaction_p99": percentile(reactions, 0.99) if reactions else float("nan"),
        "api_reaction_p50": statistics.median(at_api) if at_api else float("nan"),
        "api_reaction_p99": percentile(at_api, 0.99) if at_api else float("nan"),
        "status_updates_per_second": updates / elapsed,
        "peak_rss_mib": peak,
        "cpu_seconds_per_iteration": cpu / max(1, 2 * len(outcomes)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--resources", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--compare-cache", type=int, default=0, metavar="N")
    parser.add_argument("--sustained", type=float, nargs="+", metavar="RATE")
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's server logs every request
    if args.sustained:
        sustained(args.sustained, args.seconds, args.workers)
        return
    if args.compare_cache:
        compare_cache(args.resources, args.workers, args.compare_cache)
        return
    print(
        "resources  reproduced  wall s  completion->next Job p50 / p99 s: kubelet  API watch  "
        "status updates/s  peak RSS MiB"
    )
    for count in args.resources:
        r = run(count, args.workers)
        print(
            f"{r['resources']:9d}  {r['succeeded']:10d}  {r['seconds']:6.1f}  "
            f"{r['reaction_p50']:30.3f} / {r['reaction_p99']:.3f}  "
            f"{r['api_reaction_p50']:.3f} / {r['api_reaction_p99']:.3f}  "
            f"{r['status_updates_per_second']:16.1f}  {r['peak_rss_mib']:12.1f}"
        )


def sustained(rates: list[float], seconds: float, workers: int) -> None:
    """Poisson streams of modernizations; the highest rate with reaction p99 <= 1 s."""
    print("rate/s  resources  reaction p50 / p99 s  CPU s per iteration  status updates/s")
    kept: list[float] = []
    for rate in rates:
        arrivals = poisson_arrivals(rate, seconds)
        r = run(len(arrivals), workers, arrivals=arrivals)
        print(
            f"{rate:6.1f}  {r['resources']:9d}  {r['reaction_p50']:8.3f} / {r['reaction_p99']:.3f}"
            f"  {r['cpu_seconds_per_iteration']:19.4f}  {r['status_updates_per_second']:16.1f}"
        )
        if r["reaction_p99"] <= 1.0:
            kept.append(rate)
    best = f"{max(kept):g} per second" if kept else "none of the rates tried"
    print(f"highest rate sustained with p99 <= 1 s: {best}")


def compare_cache(counts: list[int], workers: int, rounds: int) -> None:
    """The store cache on and off, alternated; ratios of the medians (on / off)."""
    keys = ("s3_requests", "seconds", "reaction_p50", "reaction_p99", "status_updates_per_second")
    print("resources  " + "  ".join(f"{k} on/off" for k in keys))
    for count in counts:
        on: list[dict[str, float]] = []
        off: list[dict[str, float]] = []
        for _ in range(rounds):
            on.append(run(count, workers))
            off.append(run(count, workers, "--store-cache-mib", "0"))
        ratios = [
            statistics.median(r[k] for r in on) / statistics.median(r[k] for r in off) for k in keys
        ]
        print(
            f"{count:9d}  "
            + "  ".join(f"{ratio:{len(k) + 7}.3f}" for k, ratio in zip(keys, ratios, strict=True))
        )
        for label, results in (("on", on), ("off", off)):
            print(
                f"  {label}: "
                + "; ".join(
                    f"p50 {r['reaction_p50']:.2f}s, {r['seconds']:.1f}s, S3 {r['s3_requests']:.0f}"
                    for r in results
                )
            )


if __name__ == "__main__":
    main()
