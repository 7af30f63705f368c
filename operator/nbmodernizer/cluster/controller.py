"""The kopf wiring, kept thin: events of NotebookModernizations and of runner Jobs put the
modernization's key on a work queue; workers call `Reconciler.reconcile` for it in a thread
(grading takes a second, an LLM fix may take minutes), never two at once for one key.

    nbmod operator --s3-bucket revisions [-n team-a -n team-b | -A]
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import kopf
from prometheus_client import start_http_server

from nbmodernizer import metrics
from nbmodernizer.cluster.indexed import has_arrivals
from nbmodernizer.cluster.jobs import LABEL_MANAGED_BY, LABEL_MODERNIZATION
from nbmodernizer.cluster.jobstate import Capacity, job_key, job_state
from nbmodernizer.cluster.kube import PLURAL, Kube
from nbmodernizer.cluster.leader import LeaderElection, LeaseTiming
from nbmodernizer.cluster.reconcile import Reconciler
from nbmodernizer.cluster.settings import OperatorSettings
from nbmodernizer.spec import API_GROUP, API_VERSION
from nbmodernizer.status import Phase

log = logging.getLogger("nbmodernizer.operator")
MANAGED_BY = "nbmodernizer-operator"  # the value build_job gives LABEL_MANAGED_BY
LEASE_NAME = "nbmodernizer-operator"


URGENT, NORMAL = 0, 1  # a Job of a running modernization ended / anything else


class WorkQueue:
    """Keys to reconcile: deduplicated, one worker per key at a time, delayed retries.

    Urgent keys (a running modernization's Job ended) go before the others (a new or changed
    resource, a retry): in a burst, the next Job of a started modernization does not wait
    behind the admission of every resource created after it."""

    def __init__(self, handle: Callable[[str], float | None], workers: int) -> None:
        self.handle = handle
        self.workers = workers
        self.queue: asyncio.PriorityQueue[tuple[int, int, str]] = asyncio.PriorityQueue()
        self.order = itertools.count()  # first in, first out within a priority
        self.waiting: dict[str, int] = {}  # key -> the best priority it is queued with
        self.busy: set[str] = set()
        self.again: dict[str, int] = {}  # keys to run again once done, with the priority
        # keys changed while busy by writes that may be the worker's own: re-run unless all are
        self.again_unless: dict[str, list[Callable[[], bool]]] = {}
        self.tasks: list[asyncio.Task[None]] = []

    def add(self, key: str, ours: Callable[[], bool] | None = None, priority: int = NORMAL) -> None:
        """Queue `key`; `ours`: whether the change that calls is the worker's own write
        (asked again once the worker is done, if it is busy now: its write's event can come
        before the write's answer does)."""
        if ours is not None and key in self.busy:
            self.again_unless.setdefault(key, []).append(ours)
        elif ours is not None and ours():
            return
        elif key in self.busy:
            self.again[key] = min(priority, self.again.get(key, priority))
        elif self.waiting.get(key, NORMAL + 1) > priority:  # not queued, or queued behind
            self.waiting[key] = priority
            self.queue.put_nowait((priority, next(self.order), key))

    def add_later(self, key: str, seconds: float) -> None:
        asyncio.get_running_loop().call_later(seconds, self.add, key)

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._work()) for _ in range(self.workers)]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _work(self) -> None:
        while True:
            priority, _, key = await self.queue.get()
            if self.waiting.get(key) != priority:
                continue  # queued again with a higher priority, and taken from there
            del self.waiting[key]
            self.busy.add(key)
            try:
                after = await asyncio.to_thread(self.handle, key)
            except Exception:  # one modernization's failure must not stop the others
                log.exception("reconciling %s failed; retrying", key)
                after = 30.0
            finally:
                self.busy.discard(key)
            if not all(ours() for ours in self.again_unless.pop(key, [])):
                self.again.setdefault(key, NORMAL)
            if key in self.again:
                self.add(key, priority=self.again.pop(key))
            elif after is not None:
                self.add_later(key, after)


