"""The runner pod split (grants mode; docs/security.md): an init container fetches with the
read grants, the notebook's kernel runs in a container with no grant, the executor alone holds
the write grants. Pure: a pod spec in, the split pod spec out."""

from __future__ import annotations

from collections.abc import Mapping

from nbmodernizer.cluster.wire import JsonObject, children, strings

GRANTS_FILE = "grants.json"  # the grants file's name in its mount
# The pod split (grants mode): an init container fetches with the read grants, the notebook's
# kernel runs in a container with no grant, the executor alone holds the write grants.
READ_GRANTS = ("read-grants", "/var/run/nbmodernizer/read", "read.json")  # volume, mount, key
WRITE_GRANTS = ("write-grants", "/var/run/nbmodernizer/write", "write.json")
NOTEBOOK_MOUNT = "/var/run/nbmodernizer/notebook"  # fetch -> executor; not the kernel's
KERNEL_MOUNT = "/var/run/nbmodernizer/kernel"  # the kernel's connection files
FETCH, KERNEL, EXECUTOR = "fetch", "kernel", "executor"


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


def split_pod(pod_spec: JsonObject, secret: str, revision: str) -> None:
    """Turn the one runner container into the pod split (docs/security.md):

    initContainers: fetch      READ grants; writes the notebook and the inputs (emptyDirs)
    containers:     kernel     no grant, the notebook's resources; hosts its kernels only
                    executor   WRITE grants; drives the kernel over ZMQ (the pod's loopback),
                               records and uploads what it observed, then stops the kernel's host

    They share the working directory, the inputs and the kernel folder; the notebook file,
    the executor's /tmp and each grant are mounted in one container only. Not
    `shareProcessNamespace`: the kernel cannot reach the executor's processes."""
    [runner] = children(pod_spec, "containers")
    args, env = strings(runner, "args"), children(runner, "env")
    flag = {args[i]: args[i + 1] for i in range(0, len(args) - 1, 2)}
    stage_flags = ("--stage", "--grants", "--notebook-dir", "--kernel-dir")
    base = {k: v for k, v in runner.items() if k not in ("args", "env", "volumeMounts")}
    base.pop("resources", None)
    home = [e for e in env if e.get("name") in ("HOME", "MPLCONFIGDIR")]
    read_mount = {"name": READ_GRANTS[0], "mountPath": READ_GRANTS[1], "readOnly": True}
    write_mount = {"name": WRITE_GRANTS[0], "mountPath": WRITE_GRANTS[1], "readOnly": True}
    notebook = {"name": "notebook", "mountPath": NOTEBOOK_MOUNT}
    kernel_folder = {"name": "kernel", "mountPath": KERNEL_MOUNT}
    fetch = {
        **base,
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
            "--timeout-seconds",
            flag["--timeout-seconds"],
        ],
        "env": home,
        "volumeMounts": [*_mounts(runner, "tmp", "input"), notebook, read_mount],
    }
    kernel: JsonObject = {
        **base,
        "name": KERNEL,
        "args": [
            "--stage",
            KERNEL,
            "--revision",
            revision,
            "--kernel-dir",
            KERNEL_MOUNT,
            "--working-dir",
            flag["--working-dir"],
            "--input-dir",
            flag["--input-dir"],
            "--timeout-seconds",
            flag["--timeout-seconds"],
        ],
        "env": home,
        "volumeMounts": [
            *_mounts(runner, "working", "input"),
            {"name": "kernel-tmp", "mountPath": "/tmp"},
            kernel_folder,
        ],
    }
    if "resources" in runner:  # the notebook's: CPU, memory, GPUs
        kernel["resources"] = runner["resources"]
    executor = {
        **base,
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
        ),
        "env": env,
        "volumeMounts": [
            *_mounts(runner, "working", "tmp", "input"),
            {**notebook, "readOnly": True},
            kernel_folder,
            write_mount,
        ],
    }
    pod_spec["initContainers"] = [fetch]
    pod_spec["containers"] = [kernel, executor]
    pod_spec["shareProcessNamespace"] = False
    pod_spec["volumes"] = [
        *children(pod_spec, "volumes"),
        {"name": "notebook", "emptyDir": {}},
        {"name": "kernel", "emptyDir": {}},
        {"name": "kernel-tmp", "emptyDir": {}},
        _grants_volume(READ_GRANTS, secret),
        _grants_volume(WRITE_GRANTS, secret),
    ]
