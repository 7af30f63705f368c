"""Containers for the test kubelet: a process in its own PID and mount namespaces.

As a container runtime does, each container's command runs as PID 1 of a PID namespace of
its own (util-linux ``unshare --pid --fork --mount-proc``), so ``/proc`` lists only its own
processes, and killing that PID 1 (``unshare --kill-child`` does when the kubelet kills
``unshare``) makes the kernel kill every process left in the namespace: a Jupyter kernel in
a session of its own included.

Its mount namespace hides the kubelet's folders (every pod's Secret items and emptyDirs,
under one ``pods`` folder) behind an empty tmpfs and binds back only the folders the
container mounts, at the same paths (so the kubelet's rewritten arguments still name them),
read-only where the volume is (Secrets always, as Kubernetes mounts them). The rest of this
machine's filesystem stays visible: there is no image to give a root of its own, and the
container runs this machine's interpreter and tools; what a pod's volumes hold is what the
isolation is for.

This takes root (CI runs as root) and util-linux. Where either is missing,
:func:`namespace_tools` raises :class:`NamespacesUnavailableError` naming what failed; there
is no fallback to processes that share this machine's namespaces.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

# In the new namespaces, before the command: cover `pods` with an empty tmpfs, reached
# first through a bind at `view` (outside `pods`) to bind back the container's own folders,
# then drop that view, enter the working directory afresh (a working directory inherited
# from outside would lead back up to the covered folders) and become the command.
SETUP = r"""
set -eu
mount=$1 umount=$2 mkdir=$3 pods=$4 view=$5 cwd=$6
shift 6
"$mount" --bind "$pods" "$view"
"$mount" -t tmpfs -o mode=0755,size=1m kubelet-pods "$pods"
while [ "$1" != -- ]; do
    access=$1 folder=$2
    shift 2
    "$mkdir" -p "$folder"
    "$mount" --bind "$view${folder#"$pods"}" "$folder"
    if [ "$access" = ro ]; then
        "$mount" -o remount,bind,ro "$folder"
    fi
done
shift
"$umount" "$view"
cd "$cwd"
exec "$@"
"""
UNSHARE_FLAGS = [
    "--pid",
    "--fork",
    "--mount-proc",
    "--mount",
    "--propagation",
    "private",
    "--kill-child",
]
HINT = (
    "the test kubelet runs each container in its own PID and mount namespace with "
    "util-linux `unshare`, `mount` and `umount`, as root (CI runs as root)"
)


class NamespacesUnavailableError(RuntimeError):
    """This machine cannot give a container its own PID and mount namespaces."""


@dataclasses.dataclass(frozen=True)
class NamespaceTools:
    """The absolute paths of the programs that make a container."""

    unshare: str
    mount: str
    umount: str
    mkdir: str
    sh: str


@dataclasses.dataclass(frozen=True)
class Folders:
    """The kubelet's folders: `pods` holds every pod's volumes; `view` is the empty mount
    point each container reaches `pods` through while it binds its own folders back."""

    pods: Path
    view: Path

    @classmethod
    def create(cls) -> Folders:
        top = Path(tempfile.mkdtemp(prefix="kubelet-"))
        folders = cls(top / "pods", top / "view")
        folders.pods.mkdir()
        folders.view.mkdir()
        return folders

    def remove(self) -> None:
        shutil.rmtree(self.pods.parent, ignore_errors=True)


def container_argv(
    tools: NamespaceTools,
    folders: Folders,
    mounts: Mapping[Path, bool],
    cwd: Path,
    argv: list[str],
) -> list[str]:
    """The command line that runs `argv` as a container: in its own namespaces, seeing of
    `folders.pods` only `mounts` (folder -> read-only), in `cwd`."""
    own: list[str] = []
    for folder in sorted(mounts):  # a folder before the folders under it
        if not folder.is_relative_to(folders.pods):
            raise ValueError(f"{folder} is not under the kubelet's {folders.pods}")
        own += ["ro" if mounts[folder] else "rw", str(folder)]
    paths = [tools.mount, tools.umount, tools.mkdir, str(folders.pods), str(folders.view)]
    return [
        tools.unshare, *UNSHARE_FLAGS, "--", tools.sh, "-c", SETUP, "container",
        *paths, str(cwd), *own, "--", *argv,
    ]  # fmt: skip


@functools.cache
def namespace_tools() -> NamespaceTools:
    """The tools, once checked by running a container: NamespacesUnavailableError if this
    machine lacks one or does not let us make the namespaces and mounts."""
    found = {name: shutil.which(name) for name in ("unshare", "mount", "umount", "mkdir", "sh")}
    missing = [name for name, path in found.items() if path is None]
    if missing:
        raise NamespacesUnavailableError(f"{HINT}: not found on PATH: {', '.join(missing)}")
    tools = NamespaceTools(**{name: str(path) for name, path in found.items()})
    folders = Folders.create()
    try:
        own = folders.pods / "probe"
        own.mkdir()
        (own / "seen").write_text("")
        (folders.pods / "hidden").write_text("")
        # PID 1, a /proc of its own namespace, its own folder only
        check = (
            '[ $$ = 1 ] && [ "$(ls /proc | grep -c "^[0-9]")" -lt 5 ] '
            '&& [ "$(ls)" = seen ] && [ ! -e ../hidden ]'
        )
        argv = container_argv(tools, folders, {own: True}, own, [tools.sh, "-c", check])
        try:
            probe = subprocess.run(argv, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise NamespacesUnavailableError(f"{HINT}: {e}") from e
        if probe.returncode != 0:
            detail = probe.stderr.strip() or f"exit {probe.returncode}"
            raise NamespacesUnavailableError(
                f"{HINT}; a test container failed (uid {os.geteuid()}): {detail}"
            )
    finally:
        folders.remove()
    return tools
