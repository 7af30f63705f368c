"""A test-side "kubelet": it runs the emulator's Jobs as local processes.

There are no nodes behind the emulator, so nothing would ever run a Job. :class:`Kubelet`
polls the Jobs, and for each new, unsuspended, unfinished one runs its first container's
``command`` + ``args`` locally (``$(VAR)`` expanded, ``python`` mapped to an interpreter)
with the container's ``env``/``envFrom`` (literal values, Secret and ConfigMap keys, the pod's
name and namespace) merged over a base environment, one thread per Job, and writes the Job's
``.status`` back as the Job controller of Kubernetes 1.31+ does::

    running     active: 1, ready: 0, startTime
    exit 0      succeeded: 1, completionTime, conditions SuccessCriteriaMet + Complete
    exit != 0   retried up to spec.backoffLimit (default 6), then failed: N and
                conditions FailureTarget + Failed, reason BackoffLimitExceeded
    too long    past spec.activeDeadlineSeconds: killed, FailureTarget + Failed,
                reason DeadlineExceeded
    suspended   spec.suspend: true is not started (condition Suspended) until unsuspended

It also creates a Pod per attempt (labels ``job-name``, ``controller-uid``, an owner
reference to the Job; phase and container exit code) and, against the emulator, serves the
output at ``pods/<name>/log``. With ``instant=True`` nothing runs: every Job is marked
succeeded (or failed, per ``instant_exit_code``) in one status patch, for benchmarks.

A pod's ``initContainers`` run first, one after the other (one that fails fails the pod), then
its ``containers`` all at once; the pod succeeds when every one of them exits 0. Each container
is a process with only its own ``env`` and its own mounts: Secret volumes are files in a
temporary folder per pod (at ``<folder>/<mountPath>``, ``items`` and ``defaultMode`` applied),
an emptyDir is one folder per pod shared by the containers that mount it, and every argument
naming a path under one of the container's ``mountPath``s is rewritten to it. Each container
runs in its own PID and mount namespaces (``testing/k8s/namespaces.py``): it sees only its own
processes and, of the kubelet's folders, only those it mounts (read-only where the volume
is); killing it kills every process in it. The containers share this machine's network (as
a pod's do), user and the rest of its filesystem.

Indexed Jobs (``completionMode: Indexed``) run ``completions`` pods, ``parallelism`` at a
time, index by index from 0, each with ``JOB_COMPLETION_INDEX`` in its environment and the
``batch.kubernetes.io/job-completion-index`` annotation and label on its Pod (named
``<job>-<index>-<random>``); a pod that fails is started again for its index up to
``backoffLimitPerIndex`` times (else ``backoffLimit``, per index), then the index fails. The
status says, after every pod: ``completedIndexes`` and ``failedIndexes`` (interval lists, as
``"0-2,4"``), ``succeeded`` (completed indexes), ``failed`` (failed pods), ``active``; once every
index has ended: Complete (reason CompletionsReached), or Failed with reason FailedIndexes.
Past the deadline every pod is killed (DeadlineExceeded). A Job deleted mid-flight: its pods
are killed, no index starts any more.

Images are interpreters: a container whose ``image`` is a key of ``Kubelet.images`` runs its
``python`` (and ``python3``) as that interpreter (a venv standing for that image: other
libraries, no nbmodernizer; ``testing/environments.py``); any other image runs them as
``executables`` says (default: this interpreter, standing for our runner image).

Not emulated: completions above 1 without Indexed, maxFailedIndexes, pod failure policies,
success policies, backoff delays between retries, suspending a running Job, image pulls, volumes
other than Secrets and emptyDirs, resources, users (every container runs as this user), a
root filesystem per container (each sees this machine's, less the other pods' volumes).
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import datetime
import os
import queue
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from testing.k8s.client import ApiError, K8sApi
from testing.k8s.namespaces import Folders, NamespaceTools, container_argv, namespace_tools
from testing.k8s.resources import CONFIGMAPS, JOBS, PODS, SECRETS

INDEX_ENV = "JOB_COMPLETION_INDEX"
INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index"
DEFAULT_EXECUTABLES = {"python": sys.executable, "python3": sys.executable}
_VAR_REF = re.compile(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)")


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def expand(text: str, env: Mapping[str, str]) -> str:
    """Kubernetes' ``$(VAR)`` expansion: known variables expand, ``$$`` escapes, rest stays."""

    def sub(m: re.Match[str]) -> str:
        if m.group(0) == "$$":
            return "$"
        name = m.group(1)
        return env[name] if name in env else m.group(0)

    return _VAR_REF.sub(sub, text)


