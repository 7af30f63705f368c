"""Our code in the notebook's environment image: the kernel host and the probe runner.

The environment image (`spec.execution.image`: ours, Kaggle's, a company's) need not hold
nbmodernizer: an init container of the runner image copies this file (and envprobe.py) into
an emptyDir, and the image's own `python` runs it, as Argo's emissary executor and Tekton's
entrypoint reach a user's image. So it imports the standard library only and runs on any
CPython >= 3.6 (no walrus, no `match`, no `X | Y` or `list[str]` evaluated at run time).

    python kernelhost.py --kernel-dir DIR --working-dir DIR
        the kernel container: start each kernel the executor asks for in DIR, one at a time,
        until it says `done`; exit 0
    python kernelhost.py --probe envprobe.py --request REQUEST.json --facts FACTS.json
        the probe container (before any notebook code runs): envprobe.py in this interpreter,
        its FACTS (JSON) written whole to FACTS.json; exit 1 with the reason on failure

The protocol in the kernel folder, shared with the executor's side (`remotekernel`, which
imports these names from here: one home). File names carry the kernel's id:

    kernel-ID.json   the connection file (ports, key), written by the executor (nbclient's
                     manager picks free ports on the pod's shared loopback)
    start-ID         then written by the executor: "start this kernel"
    signal-ID-N      a signal number for the kernel's process group (interrupt, kill)
    exit-ID          its exit status, written by the host when the kernel ended
    gpus             how many GPUs the kernel's container sees (the host's count, at start)
    done             the executor has finished: the host kills what runs and exits 0

Each file is written whole (a rename), so neither side reads half of one. The kernel can
write into the folder too: it can only disturb its own run, never what the executor records.

The kernel gets this container's environment: the image's own variables (what its notebooks
expect) and what the pod spec gives the container, which holds no secret; with pip kept off
the network and matplotlib's inline backend unless the image chose another (`kernel_env`).
"""

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Dict, List, Mapping, Optional

