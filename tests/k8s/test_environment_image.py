"""The notebook's image is the resource's (`spec.execution.image`), not ours (issue #20): the
real operator, the emulator, the test kubelet (an image is an interpreter: the other image is
a venv with pandas 1.5 and no nbmodernizer, `testing/environments.py`) and S3 on moto's
server. The probe and the kernel run with that image's python; the executor (our image)
stores the probe's facts as environment.json and records their versions as the execution's;
the facts of the two images disagree where their pandas do (applymap is gone from pandas 3)."""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

import pytest

from testing.environments import Environment
from testing.k8s.client import K8sApi
from testing.k8s.kubelet import Kubelet
from testing.k8s.product import OperatorStarter, push_case, status_of, wait_finished
from testing.k8s.resources import NBMS
from testing.notebooks import PREDICT, READ, WRITE
from testing.s3server import S3Bucket

pytestmark = pytest.mark.kernel

WHERE = "import sys\nprint('KERNEL', sys.executable, pd.__version__)"


@pytest.fixture
def kubelet_with_other_image(
    runner_kubelet: Kubelet | None, other_environment: Environment
) -> tuple[Kubelet, Environment]:
    """The test kubelet, running the other environment's venv for its image."""
    if runner_kubelet is None:
        pytest.skip("maps an image to a venv in the test kubelet")
    runner_kubelet.images[other_environment.image] = str(other_environment.python)
    return runner_kubelet, other_environment


def test_a_resource_in_another_image_is_probed_and_run_there(
    k8s_api: K8sApi,
    kubelet_with_other_image: tuple[Kubelet, Environment],
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    runner_kubelet, other = kubelet_with_other_image
    assert "nbmodernizer" not in other.versions and other.versions["pandas"] != version("pandas")
    one = {"fix": {"maxIterations": 1}}
    cases = {
        "elsewhere": push_case(
            tmp_path, s3_bucket, "elsewhere", READ, PREDICT, WRITE, WHERE,
            execution={"image": other.image}, **one,
        ),
        "at-home": push_case(tmp_path, s3_bucket, "at-home", READ, PREDICT, WRITE, WHERE, **one),
    }  # fmt: skip
    for document in cases.values():
        k8s_api.create(NBMS, document)
    operator = nbmod_operator()
    done = {name: status_of(wait_finished(k8s_api, name, operator)) for name in cases}
    pandas = {"elsewhere": other.versions["pandas"], "at-home": version("pandas")}

    for name, status in done.items():
        pods = "\n".join(f"{c.name}: {c.output}" for r in runner_kubelet.runs for c in r.containers)
        assert status["outcome"] == "ErrorFreeReproducible", (name, status, pods)
        folder = f"runs/{k8s_api.namespace}/{name}/revisions/0000/"
        facts = json.loads(s3_bucket.read(folder + "environment.json"))
        execution = json.loads(s3_bucket.read(folder + "execution.json"))
        executed = s3_bucket.read(folder + "executed.ipynb").decode()
        assert facts["packages"]["pandas"] == pandas[name], facts
        # the two environments disagree about a legacy API: pandas 3 removed applymap
        assert facts["probes"]["pandas.applymap"] is (name == "at-home"), facts["probes"]
        assert execution["runs"][0]["packages"] == facts["packages"]
        assert f"{pandas[name]}" in executed  # the kernel imported that pandas
        [run] = runner_kubelet.runs_of(f"{name}-it-000")
        by_name = {each.name: each for each in run.containers}
        if name == "elsewhere":  # the probe and the kernel ran with the image's python
            assert facts["executable"] == str(other.python)
            assert f"KERNEL {other.python} {pandas[name]}" in executed
            for notebooks in ("probe", "kernel"):
                assert by_name[notebooks].argv[0] == str(other.python)
            for ours in ("fetch", "executor"):  # our image, as always: nbmodernizer's command
                assert by_name[ours].argv[0].endswith("nbmod-in-pod")
        else:
            assert facts["executable"] != str(other.python)


LEGACY = "import numpy as np\nscale = np.float(1)\nshown = test[['x']].applymap(abs)"


def test_the_rules_follow_the_facts_of_the_image_the_notebook_runs_in(
    k8s_api: K8sApi,
    kubelet_with_other_image: tuple[Kubelet, Environment],
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    """`np.float` is gone in both images, `applymap` only in ours (pandas 3): the operator fixes
    both notebooks with the rules, and rewrites applymap only where that image lacks it."""
    _, other = kubelet_with_other_image
    sources = (READ, LEGACY, PREDICT, WRITE)
    cases = {
        "legacy-elsewhere": push_case(
            tmp_path, s3_bucket, "legacy-elsewhere", *sources, execution={"image": other.image}
        ),
        "legacy-at-home": push_case(tmp_path, s3_bucket, "legacy-at-home", *sources),
    }
    for document in cases.values():
        k8s_api.create(NBMS, document)
    operator = nbmod_operator()
    for name in cases:
        status = status_of(wait_finished(k8s_api, name, operator))
        assert status["outcome"] == "ErrorFreeReproducible", (name, status)
        final = f"runs/{k8s_api.namespace}/{name}/revisions/0001/notebook.ipynb"
        code = "\n".join(
            "".join(cell["source"])
            for cell in json.loads(s3_bucket.read(final))["cells"]
            if cell["cell_type"] == "code"
        )
        assert "np.float(" not in code, code  # gone in both: rewritten in both
        assert ("applymap" in code) is (name == "legacy-elsewhere"), code
