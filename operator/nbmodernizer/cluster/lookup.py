"""NotebookModernizations as a user reads them, the way kubectl finds its cluster: the
kubeconfig named by `--kubeconfig`, else `KUBECONFIG` (a list of files), else
`~/.kube/config`, and in a pod the in-cluster credentials; `--context` picks another context;
the namespace is `-n`, else the context's, else `default`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from kubernetes import client, config
from urllib3.exceptions import HTTPError

from nbmodernizer.cluster.kube import PLURAL, Kube, KubeError, Paths
from nbmodernizer.cluster.wire import JsonObject
from nbmodernizer.spec import API_GROUP, API_VERSION

Answer = TypeVar("Answer")  # what an API request returns

RESOURCE = f"{PLURAL}.{API_GROUP}"
SERVICE_ACCOUNT_NAMESPACE = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"


class ClusterError(Exception):
    """The cluster cannot be reached or read; the message says what to check."""


@dataclass(frozen=True)
class Where:
    """Which cluster and which modernizations: the flags kubectl takes."""

    kubeconfig: str | None = None
    context: str | None = None
    namespace: str | None = None
    all_namespaces: bool = False
    selector: str | None = None


def _context_namespace(where: Where) -> str:
    try:
        contexts, active = config.list_kube_config_contexts(config_file=where.kubeconfig)
    except (config.ConfigException, OSError):  # in a pod: its own namespace, as kubectl
        pod = Path(SERVICE_ACCOUNT_NAMESPACE)
        return pod.read_text().strip() if pod.is_file() else "default"
    chosen = next((c for c in contexts if c.get("name") == where.context), active)
    return str(((chosen or {}).get("context") or {}).get("namespace") or "default")


@dataclass
class Cluster:
    """A client for the cluster and namespace `where` names."""

    kube: Kube
    namespace: str
    where: Where

    @classmethod
    def connect(cls, where: Where) -> Cluster:
        configuration = client.Configuration()
        try:
            config.load_kube_config(
                config_file=where.kubeconfig,
                context=where.context,
                client_configuration=configuration,
            )
        except (config.ConfigException, OSError) as error:
            if where.kubeconfig or where.context:
                raise ClusterError(f"cannot use the kubeconfig: {error}") from None
            try:
                config.load_incluster_config(client_configuration=configuration)
            except config.ConfigException:
                raise ClusterError(
                    f"no cluster to talk to: {error} (set KUBECONFIG or pass --kubeconfig)"
                ) from None
        namespace = where.namespace or _context_namespace(where)
        return cls(Kube(configuration), namespace, where)

    def _call(self, request: Callable[[str], Answer], path: str) -> Answer:
        try:
            return request(path)
        except KubeError as error:
            raise ClusterError(f"the API server refused {path}: {error}") from None
        except (HTTPError, OSError) as error:
            raise ClusterError(f"cannot reach the API server: {error}") from None

    def get(self, name: str) -> JsonObject | None:
        """The resource `name` in the namespace, or None."""
        return self._call(self.kube.get, Paths.resource(self.namespace, name))

    def list(self) -> list[JsonObject]:
        """The resources in the namespace (all of them with `all_namespaces`), by selector."""
        if self.where.all_namespaces:
            path = f"/apis/{API_GROUP}/{API_VERSION}/{PLURAL}"
        else:
            path = Paths.resource(self.namespace)
        found = self._call(lambda p: self.kube.list(p, self.where.selector), path)
        return found

    @property
    def scope(self) -> str:
        """What `list` covers, in words."""
        where = "all namespaces" if self.where.all_namespaces else f"namespace {self.namespace}"
        return f"{where}, {self.where.selector}" if self.where.selector else where

    def not_found(self, name: str) -> str:
        return f'{RESOURCE} "{name}" not found in namespace "{self.namespace}"'
