from __future__ import annotations

import dataclasses
import json
import re
from types import MappingProxyType
from typing import Any

import pytest

from nbmodernizer.cluster.jobs import (
    JobBuildError,
    JobSettings,
    build_grants_secret,
    build_job,
    grants_secret_name,
    job_name,
    parse_runner_defaults,
    revision_prefix,
)
from nbmodernizer.spec import SpecError, parse_modernization
from testing.schemas import kubernetes_validate, validate

DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")

SETTINGS = JobSettings(
    runner_image="ghcr.io/nbmodernizer/runner:0.1.0",
    s3_bucket="revisions",
    s3_credentials_secret="nbmod-s3",
    s3_prefix="nbmod",
    s3_endpoint_url="http://minio.storage:9000",
)


def resource(name: str = "titanic", **spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "notebook": "s3://bucket/titanic/notebook.ipynb",
        "inputs": "s3://bucket/titanic/input/",
        "score": {
            "metric": "accuracy",
            "target": 0.8,
            "answers": "s3://private/titanic/answers.csv",
        },
        "fix": {"llm": {"apiKeySecret": {"name": "openai-credentials", "key": "api-key"}}},
    }
    body.update(spec)
    return {
        "apiVersion": "nbmodernizer.dev/v1alpha1",
        "kind": "NotebookModernization",
        "metadata": {
            "name": name,
            "namespace": "team-a",
            "uid": "5f2b1c9e-0000-4000-8000-000000000001",
            "generation": 2,
            "resourceVersion": "123",
        },
        "spec": body,
        "status": {"phase": "Running"},
    }


def job(iteration: int = 1, settings: JobSettings = SETTINGS, **spec: Any) -> dict[str, Any]:
    return build_job(resource(**spec), iteration, settings)


def pod(manifest: dict[str, Any]) -> dict[str, Any]:
    spec: dict[str, Any] = manifest["spec"]["template"]["spec"]
    return spec


def container(manifest: dict[str, Any]) -> dict[str, Any]:
    [runner] = pod(manifest)["containers"]
    assert runner["name"] == "runner"
    return dict(runner)


def env(manifest: dict[str, Any]) -> dict[str, Any]:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in container(manifest)["env"]}


# --- name, labels, owner -----------------------------------------------------------------------


def test_the_name_is_deterministic() -> None:
    assert job(3)["metadata"]["name"] == "titanic-it-003"
    assert job(3) == job(3)
    assert json.loads(json.dumps(job(3))) == job(3)  # plain JSON types only


def test_a_long_name_is_truncated_with_a_stable_hash() -> None:
    long_a = "a" * 200 + "-x"
    long_b = "a" * 200 + "-y"
    name_a = job(7, name=long_a)["metadata"]["name"]
    name_b = job(7, name=long_b)["metadata"]["name"]
    assert len(name_a) == 63 and name_a.endswith("-it-007") and DNS_LABEL.match(name_a)
    assert name_a != name_b  # the hash tells them apart
    assert name_a == job_name(long_a, 7)
    assert job_name("b" * 56, 1) == "b" * 56 + "-it-001"  # 63 exactly: kept whole
    assert job_name("b" * 57, 1) == "b" * 47 + "-" + job_name("b" * 57, 1)[48:56] + "-it-001"
    assert len(job_name("b" * 57, 1)) == 63
    # a truncation landing on a dot or dash does not leave it before the hash
    dotted = job_name("c" * 42 + "." + "d" * 30, 1)
    assert ".-" not in dotted and "--" not in dotted


def test_labels_and_namespace() -> None:
    manifest = job(2)
    metadata = manifest["metadata"]
    assert metadata["namespace"] == "team-a"
    expected = {
        "app.kubernetes.io/name": "nbmodernizer",
        "app.kubernetes.io/managed-by": "nbmodernizer-operator",
        "app.kubernetes.io/component": "runner",
        "nbmodernizer.dev/modernization": "titanic",
        "nbmodernizer.dev/iteration": "2",
    }
    assert metadata["labels"] == expected
    assert manifest["spec"]["template"]["metadata"]["labels"] == expected
    assert metadata["annotations"] == {"nbmodernizer.dev/generation": "2"}


