"""A small synchronous Kubernetes client: JSON in, JSON out, over the official client's
configuration (kubeconfig or in-cluster) and HTTP. Only what the operator needs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast
from urllib.parse import quote

from kubernetes import client, config
from kubernetes.client.rest import ApiException

from nbmodernizer.cluster.wire import JsonObject, child, children, text
from nbmodernizer.spec import API_GROUP, API_VERSION

PLURAL = "notebookmodernizations"
MERGE_PATCH = "application/merge-patch+json"


class KubeError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status


def load_configuration() -> client.Configuration:
    configuration = client.Configuration()
    try:
        config.load_incluster_config(client_configuration=configuration)
    except config.ConfigException:
        config.load_kube_config(client_configuration=configuration)
    return configuration


@dataclass(frozen=True)
class Paths:
    @staticmethod
    def resource(namespace: str, name: str = "") -> str:
        base = f"/apis/{API_GROUP}/{API_VERSION}/namespaces/{namespace}/{PLURAL}"
        return f"{base}/{quote(name)}" if name else base

    @staticmethod
    def jobs(namespace: str, name: str = "") -> str:
        base = f"/apis/batch/v1/namespaces/{namespace}/jobs"
        return f"{base}/{quote(name)}" if name else base

    @staticmethod
    def all_jobs() -> str:
        return "/apis/batch/v1/jobs"

    @staticmethod
    def events(namespace: str) -> str:
        return f"/api/v1/namespaces/{namespace}/events"

    @staticmethod
    def secrets(namespace: str) -> str:
        return f"/api/v1/namespaces/{namespace}/secrets"

    @staticmethod
    def secret(namespace: str, name: str) -> str:
        return f"/api/v1/namespaces/{namespace}/secrets/{quote(name)}"


class Kube:
    def __init__(self, configuration: client.Configuration | None = None) -> None:
        self.api = client.ApiClient(configuration or load_configuration())

    def request(
        self,
        method: str,
        path: str,
        body: Mapping[str, object] | None = None,
        query: list[tuple[str, str]] | None = None,
        content_type: str = "application/json",
    ) -> JsonObject:
        try:
            answer = self.api.call_api(
                path,
                method,
                query_params=query or [],
                header_params={"Accept": "application/json", "Content-Type": content_type},
                body=body,
                response_type="object",
                auth_settings=["BearerToken"],
                _return_http_data_only=True,
                _preload_content=True,
            )
        except ApiException as error:
            raise KubeError(int(error.status or 0), str(error.reason or error.body)) from None
        return cast(JsonObject, answer) if isinstance(answer, dict) else {}

    def get(self, path: str) -> JsonObject | None:
        try:
            return self.request("GET", path)
        except KubeError as error:
            if error.status == 404:
                return None
            raise

    def list(self, path: str, label_selector: str | None = None) -> list[JsonObject]:
        query = [("labelSelector", label_selector)] if label_selector else []
        return children(self.request("GET", path, query=query), "items")

    def create(self, path: str, body: Mapping[str, object]) -> tuple[JsonObject, bool]:
        """Create; an object that exists already (409) is returned as it is, with False."""
        try:
            return self.request("POST", path, body=body), True
        except KubeError as error:
            if error.status != 409:
                raise
        name = text(child(body, "metadata"), "name") or ""
        existing = self.get(f"{path}/{quote(name)}")
        if existing is None:
            raise KubeError(409, f"{path}/{name} conflicts but cannot be read")
        return existing, False

    def merge_patch(self, path: str, patch: Mapping[str, object]) -> JsonObject:
        return self.request("PATCH", path, body=patch, content_type=MERGE_PATCH)

    def delete(self, path: str, propagation: str = "Background") -> bool:
        body = {"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": propagation}
        try:
            self.request("DELETE", path, body=body)
        except KubeError as error:
            if error.status == 404:
                return False
            raise
        return True
