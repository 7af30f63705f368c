"""The test kubelet: Jobs run as local processes and get the statuses Kubernetes writes."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from testing.environments import base_python
from testing.k8s.client import K8sApi, wait_until
from testing.k8s.emulator import EmulatorServer
from testing.k8s.kopf_process import isolated_env
from testing.k8s.kubelet import Kubelet
from testing.k8s.resources import CONFIGMAPS, JOBS, PODS, SECRETS


def job(
    name: str, command: list[str], *, args: Any = None, env: Any = None, **spec: Any
) -> dict[str, Any]:
    container = {"name": "main", "image": "python:3.12", "command": command, "env": env or []}
    if args is not None:
        container["args"] = args
    pod_spec = {"restartPolicy": "Never", "containers": [container]}
    return {
        "metadata": {"name": name, "labels": {"app": "test"}},
        "spec": {"backoffLimit": 0, **spec, "template": {"spec": pod_spec}},
    }


def status_of(api: K8sApi, name: str) -> dict[str, Any]:
    return api.get(JOBS, name).get("status") or {}


def finished(obj: dict[str, Any]) -> bool:
    conditions = (obj.get("status") or {}).get("conditions") or []
    return any(c["type"] in ("Complete", "Failed") and c["status"] == "True" for c in conditions)


def conditions(obj: dict[str, Any]) -> list[tuple[str, str, str]]:
    found = (obj.get("status") or {}).get("conditions") or []
    return [(c["type"], c["status"], c["reason"]) for c in found]


@pytest.fixture
def api(k8s_emulator: EmulatorServer, k8s_api: K8sApi) -> K8sApi:
    return k8s_api  # the kubelet only ever runs against the emulator


@pytest.fixture
def kubelet(api: K8sApi) -> Iterator[Kubelet]:
    with Kubelet(api, base_env=isolated_env(api.kubeconfig, {"FROM_BASE": "base"})) as running:
        yield running
    assert not running.errors


def test_success_env_pods_and_logs(api: K8sApi, kubelet: Kubelet) -> None:
    api.create(SECRETS, {"metadata": {"name": "creds"}, "stringData": {"token": "s3cr3t"}})
    api.create(CONFIGMAPS, {"metadata": {"name": "cfg"}, "data": {"mode": "fast"}})
    env = [
        {"name": "GREETING", "value": "hello"},
        {"name": "PHRASE", "value": "$(GREETING) world"},
        {"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": "creds", "key": "token"}}},
        {"name": "MODE", "valueFrom": {"configMapKeyRef": {"name": "cfg", "key": "mode"}}},
        {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
    ]
    script = "import os; print(*(os.environ[k] for k in ['PHRASE','TOKEN','MODE','FROM_BASE']))"
    api.create(JOBS, job("ok", ["python", "-c"], args=[script, "$(GREETING)"], env=env))

    done = api.wait_for(JOBS, "ok", finished)

    status = done["status"]
    assert status["succeeded"] == 1 and "active" not in status
    assert status["startTime"] <= status["completionTime"]
    assert conditions(done) == [
        ("SuccessCriteriaMet", "True", "CompletionsReached"),
        ("Complete", "True", "CompletionsReached"),
    ]
    [run] = kubelet.runs_of("ok")
    assert run.output == "hello world s3cr3t fast base\n"
    assert run.argv[1:] == ["-c", script, "hello"]
    [pod] = api.list(PODS, label_selector="job-name=ok")
    assert run.env["POD"] == pod["metadata"]["name"]
    assert pod["metadata"]["ownerReferences"][0]["uid"] == done["metadata"]["uid"]
    assert pod["status"]["phase"] == "Succeeded"
    assert pod["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"] == 0
    log = api.request("GET", PODS.path("default", pod["metadata"]["name"], "log"))
    assert log == "hello world s3cr3t fast base\n"


def test_failure_is_retried_up_to_the_backoff_limit(api: K8sApi, kubelet: Kubelet) -> None:
    api.create(JOBS, job("bad", ["python", "-c", "raise SystemExit(3)"], backoffLimit=1))

    done = api.wait_for(JOBS, "bad", finished)

    assert done["status"]["failed"] == 2 and "completionTime" not in done["status"]
    assert conditions(done) == [
        ("FailureTarget", "True", "BackoffLimitExceeded"),
        ("Failed", "True", "BackoffLimitExceeded"),
    ]
    assert [r.exit_code for r in kubelet.runs_of("bad")] == [3, 3]


def test_deadline_kills_the_process(api: K8sApi, kubelet: Kubelet) -> None:
    started = time.monotonic()
    api.create(JOBS, job("slow", ["sleep", "30"], activeDeadlineSeconds=1))

    done = api.wait_for(JOBS, "slow", finished, timeout=10)

    assert time.monotonic() - started < 5
    assert conditions(done)[-1] == ("Failed", "True", "DeadlineExceeded")
    assert kubelet.runs_of("slow")[0].reason == "DeadlineExceeded"


def test_suspended_jobs_wait_until_resumed(api: K8sApi, kubelet: Kubelet) -> None:
    api.create(JOBS, job("later", ["true"], suspend=True))
    wait_until(lambda: conditions(api.get(JOBS, "later")), what="the Suspended condition")
    time.sleep(0.3)
    assert kubelet.runs_of("later") == [] and "startTime" not in status_of(api, "later")

    api.patch(JOBS, "later", {"spec": {"suspend": False}})

    done = api.wait_for(JOBS, "later", finished)
    assert conditions(done)[0] == ("Suspended", "False", "JobResumed")
    assert conditions(done)[-1] == ("Complete", "True", "CompletionsReached")


def test_missing_secrets_hold_the_pod_until_they_appear(api: K8sApi, kubelet: Kubelet) -> None:
    env = [{"name": "T", "valueFrom": {"secretKeyRef": {"name": "late", "key": "t"}}}]
    api.create(JOBS, job("waits", ["python", "-c", "import os; print(os.environ['T'])"], env=env))
    api.wait_for(JOBS, "waits", lambda j: (j.get("status") or {}).get("active") == 1)
    time.sleep(0.3)
    assert kubelet.runs_of("waits") == []

    api.create(SECRETS, {"metadata": {"name": "late"}, "stringData": {"t": "now"}})

    api.wait_for(JOBS, "waits", finished)
    assert kubelet.runs_of("waits")[0].output == "now\n"


def test_jobs_run_concurrently(api: K8sApi, kubelet: Kubelet) -> None:
    for i in range(3):
        api.create(JOBS, job(f"par-{i}", ["python", "-c", "import time; time.sleep(1)"]))

    for i in range(3):
        api.wait_for(JOBS, f"par-{i}", finished)

    runs = [kubelet.runs_of(f"par-{i}")[0] for i in range(3)]
    assert max(r.started for r in runs) < min(r.finished or 0 for r in runs)


def test_deleting_a_running_job_kills_it(api: K8sApi, kubelet: Kubelet) -> None:
    api.create(JOBS, job("doomed", ["sleep", "30"]))
    wait_until(lambda: kubelet.runs_of("doomed"), what="the Job's process to start")

    api.delete(JOBS, "doomed", propagation="Background")

    wait_until(lambda: kubelet.active == 0, timeout=5, what="the process to be killed")
    assert kubelet.runs_of("doomed")[0].reason == "Killed"
    assert api.list(PODS, label_selector="job-name=doomed") == []


def test_stop_kills_running_jobs_without_writing_statuses(api: K8sApi) -> None:
    kubelet = Kubelet(api).start()
    api.create(JOBS, job("cut", ["sleep", "30"]))
    wait_until(lambda: kubelet.runs_of("cut"), what="the Job's process to start")

    kubelet.stop()

    assert kubelet.active == 0 and kubelet.runs_of("cut")[0].reason == "Killed"
    assert status_of(api, "cut")["active"] == 1


def test_instant_mode_completes_jobs_without_running_them(api: K8sApi) -> None:
    def exit_code(job: Any) -> int:
        return 1 if job["metadata"]["name"] == "fast-3" else 0

    with Kubelet(api, instant=True, instant_exit_code=exit_code) as kubelet:
        started = time.monotonic()
        for i in range(20):
            api.create(JOBS, job(f"fast-{i}", ["sleep", "30"]))
        done = [api.wait_for(JOBS, f"fast-{i}", finished) for i in range(20)]
        elapsed = time.monotonic() - started

    assert elapsed < 10
    assert [d["status"].get("succeeded") for d in done].count(1) == 19
    assert conditions(done[3])[-1] == ("Failed", "True", "BackoffLimitExceeded")
    assert all(run.argv == [] for run in kubelet.runs) and len(kubelet.runs) == 20
    assert api.list(PODS) == []


def test_secret_volumes_are_files_at_their_mount_path(api: K8sApi, kubelet: Kubelet) -> None:
    """A Secret volume becomes files under a folder of the pod; arguments naming a path under
    its mountPath point there; the pod waits for a Secret that does not exist yet."""
    script = (
        "import sys, os; p = sys.argv[1]; print(open(p).read(), oct(os.stat(p).st_mode & 0o777))"
    )
    body = job("mounted", ["python", "-c", script], args=["/var/run/grants/grants.json"])
    pod_spec = body["spec"]["template"]["spec"]
    pod_spec["containers"][0]["volumeMounts"] = [
        {"name": "grants", "mountPath": "/var/run/grants", "readOnly": True}
    ]
    pod_spec["volumes"] = [{"name": "grants", "secret": {"secretName": "g", "defaultMode": 0o400}}]
    api.create(JOBS, body)
    time.sleep(0.3)
    assert not finished(api.get(JOBS, "mounted"))  # held until its Secret exists
    api.create(SECRETS, {"metadata": {"name": "g"}, "stringData": {"grants.json": "urls"}})
    wait_until(lambda: finished(api.get(JOBS, "mounted")), timeout=30, what="the Job ends")
    [run] = kubelet.runs_of("mounted")
    assert run.exit_code == 0, run.output
    assert run.output.split() == ["urls", "0o400"]
    assert run.argv[-1] == "/var/run/grants/grants.json"  # the container's view


INDEXED = {"completionMode": "Indexed", "backoffLimitPerIndex": 0}
SLEEP_BY_INDEX = "import os, time; i = int(os.environ['JOB_COMPLETION_INDEX']); "


def test_an_indexed_job_runs_each_index_parallelism_at_a_time(
    api: K8sApi, kubelet: Kubelet
) -> None:
    code = SLEEP_BY_INDEX + "time.sleep(0.5); print('index', i)"
    spec = {**INDEXED, "completions": 4, "parallelism": 2}
    api.create(JOBS, job("idx", ["python", "-c", code], **spec))

    done = api.wait_for(JOBS, "idx", finished, timeout=30)

    status = done["status"]
    assert (status["completedIndexes"], status["succeeded"]) == ("0-3", 4)
    assert "failedIndexes" not in status and not status.get("active")
    assert conditions(done)[-1] == ("Complete", "True", "CompletionsReached")
    runs = kubelet.runs_of("idx")
    assert sorted(r.index for r in runs if r.index is not None) == [0, 1, 2, 3]
    assert sorted(r.output for r in runs) == [f"index {i}\n" for i in range(4)]
    for run in runs:  # when a pod starts, at most `parallelism` run (itself included)
        assert sum(o.started <= run.started < (o.finished or 0) for o in runs) <= 2
    pods = api.list(PODS, label_selector="job-name=idx")
    key = "batch.kubernetes.io/job-completion-index"
    assert sorted(p["metadata"]["annotations"][key] for p in pods) == ["0", "1", "2", "3"]
    assert all(p["metadata"]["name"].startswith(f"idx-{p['metadata']['labels'][key]}-")
               for p in pods)  # fmt: skip


def test_completed_indexes_show_while_others_still_run(api: K8sApi, kubelet: Kubelet) -> None:
    code = SLEEP_BY_INDEX + "time.sleep(0 if i == 0 else 30)"
    api.create(JOBS, job("prog", ["python", "-c", code], **INDEXED, completions=2, parallelism=2))

    running = api.wait_for(
        JOBS, "prog", lambda j: (j.get("status") or {}).get("completedIndexes") == "0"
    )

    assert running["status"]["active"] == 1 and running["status"]["succeeded"] == 1
    assert not finished(running)
    api.delete(JOBS, "prog", propagation="Background")
    wait_until(lambda: kubelet.active == 0, timeout=5, what="the Job to stop")


def test_a_failing_index_is_retried_per_index_then_the_job_fails(
    api: K8sApi, kubelet: Kubelet
) -> None:
    code = SLEEP_BY_INDEX + "raise SystemExit(3 if i == 1 else 0)"
    spec = {**INDEXED, "backoffLimitPerIndex": 1, "completions": 3, "parallelism": 3}
    api.create(JOBS, job("half", ["python", "-c", code], **spec))

    done = api.wait_for(JOBS, "half", finished, timeout=30)

    status = done["status"]
    assert (status["completedIndexes"], status["failedIndexes"]) == ("0,2", "1")
    assert (status["succeeded"], status["failed"]) == (2, 2)  # index 1: two pods
    assert conditions(done)[-1] == ("Failed", "True", "FailedIndexes")
    assert [r.exit_code for r in kubelet.runs_of("half") if r.index == 1] == [3, 3]


def test_deleting_an_indexed_job_stops_its_pods_and_starts_no_more(
    api: K8sApi, kubelet: Kubelet
) -> None:
    api.create(JOBS, job("cut4", ["sleep", "30"], **INDEXED, completions=4, parallelism=2))
    wait_until(lambda: len(kubelet.runs_of("cut4")) == 2, what="two pods to start")

    api.delete(JOBS, "cut4", propagation="Background")

    wait_until(lambda: kubelet.active == 0, timeout=5, what="the pods to be killed")
    time.sleep(0.3)
    runs = kubelet.runs_of("cut4")
    assert len(runs) == 2 and {r.reason for r in runs} == {"Killed"}


def test_init_containers_then_the_containers_together_each_with_its_own_mounts(
    api: K8sApi, kubelet: Kubelet
) -> None:
    """An init container runs first; then both containers run at once (each waits for the
    other's file on their shared emptyDir); each gets only its own env, emptyDirs and Secret
    items: the `reader` cannot name the Secret's other key."""
    wait_for = (
        "import sys, time, pathlib; d = pathlib.Path(sys.argv[1]); "
        "(d / sys.argv[2]).write_text('x'); "
        "[time.sleep(0.05) for _ in range(200) if not (d / sys.argv[3]).exists()]; "
        "print(sys.argv[2], sorted(p.name for p in d.iterdir()), "
        "(pathlib.Path(sys.argv[4]) / 'f').read_text())"
    )
    body = job(
        "split",
        ["python", "-c", wait_for],
        args=["/shared", "a", "b", "/grants"],
        env=[{"name": "ONLY_A", "value": "1"}],
    )
    pod_spec = body["spec"]["template"]["spec"]
    [first] = pod_spec["containers"]
    first["volumeMounts"] = [
        {"name": "shared", "mountPath": "/shared"},
        {"name": "writes", "mountPath": "/grants"},
    ]
    second = {
        **first,
        "name": "second",
        "args": ["/shared", "b", "a", "/grants"],
        "env": [],
        "volumeMounts": [
            {"name": "shared", "mountPath": "/shared"},
            {"name": "reads", "mountPath": "/grants"},
        ],
    }
    init = {
        **first,
        "name": "init",
        "command": [
            "python",
            "-c",
            "import sys, pathlib; (pathlib.Path(sys.argv[1]) / 'fetched').write_text('x')",
        ],
        "args": ["/shared"],
        "volumeMounts": [{"name": "shared", "mountPath": "/shared"}],
    }
    pod_spec.update(initContainers=[init], containers=[first, second], volumes=[
        {"name": "shared", "emptyDir": {}},
        {"name": "writes", "secret": {"secretName": "g", "items": [{"key": "w", "path": "f"}]}},
        {"name": "reads", "secret": {"secretName": "g", "items": [{"key": "r", "path": "f"}]}},
    ])  # fmt: skip
    api.create(SECRETS, {"metadata": {"name": "g"}, "stringData": {"w": "write", "r": "read"}})
    api.create(JOBS, body)
    done = api.wait_for(JOBS, "split", finished, timeout=30)
    assert done["status"].get("succeeded") == 1, kubelet.runs_of("split")[0].output
    [run] = kubelet.runs_of("split")
    init_run, a, b = run.containers
    assert (init_run.name, a.name, b.name) == ("init", "main", "second")
    assert a.output.strip() == "a ['a', 'b', 'fetched'] write"  # ran together, after init
    assert b.output.strip() == "b ['a', 'b', 'fetched'] read"
    assert a.env == {"ONLY_A": "1"} and b.env == {}
    assert a.mounts["/shared"] == b.mounts["/shared"] != a.mounts["/grants"]


def test_a_failing_init_container_fails_the_pod_before_the_containers(
    api: K8sApi, kubelet: Kubelet
) -> None:
    body = job("init-fails", ["python", "-c", "print('main ran')"])
    pod_spec = body["spec"]["template"]["spec"]
    pod_spec["initContainers"] = [{"name": "init", "command": ["python", "-c", "exit(3)"]}]
    api.create(JOBS, body)
    done = api.wait_for(JOBS, "init-fails", finished, timeout=30)
    assert conditions(done)[-1] == ("Failed", "True", "BackoffLimitExceeded")
    [run] = kubelet.runs_of("init-fails")
    assert run.exit_code == 3 and "main ran" not in run.output
    assert [c.reason for c in run.containers] == ["Error", ""]


def test_an_image_mapped_to_an_interpreter_runs_its_python(api: K8sApi, kubelet: Kubelet) -> None:
    """`Kubelet.images`: a container of that image runs `python` as that interpreter (a venv
    standing for another image); any other image runs this one."""
    other = str(base_python())  # not this venv's: no pytest, no nbmodernizer there
    assert other != sys.executable
    kubelet.images["registry.example/other:1"] = other
    script = "import sys; print(sys.executable)"
    mapped = job("mapped", ["python", "-c", script])
    mapped["spec"]["template"]["spec"]["containers"][0]["image"] = "registry.example/other:1"
    api.create(JOBS, mapped)
    api.create(JOBS, job("ours", ["python3", "-c", script]))
    for name in ("mapped", "ours"):
        api.wait_for(JOBS, name, finished)
    [run] = kubelet.runs_of("mapped")
    assert run.argv[0] == other and run.output.strip() == other
    [run] = kubelet.runs_of("ours")
    assert run.argv[0] == sys.executable
