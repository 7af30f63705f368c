"""A real Prometheus scrapes the real operator during an emulated fleet run with mixed
outcomes; every query of the Grafana dashboard (charts/nbmodernizer/dashboards/fleet.json)
must then return data, and the alert rules load and evaluate on the server."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import pytest

from testing.k8s.client import K8sApi, wait_until
from testing.k8s.kubelet import Kubelet
from testing.k8s.product import OperatorStarter, free_port, push_case, status_of, wait_finished
from testing.k8s.resources import NBMS
from testing.llm_server import Answer, Failure, Step, fix_reply, scripted_llm
from testing.notebooks import PREDICT, READ, WRITE
from testing.prometheus import RULES, PrometheusServer, binary, dashboard, panel_queries, runnable
from testing.s3server import S3Bucket

pytestmark = pytest.mark.kernel

LLM = {"model": "test-model", "maxRetries": 2, "inputUSDPerMTok": 3, "outputUSDPerMTok": 15}

# Each fix call is answered 429 first (a non-2xx for the error ratio), then with a fix. Two
# calls: the LLM counters move after their series appear, so that rates are not all zero.
LLM_SCRIPT: list[Step] = [
    Failure(429, "slow down", {"retry-after": "0.05"}),
    Answer(fix_reply({3: "checked = 1"}), 1500, 300),
    Failure(429, "slow down", {"retry-after": "0.05"}),
    Answer(fix_reply({4: "checked = 2"}), 1700, 200),
]


MEMORY_CHAIN = ["rules", "memory", "llm"]


def fleet(root: Path, bucket: S3Bucket) -> dict[str, tuple[dict[str, Any], str]]:
    """name -> (the resource, its expected outcome): every outcome category, a rules fix, an
    LLM fix, a fix the memory learnt from that LLM fix (`memory-fix`: to be created once
    `llm-fix` finished), notebook errors that nothing fixes and a timeout."""
    rules_fix = push_case(
        root, bucket, "rules-fix", READ, "import numpy as np\nscale = np.float(1)", PREDICT, WRITE
    )
    # two broken cells, fixed one per iteration: rules change nothing, then the LLM fixes
    llm_fix = push_case(
        root, bucket, "llm-fix", READ, PREDICT, "1/0", "raise ValueError('legacy')", WRITE
    )
    llm_fix["spec"]["fix"]["fixers"] = MEMORY_CHAIN
    llm_fix["spec"]["fix"]["llm"] = LLM
    # the same error as llm-fix's first: the memory fixes it, no LLM call
    memory_fix = push_case(root, bucket, "memory-fix", READ, PREDICT, "1/0", WRITE)
    memory_fix["spec"]["fix"]["fixers"] = MEMORY_CHAIN
    memory_fix["spec"]["fix"]["llm"] = LLM
    no_submission = push_case(root, bucket, "no-submission", READ, PREDICT)
    no_submission["spec"]["fix"]["maxIterations"] = 1
    timeout = push_case(
        root, bucket, "timeout", READ, "import time\ntime.sleep(60)", PREDICT, WRITE,
        execution={"timeoutSeconds": 3},
    )  # fmt: skip
    timeout["spec"]["fix"]["maxIterations"] = 1
    invalid = push_case(root, bucket, "invalid")
    del invalid["spec"]["score"]["target"]
    return {
        "plain": (push_case(root, bucket, "plain"), "ErrorFreeReproducible"),
        "rules-fix": (rules_fix, "ErrorFreeReproducible"),
        "llm-fix": (llm_fix, "ErrorFreeReproducible"),
        "memory-fix": (memory_fix, "ErrorFreeReproducible"),
        "unfixable": (
            push_case(root, bucket, "unfixable", READ, PREDICT, "1/0", WRITE),
            "ErrorReproducible",
        ),
        "no-submission": (no_submission, "ErrorFreeNonReproducible"),
        "timeout": (timeout, "ErrorNonReproducible"),
        "invalid": (invalid, "Failed"),
    }


def test_every_dashboard_panel_has_data_after_a_fleet_run(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    binary("prometheus")  # skips when not installed: scripts/install-prometheus
    port = free_port()
    cases = fleet(tmp_path / "cases", s3_bucket)
    with (
        scripted_llm(*LLM_SCRIPT) as llm,
        PrometheusServer(tmp_path / "prometheus", [f"127.0.0.1:{port}"], [RULES]) as prometheus,
    ):
        started = time.monotonic()
        # at most 3 kernels at once: 7 starting together on a loaded 2-core CI machine took
        # past the kernel's 60 s start-up limit once (outcome Failed, not the one expected)
        operator = nbmod_operator(
            "--metrics-port", str(port), "--max-concurrent-jobs", "3",
            env={"OPENAI_BASE_URL": llm.url, "OPENAI_API_KEY": "sk-x"},
        )  # fmt: skip
        wait_until(prometheus.targets_up, timeout=30, what="Prometheus scraping the operator")
        for name, (document, _) in cases.items():
            if name != "memory-fix":
                k8s_api.create(NBMS, document)
        wait_finished(k8s_api, "llm-fix", operator, timeout=120)
        k8s_api.create(NBMS, cases["memory-fix"][0])
        outcomes = {
            name: status_of(wait_finished(k8s_api, name, operator, timeout=120)).get("outcome")
            for name in cases
        }
        assert outcomes == {name: outcome for name, (_, outcome) in cases.items()}
        assert len(llm.requests) == 4  # memory-fix made none
        memory_fix = status_of(wait_finished(k8s_api, "memory-fix", operator))
        assert [fix["fixer"] for fix in memory_fix["fixes"]] == ["memory"]
        assert memory_fix["cost"]["savedUsd"] > 0 and memory_fix["cost"]["usd"] == 0
        fleet_seconds = time.monotonic() - started

        # the final values scraped, and a few scrapes more
        def final_values_scraped() -> bool:
            done = 'sum(nbmodernizer_modernizations{phase=~"Succeeded|Failed"})'
            return (
                prometheus.value("sum(nbmodernizer_outcomes_total)") == len(cases)
                and prometheus.value(done) == len(cases)
                and prometheus.value("sum(nbmodernizer_jobs_running)") == 0
                and (prometheus.value("sum(nbmodernizer_llm_saved_usd_total)") or 0) > 0
            )

        wait_until(final_values_scraped, timeout=30, what="Prometheus to scrape the final metrics")
        time.sleep(3)

        # Grafana's $__rate_interval and $__range: a window covering the whole run
        window = f"{math.ceil(time.monotonic() - started) + 5}s"
        failures = []
        for query in panel_queries(dashboard()):
            result = prometheus.query(runnable(query.expr, rate_interval=window, range_=window))
            values = [float(sample["value"][1]) for sample in result]
            print(f"{query.panel} {query.ref_id}: {[round(v, 4) for v in values]}")
            if not values:
                failures.append(f"no data: {query}")
            elif all(math.isnan(v) for v in values):
                failures.append(f"only NaN: {query}")
        assert not failures, "\n".join(failures)

        # the alert rules load on a real server and evaluate without errors
        groups = prometheus.api("rules")["groups"]
        rules = [rule for group in groups for rule in group["rules"]]
        assert len(rules) >= 4 and all(rule["health"] == "ok" for rule in rules), rules
        print(f"fleet of {len(cases)} finished in {fleet_seconds:.1f}s; window {window}")
