"""What one reconcile asks of the API server and the store (issue #20's burst): no listing and
no HEAD of the store, each file read once, and nothing looked up that the reconcile made
itself (a Job it creates, its grants, a revision it wrote). The reconciler runs here, on the
emulator and moto's S3, and a Job's runner is played by hand."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from nbmodernizer.cluster.reconcile import Reconciler
from nbmodernizer.cluster.settings import OperatorSettings
from nbmodernizer.engine import environment_request, load_notebook, store_environment
from nbmodernizer.facts import gather
from nbmodernizer.status import CellError, ExecutionResult, ExecutionStatus
from nbmodernizer.store.layout import EXECUTED, EXECUTION
from nbmodernizer.store.revisions import S3Store, write_execution
from testing.k8s.client import K8sApi, wait_until
from testing.k8s.emulator import EmulatorServer
from testing.k8s.product import product_kube, push_case
from testing.k8s.resources import JOBS, NBMS
from testing.notebooks import PREDICT, READ, WRITE
from testing.s3server import S3Bucket
from tests.test_store_cache import CountingStore

LEGACY = "import numpy as np\nscale = np.float(1)"


def ran_failing(store: S3Store) -> None:
    """What revision 0's runner stores: its environment's facts (this interpreter's: numpy 2,
    np.float gone), the executed notebook and the execution facts, np.float's error."""
    source = load_notebook(store, 0)
    store_environment(store, 0, gather(sys.executable, environment_request(source)))
    store.put(0, EXECUTED, store.get(0, "notebook.ipynb"))
    error = CellError(
        cell_index=1, ename="AttributeError", evalue="module 'numpy' has no attribute 'float'"
    )
    execution = ExecutionResult(
        status=ExecutionStatus.COMPLETED,
        duration_seconds=1.0,
        cells_total=4,
        cells_executed=2,
        cell_errors=[error],
    )
    write_execution(store, 0, [execution], EXECUTION)


@pytest.mark.usefixtures("k8s_emulator")
def test_a_reconcile_asks_once_and_never_for_what_it_made(
    k8s_api: K8sApi, k8s_server: EmulatorServer, s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    name, namespace = "lean", k8s_api.namespace
    k8s_api.create(NBMS, push_case(tmp_path, s3_bucket, name, READ, LEGACY, PREDICT, WRITE))
    opened: list[CountingStore] = []

    def counting(uri: str) -> CountingStore:
        opened.append(CountingStore(uri))
        return opened[-1]

    settings = OperatorSettings(
        s3_bucket=s3_bucket.name, s3_prefix="runs", s3_endpoint=s3_bucket.endpoint
    )
    reconciler = Reconciler(product_kube(k8s_api), settings, store_factory=counting)
    jobs = [f"{name}-it-000", f"{name}-it-001"]

    def reconciled() -> list[str]:
        """The API requests of one reconcile."""
        before = len(k8s_server.request_log())
        reconciler.reconcile(namespace, name)
        return k8s_server.request_log()[before:]

    # a new modernization: admitted, its spec frozen, revision 0's Job and grants created
    first = reconciled()
    assert k8s_api.find(JOBS, jobs[0]) is not None
    looked_up = [r for r in first if r.startswith("GET") and ("/jobs/" in r or "/secrets/" in r)]
    assert looked_up == []  # the Job and its grants Secret did not exist: no GET before POST
    assert [r for r in first if r.startswith("POST") and r.endswith("/secrets")]
    assert ("get", 0, "result.json") not in opened[0].reads  # nothing graded yet: not asked

    # its Job ends: graded, fixed by the rules, revision 1's Job created
    ran_failing(S3Store(s3_bucket.uri(f"runs/{namespace}/{name}")))
    complete = [{"type": "Complete", "status": "True"}]
    k8s_api.patch_status(JOBS, jobs[0], {"succeeded": 1, "conditions": complete})
    second = reconciled()
    assert k8s_api.find(JOBS, jobs[1]) is not None
    gets = [r.split("?")[0] for r in second if r.startswith("GET")]
    resource = f"/apis/nbmodernizer.dev/v1alpha1/namespaces/{namespace}/notebookmodernizations"
    ended = f"/apis/batch/v1/namespaces/{namespace}/jobs/{jobs[0]}"
    assert gets == [f"GET {resource}/{name}", f"GET {ended}"]  # nothing of revision 1
    status_writes = [r for r in second if r.startswith("PATCH") and r.endswith("/status")]
    assert len(status_writes) == 1  # Running revision 1 (a rules fix writes no Fixing first)

    reads = [read for store in opened for read in store.reads]
    assert not [r for r in reads if r[0] in ("exists", "revisions")]  # GETs only, no listing
    assert reads.count(("get_at_most", 0, EXECUTION)) == 1  # the Job's facts: read once
    assert not [r for r in reads if r[1] == 1]  # revision 1 was made here: nothing to ask

    # the Events come from a thread of their own
    resource_now = k8s_api.get(NBMS, name)
    expected = ["Fixed", "IterationFinished", "IterationStarted", "IterationStarted"]
    wait_until(
        lambda: sorted(e["reason"] for e in k8s_api.events_for(resource_now)) == expected,
        what=f"the Events {expected}",
    )
    reconciler.events.close()
