"""A toy kopf operator that exercises the test harness (it is not the product).

    KUBECONFIG=... python -m kopf run --standalone -n default testing/k8s/toy_operator.py

On a new NotebookModernization it creates one Job, ``<name>-run``, owned by the resource and
running ``spec.command``, and sets ``status.phase: Running``; when that Job completes or
fails, it sets the owner's ``status.phase`` to ``Succeeded`` or ``Failed``. Creating the Job
is idempotent (a 409 means "already created by an earlier run of the operator"), and a
timer re-derives the phase from the Job while it says Running: the Job can finish before
"Running" is written (while the operator is down, or just fast), and kopf's patch would
then overwrite "Succeeded" with "Running" -- a race the product has to handle too.

Environment:
    TOY_CRASH_MARKER  a file path: once (while the file does not exist) the operator dies
                      right after creating the Job, before kopf records the handler's
                      success: the crash window that idempotency must survive.
    TOY_JOB_IMAGE     the Job's image (it only matters on a real cluster).

Self-contained on purpose: kopf loads it by path, outside the ``tests`` package.
"""

from __future__ import annotations

import os
import pathlib
from typing import Any

import kopf
import kubernetes  # type: ignore[import-untyped,unused-ignore]

GROUP, VERSION, PLURAL, KIND = (
    "nbmodernizer.dev",
    "v1alpha1",
    "notebookmodernizations",
    "NotebookModernization",
)
OWNER_LABEL = "toy.nbmodernizer.dev/owner"
DEFAULT_COMMAND = ["python", "-c", "print('hi')"]


@kopf.on.startup()
def login(**_: Any) -> None:
    try:
        kubernetes.config.load_incluster_config()
    except kubernetes.config.ConfigException:
        kubernetes.config.load_kube_config()


@kopf.on.create(GROUP, VERSION, PLURAL)
def create_job(
    body: kopf.Body,
    spec: kopf.Spec,
    name: str,
    namespace: str | None,
    patch: kopf.Patch,
    logger: kopf.Logger,
    **_: Any,
) -> None:
    job_name = f"{name}-run"
    pod_spec = {
        "restartPolicy": "Never",
        "containers": [
            {
                "name": "main",
                "image": os.environ.get("TOY_JOB_IMAGE", "python:3.12-alpine"),
                "command": list(spec.get("command") or DEFAULT_COMMAND),
                "env": [{"name": "NBM_NAME", "value": name}],
            }
        ],
    }
    job: dict[str, Any] = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": job_name, "labels": {OWNER_LABEL: name}},
        "spec": {
            "backoffLimit": 0,
            "template": {"metadata": {"labels": {OWNER_LABEL: name}}, "spec": pod_spec},
        },
    }
    kopf.adopt(job, owner=body)
    batch = kubernetes.client.BatchV1Api()
    try:
        batch.create_namespaced_job(namespace, job)
        logger.info(f"Created the Job {job_name}.")
        phase = "Running"
    except kubernetes.client.ApiException as e:
        if e.status != 409:
            raise
        logger.info(f"The Job {job_name} exists already (an earlier run created it).")
        existing = batch.read_namespaced_job(job_name, namespace).to_dict()
        phase = job_phase(existing.get("status") or {}) or "Running"  # it may be done

    marker = os.environ.get("TOY_CRASH_MARKER")
    if marker and not pathlib.Path(marker).exists():
        pathlib.Path(marker).write_text("crashed once\n")
        os._exit(3)  # die before kopf can record that the handler succeeded

    kopf.info(body, reason="JobCreated", message=f"Created the Job {job_name}.")
    patch.status["phase"] = phase
    patch.status["job"] = job_name


def job_phase(status: Any) -> str | None:
    """Succeeded/Failed for a finished Job's status, None while it runs."""
    conditions = status.get("conditions") or []
    done = {c["type"] for c in conditions if c.get("status") == "True"} & {"Complete", "Failed"}
    return None if not done else "Succeeded" if "Complete" in done else "Failed"


@kopf.timer(GROUP, VERSION, PLURAL, interval=1.0, field="status.phase", value="Running")
def reconcile(status: kopf.Status, namespace: str | None, patch: kopf.Patch, **_: Any) -> None:
    """Level-triggered safety net: the Job may finish before "Running" is even written."""
    job = kubernetes.client.BatchV1Api().read_namespaced_job(status["job"], namespace)
    phase = job_phase(job.to_dict().get("status") or {})
    if phase is not None:
        patch.status["phase"] = phase


@kopf.on.event("batch", "v1", "jobs", labels={OWNER_LABEL: kopf.PRESENT})
def job_finished(body: kopf.Body, namespace: str | None, logger: kopf.Logger, **_: Any) -> None:
    phase = job_phase(body.get("status") or {})
    owners = [r for r in body["metadata"].get("ownerReferences", []) if r["kind"] == KIND]
    if phase is None or not owners:
        return
    owner = kubernetes.client.CustomObjectsApi().patch_namespaced_custom_object_status(
        GROUP, VERSION, namespace, PLURAL, owners[0]["name"], {"status": {"phase": phase}}
    )
    message = f"The Job {body['metadata']['name']} {phase.lower()}."
    if phase == "Succeeded":
        kopf.info(owner, reason="JobSucceeded", message=message)
    else:
        kopf.warn(owner, reason="JobFailed", message=message)
    logger.info(message)
