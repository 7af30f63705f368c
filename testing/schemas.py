"""The Kubernetes schemas the tests validate manifests against (kubernetes-validate, a dev
dependency: imported, never skipped)."""

from __future__ import annotations

import importlib
from typing import Any

KUBERNETES_VERSION = "1.33"

# kubernetes-validate ships no type information; reach it through importlib (Any).
kubernetes_validate: Any = importlib.import_module("kubernetes_validate")


def validate(manifest: dict[str, Any]) -> None:
    """Raise kubernetes_validate.ValidationError unless `manifest` is valid, strictly."""
    kubernetes_validate.validate(manifest, KUBERNETES_VERSION, strict=True)
