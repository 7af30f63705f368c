"""The real operator process against the emulator: S3 on moto's server, Jobs run by the test
kubelet executing the runner's command, kubectl for the user's side."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from nbmodernizer.cli import main
from testing.k8s.client import K8sApi, wait_until
from testing.k8s.fixtures import Kubectl
from testing.k8s.kubelet import Kubelet
from testing.k8s.product import (
    OperatorStarter,
    status_of,
    wait_finished,
)
from testing.k8s.resources import JOBS
from testing.s3server import S3Bucket

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
pytestmark = pytest.mark.kernel


def pushed_spec(
    example: str, tmp_path: Path, bucket: S3Bucket, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path / example
    shutil.copytree(EXAMPLES / example, folder)
    assert main(["push", str(folder / "spec.yaml"), "--to", bucket.uri("fleet")]) == 0
    document = yaml.safe_load(capsys.readouterr().out)
    return folder, document


def jobs_of(k8s_api: K8sApi, name: str) -> list[dict[str, Any]]:
    return k8s_api.list(JOBS, label_selector=f"nbmodernizer.dev/modernization={name}")


def test_push_then_kubectl_apply_runs_to_the_local_outcome(
    k8s_api: K8sApi,
    kubectl: Kubectl,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder, document = pushed_spec("wine-removed-apis-2016", tmp_path, s3_bucket, capsys)
    local_code = main(["modernize", str(folder / "spec.yaml"), "--out", str(tmp_path / "local")])
    capsys.readouterr()
    local = json.loads((tmp_path / "local" / "report.json").read_text())
    operator = nbmod_operator()
    manifest = tmp_path / "pushed.yaml"
    manifest.write_text(yaml.safe_dump(document))
    kubectl("apply", "--validate=false", "-f", str(manifest))
    name = document["metadata"]["name"]
    done = wait_finished(k8s_api, name, operator)
    status = status_of(done)
    assert local_code == 0 and local["outcome"] == "ErrorFreeReproducible"
    assert status["phase"] == "Succeeded"
    assert status["outcome"] == local["outcome"]
    assert status["iterations"] == local["iterations"] == 2
    assert "lastError" not in status  # revision 0's error, fixed by revision 1, is gone
    assert status["score"] == local["score"]
    assert [f["fixer"] for f in status["fixes"]] == [f["fixer"] for f in local["fixes"]]
    assert [r["issue"] for r in status["revisions"]] == [r["issue"] for r in local["revisions"]]
    jobs = jobs_of(k8s_api, name)
    assert sorted(j["metadata"]["name"] for j in jobs) == [f"{name}-it-000", f"{name}-it-001"]
    conditions = {c["type"]: c for c in status["conditions"]}
    assert conditions["Reproduced"]["status"] == "True"
    assert status["observedGeneration"] == done["metadata"]["generation"]

    # the Finished event is posted right after the status that says Succeeded
    def reasons_once_finished() -> list[str]:
        reasons = [e["reason"] for e in k8s_api.events_for(done)]
        return reasons if "Finished" in reasons else []

    reasons = wait_until(reasons_once_finished, what="the Finished event")
    assert reasons.count("IterationStarted") == 2 and "Fixed" in reasons
    shown = kubectl("get", "nbm", name, "-o", "jsonpath={.status.phase} {.status.outcome}").stdout
    assert shown == "Succeeded ErrorFreeReproducible"
    keys = s3_bucket.keys()
    revision0 = f"runs/{k8s_api.namespace}/{name}/revisions/0000/notebook.ipynb"
    assert s3_bucket.read(revision0) == (folder / "notebook.ipynb").read_bytes()
    assert f"runs/{k8s_api.namespace}/{name}/revisions/0001/fix.json" in keys
