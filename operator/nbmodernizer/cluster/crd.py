"""The NotebookModernization CustomResourceDefinition, generated from the pydantic models.

The models in `nbmodernizer.spec` and `nbmodernizer.status` are the one source of truth; the
committed `crds/notebookmodernizations.yaml` is this module's output:

    python -m nbmodernizer.cluster.crd > crds/notebookmodernizations.yaml
    python -m nbmodernizer.cluster.crd --check crds/notebookmodernizations.yaml   # CI

How a pydantic JSON schema becomes a *structural* OpenAPI v3 schema (as apiextensions.k8s.io/v1
requires):

* every `$ref` is inlined (a field's own `description`/`default` win over the model's);
* `anyOf: [X, {type: null}]` (an optional field) becomes X with `nullable: true`; an enum that
  is nullable also lists `null`, so an explicit null passes the enum check;
* the only other `anyOf` kept is Kubernetes' int-or-string form (`x-kubernetes-int-or-string`,
  used for resource quantities); any other union is refused (SchemaError), not approximated;
* `const` becomes a one-value `enum`; JSON Schema's numeric `exclusiveMinimum: N` becomes
  OpenAPI v3.0's `minimum: N` + `exclusiveMinimum: true` (likewise for maximum);
* kept: `type`, `format`, `description`, `default` (except `null`), `enum`, `minimum`, `maximum`,
  `minLength`, `maxLength`, `pattern`, `minItems`, `maxItems`, `required`, `properties`,
  `items`, `x-kubernetes-*`;
* dropped: `title`; `additionalProperties: false` (not allowed in a structural schema: unknown
  fields are pruned, or rejected by `kubectl`'s strict field validation); `propertyNames` (no
  Kubernetes equivalent: map keys such as resource names and label keys are still checked by
  the models, when the operator parses the resource);
* `additionalProperties: <schema>` (a typed map) is kept; an untyped map becomes
  `x-kubernetes-preserve-unknown-fields: true` (none exists today);
* any other keyword raises SchemaError, so a new kind of field cannot slip in unconverted.

The status schema adds two fields that `ModernizationStatus` does not have (yet):
`observedGeneration` (int64) and `conditions` (standard metav1.Condition list, map-keyed by
`type`), which the operator writes. They are an explicit extension (STATUS_EXTENSIONS); once the
status model declares fields with these wire names, the model's schema is used instead.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import yaml
from pydantic import BaseModel

from nbmodernizer.cluster.wire import JsonObject, child, children
from nbmodernizer.spec import API_GROUP, API_VERSION, KIND, ModernizationSpec
from nbmodernizer.status import ModernizationStatus

PLURAL = "notebookmodernizations"
SINGULAR = "notebookmodernization"
LIST_KIND = f"{KIND}List"
SHORT_NAMES = ["nbm"]
# Not "all": `kubectl get all` is for workloads; `kubectl get nbmodernizer` lists these.
CATEGORIES = ["nbmodernizer"]
CRD_NAME = f"{PLURAL}.{API_GROUP}"
REGENERATE = "python -m nbmodernizer.cluster.crd > crds/notebookmodernizations.yaml"

HEADER = f"# Generated from nbmodernizer.spec / nbmodernizer.status; do not edit.\n# {REGENERATE}\n"


class SchemaError(Exception):
    """A model whose JSON schema has no structural OpenAPI v3 equivalent."""


_KEPT = frozenset(
    {
        "type",
        "format",
        "description",
        "enum",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "minItems",
        "maxItems",
        "required",
    }
)
_DROPPED = frozenset({"title", "propertyNames"})
_INT_OR_STRING = [{"type": "integer"}, {"type": "string"}]
_ORDER = [
    "description",
    "type",
    "format",
    "nullable",
    "default",
    "enum",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "anyOf",
    "x-kubernetes-int-or-string",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "items",
    "additionalProperties",
    "required",
    "properties",
]

# metav1.Condition, as Kubernetes' own API types declare it.
CONDITION_SCHEMA: JsonObject = {
    "description": "A standard Kubernetes condition (metav1.Condition).",
    "type": "object",
    "required": ["type", "status", "lastTransitionTime", "reason", "message"],
    "properties": {
        "type": {
            "description": "The condition's type in CamelCase, e.g. Ready or Progressing.",
            "type": "string",
            "maxLength": 316,
            "pattern": r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
            r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
        },
        "status": {"type": "string", "enum": ["True", "False", "Unknown"]},
        "observedGeneration": {
            "description": "The .metadata.generation the condition was set for.",
            "type": "integer",
            "format": "int64",
            "minimum": 0,
        },
        "lastTransitionTime": {
            "description": "When the condition last changed status.",
            "type": "string",
            "format": "date-time",
        },
        "reason": {
            "description": "Why it last changed: a CamelCase identifier.",
            "type": "string",
            "minLength": 1,
            "maxLength": 1024,
            "pattern": r"^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$",
        },
        "message": {"description": "Details for humans.", "type": "string", "maxLength": 32768},
    },
}

# Written by the operator, not (yet) declared by ModernizationStatus; see the module docstring.
STATUS_EXTENSIONS: dict[str, JsonObject] = {
    "observedGeneration": {
        "description": "The .metadata.generation the operator last acted on.",
        "type": "integer",
        "format": "int64",
        "minimum": 0,
    },
    "conditions": {
        "description": "Standard Kubernetes conditions, one per type.",
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["type"],
        "items": CONDITION_SCHEMA,
    },
}

PRINTER_COLUMNS: list[JsonObject] = [
    {"name": "Phase", "type": "string", "jsonPath": ".status.phase"},
    {"name": "Outcome", "type": "string", "jsonPath": ".status.outcome"},
    {"name": "Iteration", "type": "integer", "jsonPath": ".status.iteration"},
    {"name": "Score", "type": "number", "jsonPath": ".status.score.value"},
    {"name": "Target", "type": "number", "jsonPath": ".spec.score.target"},
    {"name": "Cost", "type": "number", "jsonPath": ".status.cost.usd", "priority": 0},
    {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"},
]


def _ordered(schema: JsonObject) -> JsonObject:
    rank = {key: index for index, key in enumerate(_ORDER)}
    return dict(sorted(schema.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0])))


def _inline(node: JsonObject, defs: JsonObject, path: str) -> JsonObject:
    """Replace `$ref` (and a one-element `allOf`) by the definition, siblings winning."""
    seen: set[str] = set()
    while True:
        all_of = children(node, "allOf")
        if "$ref" in node:
            name = str(node["$ref"]).rsplit("/", 1)[-1]
            if name in seen or not isinstance(defs.get(name), dict):
                raise SchemaError(f"{path}: cannot inline {node['$ref']!r}")
            seen.add(name)
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            node = {**child(defs, name), **siblings}
        elif len(all_of) == 1 and len(_list(node, "allOf")) == 1:
            siblings = {k: v for k, v in node.items() if k != "allOf"}
            node = {**all_of[0], **siblings}
        else:
            return node


def _list(node: JsonObject, key: str) -> list[object]:
    value = node.get(key)
    return value if isinstance(value, list) else []


def _unwrap(node: JsonObject, defs: JsonObject, path: str) -> tuple[JsonObject, bool]:
    """Inline references and optional-ness: (the schema of the value, whether null is allowed)."""
    nullable = False
    node = _inline(node, defs, path)
    while "anyOf" in node:
        branches = children(node, "anyOf")
        if len(branches) != len(_list(node, "anyOf")):
            raise SchemaError(f"{path}: anyOf holds a branch that is not a schema")
        rest = {k: v for k, v in node.items() if k != "anyOf"}
        present = [b for b in branches if b != {"type": "null"}]
        nullable = nullable or len(present) != len(branches)
        if len(present) == 1:
            node = _inline({**present[0], **rest}, defs, path)
        elif rest.get("x-kubernetes-int-or-string") is True and present == _INT_OR_STRING:
            return {**rest, "anyOf": present}, nullable
        else:
            raise SchemaError(f"{path}: a union of {len(present)} types is not structural")
    return node, nullable


def _schema(value: object, path: str) -> JsonObject:
    if not isinstance(value, dict):
        raise SchemaError(f"{path}: not a schema: {value!r}")
    return cast(JsonObject, value)


def structural(node: JsonObject, defs: JsonObject, path: str) -> JsonObject:
    """One node of a pydantic (JSON Schema 2020-12) schema as a structural OpenAPI v3 schema."""
    node, nullable = _unwrap(node, defs, path)
    out: JsonObject = {}
    for key, value in node.items():
        if key in _DROPPED:
            continue
        if key == "properties":
            out[key] = {
                name: structural(_schema(sub, path), defs, f"{path}.{name}")
                for name, sub in _schema(value, path).items()
            }
        elif key == "items":
            out[key] = structural(_schema(value, path), defs, f"{path}[]")
        elif key == "additionalProperties":
            if value is False:
                continue
            if value is True or value == {}:
                out["x-kubernetes-preserve-unknown-fields"] = True
            else:
                out[key] = structural(_schema(value, path), defs, f"{path}.*")
        elif key == "const":
            out["enum"] = [value]
        elif key in ("exclusiveMinimum", "exclusiveMaximum"):
            if not isinstance(value, bool):
                out["minimum" if key == "exclusiveMinimum" else "maximum"] = value
                value = True
            out[key] = value
        elif key == "default":
            if value is not None:
                out[key] = value
        elif key == "anyOf":
            out[key] = value  # int-or-string, checked by _unwrap
        elif key in _KEPT or key.startswith("x-kubernetes-"):
            out[key] = value
        else:
            raise SchemaError(f"{path}: {key!r} has no structural OpenAPI v3 equivalent")
    if nullable:
        out["nullable"] = True
        enum = _list(out, "enum")
        if "enum" in out and None not in enum:
            out["enum"] = [*enum, None]
    typeless = out.get("x-kubernetes-int-or-string") or out.get(
        "x-kubernetes-preserve-unknown-fields"
    )
    if "type" not in out and not typeless:
        raise SchemaError(f"{path}: no type")
    if out.get("type") == "array" and "items" not in out:
        raise SchemaError(f"{path}: an array without items")
    if "properties" in out and "additionalProperties" in out:
        raise SchemaError(f"{path}: both properties and additionalProperties")
    return _ordered(out)


def openapi_schema(model: type[BaseModel], description: str | None = None) -> JsonObject:
    """The structural OpenAPI v3 schema of a model, by wire (alias) names."""
    raw = model.model_json_schema(by_alias=True, mode="validation")
    defs = raw.pop("$defs", {})
    schema = structural(raw, defs, model.__name__)
    if description:
        schema["description"] = description
    return _ordered(schema)


def status_schema() -> JsonObject:
    schema = openapi_schema(
        ModernizationStatus,
        "What the modernization found so far; the same object `nbmod modernize` writes to "
        "report.json. Written by the operator.",
    )
    for name, extension in STATUS_EXTENSIONS.items():
        child(schema, "properties").setdefault(name, extension)  # the model's own wins
    return schema


def spec_schema() -> JsonObject:
    return openapi_schema(
        ModernizationSpec,
        "What to modernize and how: the same spec `nbmod modernize spec.yaml` reads. "
        "Fields marked 'Cluster only' are ignored by the local CLI.",
    )


def crd_manifest() -> JsonObject:
    """The apiextensions.k8s.io/v1 CustomResourceDefinition for NotebookModernization."""
    root = {
        "description": "A legacy notebook brought back to life: executed, diagnosed and fixed, "
        "iteration by iteration, until its reported score reproduces.",
        "type": "object",
        "required": ["spec"],
        "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": {"type": "object"},
            "spec": spec_schema(),
            "status": status_schema(),
        },
    }
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": CRD_NAME, "labels": {"app.kubernetes.io/name": "nbmodernizer"}},
        "spec": {
            "group": API_GROUP,
            "names": {
                "kind": KIND,
                "listKind": LIST_KIND,
                "plural": PLURAL,
                "singular": SINGULAR,
                "shortNames": list(SHORT_NAMES),
                "categories": list(CATEGORIES),
            },
            "scope": "Namespaced",
            "versions": [
                {
                    "name": API_VERSION,
                    "served": True,
                    "storage": True,
                    "subresources": {"status": {}},
                    "additionalPrinterColumns": [dict(c) for c in PRINTER_COLUMNS],
                    "schema": {"openAPIV3Schema": root},
                }
            ],
        },
    }


def render() -> str:
    """The CRD as the YAML committed in crds/notebookmodernizations.yaml."""
    body = yaml.safe_dump(crd_manifest(), sort_keys=False, allow_unicode=True, width=100)
    return HEADER + body


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m nbmodernizer.cluster.crd",
        description="Print the NotebookModernization CRD generated from the models.",
    )
    parser.add_argument(
        "--check", type=Path, metavar="FILE", help="exit 1 if FILE differs from the output"
    )
    args = parser.parse_args(argv)
    text = render()
    if args.check is None:
        sys.stdout.write(text)
        return 0
    try:
        current = args.check.read_text(encoding="utf-8")
    except FileNotFoundError:
        current = None
    if current != text:
        print(f"{args.check} is out of date; regenerate it: {REGENERATE}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
