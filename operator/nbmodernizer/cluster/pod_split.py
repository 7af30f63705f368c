"""The runner pod split (grants mode; docs/security.md): an init container fetches with the
read grants, the environment is probed before any notebook code runs, the notebook's kernel
runs in a container of the environment image with no grant, the executor alone holds the
write grants. Pure: a pod spec in, the split pod spec out."""

from __future__ import annotations

from collections.abc import Mapping

from nbmodernizer.cluster.wire import JsonObject, children, strings
from nbmodernizer.podtools import ENVPROBE, KERNELHOST, PROBE_REQUEST
from nbmodernizer.store.layout import ENVIRONMENT

GRANTS_FILE = "grants.json"  # the grants file's name in its mount
# The pod split (grants mode): an init container fetches with the read grants, the notebook's
# kernel runs in a container with no grant, the executor alone holds the write grants.
READ_GRANTS = ("read-grants", "/var/run/nbmodernizer/read", "read.json")  # volume, mount, key
WRITE_GRANTS = ("write-grants", "/var/run/nbmodernizer/write", "write.json")
NOTEBOOK_MOUNT = "/var/run/nbmodernizer/notebook"  # fetch -> executor; not the kernel's
KERNEL_MOUNT = "/var/run/nbmodernizer/kernel"  # the kernel's connection files
# Our code for the environment image (kernelhost.py, envprobe.py) and the probe's request,
# copied there by `fetch`; the environment's FACTS, written by `probe`, read by `executor`.
TOOLS_MOUNT = "/nbmod-tools"
FACTS_MOUNT = "/nbmod-facts"
FETCH, PROBE, KERNEL, EXECUTOR = "fetch", "probe", "kernel", "executor"
PYTHON = "python"  # the environment image's own interpreter, found on its PATH


def _grants_volume(grants: tuple[str, str, str], secret: str) -> JsonObject:
    volume, _, key = grants
    items = [{"key": key, "path": GRANTS_FILE}]
    return {
        "name": volume,
        "secret": {"secretName": secret, "defaultMode": 0o400, "items": items},
    }


def _mounts(container: Mapping[str, object], *names: str) -> list[JsonObject]:
    """The runner container's mounts of these volumes, in its order."""
    return [dict(m) for m in children(container, "volumeMounts") if m.get("name") in names]


def _with_flags(args: list[str], drop: tuple[str, ...], *extra: str) -> list[str]:
    """`args` without the flags in `drop` (each with its value), then `extra`."""
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in drop:
            skip = True
        else:
            kept.append(arg)
    return [*kept, *extra]


