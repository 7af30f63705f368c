"""`nbmod fleet summary` reads a namespace's modernizations from the API server."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from testing.k8s.client import K8sApi
from testing.k8s.kopf_process import isolated_env
from testing.k8s.resources import NBMS


def test_summary_of_a_namespace(k8s_api: K8sApi) -> None:
    outcomes = ["ErrorFreeReproducible", "ErrorFreeReproducible", "Failed", None]
    for n, outcome in enumerate(outcomes):
        spec = {
            "notebook": "s3://b/n.ipynb",
            "score": {"metric": "accuracy", "target": 0.9, "answers": "s3://b/a.csv"},
        }
        k8s_api.create(
            NBMS, {"kind": "NotebookModernization", "metadata": {"name": f"nb-{n}"}, "spec": spec}
        )
        status: dict[str, Any] = {
            "phase": "Running" if outcome is None else "Succeeded",
            "cost": {"usd": 0.25},
        }
        if outcome:
            status["outcome"] = outcome
            status["fixes"] = [{"fixer": "rules", "type": "ErrorRepair"}]
        k8s_api.patch_status(NBMS, f"nb-{n}", status)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "nbmodernizer.cli",
            "fleet",
            "summary",
            "-n",
            k8s_api.namespace,
            "--json",
        ],
        env=isolated_env(k8s_api.kubeconfig),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    table = json.loads(done.stdout)
    assert table["total"] == 4 and table["unfinished"] == 1 and table["reproduced"] == 2
    assert table["outcomes"]["Failed"] == 1
    assert table["fixes"] == [{"fixer": "rules", "type": "ErrorRepair", "count": 3}]
    assert table["cost"]["usd"] == 1.0 and table["cost"]["usdPerReproduced"] == 0.5
