"""The Kubernetes resources the harness knows, and the product's CRD.

``Res`` names a resource the way the API's URLs do (group, version, plural) and knows
whether it is namespaced, so that the client, the emulator and the kubelet build the same
paths. The CRD below mirrors what the product's ``crds/`` manifest will declare; when that
file exists, :func:`product_crds` prefers it.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from pathlib import Path
from typing import Any

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclasses.dataclass(frozen=True)
class Res:
    """One API resource: ``Res('batch', 'v1', 'jobs')``; the core group is ``''``."""

    group: str
    version: str
    plural: str
    namespaced: bool = True

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    def path(
        self,
        namespace: str | None = None,
        name: str | None = None,
        subresource: str | None = None,
    ) -> str:
        """The URL path: ``/apis/batch/v1/namespaces/ns/jobs/name/status`` and the like."""
        parts = ["/api", self.version] if not self.group else ["/apis", self.group, self.version]
        if self.namespaced and namespace is not None:
            parts += ["namespaces", namespace]
        parts.append(self.plural)
        if name is not None:
            parts.append(name)
            if subresource is not None:
                parts.append(subresource)
        return "/".join(parts)

    def __str__(self) -> str:
        return f"{self.api_version}/{self.plural}"


NAMESPACES = Res("", "v1", "namespaces", namespaced=False)
EVENTS = Res("", "v1", "events")
SECRETS = Res("", "v1", "secrets")
CONFIGMAPS = Res("", "v1", "configmaps")
PODS = Res("", "v1", "pods")
JOBS = Res("batch", "v1", "jobs")
LEASES = Res("coordination.k8s.io", "v1", "leases")
CRDS = Res("apiextensions.k8s.io", "v1", "customresourcedefinitions", namespaced=False)

NBM_GROUP = "nbmodernizer.dev"
NBM_VERSION = "v1alpha1"
NBM_PLURAL = "notebookmodernizations"
NBM_KIND = "NotebookModernization"
NBMS = Res(NBM_GROUP, NBM_VERSION, NBM_PLURAL)

# The CRD of the product, as the emulator installs it by default. Schema-less on purpose
# (x-kubernetes-preserve-unknown-fields): the emulator does not validate schemas anyway.
NBM_CRD: dict[str, Any] = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": f"{NBM_PLURAL}.{NBM_GROUP}"},
    "spec": {
        "group": NBM_GROUP,
        "scope": "Namespaced",
        "names": {
            "kind": NBM_KIND,
            "listKind": f"{NBM_KIND}List",
            "plural": NBM_PLURAL,
            "singular": "notebookmodernization",
            "shortNames": ["nbm"],
        },
        "versions": [
            {
                "name": NBM_VERSION,
                "served": True,
                "storage": True,
                "subresources": {"status": {}},
                "schema": {
                    "openAPIV3Schema": {
                        "type": "object",
                        "x-kubernetes-preserve-unknown-fields": True,
                    }
                },
            }
        ],
    },
}

# Discovery data of the built-in resources the operator and the kubelet touch.
# (kind, singular, namespaced, shortNames, subresources, categories)
BUILTIN_RESOURCES: dict[Res, tuple[str, str, bool, set[str], set[str], set[str]]] = {
    NAMESPACES: ("Namespace", "namespace", False, {"ns"}, {"status", "finalize"}, set()),
    EVENTS: ("Event", "event", True, {"ev"}, set(), set()),
    SECRETS: ("Secret", "secret", True, set(), set(), set()),
    CONFIGMAPS: ("ConfigMap", "configmap", True, {"cm"}, set(), set()),
    PODS: ("Pod", "pod", True, {"po"}, {"status", "log"}, {"all"}),
    JOBS: ("Job", "job", True, set(), {"status"}, {"all"}),
    LEASES: ("Lease", "lease", True, set(), set(), set()),
    CRDS: ("CustomResourceDefinition", "customresourcedefinition", False, {"crd", "crds"},
           {"status"}, set()),
}  # fmt: skip


def product_crds() -> list[dict[str, Any]]:
    """The product's CRDs: from ``crds/*.yaml`` when present, else the built-in ``NBM_CRD``."""
    files = tuple(sorted((REPO_ROOT / "crds").glob("*.y*ml")))
    stamps = tuple(path.stat().st_mtime_ns for path in files)
    return copy.deepcopy(_load_crds(files, stamps))


@functools.lru_cache(maxsize=4)
def _load_crds(files: tuple[Path, ...], stamps: tuple[int, ...]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for path in files:
        for doc in yaml.safe_load_all(path.read_text()):
            if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition":
                found.append(doc)
    names = {doc.get("metadata", {}).get("name") for doc in found}
    if NBM_CRD["metadata"]["name"] not in names:
        found.append(NBM_CRD)
    return found
