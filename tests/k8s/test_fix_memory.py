"""The fix memory on a cluster: the real operator process against the emulator, Jobs run by
the test kubelet, S3 on moto's server, the fleet of testing/memory_fleet.py, and an
OpenAI-compatible server that fixes whatever it is shown. The first notebook of each drift
pays the LLM; the memory (under the operator's S3 prefix) fixes the other sixteen."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nbmodernizer.fixers.memory import FixMemory
from nbmodernizer.push import push
from testing.k8s.client import K8sApi
from testing.k8s.kopf_process import isolated_env
from testing.k8s.product import OperatorStarter, status_of, wait_finished
from testing.k8s.resources import NBMS
from testing.llm_server import Responder, scripted_llm
from testing.memory_fleet import DRIFTS, FIX_USD, answer, make_fleet
from testing.s3server import S3Bucket

pytestmark = pytest.mark.kernel


def fleet_summary(k8s_api: K8sApi) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "nbmodernizer.cli", "fleet", "summary", "-n", k8s_api.namespace,
         "--json"],
        env=isolated_env(k8s_api.kubeconfig), capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary: dict[str, object] = json.loads(done.stdout)
    return summary


@pytest.mark.usefixtures("runner_kubelet")  # runs the Jobs (None on a real cluster)
def test_the_operator_fleet_pays_once_per_drift(
    k8s_api: K8sApi, nbmod_operator: OperatorStarter, s3_bucket: S3Bucket, tmp_path: Path
) -> None:
    cases = make_fleet(tmp_path / "cases", students=16)
    documents = {case.name: push(case.spec, s3_bucket.uri("fleet")) for case in cases}
    teachers, students = cases[: len(DRIFTS)], cases[len(DRIFTS) :]
    started = time.monotonic()
    with scripted_llm(Responder(answer)) as llm:
        # bounded concurrency: a few kernels at once on a small machine
        operator = nbmod_operator(
            "--max-concurrent-jobs", "4", "--workers", "4",
            env={"OPENAI_BASE_URL": llm.url, "OPENAI_API_KEY": "sk-test"},
        )  # fmt: skip
        for wave in (teachers, students):  # a drift's first fix is learnt before it recurs
            for case in wave:
                k8s_api.create(NBMS, documents[case.name])
            statuses = {c.name: status_of(wait_finished(k8s_api, c.name, operator)) for c in wave}
            assert {n: s.get("outcome") for n, s in statuses.items()} == {
                c.name: "ErrorFreeReproducible" for c in wave
            }, {n: s.get("message") for n, s in statuses.items()}
    seconds = time.monotonic() - started
    assert len(llm.requests) == len(DRIFTS)  # one per drift; the scripted server never failed

    summary = fleet_summary(k8s_api)
    print(json.dumps(summary, indent=2), f"\nfleet of {len(cases)} in {seconds:.0f}s")
    fixes = {(row["fixer"], row["type"]): row["count"] for row in summary["fixes"]}  # type: ignore[attr-defined]
    assert fixes == {
        ("llm", "ErrorRepair"): len(DRIFTS),
        ("memory", "ErrorRepair"): len(students),
        ("rules", "ErrorRepair"): sum(case.rules for case in cases),
    }
    drift_uses = sum(len(case.drifts) for case in students)
    cost = summary["cost"]
    assert isinstance(cost, dict)
    assert cost["usd"] == pytest.approx(len(DRIFTS) * FIX_USD)
    assert cost["savedUsd"] == pytest.approx(drift_uses * FIX_USD, abs=1e-5)
    assert summary["reproduced"] == len(cases)

    student = status_of(k8s_api.find(NBMS, students[0].name) or {})
    [memory_fix] = [fix for fix in student["fixes"] if fix["fixer"] == "memory"]
    assert len({use["entry"] for use in memory_fix["memoryEntries"]}) == len(students[0].drifts)
    entries = FixMemory.at(s3_bucket.uri("runs/fix-memory/")).entries()
    assert len(entries) == len(DRIFTS) and sum(e.fixed for e in entries) == drift_uses
