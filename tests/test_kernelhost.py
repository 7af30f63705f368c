"""kernelhost.py runs in the notebook's image, with that image's python: the standard library
only, Python 3.6's grammar, and a probe runner that says why it failed. (Hosting real kernels:
tests/test_remotekernel.py; the probe in another venv: tests/k8s/test_environment_image.py.)"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from nbmodernizer import kernelhost

SOURCE = Path(kernelhost.__file__)


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-I", str(SOURCE), *args]  # isolated: no PYTHONPATH, no site
    return subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=cwd)


def test_it_imports_the_standard_library_only_with_python_36_grammar() -> None:
    tree = ast.parse(SOURCE.read_text(), feature_version=(3, 6))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module is not None, ast.dump(node)
            imported.add(node.module.split(".")[0])
    assert imported, "found no import at all"
    assert imported <= set(sys.stdlib_module_names), imported - set(sys.stdlib_module_names)
    assert "__future__" not in imported  # `annotations` is 3.7+
    # what the grammar allows but 3.6's library lacks: str.removeprefix (3.9), unlink's
    # missing_ok (3.8), subprocess.run's capture_output and text (3.7)
    newer = {"removeprefix", "removesuffix", "missing_ok", "capture_output", "text"}
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    used |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.keyword) and n.arg}
    assert not used & newer, used & newer


def test_the_kernels_fixed_environment_is_the_local_kernels() -> None:
    """A local kernel's environment is the allowlisted part of the driver's, with the kernel
    host's defaults and fixed settings (one home: kernelhost.py)."""
    from nbmodernizer.execute import kernel_environment

    container = {"HOME": "/tmp", "PIP_NO_INDEX": "0", "MPLBACKEND": "agg", "AWS_KEY": "k"}
    assert kernel_environment(container) == {"HOME": "/tmp", "MPLBACKEND": "agg"} | dict(
        kernelhost.KERNEL_ENV_FIXED
    )
    assert kernelhost.kernel_env(container)["PIP_NO_INDEX"] == "1"
    assert kernel_environment({}) == kernelhost.KERNEL_ENV_DEFAULTS | kernelhost.KERNEL_ENV_FIXED


def envprobe_like(folder: Path, body: str) -> Path:
    script = folder / "envprobe.py"
    script.write_text(body)
    return script


def test_the_probe_writes_the_facts_whole_as_printed(tmp_path: Path) -> None:
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"modules": ["json"], "probes": {}, "signatures": []}))
    # the request's modules, echoed as FACTS would name them, by this interpreter
    script = envprobe_like(
        tmp_path,
        "import json, sys\nrequest = json.load(open(sys.argv[1]))\n"
        "print(json.dumps({'executable': sys.executable, 'modules': request['modules']}))",
    )
    facts = tmp_path / "facts" / "environment.json"
    args = ("--probe", str(script), "--request", str(request), "--facts", str(facts))
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    printed = json.loads(facts.read_text())
    assert printed == {"executable": sys.executable, "modules": ["json"]}
    assert [p.name for p in facts.parent.iterdir()] == ["environment.json"]  # no partial left


def test_a_failing_probe_fails_the_container_with_its_reason(tmp_path: Path) -> None:
    request = tmp_path / "request.json"
    request.write_text("{}")
    facts = tmp_path / "environment.json"
    cases = {
        "import sys\nprint('bad request: modules', file=sys.stderr)\nsys.exit(2)": (
            "envprobe.py exited with 2: bad request: modules"
        ),
        "print('not json')": "envprobe.py printed no JSON",
        "print('[1, 2]')": "envprobe.py printed list, not a JSON object",
    }
    for body, reason in cases.items():
        script = envprobe_like(tmp_path, body)
        args = ("--probe", str(script), "--request", str(request), "--facts", str(facts))
        done = run(*args, cwd=tmp_path)
        assert done.returncode == 1 and reason in done.stderr, (body, done.stderr)
        assert "the environment probe failed" in done.stderr
        assert not facts.exists()


def test_it_says_which_flags_it_needs(tmp_path: Path) -> None:
    done = run("--probe", "envprobe.py", cwd=tmp_path)
    assert done.returncode == 2 and "--probe needs --request and --facts" in done.stderr
    done = run(cwd=tmp_path)
    assert done.returncode == 2 and "give --kernel-dir and --working-dir" in done.stderr