def condition(type_: str, reason: str, message: str, status: str = "True") -> dict[str, str]:
    now = _now()
    return {
        "type": type_,
        "status": status,
        "reason": reason,
        "message": message,
        "lastProbeTime": now,
        "lastTransitionTime": now,
    }


def is_finished(job: Mapping[str, Any]) -> bool:
    conditions = (job.get("status") or {}).get("conditions") or []
    return any(c["type"] in ("Complete", "Failed") and c["status"] == "True" for c in conditions)


class PodNotReadyError(Exception):
    """The pod cannot start yet (e.g. a referenced Secret does not exist)."""


@dataclasses.dataclass
class ContainerRun:
    """One container of a pod: its process."""

    name: str
    argv: list[str]
    env: dict[str, str]  # the container's own variables, not the base environment
    mounts: dict[str, Path]  # mountPath -> the folder here
    read_only: set[str] = dataclasses.field(default_factory=set)  # of the mountPaths
    exit_code: int | None = None
    reason: str = ""
    output: str = ""


@dataclasses.dataclass
class JobRun:
    """One attempt (one "pod") of one Job: its first main container's argv and env, every
    container's output, and the pod's exit code (the first failing container's)."""

    namespace: str
    job: str
    pod: str
    argv: list[str]
    env: dict[str, str]  # the container's own variables, not the base environment
    exit_code: int | None = None  # None while running or when killed by stop()
    reason: str = ""  # Completed, Error, DeadlineExceeded, Killed
    output: str = ""  # stdout and stderr, interleaved
    started: float = dataclasses.field(default_factory=time.monotonic)
    finished: float | None = None
    index: int | None = None  # an Indexed Job's completion index
    containers: list[ContainerRun] = dataclasses.field(default_factory=list)  # init first


def with_index(template: Mapping[str, Any], index: int) -> dict[str, Any]:
    """The pod template of an Indexed Job's index: JOB_COMPLETION_INDEX in every container's
    environment (init containers too), as Kubernetes sets it."""
    spec = dict(template.get("spec") or {})
    own = {"name": INDEX_ENV, "value": str(index)}
    for kind in ("initContainers", "containers"):
        if kind in spec:
            spec[kind] = [{**c, "env": [*(c.get("env") or []), own]} for c in spec[kind]]
    return {**template, "spec": spec}


def interval_list(indexes: set[int]) -> str:
    """Kubernetes' form of a set of indexes: {0, 1, 2, 4} -> "0-2,4"."""
    spans: list[tuple[int, int]] = []
    for index in sorted(indexes):
        if spans and index == spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], index)
        else:
            spans.append((index, index))
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