def test_label_values_fit_for_a_long_name() -> None:
    manifest = job(1, name="n" * 100)
    for value in manifest["metadata"]["labels"].values():
        assert len(value) <= 63 and LABEL_VALUE.match(value)


def test_owner_reference() -> None:
    assert job()["metadata"]["ownerReferences"] == [
        {
            "apiVersion": "nbmodernizer.dev/v1alpha1",
            "kind": "NotebookModernization",
            "name": "titanic",
            "uid": "5f2b1c9e-0000-4000-8000-000000000001",
            "controller": True,
            "blockOwnerDeletion": True,
        }
    ]


def test_namespace_and_uid_are_required() -> None:
    document = resource()
    del document["metadata"]["uid"]
    with pytest.raises(JobBuildError, match=r"needs metadata\.uid of"):
        build_job(document, 0, SETTINGS)
    document = resource()
    del document["metadata"]["namespace"]
    with pytest.raises(JobBuildError, match=r"needs metadata\.namespace of"):
        build_job(document, 0, SETTINGS)
    with pytest.raises(JobBuildError, match="iteration"):
        build_job(resource(), -1, SETTINGS)


def test_an_invalid_spec_is_a_spec_error() -> None:
    with pytest.raises(SpecError) as caught:
        build_job(resource(execution={"queueName": "Not_Valid"}), 0, SETTINGS)
    assert caught.value.problems[0].startswith("spec.execution.queueName: ")


def test_the_model_and_a_read_only_mapping_give_the_same_job() -> None:
    document = resource()
    model = parse_modernization(document)
    assert build_job(model, 4, SETTINGS) == build_job(document, 4, SETTINGS)
    assert build_job(MappingProxyType(document), 4, SETTINGS) == build_job(document, 4, SETTINGS)


# --- job spec ----------------------------------------------------------------------------------


def test_no_retries_deadline_and_ttl() -> None:
    manifest = job(execution={"timeoutSeconds": 100})
    spec = manifest["spec"]
    assert spec["backoffLimit"] == 0
    assert spec["activeDeadlineSeconds"] == 100 + 120
    assert spec["ttlSecondsAfterFinished"] == 3600
    assert "completionMode" not in spec and "parallelism" not in spec  # one run: one pod
    custom = JobSettings(
        runner_image="img",
        s3_bucket="b",
        s3_credentials_secret=None,
        ttl_seconds_after_finished=60,
        deadline_margin_seconds=30,
    )
    assert job(settings=custom)["spec"]["activeDeadlineSeconds"] == 600 * 1 + 30
    assert job(settings=custom)["spec"]["ttlSecondsAfterFinished"] == 60


def runs(count: int, settings: JobSettings = SETTINGS, **execution: Any) -> dict[str, Any]:
    score = resource()["spec"]["score"] | {"runs": count}
    return job(execution=execution or {"timeoutSeconds": 100}, score=score, settings=settings)


def test_several_runs_are_one_indexed_job_capped_by_max_parallel_runs() -> None:
    spec = runs(4)["spec"]
    assert {k: spec[k] for k in ("completionMode", "completions", "parallelism")} == {
        "completionMode": "Indexed",
        "completions": 4,
        "parallelism": 4,
    }
    assert spec["backoffLimitPerIndex"] == 1  # a pod that dies is started once more
    assert "backoffLimit" not in spec  # per index only: one run's failures never end the rest
    assert spec["activeDeadlineSeconds"] == 100 * 1 + 120  # one wave: all at once
    assert spec["ttlSecondsAfterFinished"] == 3600
    assert container(runs(4))["args"][container(runs(4))["args"].index("--runs") + 1] == "1"
    two = dataclasses.replace(SETTINGS, max_parallel_runs=2, retries_per_run=3)
    capped = runs(5, two)["spec"]
    assert (capped["completions"], capped["parallelism"]) == (5, 2)
    assert capped["backoffLimitPerIndex"] == 3
    assert capped["activeDeadlineSeconds"] == 100 * 3 + 120  # ceil(5 / 2) waves
    wide = dataclasses.replace(SETTINGS, max_parallel_runs=10)
    assert runs(3, wide)["spec"]["parallelism"] == 3  # never more pods than runs