class Operator:
    """What the handlers share: the reconciler and its queue."""

    def __init__(self, settings: OperatorSettings, kube: Kube | None = None) -> None:
        self.settings = settings
        self.capacity = Capacity(settings.max_concurrent_jobs)
        self.reconciler = Reconciler(kube or Kube(), settings, self.capacity)
        self.queue: WorkQueue | None = None

    def handle(self, key: str) -> float | None:
        namespace, name = key.split("/", 1)
        return self.reconciler.reconcile(namespace, name).after

    def enqueue(self, namespace: str, name: str, priority: int = NORMAL) -> None:
        if self.queue is not None:
            self.queue.add(job_key(namespace, name), priority=priority)

    def changed(self, namespace: str, name: str, version: str | None) -> None:
        """The resource changed: reconcile it unless the change is a write of ours."""
        if self.queue is not None:
            ours = lambda: self.reconciler.wrote(namespace, name, version)  # noqa: E731
            self.queue.add(job_key(namespace, name), ours)

    def wake_queued(self) -> None:
        """A Job finished: modernizations waiting for capacity may go now."""
        for key, phase in list(self.reconciler.phases.items()):
            if phase is Phase.QUEUED and self.queue is not None:
                self.queue.add(key)


def build_registry(operator: Operator) -> kopf.OperatorRegistry:
    registry = kopf.OperatorRegistry()

    @kopf.on.login(registry=registry)
    def login(
        logger: kopf.Logger, settings: kopf.OperatorSettings, **_: object
    ) -> kopf.ConnectionInfo | None:
        """In-cluster service account first, then the kubeconfig (as the kubernetes client)."""
        return kopf.login_via_client(logger=logger, settings=settings)

    @kopf.on.startup(registry=registry)
    async def startup(settings: kopf.OperatorSettings, **_: object) -> None:
        settings.posting.level = logging.WARNING
        settings.watching.server_timeout = 300
        if operator.settings.metrics_port:
            metrics.initialize()
            start_http_server(operator.settings.metrics_port, registry=metrics.REGISTRY)
        operator.queue = WorkQueue(operator.handle, operator.settings.workers)
        operator.queue.start()

    @kopf.on.cleanup(registry=registry)
    async def cleanup(**_: object) -> None:
        if operator.queue is not None:
            await operator.queue.stop()
        await asyncio.to_thread(operator.reconciler.events.close)

    # The event handlers are coroutines: kopf runs a plain function in a worker thread, and the
    # work queue (an asyncio queue) may only be touched from the event loop's own thread.
    @kopf.on.event(API_GROUP, API_VERSION, PLURAL, registry=registry)
    async def modernization_event(body: kopf.Body, **_: object) -> None:
        namespace, name = body.metadata.namespace or "", body.metadata.name or ""
        operator.changed(namespace, name, body.metadata.get("resourceVersion"))

    @kopf.on.event("batch", "v1", "jobs", labels={LABEL_MANAGED_BY: MANAGED_BY}, registry=registry)
    async def job_event(body: kopf.Body, event: kopf.RawEvent, **_: object) -> None:
        namespace = body.metadata.namespace or ""
        key = job_key(namespace, body.metadata.name or "")
        state, _reason = job_state(body)
        finished = event.get("type") == "DELETED" or state in ("succeeded", "failed")
        operator.capacity.mark(key, running=not finished)
        owner = body.metadata.labels.get(LABEL_MODERNIZATION)
        if owner and (state != "running" or has_arrivals(body)):  # runs graded as they end
            operator.enqueue(namespace, owner, URGENT)
        if finished:
            operator.wake_queued()

    return registry


class _Healthy(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def _healthy_while_standing_by(port: int) -> Iterator[None]:
    """A standby is alive, though not leading: its liveness probe must not restart it."""
    if not port:
        yield
        return
    server = ThreadingHTTPServer(("0.0.0.0", port), _Healthy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()  # kopf's liveness endpoint takes the port next


def lead(settings: OperatorSettings) -> None:
    """Wait to hold the operator's Lease, then keep it; exit at once if it is lost."""
    identity = f"{socket.gethostname()}-{os.getpid()}"
    timing = LeaseTiming.of(settings.lease_seconds)
    election = LeaderElection(Kube(), settings.lease_namespace, LEASE_NAME, identity, timing)

    with _healthy_while_standing_by(settings.health_port):
        election.acquire()

    def lost() -> None:
        logging.shutdown()
        os._exit(1)  # acting on without the Lease could duplicate work; a restart stands by

    election.keep(on_lost=lost)


def run(settings: OperatorSettings) -> None:
    if settings.s3_endpoint:  # the operator's own S3 client reads it too (store.s3_client)
        os.environ["AWS_ENDPOINT_URL_S3"] = settings.s3_endpoint
    if settings.leader_election:
        lead(settings)
    operator = Operator(settings)
    registry = build_registry(operator)
    liveness = f"http://0.0.0.0:{settings.health_port}/healthz" if settings.health_port else None
    kopf.run(
        registry=registry,
        standalone=True,
        clusterwide=not settings.namespaces,
        namespaces=list(settings.namespaces),
        liveness_endpoint=liveness,
    )
