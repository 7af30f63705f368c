"""The test kubelet's containers are isolated as a runtime isolates them: each in its own PID
and mount namespaces (testing/k8s/namespaces.py), seeing only its own processes and, of the
pods' volumes, only those it mounts; killing one kills everything it started."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path

import psutil  # type: ignore[import-untyped]  # ipykernel depends on it; no stubs installed
import pytest

from testing.k8s.client import K8sApi, wait_until
from testing.k8s.emulator import EmulatorServer
from testing.k8s.kopf_process import isolated_env
from testing.k8s.kubelet import Kubelet
from testing.k8s.namespaces import NamespacesUnavailableError, namespace_tools
from testing.k8s.resources import JOBS, SECRETS
from tests.k8s.test_kubelet import conditions, finished, job


@pytest.fixture
def kubelet(k8s_emulator: EmulatorServer, k8s_api: K8sApi) -> Iterator[Kubelet]:
    with Kubelet(k8s_api, base_env=isolated_env(k8s_api.kubeconfig)) as running:
        yield running
    assert not running.errors


# `holder` mounts the Secret and starts a child; it leaves on the shared emptyDir where its
# Secret's file is on this machine, then waits for the `looker` to be done.
HOLDER = """
import json, os, pathlib, subprocess, sys, time
shared, secret = pathlib.Path(sys.argv[1]), sys.argv[2]
child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', 'holders-child'])
try:
    open(secret, 'a').write('x')
    writable = True
except OSError as e:
    writable = e.strerror
pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())
note = {'pid': os.getpid(), 'pids': pids, 'secret': secret, 'read': open(secret).read(),
        'writable': writable}
(shared / 'holder.json').write_text(json.dumps(note))
for _ in range(600):
    if (shared / 'done').exists():
        break
    time.sleep(0.05)
child.kill()
print(json.dumps(note))
"""

# `looker` lists the processes it sees and tries the holder's Secret file by its path here.
LOOKER = """
import json, os, pathlib, sys, time
shared = pathlib.Path(sys.argv[1])
for _ in range(600):
    if (shared / 'holder.json').exists():
        break
    time.sleep(0.05)
holder = json.loads((shared / 'holder.json').read_text())
def cmdline(pid):
    return open(f'/proc/{pid}/cmdline', 'rb').read().replace(b'\\0', b' ').decode()
seen = {p: cmdline(p) for p in os.listdir('/proc') if p.isdigit()}
try:
    secret = open(holder['secret']).read()
except OSError as e:
    secret = type(e).__name__
pod_folder = pathlib.Path(holder['secret']).parents[3]  # <pod>/containers/holder/<mount>/token
(shared / 'done').write_text('')
print(json.dumps({'pid': os.getpid(), 'seen': seen, 'secret': secret,
                  'pod_folder': sorted(os.listdir(pod_folder))}))
"""


def test_a_container_sees_only_its_own_processes_and_volumes(
    k8s_api: K8sApi, kubelet: Kubelet
) -> None:
    body = job("pair", ["python", "-c", HOLDER], args=["/shared", "/secret/token"])
    pod_spec = body["spec"]["template"]["spec"]
    [holder] = pod_spec["containers"]
    holder["name"] = "holder"
    holder["volumeMounts"] = [
        {"name": "shared", "mountPath": "/shared"},
        {"name": "token", "mountPath": "/secret"},
    ]
    looker = {
        **holder,
        "name": "looker",
        "command": ["python", "-c", LOOKER],
        "args": ["/shared"],
        "volumeMounts": [{"name": "shared", "mountPath": "/shared"}],
    }
    pod_spec["containers"] = [holder, looker]
    pod_spec["volumes"] = [
        {"name": "shared", "emptyDir": {}},
        {"name": "token", "secret": {"secretName": "holders"}},
    ]
    k8s_api.create(SECRETS, {"metadata": {"name": "holders"}, "stringData": {"token": "t0k"}})
    k8s_api.create(JOBS, body)

    done = k8s_api.wait_for(JOBS, "pair", finished, timeout=60)

    [run] = kubelet.runs_of("pair")
    assert conditions(done)[-1] == ("Complete", "True", "CompletionsReached"), run.output
    holder_run, looker_run = run.containers
    held, looked = json.loads(holder_run.output), json.loads(looker_run.output)
    # each is PID 1 of its own namespace; the holder sees its child, the looker none of it
    assert held["pid"] == looked["pid"] == 1
    assert len(held["pids"]) == 2, held  # itself and its child
    assert list(looked["seen"]) == ["1"] and "shared = pathlib.Path" in looked["seen"]["1"]
    # the holder reads its Secret (read-only, as Kubernetes mounts Secrets); the looker
    # cannot, by the very path the holder reads it at: of the pod's folders it has its own
    assert held["read"] == "t0k" and held["writable"] == "Read-only file system"
    assert Path(held["secret"]).is_relative_to(holder_run.mounts["/secret"])
    assert looked["secret"] == "FileNotFoundError"
    assert looked["pod_folder"] == ["volumes"]  # no `containers/holder` there


def test_killing_a_container_kills_what_it_left_behind(k8s_api: K8sApi, kubelet: Kubelet) -> None:
    """A process in a session of its own, its parent gone (a daemon, a kernel a host left
    behind), is killed with its container at the Job's deadline."""
    mark = f"left-behind-{secrets.token_hex(4)}"
    daemonize = (  # a child in a session of its own, then exit: the child is an orphan
        "import subprocess, sys; subprocess.Popen([sys.executable, '-c', "
        f"'import time; time.sleep(60)', '{mark}'], start_new_session=True)"
    )
    starter = f"import subprocess, sys, time; subprocess.run([sys.executable, '-c', {daemonize!r}])"
    command = ["python", "-c", starter + "; time.sleep(60)"]
    k8s_api.create(JOBS, job("leaver", command, activeDeadlineSeconds=5))

    def marked() -> list[int]:
        return [
            p.pid for p in psutil.process_iter(["cmdline"]) if mark in (p.info["cmdline"] or [])
        ]

    wait_until(marked, timeout=30, what="the container's daemon to start")
    done = k8s_api.wait_for(JOBS, "leaver", finished, timeout=30)

    assert conditions(done)[-1] == ("Failed", "True", "DeadlineExceeded")
    wait_until(lambda: not marked(), timeout=5, what="the daemon to die with its container")


def test_without_unshare_the_kubelet_says_what_it_needs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no util-linux here

    with pytest.raises(NamespacesUnavailableError) as error:
        namespace_tools.__wrapped__()

    message = str(error.value)
    assert "own PID and mount namespace" in message and "as root" in message
    assert message.endswith("not found on PATH: unshare, mount, umount, mkdir, sh")


def test_a_command_not_found_fails_the_container_to_start(
    k8s_api: K8sApi, kubelet: Kubelet
) -> None:
    k8s_api.create(JOBS, job("typo", ["pyhton", "-c", "pass"]))

    done = k8s_api.wait_for(JOBS, "typo", finished, timeout=30)

    assert conditions(done)[-1] == ("Failed", "True", "BackoffLimitExceeded")
    [container] = kubelet.runs_of("typo")[0].containers
    assert (container.reason, container.exit_code) == ("StartError", 128)
    assert container.output == "executable file not found in $PATH: 'pyhton'"
