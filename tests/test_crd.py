from __future__ import annotations

import copy
import io
import types
import typing
from contextlib import redirect_stdout
from decimal import Decimal
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from pydantic import BaseModel

from nbmodernizer.cluster import crd
from nbmodernizer.loop import Executed, Fixed, start, step
from nbmodernizer.spec import (
    InputsVolumeClaim,
    Metric,
    ModernizationSpec,
    RevisionRetention,
    ScoreSpec,
    SpecError,
    Toleration,
    load_spec_file,
    parse_modernization,
    quantity_value,
)
from nbmodernizer.status import ModernizationStatus, Phase
from nbmodernizer.summary import build_status
from testing.factories import fix_record, ran, scored
from testing.schemas import validate

ROOT = Path(__file__).resolve().parent.parent
CRD_FILE = ROOT / "crds" / "notebookmodernizations.yaml"
EXAMPLES = ROOT / "examples"


def the_crd() -> dict[str, Any]:
    """The generated CRD, to be read as plain JSON."""
    return crd.crd_manifest()


def root_schema() -> dict[str, Any]:
    schema: dict[str, Any] = the_crd()["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    return schema


# --- the committed file ---------------------------------------------------------------------


def test_committed_crd_is_the_generated_one() -> None:
    committed = CRD_FILE.read_text(encoding="utf-8") if CRD_FILE.exists() else ""
    assert committed == crd.render(), (
        f"{CRD_FILE.relative_to(ROOT)} is out of date; regenerate it: {crd.REGENERATE}"
    )


def test_render_is_the_manifest_as_yaml() -> None:
    assert yaml.safe_load(crd.render()) == crd.crd_manifest()


def test_main_prints_the_crd_and_checks_a_file(tmp_path: Path) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert crd.main([]) == 0
    assert out.getvalue() == crd.render()
    assert crd.main(["--check", str(CRD_FILE)]) == 0
    stale = tmp_path / "stale.yaml"
    stale.write_text(crd.render().replace("nbm", "nbx"), encoding="utf-8")
    assert crd.main(["--check", str(stale)]) == 1
    assert crd.main(["--check", str(tmp_path / "missing.yaml")]) == 1


# --- names, version, columns -----------------------------------------------------------------


def test_names_scope_and_version() -> None:
    manifest = the_crd()
    assert manifest["apiVersion"] == "apiextensions.k8s.io/v1"
    assert manifest["kind"] == "CustomResourceDefinition"
    assert manifest["metadata"]["name"] == "notebookmodernizations.nbmodernizer.dev"
    spec = manifest["spec"]
    assert spec["group"] == "nbmodernizer.dev"
    assert spec["scope"] == "Namespaced"
    assert spec["names"] == {
        "kind": "NotebookModernization",
        "listKind": "NotebookModernizationList",
        "plural": "notebookmodernizations",
        "singular": "notebookmodernization",
        "shortNames": ["nbm"],
        "categories": ["nbmodernizer"],
    }
    [version] = spec["versions"]
    assert (version["name"], version["served"], version["storage"]) == ("v1alpha1", True, True)
    assert version["subresources"] == {"status": {}}
    root = version["schema"]["openAPIV3Schema"]
    assert root["type"] == "object" and root["required"] == ["spec"]
    assert set(root["properties"]) == {"apiVersion", "kind", "metadata", "spec", "status"}


def test_printer_columns() -> None:
    [version] = the_crd()["spec"]["versions"]
    columns = [
        (c["name"], c["type"], c["jsonPath"], c.get("priority", 0))
        for c in version["additionalPrinterColumns"]
    ]
    assert columns == [
        ("Phase", "string", ".status.phase", 0),
        ("Outcome", "string", ".status.outcome", 0),
        ("Iteration", "integer", ".status.iteration", 0),
        ("Score", "number", ".status.score.value", 0),
        ("Target", "number", ".spec.score.target", 0),
        ("Cost", "number", ".status.cost.usd", 0),
        ("Age", "date", ".metadata.creationTimestamp", 0),
    ]
    cost = next(c for c in version["additionalPrinterColumns"] if c["name"] == "Cost")
    assert cost["priority"] == 0


def test_printer_columns_point_at_fields_that_exist() -> None:
    root = root_schema()
    [version] = the_crd()["spec"]["versions"]
    for column in version["additionalPrinterColumns"]:
        if column["jsonPath"].startswith(".metadata."):
            continue
        node = root
        for part in column["jsonPath"].strip(".").split("."):
            node = node["properties"][part]
        expected = {"date": "string"}.get(column["type"], column["type"])
        assert node["type"] == expected, column


# --- the models and the schema agree, field by field -----------------------------------------


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model a field holds, through Optional, Annotated, list[...] and dict[str, ...]."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _model_in(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType, list, dict):
        found = {_model_in(arg) for arg in typing.get_args(annotation)} - {None}
        assert len(found) <= 1, f"a union of models has no structural schema: {annotation}"
        return found.pop() if found else None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def model_paths(model: type[BaseModel], prefix: str = "") -> set[str]:
    paths: set[str] = set()
    for name, field in model.model_fields.items():
        path = f"{prefix}{field.alias or name}"
        paths.add(path)
        inner = _model_in(field.annotation)
        if inner is not None:
            paths |= model_paths(inner, path + ".")
    return paths


def schema_paths(schema: dict[str, Any], prefix: str = "") -> set[str]:
    paths: set[str] = set()
    for name, sub in schema.get("properties", {}).items():
        paths.add(f"{prefix}{name}")
        paths |= schema_paths(sub, f"{prefix}{name}.")
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            paths |= schema_paths(schema[key], prefix)
    return paths


def test_every_spec_field_is_in_the_crd_and_nothing_else() -> None:
    in_model = model_paths(ModernizationSpec)
    in_crd = schema_paths(root_schema()["properties"]["spec"])
    assert in_model - in_crd == set(), f"regenerate the CRD: {crd.REGENERATE}"
    assert in_crd - in_model == set()
    # the cluster-only fields, by their wire names
    assert {
        "execution.image",
        "execution.resources.requests",
        "execution.resources.limits",
        "execution.nodeSelector",
        "execution.tolerations.tolerationSeconds",
        "execution.priorityClassName",
        "execution.queueName",
        "execution.inputsVolumeClaim.claimName",
        "execution.inputsVolumeClaim.subPath",
        "execution.inputsVolumeClaim.readOnly",
        "fix.llm.apiKeySecret.name",
        "fix.llm.apiKeySecret.key",
        "revisions.retention",
    } <= in_crd


def test_every_status_field_is_in_the_crd_plus_the_documented_extensions() -> None:
    in_model = model_paths(ModernizationStatus)
    in_crd = schema_paths(root_schema()["properties"]["status"])
    extensions = schema_paths({"properties": crd.STATUS_EXTENSIONS})
    assert in_model - in_crd == set(), f"regenerate the CRD: {crd.REGENERATE}"
    assert in_crd - in_model == extensions - in_model
    assert {"conditions", "conditions.type", "observedGeneration"} <= in_crd


def test_walk_notices_a_field_missing_from_the_crd() -> None:
    class Extended(ModernizationSpec):
        brand_new: int = 0

    assert "brandNew" in model_paths(Extended) - schema_paths(root_schema()["properties"]["spec"])


# --- structural ------------------------------------------------------------------------------


def assert_structural(node: Any, path: str = "") -> None:
    assert isinstance(node, dict), path
    assert "$ref" not in node and "$defs" not in node and "title" not in node, path
    assert "oneOf" not in node and "allOf" not in node and "not" not in node, path
    assert node.get("additionalProperties") is not False, path
    assert "const" not in node and "uniqueItems" not in node, path
    assert "default" not in node or node["default"] is not None, path
    if "anyOf" in node:  # only Kubernetes' int-or-string form
        assert node.get("x-kubernetes-int-or-string") is True, path
        assert node["anyOf"] == [{"type": "integer"}, {"type": "string"}], path
        assert "type" not in node, path
    elif not node.get("x-kubernetes-preserve-unknown-fields"):
        assert node.get("type") in {"object", "array", "string", "integer", "number", "boolean"}, (
            path
        )
    for key in ("exclusiveMinimum", "exclusiveMaximum"):
        if key in node:
            assert isinstance(node[key], bool), path
    if "properties" in node:
        assert node["type"] == "object" and "additionalProperties" not in node, path
        assert set(node.get("required", [])) <= set(node["properties"]), path
        for name, sub in node["properties"].items():
            assert_structural(sub, f"{path}.{name}")
    if node.get("type") == "array":
        assert_structural(node["items"], f"{path}[]")
    if isinstance(node.get("additionalProperties"), dict):
        assert_structural(node["additionalProperties"], f"{path}.*")
    if node.get("nullable") and "enum" in node:
        assert None in node["enum"], path


def test_schema_is_structural() -> None:
    assert_structural(root_schema())


def test_schema_keeps_defaults_bounds_and_descriptions() -> None:
    spec = root_schema()["properties"]["spec"]
    score = spec["properties"]["score"]
    assert set(score["required"]) == {"metric", "target", "answers"}
    assert score["properties"]["tolerance"] == {
        "description": "Relative band τ.",
        "type": "number",
        "default": 0.1,
        "minimum": 0.0,
        "maximum": 1.0,
    }
    assert score["properties"]["metric"]["enum"] == [m.value for m in Metric]
    assert score["properties"]["pValue"]["exclusiveMinimum"] is True
    assert score["properties"]["pValue"]["minimum"] == 0.0
    fix = spec["properties"]["fix"]["properties"]
    assert fix["maxIterations"]["default"] == 16 and fix["maxIterations"]["minimum"] == 1
    llm = fix["llm"]["properties"]
    assert llm["model"] == {"type": "string", "nullable": True, "minLength": 1}
    execution = spec["properties"]["execution"]["properties"]
    assert execution["image"]["description"].startswith("Cluster only")
    assert execution["nodeSelector"]["additionalProperties"]["type"] == "string"
    quantity = execution["resources"]["properties"]["limits"]["additionalProperties"]
    assert quantity["x-kubernetes-int-or-string"] is True
    assert spec["properties"]["revisions"]["properties"]["retention"]["default"] == "Keep"


# --- validation: the CRD accepts what the models accept --------------------------------------


def as_json_schema(node: Any) -> Any:
    """OpenAPI v3 (Kubernetes flavour) -> JSON Schema draft 4, as the API server validates.

    `nullable` allows null; unknown fields are rejected, as `kubectl`'s strict field validation
    does (the server would otherwise prune them).
    """
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "nullable" or key.startswith("x-kubernetes-"):
            continue
        if key == "properties":
            out[key] = {name: as_json_schema(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties"):
            out[key] = as_json_schema(value)
        elif key == "anyOf":
            out[key] = [as_json_schema(branch) for branch in value]
        else:
            out[key] = value
    if node.get("nullable") and "type" in out:
        out["type"] = [out["type"], "null"]
    if "properties" in node and "additionalProperties" not in node:
        out["additionalProperties"] = False
    return out


def validator() -> jsonschema.Draft4Validator:
    schema = as_json_schema(root_schema())
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


def errors_of(document: dict[str, Any]) -> list[str]:
    return [
        "/".join(str(p) for p in error.absolute_path) + ": " + error.message
        for error in validator().iter_errors(document)
    ]


@pytest.mark.parametrize(
    "spec_file", sorted(EXAMPLES.glob("*/spec.yaml")), ids=lambda p: p.parent.name
)
def test_examples_validate_against_the_crd(spec_file: Path) -> None:
    _, document = load_spec_file(spec_file)
    assert errors_of(document) == []


def resource(**spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "notebook": "s3://bucket/nb.ipynb",
        "score": {"metric": "accuracy", "target": 0.9, "answers": "s3://bucket/answers.csv"},
    }
    body.update(spec)
    return {
        "apiVersion": "nbmodernizer.dev/v1alpha1",
        "kind": "NotebookModernization",
        "metadata": {"name": "demo", "namespace": "team"},
        "spec": body,
    }


FULL_SPEC: dict[str, Any] = {
    "notebook": "s3://bucket/nb.ipynb",
    "inputs": "s3://bucket/input/",
    "score": {"metric": "roc_auc", "target": 0.8, "answers": "s3://b/a.csv", "runs": 3},
    "execution": {
        "timeoutSeconds": 900,
        "image": "ghcr.io/example/runner:1.2",
        "resources": {
            "requests": {"cpu": "2", "memory": "8Gi"},
            "limits": {"cpu": 4, "memory": "16Gi", "nvidia.com/gpu": 1},
        },
        "nodeSelector": {"nvidia.com/gpu.present": "true"},
        "tolerations": [
            {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
            {"key": "spot", "value": "yes", "effect": "NoExecute", "tolerationSeconds": 60},
        ],
        "priorityClassName": "batch-low",
        "queueName": "gpu-queue",
        "inputsVolumeClaim": {"claimName": "datasets", "subPath": "titanic", "readOnly": True},
    },
    "fix": {
        "maxIterations": 8,
        "fixers": ["rules", "llm"],
        "llm": {"model": "gpt-5.2", "apiKeySecret": {"name": "openai", "key": "api-key"}},
        "budgetUSD": 2.5,
    },
    "revisions": {"retention": "Delete"},
}


def test_a_spec_with_every_cluster_field_validates_both_ways() -> None:
    model = ModernizationSpec.model_validate(FULL_SPEC)
    assert errors_of(resource(**FULL_SPEC)) == []
    assert errors_of(resource(**model.to_wire())) == []  # with every default filled in


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda s: s["score"].pop("target"), "spec/score: 'target' is a required property"),
        (lambda s: s["score"].update(metric="acc"), "spec/score/metric: 'acc' is not one of"),
        (lambda s: s.update(fix={"maxIterations": 0}), "spec/fix/maxIterations: 0 is less than"),
        (lambda s: s["score"].update(pValue=0), "spec/score/pValue: 0 is less than or equal"),
        (lambda s: s.update(execution={"timeoutSecs": 5}), "spec/execution: Additional prop"),
        (
            lambda s: s.update(execution={"resources": {"limits": {"memory": "8 GB"}}}),
            "spec/execution/resources/limits/memory: '8 GB' does not match",
        ),
        (
            lambda s: s.update(execution={"resources": {"limits": {"cpu": 1.5}}}),
            "spec/execution/resources/limits/cpu: 1.5 is not valid under any of",
        ),
        (
            lambda s: s.update(execution={"tolerations": [{"key": "a", "effect": "Sometimes"}]}),
            "spec/execution/tolerations/0/effect: 'Sometimes' is not one of",
        ),
        (
            lambda s: s.update(execution={"inputsVolumeClaim": {"subPath": "x"}}),
            "spec/execution/inputsVolumeClaim: 'claimName' is a required property",
        ),
        (
            lambda s: s.update(fix={"llm": {"apiKeySecret": {"name": "openai"}}}),
            "spec/fix/llm/apiKeySecret: 'key' is a required property",
        ),
        (
            lambda s: s.update(revisions={"retention": "Forget"}),
            "spec/revisions/retention: 'Forget' is not one of",
        ),
    ],
)
def test_invalid_specs_are_rejected(change: Any, where: str) -> None:
    document = resource()
    spec = copy.deepcopy(FULL_SPEC)
    change(spec)
    document["spec"] = spec
    found = errors_of(document)
    assert any(error.startswith(where) for error in found), found


def test_a_resource_without_spec_is_rejected() -> None:
    document = resource()
    del document["spec"]
    assert errors_of(document) == [": 'spec' is a required property"]


def test_explicit_nulls_pass_where_the_model_allows_none() -> None:
    document = resource(
        inputs=None,
        execution={"image": None, "tolerations": [{"operator": "Exists", "effect": None}]},
    )
    assert errors_of(document) == []
    ModernizationSpec.model_validate(document["spec"])


def loop_status() -> ModernizationStatus:
    state, _ = start(16)
    state, _ = step(state, Executed(0, ran((0, "ImportError")), scored(None)))
    state, _ = step(state, Fixed(fix_record(1, fixer="llm")))
    state, _ = step(state, Executed(1, ran(), scored(0.9)))
    score = ScoreSpec(metric=Metric.ACCURACY, target=0.9, answers="a.csv")
    return build_status(state, score, lambda r: f"s3://b/p/revisions/{r:04d}/", Phase.SUCCEEDED)


def test_a_real_status_with_conditions_validates() -> None:
    status = loop_status().to_wire()
    status["observedGeneration"] = 3
    status["conditions"] = [
        {
            "type": "Ready",
            "status": "True",
            "reason": "Reproduced",
            "message": "",
            "lastTransitionTime": "2025-01-01T00:00:00Z",
            "observedGeneration": 3,
        }
    ]
    document = resource()
    document["status"] = status
    assert errors_of(document) == []
    document["status"]["conditions"][0]["status"] = "Maybe"
    del document["status"]["phase"]
    found = errors_of(document)
    assert "status: 'phase' is a required property" in found
    assert any(e.startswith("status/conditions/0/status: 'Maybe'") for e in found)


# --- the generator's rules -------------------------------------------------------------------


def test_unions_other_than_optional_are_refused() -> None:
    class Union(BaseModel):
        value: int | str

    with pytest.raises(crd.SchemaError, match=r"Union\.value: a union of 2 types"):
        crd.openapi_schema(Union)


def test_unknown_keywords_are_refused() -> None:
    class Unique(BaseModel):
        tags: set[str]

    with pytest.raises(crd.SchemaError, match=r"Unique\.tags: 'uniqueItems'"):
        crd.openapi_schema(Unique)


def test_untyped_maps_preserve_unknown_fields_and_const_becomes_enum() -> None:
    class Loose(BaseModel):
        extra: dict[str, Any]
        kind: typing.Literal["Only"] = "Only"
        ratio: float | None = None

    schema: dict[str, Any] = crd.openapi_schema(Loose)
    assert schema["properties"]["extra"] == {
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": True,
    }
    assert schema["properties"]["kind"]["enum"] == ["Only"]
    assert schema["properties"]["ratio"] == {"type": "number", "nullable": True}
    assert_structural(schema)


def test_the_crd_is_a_valid_kubernetes_object() -> None:
    validate(crd.crd_manifest())


# --- the cluster-only spec fields, as the models check them -----------------------------------


def spec_problems(**spec: Any) -> list[str]:
    with pytest.raises(SpecError) as caught:
        parse_modernization(resource(**spec))
    return caught.value.problems


def test_cluster_fields_default_to_nothing() -> None:
    spec = parse_modernization(resource()).spec
    execution = spec.execution
    assert execution.image is None and execution.resources is None
    assert execution.node_selector == {} and execution.tolerations == []
    assert execution.priority_class_name is None and execution.queue_name is None
    assert execution.inputs_volume_claim is None
    assert spec.fix.llm.api_key_secret is None
    assert spec.revisions.retention is RevisionRetention.KEEP
    claim = InputsVolumeClaim.model_validate({"claimName": "data"})
    assert claim.read_only is True and claim.sub_path is None
    assert Toleration.model_validate({"key": "k"}).operator == "Equal"


def test_cluster_fields_by_their_wire_names() -> None:
    spec = ModernizationSpec.model_validate(FULL_SPEC)
    assert spec.execution.resources is not None
    assert spec.execution.resources.limits["nvidia.com/gpu"] == 1
    assert spec.execution.inputs_volume_claim == InputsVolumeClaim(
        claim_name="datasets", sub_path="titanic", read_only=True
    )
    assert spec.fix.llm.api_key_secret is not None
    assert spec.fix.llm.api_key_secret.key == "api-key"
    assert ModernizationSpec.model_validate(spec.to_wire()) == spec
    wire = spec.to_wire()
    assert wire["execution"]["tolerations"][1]["tolerationSeconds"] == 60
    assert wire["execution"]["priorityClassName"] == "batch-low"
    assert wire["revisions"] == {"retention": "Delete"}


@pytest.mark.parametrize(
    ("execution", "problem"),
    [
        ({"resources": {"limits": {"memory": "8 GB"}}}, "resources.limits.memory: Value error"),
        ({"resources": {"limits": {"cpu": -1}}}, "resources.limits.cpu: Value error, a quantity"),
        ({"resources": {"limits": {"cpu": 1.5}}}, "resources.limits.cpu: Value error, a quant"),
        ({"resources": {"limits": {"gpu": True}}}, "resources.limits.gpu: Value error, a quant"),
        ({"resources": {"limits": {"bad name!": 1}}}, "resources.limits: Value error, 'bad name!"),
        (
            {"resources": {"requests": {"memory": "2Gi"}, "limits": {"memory": "1500Mi"}}},
            "resources: Value error, requests.memory (2Gi) exceeds limits.memory (1500Mi)",
        ),
        ({"resources": {"claims": []}}, "resources.claims: Extra inputs are not permitted"),
        ({"nodeSelector": {"Bad Key": "x"}}, "nodeSelector: Value error, 'Bad Key'"),
        ({"nodeSelector": {"pool": "no spaces"}}, "nodeSelector.pool: String should match"),
        (
            {"tolerations": [{"key": "k", "operator": "Exists", "value": "v"}]},
            "tolerations[0]: Value error, value must be empty when operator is Exists",
        ),
        ({"tolerations": [{"value": "v"}]}, "tolerations[0]: Value error, operator must be"),
        (
            {"tolerations": [{"key": "k", "effect": "NoSchedule", "tolerationSeconds": 5}]},
            "tolerations[0]: Value error, tolerationSeconds needs effect NoExecute",
        ),
        ({"tolerations": [{"key": "k", "operator": "In"}]}, "tolerations[0].operator: Input"),
        ({"priorityClassName": "Low"}, "priorityClassName: String should match pattern"),
        ({"queueName": "q" * 64}, "queueName: String should have at most 63 characters"),
        ({"image": "has space"}, "image: String should match pattern"),
        (
            {"inputsVolumeClaim": {"claimName": "d", "subPath": "/abs"}},
            "inputsVolumeClaim.subPath: String should",
        ),
        (
            {"inputsVolumeClaim": {"claimName": "d", "subPath": "a/../b"}},
            "inputsVolumeClaim.subPath: Value error",
        ),
    ],
)
def test_bad_cluster_fields_name_the_field(execution: dict[str, Any], problem: str) -> None:
    found = spec_problems(execution=execution)
    assert any(p.startswith("spec.execution." + problem) for p in found), found


def test_bad_secret_and_retention_name_the_field() -> None:
    found = spec_problems(
        fix={"llm": {"apiKeySecret": {"name": "Not_A_Name", "key": "a b"}}},
        revisions={"retention": "Forget"},
    )
    assert [p.split(":")[0] for p in found] == [
        "spec.fix.llm.apiKeySecret.name",
        "spec.fix.llm.apiKeySecret.key",
        "spec.revisions.retention",
    ]


@pytest.mark.parametrize(
    ("quantity", "value"),
    [(2, "2"), ("500m", "0.5"), ("1Gi", "1073741824"), ("1.5k", "1500"), ("1e3", "1000")],
)
def test_quantity_value(quantity: int | str, value: str) -> None:
    assert quantity_value(quantity) == Decimal(value)
