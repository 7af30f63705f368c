"""Smoke tests of the harness: a real kopf process, kubectl and the kubelet on the emulator.

They run against KMock's emulator by default, or against a real cluster when
``NBM_E2E_KUBECONFIG`` is set (see docs/testing-kubernetes.md).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from testing.k8s.client import K8sApi, wait_until
from testing.k8s.fixtures import Kubectl, OperatorFactory
from testing.k8s.kubelet import Kubelet
from testing.k8s.resources import JOBS, NBM_KIND, NBMS

OWNER_LABEL = "toy.nbmodernizer.dev/owner"


def phase_is(phase: str) -> Any:
    return lambda obj: (obj.get("status") or {}).get("phase") == phase


def nbm(name: str, command: list[str]) -> dict[str, Any]:
    return {"kind": NBM_KIND, "metadata": {"name": name}, "spec": {"command": command}}


def jobs_of(api: K8sApi, name: str) -> list[dict[str, Any]]:
    return api.list(JOBS, label_selector=f"{OWNER_LABEL}={name}")


def test_kube_tools_are_kubectl_137_and_helm_4(kube_tools: Path, kubectl: Kubectl) -> None:
    assert "Client Version: v1.37." in kubectl("version", "--client").stdout
    helm = subprocess.run(
        [str(kube_tools / "helm"), "version", "--short"], capture_output=True, text=True
    )
    assert helm.stdout.startswith("v4."), helm


def test_toy_operator_drives_a_job_to_success(
    k8s_api: K8sApi, kubelet: Kubelet | None, kopf_operator: OperatorFactory
) -> None:
    kopf_operator()
    created = k8s_api.create(NBMS, nbm("nb-ok", ["python", "-c", "print('hi')"]))

    done = k8s_api.wait_for(NBMS, "nb-ok", phase_is("Succeeded"), timeout=30)

    assert done["status"]["job"] == "nb-ok-run"
    [job] = jobs_of(k8s_api, "nb-ok")
    assert job["metadata"]["ownerReferences"] == [
        {
            "apiVersion": NBMS.api_version,
            "kind": NBM_KIND,
            "name": "nb-ok",
            "uid": created["metadata"]["uid"],
            "controller": True,
            "blockOwnerDeletion": True,
        }
    ]
    assert {"type": "Complete", "status": "True"}.items() <= job["status"]["conditions"][-1].items()
    reasons = wait_until(
        lambda: {e["reason"] for e in k8s_api.events_for(done)} >= {"JobCreated", "JobSucceeded"},
        timeout=10,
        what="the operator's events",
    )
    assert reasons
    if kubelet is not None:
        [run] = kubelet.runs_of("nb-ok-run")
        assert (run.exit_code, run.output) == (0, "hi\n")
        assert run.env["NBM_NAME"] == "nb-ok"


def test_kubectl_applies_reads_and_sees_status_patches(
    k8s_api: K8sApi, kubectl: Kubectl, tmp_path: Path
) -> None:
    manifest = tmp_path / "nbm.yaml"
    manifest.write_text(
        f"apiVersion: {NBMS.api_version}\n"
        f"kind: {NBM_KIND}\n"
        "metadata:\n  name: nb-kubectl\n"
        "spec:\n  command: [python, -c, 'print(1)']\n"
    )

    applied = kubectl("apply", "--validate=false", "-f", str(manifest))
    assert "created" in applied.stdout
    obj = kubectl.json("get", "nbm", "nb-kubectl")
    assert obj["spec"] == {"command": ["python", "-c", "print(1)"]}
    assert obj["metadata"]["uid"] == k8s_api.get(NBMS, "nb-kubectl")["metadata"]["uid"]
    assert "could also match" not in kubectl("get", "nbm").stderr

    k8s_api.patch_status(NBMS, "nb-kubectl", {"phase": "Running"})
    jsonpath = "jsonpath={.status.phase}"
    full = f"{NBMS.plural}.{NBMS.group}"
    assert kubectl("get", full, "nb-kubectl", "-o", jsonpath).stdout == "Running"

    assert "unchanged" in kubectl("apply", "--validate=false", "-f", str(manifest)).stdout
    assert kubectl("get", "nbm", "nb-kubectl", "-o", jsonpath).stdout == "Running"
    kubectl("delete", "nbm", "nb-kubectl")
    gone = kubectl("get", "nbm", "nb-kubectl", check=False)
    assert gone.returncode != 0 and "NotFound" in gone.stderr


def test_operator_crash_after_creating_the_job_does_not_duplicate_it(
    k8s_api: K8sApi, kubelet: Kubelet | None, kopf_operator: OperatorFactory, tmp_path: Path
) -> None:
    crash = {"TOY_CRASH_MARKER": str(tmp_path / "crashed")}
    first = kopf_operator(env=crash)
    k8s_api.create(NBMS, nbm("nb-crash", ["python", "-c", "print('once')"]))

    assert first.wait(timeout=30) == 3  # died between creating the Job and recording it
    [job] = jobs_of(k8s_api, "nb-crash")
    assert "phase" not in (k8s_api.get(NBMS, "nb-crash").get("status") or {})

    kopf_operator(env=crash)  # the marker exists now: this one does not crash
    k8s_api.wait_for(NBMS, "nb-crash", phase_is("Succeeded"), timeout=30)

    [again] = jobs_of(k8s_api, "nb-crash")
    assert again["metadata"]["uid"] == job["metadata"]["uid"]
    if kubelet is not None:
        assert len(kubelet.runs_of("nb-crash-run")) == 1


def test_operator_stopped_while_the_job_runs_catches_up_after_restart(
    k8s_api: K8sApi, kubelet: Kubelet | None, kopf_operator: OperatorFactory
) -> None:
    first = kopf_operator()
    sleep = "import time; time.sleep(2); print('slept')"
    k8s_api.create(NBMS, nbm("nb-restart", ["python", "-c", sleep]))
    k8s_api.wait_for(NBMS, "nb-restart", phase_is("Running"), timeout=30)
    k8s_api.wait_for(JOBS, "nb-restart-run", lambda j: (j.get("status") or {}).get("active") == 1)

    assert first.stop() == 0  # graceful, while the Job still runs
    finished = k8s_api.wait_for(
        JOBS, "nb-restart-run", lambda j: (j.get("status") or {}).get("succeeded") == 1
    )
    assert k8s_api.get(NBMS, "nb-restart")["status"]["phase"] == "Running"  # nobody watched

    kopf_operator()
    k8s_api.wait_for(NBMS, "nb-restart", phase_is("Succeeded"), timeout=30)
    [job] = jobs_of(k8s_api, "nb-restart")
    assert job["metadata"]["uid"] == finished["metadata"]["uid"]
    if kubelet is not None:
        assert [r.output for r in kubelet.runs_of("nb-restart-run")] == ["slept\n"]
    assert json.dumps(job).count('"Complete"') == 1
