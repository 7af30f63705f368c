"""Two operator replicas, one active: the Lease decides, and a standby takes over when the
active one dies, with no Job duplicated and no revision lost."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from nbmodernizer.cluster.leader import LeaderElection, LeaseTiming
from testing.k8s.client import K8sApi, wait_until
from testing.k8s.kubelet import Kubelet
from testing.k8s.product import (
    OperatorStarter,
    product_kube,
    push_case,
    status_of,
    wait_finished,
)
from testing.k8s.resources import JOBS, LEASES, NBMS
from testing.notebooks import READ, WRITE
from testing.s3server import S3Bucket

LEASE_SECONDS = 6.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_one_holder_at_a_time_and_an_expired_lease_changes_hands(k8s_api: K8sApi) -> None:
    clock, kube = Clock(), product_kube(k8s_api)
    timing = LeaseTiming.of(LEASE_SECONDS)

    def elector(identity: str) -> LeaderElection:
        return LeaderElection(kube, k8s_api.namespace, "op", identity, timing, clock)

    first, second = elector("a"), elector("b")
    assert first.try_acquire() and not second.try_acquire()
    clock.now += LEASE_SECONDS - 1
    assert first.renew() and not second.try_acquire()
    clock.now += LEASE_SECONDS - 1  # renewed a moment ago: still held
    assert not second.try_acquire()
    clock.now += 2  # no renewal for longer than the lease: expired
    assert second.try_acquire()
    assert not first.renew()  # the old holder learns it lost the lease
    spec = k8s_api.get(LEASES, "op")["spec"]
    assert spec["holderIdentity"] == "b" and spec["leaseTransitions"] == 1
    assert spec["leaseDurationSeconds"] == 6


def test_of_two_racing_for_a_lease_one_wins(k8s_api: K8sApi) -> None:
    clock, kube = Clock(), product_kube(k8s_api)
    timing = LeaseTiming.of(LEASE_SECONDS)
    LeaderElection(kube, k8s_api.namespace, "op", "old", timing, clock).try_acquire()
    clock.now += 2 * LEASE_SECONDS
    racers = [LeaderElection(kube, k8s_api.namespace, "op", n, timing, clock) for n in "xy"]
    lease = kube.get(f"/apis/coordination.k8s.io/v1/namespaces/{k8s_api.namespace}/leases/op")
    assert lease is not None
    spec = racers[0]._spec(clock(), 1)
    # both read the same expired lease; each writes with the version it read
    assert racers[0]._write(lease, spec)
    assert not racers[1]._write(lease, racers[1]._spec(clock(), 1))
    assert k8s_api.get(LEASES, "op")["spec"]["holderIdentity"] == "x"


@pytest.mark.kernel
def test_killing_the_active_replica_hands_the_fleet_to_the_standby(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    flags = ("--leader-election", "--lease-seconds", str(LEASE_SECONDS))
    first = nbmod_operator(*flags)
    first.wait_for_output("leading:", timeout=60)
    second = nbmod_operator(*flags)
    second.wait_for_output("standing by:", timeout=60)
    legacy = "test['y'] = (test['x'] > 0).astype(np.int)\nimport time\ntime.sleep(3)"
    names = [f"failover-{i}" for i in range(3)]
    for name in names:
        case = push_case(tmp_path, s3_bucket, name, "import numpy as np\n" + READ, legacy, WRITE)
        k8s_api.create(NBMS, case)
    wait_until(
        lambda: all(k8s_api.find(JOBS, f"{n}-it-000") for n in names), timeout=60, what="Jobs"
    )
    assert "leading:" not in second.output()  # the standby did nothing so far
    killed = time.monotonic()
    first.kill()
    second.wait_for_output("leading:", timeout=3 * LEASE_SECONDS)
    takeover = time.monotonic() - killed
    print(f"takeover after {takeover:.1f}s (lease {LEASE_SECONDS:g}s)")
    assert takeover <= LEASE_SECONDS + 4
    for name in names:
        done = wait_finished(k8s_api, name, second)
        status = status_of(done)
        assert status["outcome"] == "ErrorFreeReproducible", status
        assert status["iterations"] == 2
        jobs = k8s_api.list(JOBS, label_selector=f"nbmodernizer.dev/modernization={name}")
        assert sorted(j["metadata"]["name"] for j in jobs) == [f"{name}-it-000", f"{name}-it-001"]
        assert all(j["status"].get("succeeded") == 1 for j in jobs)
        stored = s3_bucket.keys()
        prefix = f"runs/{k8s_api.namespace}/{name}/revisions/"
        keys = {key.removeprefix(prefix) for key in stored if key.startswith(prefix)}
        for revision in ("0000", "0001"):
            for file in ("notebook.ipynb", "executed.ipynb", "execution.json", "result.json"):
                assert f"{revision}/{file}" in keys, (name, revision, file, sorted(keys))
        assert "0001/fix.json" in keys
    if runner_kubelet is not None:
        assert len(runner_kubelet.runs) == 2 * len(names)  # each Job's pod ran once