POLL_SECONDS = 0.05
DONE = "done"
GPUS = "gpus"
START_PREFIX = "start-"
KERNEL_ARGUMENTS = ("--HistoryManager.enabled=False", "--IPKernelApp.log_level=ERROR")
# Set for every kernel, in pods and locally (`execute.kernel_environment`), whatever the image
# or the driver's environment says: a run has no network, and what a notebook installs
# (`!pip install`, executed as it is in revision 0) would change the environment that later
# revisions and other notebooks share. pip installs nothing from an index; the environment
# rules comment such lines out in the next revision.
KERNEL_ENV_FIXED = {"PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
KERNEL_ENV_DEFAULTS = {"MPLBACKEND": "module://matplotlib_inline.backend_inline"}
PROBE_TIMEOUT_SECONDS = 900  # importing TensorFlow and torch on a busy node takes a while
EXIT_FAILED = 1


def write_whole(path: Path, text: str) -> None:
    """Write `path` under another name first, then rename it: readers see all or nothing."""
    partial = path.with_name(".{}.{}".format(path.name, uuid.uuid4().hex[:8]))
    partial.write_text(text)
    os.replace(str(partial), str(path))


def connection_file(folder: Path, kernel_id: str) -> Path:
    return folder / "kernel-{}.json".format(kernel_id)


def start_file(folder: Path, kernel_id: str) -> Path:
    return folder / (START_PREFIX + kernel_id)


def signal_file(folder: Path, kernel_id: str, number: int) -> Path:
    return folder / "signal-{}-{}".format(kernel_id, number)


def exit_file(folder: Path, kernel_id: str) -> Path:
    return folder / "exit-{}".format(kernel_id)


def visible_gpus() -> int:
    """NVIDIA GPUs this process can see (0 without a driver)."""
    if shutil.which("nvidia-smi") is None:
        return 0
    try:
        listing = subprocess.run(
            ["nvidia-smi", "-L"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            universal_newlines=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return 0
    return sum(1 for line in listing.stdout.splitlines() if line.startswith("GPU "))


def kernel_env(container: Mapping[str, str]) -> Dict[str, str]:
    """The kernel's environment: its container's, with KERNEL_ENV_DEFAULTS where unset and
    KERNEL_ENV_FIXED over it."""
    env = dict(KERNEL_ENV_DEFAULTS)
    env.update(container)
    env.update(KERNEL_ENV_FIXED)
    return env


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):  # Path.unlink(missing_ok=) is 3.8+
        path.unlink()


def _deliver_signals(folder: Path, kernel_id: str, process: "subprocess.Popen[bytes]") -> None:
    for request in sorted(folder.glob("signal-{}-*".format(kernel_id))):
        with contextlib.suppress(ValueError, OSError):
            os.killpg(process.pid, int(request.read_text().strip()))
        _remove(request)


def _run_kernel(folder: Path, kernel_id: str, working: Path, env: Mapping[str, str]) -> int:
    """Start one kernel, deliver its signals, and record how it ended."""
    command = [sys.executable, "-m", "ipykernel_launcher",
               "-f", str(connection_file(folder, kernel_id)), *KERNEL_ARGUMENTS]  # fmt: skip
    process = subprocess.Popen(
        command, env=dict(env), cwd=str(working), stdin=subprocess.DEVNULL, start_new_session=True
    )
    while process.poll() is None:
        _deliver_signals(folder, kernel_id, process)
        if (folder / DONE).exists():
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            break
        time.sleep(POLL_SECONDS)
    status = process.returncode
    write_whole(exit_file(folder, kernel_id), str(status))
    return int(status)


def host_kernels(folder: Path, working: Path, env: Mapping[str, str]) -> int:
    """Start each kernel the executor asks for, one at a time, until it says `done`."""
    folder.mkdir(parents=True, exist_ok=True)
    write_whole(folder / GPUS, str(visible_gpus()))
    while not (folder / DONE).exists():
        requests = sorted(folder.glob(START_PREFIX + "*"), key=lambda path: path.stat().st_mtime)
        if not requests:
            time.sleep(POLL_SECONDS)
            continue
        request = requests[0]
        kernel_id = request.name[len(START_PREFIX) :]
        _remove(request)
        working.mkdir(parents=True, exist_ok=True)
        _run_kernel(folder, kernel_id, working, env)
    return 0


def run_probe(envprobe: Path, request: Path, facts: Path, timeout: float) -> Optional[str]:
    """envprobe.py REQUEST in this interpreter; its FACTS written whole to `facts`. None when
    done, else why not (one paragraph, with the probe's stderr)."""
    try:
        done = subprocess.run(
            [sys.executable, str(envprobe), str(request)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "{} did not finish in {:g}s".format(envprobe.name, timeout)
    except OSError as error:
        return "cannot run {}: {}".format(envprobe.name, error)
    stderr = done.stderr.decode("utf-8", "replace").strip()[-2000:]
    if done.returncode != 0:
        return "{} exited with {}: {}".format(envprobe.name, done.returncode, stderr)
    text = done.stdout.decode("utf-8", "replace")
    try:
        found = json.loads(text)
    except ValueError as error:
        return "{} printed no JSON ({}): {}".format(envprobe.name, error, stderr)
    if not isinstance(found, dict):
        return "{} printed {}, not a JSON object".format(envprobe.name, type(found).__name__)
    facts.parent.mkdir(parents=True, exist_ok=True)
    write_whole(facts, text)
    return None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kernelhost.py", description="nbmodernizer's side in the notebook's image"
    )
    parser.add_argument("--kernel-dir", help="host the kernels the executor asks for here")
    parser.add_argument("--working-dir", help="the notebook's working directory")
    parser.add_argument("--probe", help="envprobe.py: probe this environment instead")
    parser.add_argument("--request", help="the probe's REQUEST.json")
    parser.add_argument("--facts", help="where the probe's FACTS (JSON) go")
    parser.add_argument("--probe-timeout", type=float, default=PROBE_TIMEOUT_SECONDS)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.probe:
        if not (args.request and args.facts):
            parser.error("--probe needs --request and --facts")
        problem = run_probe(Path(args.probe), Path(args.request), Path(args.facts),
                            args.probe_timeout)  # fmt: skip
        if problem is not None:
            print("kernelhost.py: the environment probe failed: " + problem, file=sys.stderr)
            return EXIT_FAILED
        return 0
    if not (args.kernel_dir and args.working_dir):
        parser.error("give --kernel-dir and --working-dir (or --probe, --request, --facts)")
    return host_kernels(Path(args.kernel_dir), Path(args.working_dir), kernel_env(os.environ))


if __name__ == "__main__":
    sys.exit(main())