class Kubelet:
    """Run the Jobs of the API (all namespaces unless ``namespace``) as local processes.

    ``base_env``: the environment under the containers' variables (default: ``os.environ``);
    ``executables``: ``argv[0]`` replacements, over the defaults ``python``/``python3`` -> this
    interpreter (our images'); ``images``: image name -> the python interpreter its
    containers' ``python`` is (settable while running: ``kubelet.images[name] = path``);
    ``cwd``: the working
    directory when the container's ``workingDir`` does not exist here; ``echo``: print each
    run's output to stderr (for debugging).

    ``start()`` raises NamespacesUnavailableError where containers cannot have namespaces
    of their own (not root, no util-linux), unless ``instant`` (nothing runs then).
    """

    def __init__(
        self,
        api: K8sApi,
        *,
        namespace: str | None = None,
        base_env: Mapping[str, str] | None = None,
        executables: Mapping[str, str] | None = None,
        images: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        instant: bool = False,
        instant_exit_code: Callable[[Mapping[str, Any]], int] | None = None,
        create_pods: bool = True,
        poll_interval: float = 0.05,
        echo: bool = False,
    ) -> None:
        self.api = api
        self.namespace = namespace
        self.base_env = dict(os.environ if base_env is None else base_env)
        self.executables = {**DEFAULT_EXECUTABLES, **(executables or {})}
        self.images: dict[str, str] = dict(images or {})
        self.cwd = cwd
        self.instant = instant
        self.instant_exit_code = instant_exit_code
        self.create_pods = create_pods
        self.poll_interval = poll_interval
        self.echo = echo
        self.runs: list[JobRun] = []
        self.errors: list[str] = []  # failures of the kubelet itself (API errors...)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._workers: dict[str, threading.Thread] = {}  # by the Job's uid
        self._cancelled: set[str] = set()
        self._handled: set[str] = set()  # uids started or found finished
        self._suspended: set[str] = set()
        self._procs: dict[str, dict[str, list[subprocess.Popen[str]]]] = {}  # Job -> pod
        self._tools: NamespaceTools | None = None
        self._folders: Folders | None = None  # every pod's volumes, while started

    # ------------------------------------------------------------------------- lifecycle

    def start(self) -> Self:
        if not self.instant:
            self._tools = namespace_tools()
            self._folders = Folders.create()
        self._thread = threading.Thread(target=self._poll, name="kubelet", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 10) -> None:
        """Stop polling and kill what runs (as a dying node would: no status is written)."""
        self._stopping.set()
        with self._lock:
            self._cancelled.update(self._workers)
            procs = [p for pods in self._procs.values() for group in pods.values() for p in group]
        for proc in procs:
            _kill(proc)
        if self._thread is not None:
            self._thread.join(timeout)
        for worker in list(self._workers.values()):
            worker.join(timeout)
        if self._folders is not None:
            self._folders.remove()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # ------------------------------------------------------------------------- queries

    def executables_of(self, image: object) -> dict[str, str]:
        """The ``argv[0]`` replacements in a container of `image`: its interpreter as
        ``python`` where ``images`` names one, over ``executables``."""
        python = self.images.get(image) if isinstance(image, str) else None
        if python is None:
            return dict(self.executables)
        return {**self.executables, "python": python, "python3": python}

    def runs_of(self, job: str) -> list[JobRun]:
        with self._lock:
            return [run for run in self.runs if run.job == job]

    @property
    def active(self) -> int:
        """How many Jobs run right now."""
        with self._lock:
            return len(self._workers)

    # ------------------------------------------------------------------------- polling

    def _poll(self) -> None:
        while not self._stopping.is_set():
            try:
                self._sync()
            except Exception as e:  # keep polling: the API may be restarting
                self.errors.append(f"poll: {e!r}")
            self._stopping.wait(self.poll_interval)

    def _sync(self) -> None:
        jobs = self.api.list(JOBS, self.namespace, all_namespaces=self.namespace is None)
        seen = set()
        for job in jobs:
            uid = job["metadata"]["uid"]
            seen.add(uid)
            if uid in self._handled:
                continue
            if is_finished(job):
                self._handled.add(uid)
            elif (job.get("spec") or {}).get("suspend"):
                self._mark_suspended(job)
            elif self.instant:
                self._handled.add(uid)
                self._finish_instantly(job)
            else:
                self._handled.add(uid)
                worker = threading.Thread(
                    target=self._run_job, args=(job,), name=f"job-{job['metadata']['name']}"
                )
                with self._lock:
                    self._workers[uid] = worker
                worker.start()
        with self._lock:
            gone = [uid for uid in self._workers if uid not in seen]
            self._cancelled.update(gone)
            procs = [
                p for uid in gone for group in self._procs.get(uid, {}).values() for p in group
            ]
        for proc in procs:  # the Job was deleted: its pod goes too
            _kill(proc)

    def _mark_suspended(self, job: Mapping[str, Any]) -> None:
        uid = job["metadata"]["uid"]
        if uid in self._suspended:
            return
        self._suspended.add(uid)
        conditions = list((job.get("status") or {}).get("conditions") or [])
        conditions.append(condition("Suspended", "JobSuspended", "Job suspended"))
        self._patch_job(job, {"conditions": conditions})

    def _patch_job(self, job: Mapping[str, Any], status: Mapping[str, Any]) -> bool:
        meta = job["metadata"]
        try:
            self.api.patch_status(JOBS, meta["name"], status, namespace=meta["namespace"])
        except ApiError as e:
            if e.status == 404:
                return False  # deleted meanwhile
            raise
        return True

    def _finish_instantly(self, job: Mapping[str, Any]) -> None:
        meta = job["metadata"]
        code = self.instant_exit_code(job) if self.instant_exit_code else 0
        run = JobRun(meta["namespace"], meta["name"], "", [], {}, exit_code=code)
        run.reason, run.finished = ("Completed" if code == 0 else "Error"), run.started
        with self._lock:
            self.runs.append(run)
        started = _now()
        conditions = list((job.get("status") or {}).get("conditions") or [])
        if code == 0:
            self._patch_job(job, self._succeeded(conditions, started))
        else:
            self._patch_job(job, self._failed(conditions, started, 1, "BackoffLimitExceeded"))

    # ------------------------------------------------------------------------- one Job

    def _run_job(self, job: dict[str, Any]) -> None:
        uid = job["metadata"]["uid"]
        try:
            if (job.get("spec") or {}).get("completionMode") == "Indexed":
                self._indexes(job)
            else:
                self._attempts(job)
        except Exception as e:
            self.errors.append(f"job {job['metadata']['name']}: {e!r}")
        finally:
            with self._lock:
                self._workers.pop(uid, None)
                self._procs.pop(uid, None)

    def _begin(self, job: dict[str, Any]) -> tuple[float | None, str, list[dict[str, str]]] | None:
        """Mark the Job started: (the deadline, startTime, its conditions); None if it is gone."""
        spec = job.get("spec") or {}
        deadline_s = spec.get("activeDeadlineSeconds")
        deadline = time.monotonic() + float(deadline_s) if deadline_s else None
        started = _now()
        conditions = [
            c if c["type"] != "Suspended" else condition("Suspended", "JobResumed",
                                                          "Job resumed", status="False")
            for c in (job.get("status") or {}).get("conditions") or []
        ]  # fmt: skip
        start = {"startTime": started, "active": 1, "ready": 0, "terminating": 0}
        if not self._patch_job(
            job, {**start, "uncountedTerminatedPods": {}, "conditions": conditions or None}
        ):
            return None
        return deadline, started, conditions

    def _attempts(self, job: dict[str, Any]) -> None:
        meta, spec = job["metadata"], job.get("spec") or {}
        uid = meta["uid"]
        backoff_limit = int(spec.get("backoffLimit", 6))
        begun = self._begin(job)
        if begun is None:
            return
        deadline, started, conditions = begun
        failed = 0
        while True:
            run = self._attempt(job, deadline)
            if run is None or uid in self._cancelled:
                return
            if run.reason == "DeadlineExceeded":
                self._patch_job(
                    job, self._failed(conditions, started, failed + 1, "DeadlineExceeded")
                )
                return
            if run.exit_code == 0:
                self._patch_job(job, self._succeeded(conditions, started))
                return
            failed += 1
            if failed > backoff_limit:
                self._patch_job(
                    job, self._failed(conditions, started, failed, "BackoffLimitExceeded")
                )
                return
            if not self._patch_job(job, {"failed": failed}):
                return

    def _indexes(self, job: dict[str, Any]) -> None:
        """An Indexed Job: its indexes' pods, `parallelism` at a time (see the docstring)."""
        meta, spec = job["metadata"], job.get("spec") or {}
        uid = meta["uid"]
        completions = int(spec.get("completions") or 1)
        parallelism = int(spec.get("parallelism") or 1)
        per_index = spec.get("backoffLimitPerIndex")
        limit = int(per_index if per_index is not None else spec.get("backoffLimit", 6))
        begun = self._begin(job)
        if begun is None:
            return
        deadline, started, conditions = begun
        pending = list(range(completions))
        running: set[int] = set()
        ended: queue.Queue[tuple[int, JobRun | None]] = queue.Queue()
        completed: set[int] = set()
        failed_indexes: set[int] = set()
        tries = dict.fromkeys(pending, 0)
        pod_failures = 0

        def one(index: int) -> None:
            try:
                ended.put((index, self._attempt(job, deadline, index)))
            except Exception as e:
                self.errors.append(f"job {meta['name']} index {index}: {e!r}")
                ended.put((index, None))

        def progress() -> dict[str, Any]:
            return {
                "active": len(running) or None,
                "succeeded": len(completed),
                "failed": pod_failures or None,
                "completedIndexes": interval_list(completed) or None,
                "failedIndexes": interval_list(failed_indexes) or None,
            }

        while pending or running:
            while pending and len(running) < parallelism:
                index = pending.pop(0)
                running.add(index)
                threading.Thread(target=one, args=(index,), daemon=True).start()
            if not self._patch_job(job, progress()):
                return
            index, run = ended.get()
            running.discard(index)
            if run is None or uid in self._cancelled:
                return  # deleted, or the kubelet stops: no status (other pods are killed)
            if run.reason == "DeadlineExceeded":
                with self._lock:
                    procs = [p for group in self._procs.get(uid, {}).values() for p in group]
                for proc in procs:
                    _kill(proc)
                running.clear()
                status = self._failed(conditions, started, pod_failures + 1, "DeadlineExceeded")
                self._patch_job(job, {**progress(), **status})
                return
            if run.exit_code == 0:
                completed.add(index)
                continue
            pod_failures += 1
            tries[index] += 1
            if tries[index] > limit:
                failed_indexes.add(index)
            else:
                pending.insert(0, index)
        if failed_indexes:
            status = self._failed(conditions, started, pod_failures, "FailedIndexes")
        else:
            status = self._succeeded(conditions, started, completions)
        self._patch_job(job, {**progress(), **status})

    def _succeeded(
        self, conditions: list[dict[str, str]], started: str, succeeded: int = 1
    ) -> dict[str, Any]:
        message = "Reached expected number of succeeded pods"
        return {
            "active": None,
            "ready": 0,
            "succeeded": succeeded,
            "startTime": started,
            "completionTime": _now(),
            "conditions": [
                *conditions,
                condition("SuccessCriteriaMet", "CompletionsReached", message),
                condition("Complete", "CompletionsReached", message),
            ],
        }

    def _failed(
        self, conditions: list[dict[str, str]], started: str, failed: int, reason: str
    ) -> dict[str, Any]:
        message = {
            "DeadlineExceeded": "Job was active longer than specified deadline",
            "BackoffLimitExceeded": "Job has reached the specified backoff limit",
            "FailedIndexes": "Job has failed indexes",
        }[reason]
        return {
            "active": None,
            "ready": 0,
            "failed": failed,
            "startTime": started,
            "conditions": [
                *conditions,
                condition("FailureTarget", reason, message),
                condition("Failed", reason, message),
            ],
        }

    def _attempt(
        self, job: Mapping[str, Any], deadline: float | None, index: int | None = None
    ) -> JobRun | None:
        """Run one pod of the Job (of its `index`, if Indexed); None when the Job or the
        kubelet went away."""
        name = job["metadata"]["name"]
        template = (job.get("spec") or {}).get("template") or {}
        if index is not None:
            name = f"{name}-{index}"
            template = with_index(template, index)
        pod = f"{name}-{''.join(secrets.choice('bcdfghjklmnpqrstvwxz2456789') for _ in range(5))}"
        pod_uid = self._create_pod(job, template, pod, index) if self.create_pods else None

        # The environment and the Secret volumes: wait (as a pod in CreateContainerConfigError
        # or ContainerCreating does) for what is missing.
        assert self._folders is not None, "Kubelet.start() makes the folders"
        pod_root = Path(tempfile.mkdtemp(prefix="pod-", dir=self._folders.pods))
        try:
            return self._attempt_in(job, deadline, template, pod, pod_uid, pod_root)
        finally:
            shutil.rmtree(pod_root, ignore_errors=True)

    def _prepare(
        self,
        job: Mapping[str, Any],
        template: Mapping[str, Any],
        pod: str,
        pod_uid: str | None,
        pod_root: Path,
    ) -> list[tuple[Mapping[str, Any], ContainerRun, bool]]:
        """(container, its run, whether it is an init container) for each container, in
        order; PodNotReadyError while a Secret it needs is missing."""
        meta = job["metadata"]
        spec = template.get("spec") or {}
        found: list[tuple[Mapping[str, Any], ContainerRun, bool]] = []
        init = [(c, True) for c in spec.get("initContainers") or []]
        for container, is_init in [*init, *((c, False) for c in spec.get("containers") or [{}])]:
            env = self._container_env(container, meta["namespace"], pod, pod_uid or meta["uid"])
            mounts, read_only = self._mount_volumes(
                container, template, meta["namespace"], pod_root
            )
            argv = [
                expand(a, env)
                for a in [*(container.get("command") or []), *(container.get("args") or [])]
            ]
            executables = self.executables_of(container.get("image"))
            if argv and argv[0] in executables:
                argv[0] = executables[argv[0]]
            found.append(
                (
                    container,
                    ContainerRun(container.get("name", "main"), argv, env, mounts, read_only),
                    is_init,
                )
            )
        return found

    def _attempt_in(
        self,
        job: Mapping[str, Any],
        deadline: float | None,
        template: Mapping[str, Any],
        pod: str,
        pod_uid: str | None,
        pod_root: Path,
    ) -> JobRun | None:
        meta = job["metadata"]
        ns, name, uid = meta["namespace"], meta["name"], meta["uid"]
        pod_created = pod_uid is not None
        while True:
            try:
                containers = self._prepare(job, template, pod, pod_uid, pod_root)
                break
            except PodNotReadyError:
                if uid in self._cancelled:
                    return None
                if deadline is not None and time.monotonic() > deadline:
                    run = JobRun(ns, name, pod, [], {}, reason="DeadlineExceeded")
                    with self._lock:
                        self.runs.append(run)
                    return run
                time.sleep(self.poll_interval)

        if uid in self._cancelled:
            return None
        [first, *_] = [c for c in containers if not c[2]]
        index = first[1].env.get(INDEX_ENV)
        run = JobRun(ns, name, pod, first[1].argv, first[1].env)
        run.index = int(index) if index is not None else None
        run.containers = [c[1] for c in containers]
        with self._lock:
            self.runs.append(run)
        if pod_created:
            self._pod_status(ns, pod, first[0], "Running")

        for container, step, _ in [c for c in containers if c[2]]:  # init containers, in order
            self._run_containers([(container, step)], uid, pod, deadline)
            if step.reason != "Completed":
                break
        else:
            self._run_containers(
                [(c, r) for c, r, is_init in containers if not is_init], uid, pod, deadline
            )
        with self._lock:
            self._procs.get(uid, {}).pop(pod, None)
        ran = [r for r in run.containers if r.reason]
        failed = [r for r in ran if r.reason != "Completed"]
        last = failed[0] if failed else ran[-1]
        run.exit_code, run.reason = last.exit_code, last.reason
        for reason in ("Killed", "DeadlineExceeded"):
            if any(r.reason == reason for r in ran):
                run.reason = reason
        run.output = "".join(r.output for r in ran)
        run.finished = time.monotonic()
        if self.echo:
            print(
                f"--- {ns}/{pod} ({run.reason}, exit {run.exit_code}):\n{run.output}",
                file=sys.stderr,
            )
        if pod_created:
            self._pod_status(
                ns, pod, first[0], "Succeeded" if run.exit_code == 0 else "Failed", run
            )
            if self.api.server is not None:
                self.api.server.set_pod_log(ns, pod, run.output)
        if run.reason == "Killed":
            return None
        return run

    def _run_containers(
        self,
        containers: list[tuple[Mapping[str, Any], ContainerRun]],
        uid: str,
        pod: str,
        deadline: float | None,
    ) -> None:
        """Start these containers' processes together and wait for all of them."""
        assert self._tools is not None and self._folders is not None, "started"
        started: list[tuple[subprocess.Popen[str], ContainerRun]] = []
        for container, step in containers:
            working_dir = container.get("workingDir")
            cwd = Path(working_dir) if working_dir and Path(working_dir).is_dir() else self.cwd
            cwd = cwd or Path.cwd()
            env = {**self.base_env, **step.env}
            # the executable is the image's (here: this machine's), never under a mount
            command = (step.argv or ["false"])[0]
            executable = shutil.which(command, path=env.get("PATH", os.defpath))
            if executable is None:
                step.exit_code, step.reason = 128, "StartError"
                step.output = f"executable file not found in $PATH: {command!r}"
                continue
            argv = [executable, *(_remount(arg, step.mounts) for arg in step.argv[1:])]
            own = {folder: path in step.read_only for path, folder in step.mounts.items()}
            try:
                proc = subprocess.Popen(
                    container_argv(self._tools, self._folders, own, cwd, argv),
                    env=env,
                    cwd=cwd,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                    start_new_session=True,
                )
            except OSError as e:  # e.g. no such executable: the container fails to start
                step.exit_code, step.reason, step.output = 128, "StartError", str(e)
                continue
            with self._lock:
                self._procs.setdefault(uid, {}).setdefault(pod, []).append(proc)
            started.append((proc, step))
        waiters = [
            threading.Thread(target=self._wait, args=(proc, step, uid, deadline), daemon=True)
            for proc, step in started
        ]
        for waiter in waiters:
            waiter.start()
        for waiter in waiters:
            waiter.join()

    def _wait(
        self, proc: subprocess.Popen[str], run: ContainerRun, uid: str, deadline: float | None
    ) -> None:
        chunks: list[str] = []
        while True:
            timeout = 0.2 if deadline is None else max(0.0, min(0.2, deadline - time.monotonic()))
            try:
                out, _ = proc.communicate(timeout=timeout)
                chunks.append(out or "")
                if uid in self._cancelled or self._stopping.is_set():
                    run.reason = "Killed"  # by _sync() or stop(), before we noticed
                else:
                    run.exit_code = proc.returncode
                    run.reason = "Completed" if proc.returncode == 0 else "Error"
                break
            except subprocess.TimeoutExpired:
                killed = uid in self._cancelled or self._stopping.is_set()
                late = deadline is not None and time.monotonic() >= deadline
                if killed or late:
                    _kill(proc)
                    out, _ = proc.communicate()
                    chunks.append(out or "")
                    run.reason = "Killed" if killed else "DeadlineExceeded"
                    run.exit_code = None if killed else proc.returncode
                    break
        run.output = "".join(chunks)

    # ------------------------------------------------------------------------- env & pods

    def _container_env(
        self, container: Mapping[str, Any], ns: str, pod: str, uid: str
    ) -> dict[str, str]:
        env: dict[str, str] = {}
        for source in container.get("envFrom") or []:
            prefix = source.get("prefix", "")
            for kind, res in (("secretRef", SECRETS), ("configMapRef", CONFIGMAPS)):
                if kind in source:
                    ref = source[kind]
                    obj = self.api.find(res, ref["name"], ns)
                    if obj is None:
                        if ref.get("optional"):
                            continue
                        raise PodNotReadyError(f"{kind} {ref['name']!r} not found")
                    for key, value in (obj.get("data") or {}).items():
                        env[prefix + key] = _b64(value) if res == SECRETS else str(value)
        fields = {"metadata.name": pod, "metadata.namespace": ns, "metadata.uid": uid,
                  "spec.nodeName": "kmock-kubelet", "status.podIP": "127.0.0.1"}  # fmt: skip
        for item in container.get("env") or []:
            name = item["name"]
            if "value" in item:
                env[name] = expand(str(item["value"]), env)
                continue
            source = item.get("valueFrom") or {}
            if "fieldRef" in source:
                env[name] = fields.get(source["fieldRef"].get("fieldPath", ""), "")
                continue
            for kind, res in (("secretKeyRef", SECRETS), ("configMapKeyRef", CONFIGMAPS)):
                if kind in source:
                    ref = source[kind]
                    obj = self.api.find(res, ref["name"], ns)
                    data = (obj or {}).get("data") or {}
                    if ref["key"] in data:
                        value = data[ref["key"]]
                        env[name] = _b64(value) if res == SECRETS else str(value)
                    elif not ref.get("optional"):
                        raise PodNotReadyError(f"{kind} {ref['name']}/{ref['key']} not found")
                    break
            else:
                env.setdefault(name, "")
        return env

    def _mount_volumes(
        self, container: Mapping[str, Any], template: Mapping[str, Any], ns: str, pod_root: Path
    ) -> tuple[dict[str, Path], set[str]]:
        """Each Secret volume the container mounts, as files in its own folder of `pod_root`
        + its mountPath (its `items`, modes as `defaultMode` says), and each emptyDir, as the
        pod's folder of that volume: ({mountPath: the local folder}, the read-only mountPaths:
        those marked `readOnly`, and Secrets, which Kubernetes always mounts read-only)."""
        volumes = {v.get("name"): v for v in (template.get("spec") or {}).get("volumes") or []}
        mounts: dict[str, Path] = {}
        read_only: set[str] = set()
        for mount in container.get("volumeMounts") or []:
            volume = volumes.get(mount.get("name")) or {}
            if mount.get("readOnly") or "secret" in volume:
                read_only.add(mount["mountPath"])
            if "emptyDir" in volume:
                folder = pod_root / "volumes" / mount["name"]
                folder.mkdir(parents=True, exist_ok=True)
                mounts[mount["mountPath"]] = folder
                continue
            source = volume.get("secret")
            if source is None:
                continue
            obj = self.api.find(SECRETS, source["secretName"], ns)
            if obj is None:
                if source.get("optional"):
                    continue
                raise PodNotReadyError(f"secret volume {source['secretName']!r} not found")
            own = pod_root / "containers" / container.get("name", "main")  # this one's only
            folder = own / mount["mountPath"].lstrip("/")
            folder.mkdir(parents=True, exist_ok=True)
            data = obj.get("data") or {}
            items = source.get("items") or [{"key": key, "path": key} for key in data]
            for item in items:
                if item["key"] not in data:
                    raise PodNotReadyError(f"secret {source['secretName']!r}: no {item['key']}")
                path = folder / item["path"]
                path.write_bytes(base64.b64decode(data[item["key"]]))
                path.chmod(int(item.get("mode", source.get("defaultMode", 0o644))))
            mounts[mount["mountPath"]] = folder
        return mounts, read_only

    def _create_pod(
        self, job: Mapping[str, Any], template: Mapping[str, Any], pod: str, index: int | None
    ) -> str | None:
        """Create the Pod object; its uid, or None if that failed."""
        meta = job["metadata"]
        labels = {
            **((template.get("metadata") or {}).get("labels") or {}),
            "batch.kubernetes.io/controller-uid": meta["uid"],
            "batch.kubernetes.io/job-name": meta["name"],
            "controller-uid": meta["uid"],
            "job-name": meta["name"],
        }
        annotations = {**((template.get("metadata") or {}).get("annotations") or {})}
        if index is not None:
            labels[INDEX_ANNOTATION] = annotations[INDEX_ANNOTATION] = str(index)
        body = {
            "metadata": {
                "name": pod,
                "namespace": meta["namespace"],
                "labels": labels,
                "annotations": annotations,
                "ownerReferences": [{
                    "apiVersion": "batch/v1", "kind": "Job", "name": meta["name"],
                    "uid": meta["uid"], "controller": True, "blockOwnerDeletion": True}],
            },
            "spec": {**(template.get("spec") or {}), "nodeName": "kmock-kubelet"},
        }  # fmt: skip
        try:
            created = self.api.create(PODS, body, meta["namespace"])
        except ApiError as e:
            self.errors.append(f"pod {pod}: {e}")
            return None
        return str(created["metadata"].get("uid", ""))

    def _pod_status(
        self, ns: str, pod: str, container: Mapping[str, Any], phase: str, run: JobRun | None = None
    ) -> None:
        name = container.get("name", "main")
        if run is None:
            state: dict[str, Any] = {"running": {"startedAt": _now()}}
        else:
            state = {"terminated": {"exitCode": run.exit_code if run.exit_code is not None else 137,
                                    "reason": run.reason, "finishedAt": _now()}}  # fmt: skip
        status = {
            "phase": phase,
            "startTime": _now() if run is None else None,
            "containerStatuses": [
                {"name": name, "ready": run is None, "started": run is None, "state": state,
                 "image": container.get("image", ""), "restartCount": 0}],
        }  # fmt: skip
        if run is not None:
            del status["startTime"]
        try:
            self.api.patch_status(PODS, pod, status, namespace=ns)
        except ApiError as e:
            if e.status != 404:
                self.errors.append(f"pod {pod} status: {e}")


def _remount(arg: str, mounts: Mapping[str, Path]) -> str:
    """A path in the container's view, rewritten to where the kubelet mounted it here."""
    for mount_path, folder in mounts.items():
        if arg == mount_path or arg.startswith(mount_path.rstrip("/") + "/"):
            return str(folder) + arg[len(mount_path.rstrip("/")) :]
    return arg


def _b64(value: str) -> str:
    return base64.b64decode(value).decode()


def _kill(proc: subprocess.Popen[str]) -> None:
    """Kill a container: `unshare` and, by its --kill-child, the namespace's PID 1, whose
    death makes the kernel kill every process left in the namespace (a Jupyter kernel in a
    session of its own too), as a runtime's kill does."""
    if proc.poll() is not None:
        return  # already reaped: its pid (and group) may belong to someone else by now
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