def test_an_indexed_job_keeps_the_pod_template_and_kueue() -> None:
    assert runs(3)["spec"]["template"] == runs(1)["spec"]["template"]  # each pod: one run
    assert pod(runs(3))["restartPolicy"] == "Never"  # backoffLimitPerIndex needs it
    queued = runs(3, queueName="gpu", timeoutSeconds=100)["spec"]
    assert queued["suspend"] is True and queued["completionMode"] == "Indexed"


@pytest.mark.parametrize("bad", [{"max_parallel_runs": 0}, {"retries_per_run": -1}])
def test_parallel_run_settings_are_checked(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="max_parallel_runs"):
        dataclasses.replace(SETTINGS, **bad)


def test_kueue_queue_suspends_the_job() -> None:
    queued = job(execution={"queueName": "gpu-queue"})
    assert queued["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] == "gpu-queue"
    assert queued["spec"]["suspend"] is True
    assert "kueue.x-k8s.io/queue-name" not in queued["spec"]["template"]["metadata"]["labels"]
    direct = job()
    assert "kueue.x-k8s.io/queue-name" not in direct["metadata"]["labels"]
    assert not direct["spec"].get("suspend", False)


# --- pod ---------------------------------------------------------------------------------------


def test_pod_basics() -> None:
    spec = pod(job())
    assert spec["restartPolicy"] == "Never"
    assert spec["automountServiceAccountToken"] is False
    assert spec["enableServiceLinks"] is False
    for absent in ("nodeSelector", "tolerations", "priorityClassName", "serviceAccountName"):
        assert absent not in spec
    assert "resources" not in container(job())


def test_pod_placement_from_the_spec() -> None:
    tolerations: list[dict[str, Any]] = [
        {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
        {"key": "spot", "value": "yes", "effect": "NoExecute", "tolerationSeconds": 30},
    ]
    spec = pod(
        job(
            execution={
                "nodeSelector": {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"},
                "tolerations": tolerations,
                "priorityClassName": "batch-low",
            }
        )
    )
    assert spec["nodeSelector"] == {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}
    assert spec["tolerations"] == [
        tolerations[0],
        {**tolerations[1], "operator": "Equal"},  # Kubernetes' default, made explicit
    ]
    assert spec["priorityClassName"] == "batch-low"


GPU_DEFAULTS = json.dumps(
    {
        "resources": {"limits": {"nvidia.com/gpu": 1}},
        "nodeSelector": {"nvidia.com/gpu.present": "true"},
        "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
    }
)


def test_fleet_defaults_fill_what_a_resource_leaves_unset() -> None:
    gpu = dataclasses.replace(SETTINGS, runner_defaults=parse_runner_defaults(GPU_DEFAULTS))
    plain = job(settings=gpu)
    assert container(plain)["resources"] == {"limits": {"nvidia.com/gpu": "1"}}
    assert pod(plain)["nodeSelector"] == {"nvidia.com/gpu.present": "true"}
    assert [t["key"] for t in pod(plain)["tolerations"]] == ["nvidia.com/gpu"]
    own = job(
        settings=gpu,
        execution={"resources": {"requests": {"cpu": "1"}}, "nodeSelector": {"pool": "cpu"}},
    )
    assert container(own)["resources"] == {"requests": {"cpu": "1"}}  # the resource's, whole
    assert pod(own)["nodeSelector"] == {"pool": "cpu"}
    assert [t["key"] for t in pod(own)["tolerations"]] == ["nvidia.com/gpu"]  # unset: default
    assert "resources" not in container(job()) and "nodeSelector" not in pod(job())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "runner defaults: not JSON"),
        ("[]", "runner defaults: must be a JSON object"),
        ('{"image": "x"}', "unknown field(s) image; allowed: resources, nodeSelector"),
        ('{"resources": {"limits": {"nvidia.com/gpu": "lots"}}}', "resources.limits.nvidia"),
        ('{"tolerations": [{"effect": "Sometimes"}]}', "tolerations[0].effect"),
    ],
)
def test_bad_fleet_defaults_name_the_field(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_runner_defaults(text)


def test_gpu_resources_are_quantity_strings() -> None:
    resources = {"requests": {"cpu": "2", "memory": "8Gi"}, "limits": {"nvidia.com/gpu": 1}}
    runner = container(job(execution={"resources": resources}))
    assert runner["resources"] == {
        "requests": {"cpu": "2", "memory": "8Gi"},
        "limits": {"nvidia.com/gpu": "1"},
    }
    only_limits = container(job(execution={"resources": {"limits": {"nvidia.com/gpu": 2}}}))
    assert only_limits["resources"] == {"limits": {"nvidia.com/gpu": "2"}}
    assert "resources" not in container(job(execution={"resources": {}}))


def test_security_contexts() -> None:
    manifest = job()
    assert pod(manifest)["securityContext"] == {
        "runAsNonRoot": True,
        "runAsUser": 1000,
        "runAsGroup": 1000,
        "fsGroup": 1000,
        "fsGroupChangePolicy": "OnRootMismatch",
        "seccompProfile": {"type": "RuntimeDefault"},
    }
    assert container(manifest)["securityContext"] == {
        "allowPrivilegeEscalation": False,
        "readOnlyRootFilesystem": True,
        "runAsNonRoot": True,
        "capabilities": {"drop": ["ALL"]},
    }


def test_image_command_and_args() -> None:
    runner = container(job(5, score=resource()["spec"]["score"] | {"runs": 2}))
    assert runner["image"] == "ghcr.io/nbmodernizer/runner:0.1.0"
    assert runner["imagePullPolicy"] == "IfNotPresent"
    assert runner["command"] == ["nbmod", "run-iteration"]
    assert runner["args"] == [
        "--revision",
        "s3://revisions/nbmod/team-a/titanic/revisions/0005/",
        "--inputs",
        "s3://bucket/titanic/input/",
        "--timeout-seconds",
        "600",
        "--runs",
        "1",  # an Indexed Job: each pod runs once, as run JOB_COMPLETION_INDEX
        "--submission",
        "submission.csv",
        "--working-dir",
        "/kaggle/working",
        "--input-dir",
        "/kaggle/input",
    ]
    own_image = container(job(execution={"image": "registry.local/runner@sha256:abc"}))
    assert own_image["image"] == "registry.local/runner@sha256:abc"


def test_inputs_are_optional_but_must_be_s3_in_a_cluster() -> None:
    assert "--inputs" not in container(job(inputs=None))["args"]
    with pytest.raises(JobBuildError, match=r"spec.inputs: 'input' is not an s3:// URI"):
        job(inputs="input")


def test_env_has_s3_and_runtime_settings_only() -> None:
    manifest = job(7)
    assert env(manifest) == {
        "AWS_ENDPOINT_URL_S3": "http://minio.storage:9000",
        "AWS_ACCESS_KEY_ID": {"secretKeyRef": {"name": "nbmod-s3", "key": "AWS_ACCESS_KEY_ID"}},
        "AWS_SECRET_ACCESS_KEY": {
            "secretKeyRef": {"name": "nbmod-s3", "key": "AWS_SECRET_ACCESS_KEY"}
        },
        "HOME": "/tmp",
        "MPLCONFIGDIR": "/tmp/matplotlib",
        "NBMOD_ITERATION": "7",
    }


def test_no_llm_key_and_no_answers_anywhere_in_the_job() -> None:
    text = json.dumps(job(execution={"inputsVolumeClaim": {"claimName": "data"}}))
    for secret in ("openai-credentials", "api-key", "OPENAI", "answers", "s3://private"):
        assert secret not in text
    runner = container(job())
    assert "envFrom" not in runner
    secrets = [e["valueFrom"]["secretKeyRef"]["name"] for e in runner["env"] if "valueFrom" in e]
    assert set(secrets) == {"nbmod-s3"}
    assert all("secret" not in volume for volume in pod(job())["volumes"])


def test_granted_job_holds_no_key_only_its_grants_secret() -> None:
    """The pod split: fetch (init, runner image; read grants, writes the tools), probe (init,
    the environment image; the tools and the facts only), kernel (the environment image, its
    own python; no grant, the notebook's resources), executor (runner image; write grants, the
    facts); no AWS_* anywhere, no shared process namespace, and each grant mounted in one
    container only, from one Secret's own key."""
    settings = JobSettings(
        runner_image="img",
        s3_bucket="b",
        s3_region="eu-west-1",
        s3_endpoint_url="http://minio:9000",
        environment_image="env-img",
    )
    manifest = job(3, settings=settings, execution={"resources": {"limits": {"nvidia.com/gpu": 1}}})
    spec = pod(manifest)
    assert spec["shareProcessNamespace"] is False
    fetch, probe = spec["initContainers"]
    kernel, executor = spec["containers"]
    names = (fetch["name"], probe["name"], kernel["name"], executor["name"])
    assert names == ("fetch", "probe", "kernel", "executor")
    for each in (fetch, probe, kernel, executor):
        assert not [e for e in each["env"] if e["name"].startswith("AWS_")]
    for ours in (fetch, executor):
        assert ours["command"] == ["nbmod", "run-iteration"] and ours["image"] == "img"
    assert probe["image"] == kernel["image"] == "env-img"  # no nbmodernizer needed there
    assert kernel["command"] == [
        "python", "/nbmod-tools/kernelhost.py",
        "--kernel-dir", "/var/run/nbmodernizer/kernel", "--working-dir", "/kaggle/working",
    ]  # fmt: skip
    assert probe["command"] == [
        "python", "/nbmod-tools/kernelhost.py", "--probe", "/nbmod-tools/envprobe.py",
        "--request", "/nbmod-tools/request.json", "--facts", "/nbmod-facts/environment.json",
    ]  # fmt: skip
    assert "args" not in probe and "args" not in kernel
    assert {e["name"]: e["value"] for e in kernel["env"]} == {
        "HOME": "/tmp",
        "MPLCONFIGDIR": "/tmp/matplotlib",
    }  # fmt: skip    assert "--inputs" not in executor["args"]  # the inputs are granted one by one

    def mounts(container: dict[str, Any]) -> dict[str, str]:
        return {m["name"]: m["mountPath"] for m in container["volumeMounts"]}

    def read_only(container: dict[str, Any]) -> set[str]:
        return {m["name"] for m in container["volumeMounts"] if m.get("readOnly")}

    def flag(container: dict[str, Any], name: str) -> str:
        return str(container["args"][container["args"].index(name) + 1])

    assert mounts(fetch) == {
        "tmp": "/tmp", "input": "/kaggle/input", "notebook": "/var/run/nbmodernizer/notebook",
        "nbmod-tools": "/nbmod-tools", "read-grants": "/var/run/nbmodernizer/read",
    }  # fmt: skip
    assert mounts(probe) == {
        "probe-tmp": "/tmp", "nbmod-tools": "/nbmod-tools", "facts": "/nbmod-facts",
    }  # fmt: skip
    assert read_only(probe) == {"nbmod-tools"}
    assert mounts(kernel) == {
        "working": "/kaggle/working", "input": "/kaggle/input", "kernel-tmp": "/tmp",
        "kernel": "/var/run/nbmodernizer/kernel", "nbmod-tools": "/nbmod-tools",
    }  # fmt: skip
    assert read_only(kernel) == {"nbmod-tools"}  # never the facts, the notebook, a grant
    assert mounts(executor) == {
        "working": "/kaggle/working", "tmp": "/tmp", "input": "/kaggle/input",
        "notebook": "/var/run/nbmodernizer/notebook", "kernel": "/var/run/nbmodernizer/kernel",
        "facts": "/nbmod-facts", "write-grants": "/var/run/nbmodernizer/write",
    }  # fmt: skip
    assert {"notebook", "facts", "write-grants"} <= read_only(executor)
    assert flag(fetch, "--stage") == "fetch" and flag(fetch, "--tools-dir") == "/nbmod-tools"
    assert flag(executor, "--stage") == "execute"
    assert flag(executor, "--facts-dir") == "/nbmod-facts"
    assert flag(fetch, "--grants") == "/var/run/nbmodernizer/read/grants.json"
    assert flag(executor, "--grants") == "/var/run/nbmodernizer/write/grants.json"
    assert "NBMOD_ITERATION" not in json.dumps([probe, kernel])
    assert flag(executor, "--runs") == "1"
    assert flag(executor, "--kernel-dir") == kernel["command"][3]
    assert kernel["resources"] == {"limits": {"nvidia.com/gpu": "1"}}
    assert "resources" not in executor and "resources" not in fetch and "resources" not in probe
    volumes = {v["name"]: v for v in spec["volumes"]}
    for name, key in (("read-grants", "read.json"), ("write-grants", "write.json")):
        assert volumes[name]["secret"] == {
            "secretName": "titanic-it-003-grants",
            "defaultMode": 0o400,
            "items": [{"key": key, "path": "grants.json"}],
        }
    for name in ("notebook", "kernel", "kernel-tmp", "nbmod-tools", "facts", "probe-tmp"):
        assert volumes[name] == {"name": name, "emptyDir": {}}
    validate(manifest)


def test_the_notebooks_image_is_its_execution_image_else_the_environment_image() -> None:
    def images(settings: JobSettings, **execution: Any) -> dict[str, str]:
        spec = pod(job(settings=settings, execution=execution))
        return {c["name"]: c["image"] for c in spec["initContainers"] + spec["containers"]}

    lean = JobSettings(runner_image="runner", s3_bucket="b", environment_image="ml")
    kaggle = "gcr.io/kaggle-images/python"
    assert images(lean) == {"fetch": "runner", "probe": "ml", "kernel": "ml", "executor": "runner"}
    assert images(lean, image=kaggle) == {
        "fetch": "runner", "probe": kaggle, "kernel": kaggle, "executor": "runner",
    }  # fmt: skip
    alone = JobSettings(runner_image="runner", s3_bucket="b")  # one image for all
    assert set(images(alone).values()) == {"runner"}


def test_grants_secret_is_owned_by_its_job() -> None:
    manifest = job(settings=JobSettings(runner_image="img", s3_bucket="b"))
    manifest["metadata"]["uid"] = "job-uid"
    secret: dict[str, Any] = build_grants_secret(manifest, '{"reads": 1}', '{"writes": 1}')
    assert secret["metadata"]["name"] == grants_secret_name(manifest["metadata"]["name"])
    assert secret["metadata"]["namespace"] == manifest["metadata"]["namespace"]
    owner = secret["metadata"]["ownerReferences"][0]
    assert (owner["kind"], owner["name"], owner["uid"]) == (
        "Job",
        manifest["metadata"]["name"],
        "job-uid",
    )
    assert secret["stringData"] == {"read.json": '{"reads": 1}', "write.json": '{"writes": 1}'}


def test_volumes_are_empty_dirs_by_default() -> None:
    manifest = job()
    assert pod(manifest)["volumes"] == [
        {"name": "working", "emptyDir": {}},
        {"name": "tmp", "emptyDir": {}},
        {"name": "input", "emptyDir": {}},
    ]
    assert container(manifest)["volumeMounts"] == [
        {"name": "working", "mountPath": "/kaggle/working"},
        {"name": "tmp", "mountPath": "/tmp"},
        {"name": "input", "mountPath": "/kaggle/input"},
    ]


def test_inputs_from_a_volume_claim_win_over_spec_inputs() -> None:
    manifest = job(execution={"inputsVolumeClaim": {"claimName": "datasets", "subPath": "titanic"}})
    assert pod(manifest)["volumes"][2] == {
        "name": "input",
        "persistentVolumeClaim": {"claimName": "datasets", "readOnly": True},
    }
    assert container(manifest)["volumeMounts"][2] == {
        "name": "input",
        "mountPath": "/kaggle/input",
        "readOnly": True,
        "subPath": "titanic",
    }
    assert "--inputs" not in container(manifest)["args"]  # spec.inputs is not fetched
    writable = job(execution={"inputsVolumeClaim": {"claimName": "scratch", "readOnly": False}})
    assert container(writable)["volumeMounts"][2] == {
        "name": "input",
        "mountPath": "/kaggle/input",
        "readOnly": False,
    }
    # without S3 inputs, a local-looking spec.inputs is fine: the claim provides them
    assert job(inputs="input", execution={"inputsVolumeClaim": {"claimName": "datasets"}})


# --- settings and the revision prefix ----------------------------------------------------------


def test_revision_prefix() -> None:
    assert revision_prefix(SETTINGS, "team-a", "titanic") == "s3://revisions/nbmod/team-a/titanic"
    bare = JobSettings(runner_image="img", s3_bucket="b", s3_credentials_secret=None)
    assert revision_prefix(bare, "ns", "n") == "s3://b/ns/n"
    nested = JobSettings(
        runner_image="img", s3_bucket="b", s3_credentials_secret=None, s3_prefix="/a/b/"
    )
    assert revision_prefix(nested, "ns", "n") == "s3://b/a/b/ns/n"


@pytest.mark.parametrize(
    "overrides",
    [
        {"runner_image": ""},
        {"s3_bucket": "b/with/slash"},
        {"s3_prefix": "a//b"},
        {"ttl_seconds_after_finished": -1},
        {"deadline_margin_seconds": -5},
        {"working_dir": "relative"},
        {"input_dir": "/tmp"},
    ],
)
def test_settings_are_checked(overrides: dict[str, Any]) -> None:
    base: dict[str, Any] = {"runner_image": "img", "s3_bucket": "b", "s3_credentials_secret": "s"}
    with pytest.raises(ValueError):
        JobSettings(**(base | overrides))


# --- against the Kubernetes API schema -------------------------------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        {},
        {
            "execution": {
                "image": "registry.local/runner:2",
                "resources": {"requests": {"cpu": "500m"}, "limits": {"nvidia.com/gpu": 1}},
                "nodeSelector": {"pool": "gpu"},
                "tolerations": [{"operator": "Exists"}],
                "priorityClassName": "batch-low",
                "queueName": "gpu-queue",
                "inputsVolumeClaim": {"claimName": "datasets", "subPath": "a/b"},
            }
        },
        {"score": {"metric": "accuracy", "target": 0.8, "answers": "s3://a/b.csv", "runs": 4}},
    ],
    ids=["plain", "gpu-kueue-pvc", "indexed"],
)
def test_the_job_is_a_valid_batch_v1_job(spec: dict[str, Any]) -> None:
    manifest = job(**spec)
    validate(manifest)
    bogus = json.loads(json.dumps(manifest))
    container(bogus)  # same shape
    bogus["spec"]["template"]["spec"]["containers"][0]["bogus"] = True
    with pytest.raises(kubernetes_validate.ValidationError):
        validate(bogus)
