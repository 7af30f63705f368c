"""A small, thread-safe Kubernetes API client for tests: raw JSON in, raw JSON out.

It rides on the official client's transport (``kubernetes.client.ApiClient``) only for what a
kubeconfig can demand (TLS, client certificates, tokens, exec plugins), so the very same calls
work against the emulator (plain HTTP) and against a real cluster such as kind.
"""

from __future__ import annotations

import builtins
import json
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import kubernetes  # type: ignore[import-untyped,unused-ignore]
import urllib3

from testing.k8s.resources import EVENTS, Res

if TYPE_CHECKING:
    from testing.k8s.emulator import EmulatorServer

PATCH_TYPES = {
    "merge": "application/merge-patch+json",
    "json": "application/json-patch+json",
    "strategic": "application/strategic-merge-patch+json",
}


class ApiError(Exception):
    """A non-2xx answer: ``status`` (HTTP code), ``reason`` (e.g. ``NotFound``), ``body``."""

    def __init__(self, status: int, reason: str, body: Any) -> None:
        message = body.get("message") if isinstance(body, dict) else body
        super().__init__(f"{status} {reason}: {message}")
        self.status = status
        self.reason = reason
        self.body = body


class K8sApi:
    """Plain-JSON access to an API server described by a kubeconfig.

    ``namespace`` is the default namespace of namespaced calls; ``server`` is the emulator
    when the API is emulated (None against a real cluster).
    """

    def __init__(
        self,
        kubeconfig: Path,
        *,
        namespace: str = "default",
        server: EmulatorServer | None = None,
        context: str | None = None,
    ) -> None:
        config = kubernetes.client.Configuration()
        kubernetes.config.load_kube_config(
            config_file=str(kubeconfig), context=context, client_configuration=config
        )
        self._client = kubernetes.client.ApiClient(config)
        self.url: str = config.host
        self.kubeconfig = kubeconfig
        self.namespace = namespace
        self.server = server

    @property
    def emulated(self) -> bool:
        return self.server is not None

    def close(self) -> None:
        self._client.close()

    # ------------------------------------------------------------------------- transport

    def request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        params: Mapping[str, str] | None = None,
        content_type: str = "application/json",
        timeout: float = 30,
    ) -> Any:
        """One API call; returns the decoded JSON (or text); raises :class:`ApiError`."""
        try:
            return self._client.call_api(
                path,
                method.upper(),
                query_params=list((params or {}).items()),
                header_params={"Accept": "application/json", "Content-Type": content_type},
                body=body,
                response_type="object",
                auth_settings=["BearerToken"],
                _return_http_data_only=True,
                _preload_content=True,
                _request_timeout=timeout,
            )
        except kubernetes.client.ApiException as e:
            try:
                payload: Any = json.loads(e.body)
            except (TypeError, ValueError):
                payload = e.body
            reason = payload.get("reason", e.reason) if isinstance(payload, dict) else e.reason
            raise ApiError(int(e.status), str(reason), payload) from None

    def _ns(self, res: Res, namespace: str | None) -> str | None:
        return (namespace or self.namespace) if res.namespaced else None

    # ------------------------------------------------------------------------- objects

    def get(self, res: Res, name: str, namespace: str | None = None) -> dict[str, Any]:
        return cast(dict[str, Any], self.request("GET", res.path(self._ns(res, namespace), name)))

    def find(self, res: Res, name: str, namespace: str | None = None) -> dict[str, Any] | None:
        """Like :meth:`get`, but None when the object does not exist."""
        try:
            return self.get(res, name, namespace)
        except ApiError as e:
            if e.status == 404:
                return None
            raise

    def list(
        self,
        res: Res,
        namespace: str | None = None,
        *,
        all_namespaces: bool = False,
        label_selector: str | None = None,
        field_selector: str | None = None,
    ) -> builtins.list[dict[str, Any]]:
        params = {}
        if label_selector:
            params["labelSelector"] = label_selector
        if field_selector:
            params["fieldSelector"] = field_selector
        ns = None if all_namespaces else self._ns(res, namespace)
        body = self.request("GET", res.path(ns), params=params)
        return cast(builtins.list[dict[str, Any]], body.get("items") or [])

    def create(
        self, res: Res, body: Mapping[str, Any], namespace: str | None = None
    ) -> dict[str, Any]:
        ns = self._ns(res, namespace or body.get("metadata", {}).get("namespace"))
        obj = {"apiVersion": res.api_version, **body}
        return cast(dict[str, Any], self.request("POST", res.path(ns), body=obj))

    def patch(
        self,
        res: Res,
        name: str,
        patch: Any,
        *,
        namespace: str | None = None,
        subresource: str | None = None,
        patch_type: str = "merge",
    ) -> dict[str, Any]:
        path = res.path(self._ns(res, namespace), name, subresource)
        content_type = PATCH_TYPES[patch_type]
        return cast(
            dict[str, Any], self.request("PATCH", path, body=patch, content_type=content_type)
        )

    def patch_status(
        self, res: Res, name: str, status: Mapping[str, Any], namespace: str | None = None
    ) -> dict[str, Any]:
        """Merge-patch ``.status`` through the status subresource."""
        return self.patch(res, name, {"status": status}, namespace=namespace, subresource="status")

    def replace(
        self, res: Res, body: Mapping[str, Any], namespace: str | None = None
    ) -> dict[str, Any]:
        name = body["metadata"]["name"]
        path = res.path(self._ns(res, namespace), name)
        return cast(dict[str, Any], self.request("PUT", path, body=dict(body)))

    def delete(
        self,
        res: Res,
        name: str,
        namespace: str | None = None,
        *,
        propagation: str | None = None,
    ) -> dict[str, Any] | None:
        """Delete an object; None if it did not exist."""
        body = {"propagationPolicy": propagation} if propagation else None
        try:
            result = self.request("DELETE", res.path(self._ns(res, namespace), name), body=body)
        except ApiError as e:
            if e.status == 404:
                return None
            raise
        return cast(dict[str, Any], result)

    def events_for(self, obj: Mapping[str, Any]) -> builtins.list[dict[str, Any]]:
        """The core/v1 Events whose ``involvedObject`` is this object."""
        meta = obj["metadata"]
        return self.list(
            EVENTS,
            meta.get("namespace"),
            field_selector=f"involvedObject.uid={meta['uid']}",
        )

    def watch(
        self,
        res: Res,
        namespace: str | None = None,
        *,
        params: Mapping[str, str] | None = None,
        timeout: float = 10,
    ) -> Iterator[dict[str, Any]]:
        """Stream watch events until the server ends the stream or ``timeout`` passes."""
        query = {"watch": "true", "timeoutSeconds": str(max(1, int(timeout))), **(params or {})}
        response = self._client.call_api(
            res.path(self._ns(res, namespace)),
            "GET",
            query_params=list(query.items()),
            header_params={"Accept": "application/json"},
            auth_settings=["BearerToken"],
            _return_http_data_only=True,
            _preload_content=False,
            _request_timeout=(10, timeout + 1),  # (connect, read): a silent stream ends too
        )
        buffer = b""
        try:
            for chunk in response.stream(4096, decode_content=False):
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    if line.strip():
                        yield cast(dict[str, Any], json.loads(line))
        except (urllib3.exceptions.ReadTimeoutError, urllib3.exceptions.ProtocolError):
            pass  # the server ignored timeoutSeconds (plain KMock does), or hung up
        finally:
            response.release_conn()

    # ------------------------------------------------------------------------- waiting

    def wait_for(
        self,
        res: Res,
        name: str,
        predicate: Callable[[dict[str, Any]], bool],
        *,
        namespace: str | None = None,
        timeout: float = 30,
        interval: float = 0.05,
        what: str = "the condition",
    ) -> dict[str, Any]:
        """Poll an object until ``predicate(obj)`` holds; return it, or fail with its state."""
        deadline = time.monotonic() + timeout
        last: dict[str, Any] | None = None
        while True:
            last = self.find(res, name, namespace)
            if last is not None and predicate(last):
                return last
            if time.monotonic() > deadline:
                state = json.dumps(last, indent=1)[:3000]
                raise AssertionError(
                    f"{res} {name!r}: {what} did not hold in {timeout}s; last: {state}"
                )
            time.sleep(interval)


def wait_until(
    check: Callable[[], Any], *, timeout: float = 30, interval: float = 0.05, what: str = ""
) -> Any:
    """Call ``check()`` until it returns something truthy; return that, or fail."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what or check!r}")
        time.sleep(interval)