def split_pod(
    pod_spec: JsonObject, secret: str, revision: str, runner_image: str, environment_image: str
) -> None:
    """Turn the one runner container into the pod split (docs/security.md):

    initContainers: fetch      runner image; READ grants; writes the notebook and the inputs,
                               and our tools with the probe's request for the notebook's
                               imports (emptyDirs)
                    probe      environment image, its own python; mounts the tools and the
                               facts only: envprobe.py's FACTS into the facts folder
    containers:     kernel     environment image, no grant, the notebook's resources; hosts
                               its kernels only (`python kernelhost.py`)
                    executor   runner image; WRITE grants; stores the facts (environment.json),
                               drives the kernel over ZMQ (the pod's loopback), records and
                               uploads what it observed, then stops the kernel's host

    They share the working directory, the inputs and the kernel folder; the notebook file,
    the executor's /tmp, the facts and each grant are never mounted in the kernel's
    container. Not `shareProcessNamespace`: the kernel cannot reach the executor's processes."""
    [runner] = children(pod_spec, "containers")
    args, env = strings(runner, "args"), children(runner, "env")
    flag = {args[i]: args[i + 1] for i in range(0, len(args) - 1, 2)}
    stage_flags = ("--stage", "--grants", "--notebook-dir", "--kernel-dir", "--facts-dir")
    base = {k: v for k, v in runner.items() if k not in ("args", "env", "volumeMounts")}
    base.pop("resources", None)
    runner_base = {**base, "image": runner_image}
    environment_base = {k: v for k, v in base.items() if k != "command"}
    environment_base["image"] = environment_image
    home = [e for e in env if e.get("name") in ("HOME", "MPLCONFIGDIR")]
    read_mount = {"name": READ_GRANTS[0], "mountPath": READ_GRANTS[1], "readOnly": True}
    write_mount = {"name": WRITE_GRANTS[0], "mountPath": WRITE_GRANTS[1], "readOnly": True}
    notebook = {"name": "notebook", "mountPath": NOTEBOOK_MOUNT}
    kernel_folder = {"name": "kernel", "mountPath": KERNEL_MOUNT}
    tools = {"name": "nbmod-tools", "mountPath": TOOLS_MOUNT}
    facts = {"name": "facts", "mountPath": FACTS_MOUNT}
    fetch = {
        **runner_base,
        "name": FETCH,
        "args": [
            "--stage",
            FETCH,
            "--revision",
            revision,
            "--grants",
            f"{READ_GRANTS[1]}/{GRANTS_FILE}",
            "--input-dir",
            flag["--input-dir"],
            "--notebook-dir",
            NOTEBOOK_MOUNT,
            "--tools-dir",
            TOOLS_MOUNT,
            "--timeout-seconds",
            flag["--timeout-seconds"],
        ],
        "env": home,
        "volumeMounts": [*_mounts(runner, "tmp", "input"), notebook, tools, read_mount],
    }
    probe = {
        **environment_base,
        "name": PROBE,
        "command": [
            PYTHON,
            f"{TOOLS_MOUNT}/{KERNELHOST}",
            "--probe",
            f"{TOOLS_MOUNT}/{ENVPROBE}",
            "--request",
            f"{TOOLS_MOUNT}/{PROBE_REQUEST}",
            "--facts",
            f"{FACTS_MOUNT}/{ENVIRONMENT}",
        ],
        "env": home,
        "volumeMounts": [
            {"name": "probe-tmp", "mountPath": "/tmp"},
            {**tools, "readOnly": True},
            facts,
        ],
    }
    kernel: JsonObject = {
        **environment_base,
        "name": KERNEL,
        "command": [
            PYTHON,
            f"{TOOLS_MOUNT}/{KERNELHOST}",
            "--kernel-dir",
            KERNEL_MOUNT,
            "--working-dir",
            flag["--working-dir"],
        ],
        "env": home,
        "volumeMounts": [
            *_mounts(runner, "working", "input"),
            {"name": "kernel-tmp", "mountPath": "/tmp"},
            kernel_folder,
            {**tools, "readOnly": True},
        ],
    }
    if "resources" in runner:  # the notebook's: CPU, memory, GPUs
        kernel["resources"] = runner["resources"]
    executor = {
        **runner_base,
        "name": EXECUTOR,
        "args": _with_flags(
            args,
            stage_flags,
            "--stage",
            "execute",
            "--grants",
            f"{WRITE_GRANTS[1]}/{GRANTS_FILE}",
            "--notebook-dir",
            NOTEBOOK_MOUNT,
            "--kernel-dir",
            KERNEL_MOUNT,
            "--facts-dir",
            FACTS_MOUNT,
        ),
        "env": env,
        "volumeMounts": [
            *_mounts(runner, "working", "tmp", "input"),
            {**notebook, "readOnly": True},
            kernel_folder,
            {**facts, "readOnly": True},
            write_mount,
        ],
    }
    pod_spec["initContainers"] = [fetch, probe]
    pod_spec["containers"] = [kernel, executor]
    pod_spec["shareProcessNamespace"] = False
    pod_spec["volumes"] = [
        *children(pod_spec, "volumes"),
        {"name": "notebook", "emptyDir": {}},
        {"name": "kernel", "emptyDir": {}},
        {"name": "kernel-tmp", "emptyDir": {}},
        {"name": "nbmod-tools", "emptyDir": {}},
        {"name": "facts", "emptyDir": {}},
        {"name": "probe-tmp", "emptyDir": {}},
        _grants_volume(READ_GRANTS, secret),
        _grants_volume(WRITE_GRANTS, secret),
    ]
