"""The Helm chart charts/nbmodernizer: lint, render, validate against Kubernetes 1.33, content.

helm v4 comes from ``scripts/fetch-kube-tools`` (the ``kube_tools`` fixture); the tests skip
only when it cannot be fetched.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
import yaml

from nbmodernizer.cluster.jobs import parse_runner_defaults
from testing.k8s.fixtures import kube_tools  # noqa: F401  (a pytest fixture)
from testing.schemas import KUBERNETES_VERSION, kubernetes_validate, validate

REPO_ROOT = Path(__file__).resolve().parents[1]
CHART = REPO_ROOT / "charts" / "nbmodernizer"
CRD = REPO_ROOT / "crds" / "notebookmodernizations.yaml"
RELEASE, NAMESPACE = "nbm", "nbm-system"

EVERYTHING: dict[str, Any] = {
    "watchNamespaces": ["team-a", "team-b"],
    "s3": {
        "bucket": "revisions",
        "prefix": "fleet/prod",
        "endpoint": "http://minio.storage:9000",
        "runnerEndpoint": "http://minio.storage.svc:9000",
        "region": "eu-west-1",
        "runnerSecret": "runner-s3",
        "credentials": {
            "existingSecret": "operator-s3",
            "accessKeyIdKey": "id",
            "secretAccessKeyKey": "secret",
        },
    },
    "llm": {
        "baseURL": "http://llm.models:8000/v1",
        "apiKeySecret": {"name": "llm-key", "key": "token"},
    },
    "runner": {
        "image": {"repository": "registry.local/runner", "tag": "7"},
        "environmentImage": {"repository": "registry.local/ml", "tag": "3"},
        "defaults": {
            "resources": {"limits": {"nvidia.com/gpu": 1}},
            "nodeSelector": {"nvidia.com/gpu.present": "true"},
            "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}],
        },
    },
    "operator": {
        "maxConcurrentJobs": 7,
        "maxParallelRuns": 3,
        "workers": 3,
        "storeRetries": 9,
        "retrySeconds": 11,
        "deadlineMarginSeconds": 300,
        "healthPort": 8181,
    },
    "metrics": {"port": 9191},
    "serviceMonitor": {"enabled": True, "interval": "15s", "labels": {"release": "prom"}},
    "prometheusRule": {"enabled": True, "labels": {"role": "alerts"}},
    "dashboard": {"enabled": True, "annotations": {"grafana_folder": "nbmodernizer"}},
    "rbac": {"secretNames": ["llm-key"]},
    "serviceAccount": {"annotations": {"eks.amazonaws.com/role-arn": "arn:aws:iam::1:role/x"}},
}

# What the operator needs in the namespaces it watches: (apiGroup, resource) -> verbs.
OPERATOR_RULES = {
    ("nbmodernizer.dev", "notebookmodernizations"): {"get", "list", "watch", "patch"},
    ("nbmodernizer.dev", "notebookmodernizations/status"): {"patch"},
    ("nbmodernizer.dev", "notebookmodernizations/finalizers"): {"update"},
    ("batch", "jobs"): {"create", "get", "list", "watch", "delete"},
    ("", "events"): {"create"},
    ("", "secrets"): {"get", "create", "delete"},  # get: named ones; create/delete: grants
}
KOPF_SCANNING = {("apiextensions.k8s.io", "customresourcedefinitions"): {"list", "watch"}}
KOPF_NAMESPACES = {("", "namespaces"): {"list", "watch"}}


# -- helpers ---------------------------------------------------------------------------------


def helm(tools: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(tools / "helm"), *args], capture_output=True, text=True, timeout=120, check=False
    )


def render(tools: Path, tmp_path: Path, values: dict[str, Any] | None = None) -> list[Any]:
    argv = ["template", RELEASE, str(CHART), "--namespace", NAMESPACE, "--include-crds"]
    if values is not None:
        values_file = tmp_path / "values.yaml"
        values_file.write_text(yaml.safe_dump(values))
        argv += ["--values", str(values_file)]
    done = helm(tools, *argv)
    assert done.returncode == 0, done.stderr
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


def of_kind(manifests: Iterable[Any], kind: str) -> list[dict[str, Any]]:
    return [m for m in manifests if m["kind"] == kind]


def one(manifests: Iterable[Any], kind: str) -> dict[str, Any]:
    found = of_kind(manifests, kind)
    assert len(found) == 1, f"{len(found)} {kind}s"
    return found[0]


def container(manifests: Iterable[Any]) -> dict[str, Any]:
    pod = one(manifests, "Deployment")["spec"]["template"]["spec"]
    containers: list[dict[str, Any]] = pod["containers"]
    assert [c["name"] for c in containers] == ["operator"]
    return containers[0]


def env_of(c: dict[str, Any]) -> dict[str, Any]:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in c.get("env", [])}


def grants(roles: Iterable[dict[str, Any]]) -> dict[tuple[str, str], set[str]]:
    found: dict[tuple[str, str], set[str]] = {}
    for role in roles:
        for rule in role["rules"]:
            for group in rule["apiGroups"]:
                for resource in rule["resources"]:
                    found.setdefault((group, resource), set()).update(rule["verbs"])
    return found


def check_monitoring_kind(manifest: dict[str, Any]) -> None:
    """ServiceMonitor / PrometheusRule: kubernetes-validate has no schema; check by hand."""
    assert manifest["apiVersion"] == "monitoring.coreos.com/v1"
    meta = manifest["metadata"]
    assert set(meta) <= {"name", "namespace", "labels", "annotations"}
    assert meta["name"] and meta["namespace"] == NAMESPACE
    assert all(isinstance(v, str) for v in meta["labels"].values())
    spec = manifest["spec"]
    if manifest["kind"] == "ServiceMonitor":
        assert set(spec) <= {"selector", "namespaceSelector", "endpoints", "jobLabel"}
        assert spec["selector"]["matchLabels"]
        for endpoint in spec["endpoints"]:
            assert set(endpoint) <= {"port", "path", "interval", "scrapeTimeout", "scheme"}
    else:
        assert manifest["kind"] == "PrometheusRule"
        assert set(spec) == {"groups"}
        assert isinstance(spec["groups"], list)
        for group in spec["groups"]:
            assert isinstance(group["name"], str) and isinstance(group["rules"], list)
            for rule in group["rules"]:
                assert ("alert" in rule) != ("record" in rule), rule
                assert isinstance(rule["expr"], str | int | float)


def validate_all(manifests: list[Any]) -> None:
    for manifest in manifests:
        if manifest["apiVersion"].startswith("monitoring.coreos.com/"):
            check_monitoring_kind(manifest)
            continue
        try:
            validate(manifest)
        except kubernetes_validate.ValidationError as error:
            name = f"{manifest['kind']}/{manifest['metadata']['name']}"
            pytest.fail(f"{name} is invalid for Kubernetes {KUBERNETES_VERSION}: {error}")


# -- lint and schemas ------------------------------------------------------------------------


@pytest.mark.parametrize("strict", [False, True], ids=["lint", "lint-strict"])
def test_helm_lint_is_clean(kube_tools: Path, strict: bool) -> None:  # noqa: F811
    done = helm(kube_tools, "lint", str(CHART), *(["--strict"] if strict else []))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "[ERROR]" not in done.stdout and "[WARNING]" not in done.stdout, done.stdout


def test_helm_lint_with_everything_enabled(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    values_file = tmp_path / "values.yaml"
    values_file.write_text(yaml.safe_dump(EVERYTHING))
    done = helm(kube_tools, "lint", "--strict", str(CHART), "--values", str(values_file))
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    "values",
    [
        None,
        EVERYTHING,
        {"s3": {"bucket": "b", "credentials": {"accessKeyId": "AK", "secretAccessKey": "SK"}}},
        {"watchNamespaces": ["a"], "metrics": {"port": 0}, "rbac": {"kopfScanning": False}},
    ],
    ids=["defaults", "everything", "chart-secret", "no-metrics"],
)
def test_every_manifest_validates_against_kubernetes_1_33(
    kube_tools: Path,  # noqa: F811
    tmp_path: Path,
    values: dict[str, Any] | None,
) -> None:
    manifests = render(kube_tools, tmp_path, values)
    kinds = {m["kind"] for m in manifests}
    assert {"Deployment", "ServiceAccount", "CustomResourceDefinition"} <= kinds
    validate_all(manifests)


def test_defaults_render_the_cluster_wide_operator(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    manifests = render(kube_tools, tmp_path)
    kinds = sorted(m["kind"] for m in manifests)
    assert kinds == sorted(
        [
            "ClusterRole",
            "ClusterRole",
            "ClusterRoleBinding",
            "ClusterRoleBinding",
            "CustomResourceDefinition",
            "Deployment",
            "PodDisruptionBudget",
            "Role",  # the leader election's Lease
            "RoleBinding",
            "Service",
            "ServiceAccount",
        ]
    )
    args = container(manifests)["args"]
    assert "--all-namespaces" in args
    assert args[-2:] == ["--leader-election", "--lease-seconds=15"]
    assert not [a for a in args if a.startswith("--namespace")]
    assert not [a for a in args if a.startswith("--s3-bucket")]  # NOTES warns; nothing invented
    assert not [a for a in args if a.startswith("--fix-memory")]
    assert not [a for a in args if a.startswith("--s3-secret")]  # runner pods: grants only
    assert "--runner-image=ghcr.io/nbmodernizer/runner:0.1.0" in args
    assert "--environment-image=ghcr.io/nbmodernizer/environment:0.1.0" in args  # the ML stack
    assert container(manifests)["image"] == "ghcr.io/nbmodernizer/operator:0.1.0"


# -- the Deployment --------------------------------------------------------------------------


def test_deployment_carries_each_value(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    manifests = render(kube_tools, tmp_path, EVERYTHING)
    deployment = one(manifests, "Deployment")
    assert deployment["spec"]["replicas"] == 2  # one active, one standing by
    assert deployment["spec"]["strategy"] == {
        "type": "RollingUpdate",
        "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1},
    }
    c = container(manifests)
    assert c["command"] == ["nbmod", "operator"]
    assert c["args"] == [
        "--namespace=team-a",
        "--namespace=team-b",
        "--s3-bucket=revisions",
        "--s3-prefix=fleet/prod",
        "--s3-endpoint=http://minio.storage:9000",
        "--runner-s3-endpoint=http://minio.storage.svc:9000",
        "--s3-secret=runner-s3",
        "--runner-image=registry.local/runner:7",
        "--environment-image=registry.local/ml:3",
        "--max-concurrent-jobs=7",
        "--max-parallel-runs=3",
        "--workers=3",
        "--metrics-port=9191",
        "--health-port=8181",
        "--store-retries=9",
        "--retry-seconds=11",
        "--store-cache-mib=64",
        "--deadline-margin-seconds=300",
        "--fix-memory=s3://revisions/fleet/prod/fix-memory/",
        "--leader-election",
        "--lease-seconds=15",
    ]
    env = env_of(c)
    assert env["POD_NAMESPACE"] == {"fieldRef": {"fieldPath": "metadata.namespace"}}
    assert env["AWS_DEFAULT_REGION"] == "eu-west-1"
    assert env["AWS_ACCESS_KEY_ID"] == {"secretKeyRef": {"name": "operator-s3", "key": "id"}}
    assert env["AWS_SECRET_ACCESS_KEY"] == {
        "secretKeyRef": {"name": "operator-s3", "key": "secret"}
    }
    assert env["OPENAI_BASE_URL"] == "http://llm.models:8000/v1"
    assert env["OPENAI_API_KEY"] == {"secretKeyRef": {"name": "llm-key", "key": "token"}}
    assert env["HOME"] == "/tmp"
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert ports == {"http-health": 8181, "http-metrics": 9191}
    assert not of_kind(manifests, "Secret")  # existing secrets: the chart creates none


@pytest.mark.parametrize(
    ("values", "flag"),
    [
        ({"s3": {"bucket": "b", "prefix": "/fleet/"}}, "--fix-memory=s3://b/fleet/fix-memory/"),
        ({"s3": {"bucket": "b", "prefix": ""}}, "--fix-memory=s3://b/fix-memory/"),
        ({"s3": {"bucket": "b"}, "fixMemory": "off"}, "--fix-memory=off"),
        ({"fixMemory": "s3://memory/shared/"}, "--fix-memory=s3://memory/shared/"),
    ],
)
def test_fix_memory_defaults_to_the_s3_prefix(
    kube_tools: Path,  # noqa: F811
    tmp_path: Path,
    values: dict[str, Any],
    flag: str,
) -> None:
    args = container(render(kube_tools, tmp_path, values))["args"]
    assert [a for a in args if a.startswith("--fix-memory")] == [flag]


def test_the_fleets_llm_budget_reaches_the_operator(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    values = {"llm": {"budget": {"perHourUSD": "2.5", "totalUSD": "100"}}}
    args = container(render(kube_tools, tmp_path, values))["args"]
    assert "--llm-budget-usd-per-hour=2.5" in args and "--llm-budget-usd=100" in args
    assert not [a for a in container(render(kube_tools, tmp_path))["args"] if "budget" in a]


def test_one_replica_runs_without_election(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    manifests = render(kube_tools, tmp_path, {"operator": {"replicas": 1}})
    deployment = one(manifests, "Deployment")
    assert deployment["spec"]["replicas"] == 1
    assert deployment["spec"]["strategy"] == {"type": "Recreate"}
    assert not [a for a in container(manifests)["args"] if "lea" in a]
    assert not of_kind(manifests, "PodDisruptionBudget") and not of_kind(manifests, "Role")


def test_two_replicas_keep_one_through_a_drain(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    manifests = render(kube_tools, tmp_path, {"operator": {"leaseSeconds": 30}})
    budget = one(manifests, "PodDisruptionBudget")
    labels = one(manifests, "Deployment")["spec"]["selector"]["matchLabels"]
    assert budget["spec"] == {"minAvailable": 1, "selector": {"matchLabels": labels}}
    assert "--lease-seconds=30" in container(manifests)["args"]
    lease_role = one(manifests, "Role")
    assert lease_role["metadata"]["namespace"] == NAMESPACE
    assert_no_wildcards([lease_role])
    assert lease_role["rules"] == [
        {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "verbs": ["create"]},
        {
            "apiGroups": ["coordination.k8s.io"],
            "resources": ["leases"],
            "resourceNames": ["nbmodernizer-operator"],
            "verbs": ["get", "update", "patch"],
        },
    ]
    binding = one(manifests, "RoleBinding")
    assert binding["roleRef"]["name"] == lease_role["metadata"]["name"]
    assert binding["subjects"][0]["namespace"] == NAMESPACE


def test_chart_created_s3_secret(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    values = {
        "watchNamespaces": ["team-a", NAMESPACE],
        "s3": {
            "bucket": "b",
            "runnerSecret": "nbmodernizer-s3",  # the opt-out: copied to watched namespaces
            "credentials": {"accessKeyId": "AK", "secretAccessKey": "SK"},
        },
    }
    manifests = render(kube_tools, tmp_path, values)
    secrets = of_kind(manifests, "Secret")
    assert sorted(s["metadata"]["namespace"] for s in secrets) == sorted([NAMESPACE, "team-a"])
    for secret in secrets:
        assert secret["metadata"]["name"] == "nbmodernizer-s3"
        assert secret["stringData"] == {"AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": "SK"}
    env = env_of(container(manifests))
    assert env["AWS_ACCESS_KEY_ID"] == {
        "secretKeyRef": {"name": "nbmodernizer-s3", "key": "AWS_ACCESS_KEY_ID"}
    }
    assert "--s3-secret=nbmodernizer-s3" in container(manifests)["args"]


def test_runner_pods_get_no_s3_keys_by_default(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    values = {
        "watchNamespaces": ["team-a"],
        "s3": {"bucket": "b", "credentials": {"accessKeyId": "AK", "secretAccessKey": "SK"}},
    }
    manifests = render(kube_tools, tmp_path, values)
    secrets = of_kind(manifests, "Secret")  # the operator's keys, in its own namespace only
    assert [s["metadata"]["namespace"] for s in secrets] == [NAMESPACE]
    assert not [a for a in container(manifests)["args"] if a.startswith("--s3-secret")]


def test_no_llm_nor_s3_keys_by_default(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    env = env_of(container(render(kube_tools, tmp_path)))
    assert not {"AWS_ACCESS_KEY_ID", "OPENAI_API_KEY", "OPENAI_BASE_URL"} & set(env)
    assert "NBMOD_RUNNER_DEFAULTS" not in env


def test_gpu_defaults_reach_the_operator_in_a_form_it_accepts(
    kube_tools: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    env = env_of(container(render(kube_tools, tmp_path, EVERYTHING)))
    defaults = parse_runner_defaults(env["NBMOD_RUNNER_DEFAULTS"])
    assert defaults.resources is not None
    assert defaults.resources.limits == {"nvidia.com/gpu": 1}
    assert defaults.node_selector == {"nvidia.com/gpu.present": "true"}
    assert [t.key for t in defaults.tolerations] == ["nvidia.com/gpu"]


@pytest.mark.parametrize("values", [None, EVERYTHING], ids=["defaults", "everything"])
def test_probes_hit_healthz_on_the_health_port(
    kube_tools: Path,  # noqa: F811
    tmp_path: Path,
    values: dict[str, Any] | None,
) -> None:
    c = container(render(kube_tools, tmp_path, values))
    port = (values or {}).get("operator", {}).get("healthPort", 8080)
    assert f"--health-port={port}" in c["args"]
    named = {p["name"]: p["containerPort"] for p in c["ports"]}
    for probe in ("livenessProbe", "readinessProbe"):
        get = c[probe]["httpGet"]
        assert get["path"] == "/healthz"
        assert named[get["port"]] == port


def test_security_context_is_restrictive(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    manifests = render(kube_tools, tmp_path)
    pod = one(manifests, "Deployment")["spec"]["template"]["spec"]
    c = container(manifests)
    sc = c["securityContext"]
    assert sc["runAsNonRoot"] is True
    assert sc["readOnlyRootFilesystem"] is True
    assert sc["allowPrivilegeEscalation"] is False
    assert sc.get("privileged", False) is False
    assert sc["capabilities"] == {"drop": ["ALL"]}
    assert sc["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    mounts = {m["mountPath"]: m["name"] for m in c["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert "emptyDir" in volumes[mounts["/tmp"]]
    assert pod["serviceAccountName"] == one(manifests, "ServiceAccount")["metadata"]["name"]
    assert c["resources"]["requests"] and c["resources"]["limits"]["memory"]


# -- RBAC ------------------------------------------------------------------------------------


def assert_no_wildcards(roles: Iterable[dict[str, Any]]) -> None:
    for role in roles:
        for rule in role["rules"]:
            for field in ("apiGroups", "resources", "verbs"):
                assert "*" not in rule.get(field, []), (role["metadata"]["name"], rule)
            assert "nonResourceURLs" not in rule


def test_rbac_cluster_wide_is_exactly_what_the_operator_needs(
    kube_tools: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    manifests = render(kube_tools, tmp_path, {"operator": {"replicas": 1}})
    assert not of_kind(manifests, "Role") and not of_kind(manifests, "RoleBinding")
    roles = of_kind(manifests, "ClusterRole")
    assert_no_wildcards(roles)
    operator_role, scanning = sorted(roles, key=lambda r: str(r["metadata"]["name"]))
    assert grants([operator_role]) == OPERATOR_RULES
    assert grants([scanning]) == KOPF_SCANNING  # -A: no namespace access needed
    bindings = of_kind(manifests, "ClusterRoleBinding")
    sa = one(manifests, "ServiceAccount")["metadata"]
    assert {b["roleRef"]["name"] for b in bindings} == {r["metadata"]["name"] for r in roles}
    for binding in bindings:
        assert binding["subjects"] == [
            {"kind": "ServiceAccount", "name": sa["name"], "namespace": NAMESPACE}
        ]


def test_rbac_per_watched_namespace(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    one_replica = {**EVERYTHING, "operator": {**EVERYTHING["operator"], "replicas": 1}}
    manifests = render(kube_tools, tmp_path, one_replica)
    roles = of_kind(manifests, "Role")
    assert sorted(r["metadata"]["namespace"] for r in roles) == ["team-a", "team-b"]
    assert_no_wildcards(roles)
    for role in roles:
        assert grants([role]) == OPERATOR_RULES
        secrets = [r for r in role["rules"] if r["resources"] == ["secrets"]]
        assert secrets == [{"apiGroups": [""], "resources": ["secrets"], "verbs": ["get"],
                            "resourceNames": ["llm-key"]},
                           {"apiGroups": [""], "resources": ["secrets"],
                            "verbs": ["create", "delete"]}]  # fmt: skip
    bindings = of_kind(manifests, "RoleBinding")
    assert sorted(b["metadata"]["namespace"] for b in bindings) == ["team-a", "team-b"]
    for binding in bindings:
        assert binding["roleRef"]["kind"] == "Role"
        assert binding["subjects"][0]["namespace"] == NAMESPACE
    cluster_roles = of_kind(manifests, "ClusterRole")
    assert_no_wildcards(cluster_roles)
    # the only cluster-level access: kopf's read-only scanning of CRDs and namespaces
    assert grants(cluster_roles) == KOPF_SCANNING | KOPF_NAMESPACES


def test_rbac_without_kopf_scanning(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    values = {
        "watchNamespaces": ["a"],
        "rbac": {"kopfScanning": False},
        "operator": {"replicas": 1},
    }
    manifests = render(kube_tools, tmp_path, values)
    assert not of_kind(manifests, "ClusterRole") and not of_kind(manifests, "ClusterRoleBinding")
    assert grants(of_kind(manifests, "Role")) == OPERATOR_RULES


# -- monitoring ------------------------------------------------------------------------------


def test_monitoring_is_off_by_default(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    kinds = {m["kind"] for m in render(kube_tools, tmp_path)}
    assert not {"ServiceMonitor", "PrometheusRule", "ConfigMap"} & kinds


def test_metrics_service_and_service_monitor(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    manifests = render(kube_tools, tmp_path, EVERYTHING)
    service = one(manifests, "Service")
    assert service["spec"]["ports"] == [
        {"name": "http-metrics", "port": 9191, "targetPort": "http-metrics", "protocol": "TCP"}
    ]
    pod_labels = one(manifests, "Deployment")["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= pod_labels.items()
    monitor = one(manifests, "ServiceMonitor")
    assert monitor["metadata"]["labels"]["release"] == "prom"
    assert (
        monitor["spec"]["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
    )
    assert monitor["spec"]["endpoints"] == [
        {"port": "http-metrics", "path": "/metrics", "interval": "15s"}
    ]


def test_no_metrics_port_means_no_service(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    values = {"metrics": {"port": 0}, "serviceMonitor": {"enabled": True}}
    manifests = render(kube_tools, tmp_path, values)
    assert not of_kind(manifests, "Service") and not of_kind(manifests, "ServiceMonitor")
    assert "--metrics-port=0" in container(manifests)["args"]


def test_prometheus_rule_carries_the_rules_file(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    rule = one(render(kube_tools, tmp_path, EVERYTHING), "PrometheusRule")
    assert rule["metadata"]["labels"]["role"] == "alerts"
    source = yaml.safe_load((CHART / "alerts" / "rules.yaml").read_text()) or {}
    groups = source.get("groups", (source.get("spec") or {}).get("groups")) or []
    assert rule["spec"]["groups"] == groups


def test_dashboard_config_map(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    config_map = one(render(kube_tools, tmp_path, EVERYTHING), "ConfigMap")
    assert config_map["metadata"]["labels"]["grafana_dashboard"] == "1"
    assert config_map["metadata"]["annotations"] == {"grafana_folder": "nbmodernizer"}
    (name, text), *more = config_map["data"].items()
    assert not more and name.endswith(".json")
    dashboard = json.loads(text)
    assert dashboard == json.loads((CHART / "dashboards" / "fleet.json").read_text())
    assert dashboard["title"].startswith("nbmodernizer")


# -- the CRD ---------------------------------------------------------------------------------


def test_chart_crd_is_the_generated_one() -> None:
    copy = CHART / "crds" / CRD.name
    assert copy.read_bytes() == CRD.read_bytes(), (
        f"{copy.relative_to(REPO_ROOT)} differs from {CRD.relative_to(REPO_ROOT)}: "
        f"cp {CRD.relative_to(REPO_ROOT)} {copy.relative_to(REPO_ROOT)}"
    )
    assert [p.name for p in (CHART / "crds").iterdir()] == [CRD.name]


def test_rendered_crd_is_the_file(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    crd = one(render(kube_tools, tmp_path), "CustomResourceDefinition")
    assert crd == yaml.safe_load(CRD.read_text())


def test_runner_pods_network_policy(kube_tools: Path, tmp_path: Path) -> None:  # noqa: F811
    """Runner pods (untrusted notebooks): nothing in; out, DNS and the store only."""
    assert not of_kind(render(kube_tools, tmp_path), "NetworkPolicy")  # -A: namespaces unknown
    manifests = render(kube_tools, tmp_path, EVERYTHING)
    policies = of_kind(manifests, "NetworkPolicy")
    assert sorted(p["metadata"]["namespace"] for p in policies) == ["team-a", "team-b"]
    for policy in policies:
        spec = policy["spec"]
        assert spec["podSelector"]["matchLabels"] == {
            "app.kubernetes.io/component": "runner",
            "app.kubernetes.io/managed-by": "nbmodernizer-operator",
        }
        assert spec["policyTypes"] == ["Ingress", "Egress"] and spec["ingress"] == []
        dns, store = spec["egress"]
        assert {p["port"] for p in dns["ports"]} == {53}
        assert store == {"ports": [{"port": 443, "protocol": "TCP"}]}
    minio = [{"to": [{"ipBlock": {"cidr": "10.0.0.5/32"}}], "ports": [{"port": 9000}]}]
    values = {"runner": {"networkPolicy": {"namespaces": ["ml"], "dns": False,
                                           "storeEgress": minio}}}  # fmt: skip
    [policy] = of_kind(render(kube_tools, tmp_path, values), "NetworkPolicy")
    assert policy["metadata"]["namespace"] == "ml" and policy["spec"]["egress"] == minio
    off = {"watchNamespaces": ["a"], "runner": {"networkPolicy": {"enabled": False}}}
    assert not of_kind(render(kube_tools, tmp_path, off), "NetworkPolicy")


@pytest.mark.parametrize(
    ("values", "complaint"),
    [
        ({"s3": {"bucket": "b", "runnerSecrets": "typo"}}, "runnerSecrets"),
        ({"operator": {"workers": 0}}, "workers"),
        ({"operator": {"replicas": "two"}}, "replicas"),
        ({"watchNamespaces": ["Team_A"]}, "watchNamespaces"),
        ({"runner": {"networkPolicy": {"enabled": "yes"}}}, "enabled"),
        ({"unknownTopLevel": 1}, "unknownTopLevel"),
    ],
)
def test_values_are_validated_against_the_schema(
    kube_tools: Path,  # noqa: F811
    tmp_path: Path,
    values: dict[str, Any],
    complaint: str,
) -> None:
    values_file = tmp_path / "values.yaml"
    values_file.write_text(yaml.safe_dump(values))
    done = helm(kube_tools, "template", RELEASE, str(CHART), "--values", str(values_file))
    assert done.returncode != 0
    assert "schema" in done.stderr and complaint in done.stderr, done.stderr
