"""KMock's Kubernetes emulator, extended, and served over real HTTP for real processes.

``kmock.KubernetesEmulator`` keeps objects in memory and answers discovery, list, watch,
fetch, create, patch and delete. A kopf operator, kubectl and the kubernetes client need a
little more of the real API server's behaviour; :class:`ClusterEmulator` adds it, each
addition small and named here (``tests/k8s/test_extensions.py`` shows, for each, what plain
KMock does instead):

E1  ``/api/v1/namespaces[/<name>[/status]]`` parse as the cluster-scoped ``namespaces``
    resource (KMock reads "namespaces" as the start of a namespaced path and fails with 500).
    Kopf lists and watches namespaces at start-up.  (A process-wide hook on KMock's parser.)
E2  Server-set metadata: ``uid``, ``resourceVersion`` (one counter, like etcd's),
    ``creationTimestamp``, ``generation``; ``apiVersion``/``kind`` filled in. ``kopf.adopt``
    needs the owner's uid; kopf's consistency checks and patches need resource versions.
E3  ``metadata.generateName`` (kopf posts every Event with it; KMock keys them all by name
    ``None``, so the second Event fails).
E4  Lists carry ``kind: <Kind>List``, ``apiVersion`` and a real ``resourceVersion``.
E5  Watches honour ``resourceVersion`` (replay only what came after it, from a change log;
    410 Expired when it is too old), ``timeoutSeconds``, ``sendInitialEvents`` bookmarks,
    and answer ``Content-Type: application/json``. KMock replays every object as ADDED on
    each (re)connection and can miss events between its snapshot and its subscription.
E6  Label and field selectors on list, watch and delete-collection (KMock ignores them);
    a watched object that stops/starts matching arrives as DELETED/ADDED, as in Kubernetes.
E7  The ``status`` subresource: the main resource ignores ``.status``; ``/status`` changes
    only ``.status``; create drops ``.status``. Generation moves only with the spec.
E8  Patches by Content-Type: RFC 7386 merge patches (a scalar may replace a dict and back;
    KMock raises), JSON patches (a failed ``test`` op is 422, as kopf expects, not 500),
    strategic merge treated as a merge patch, server-side apply and protobuf refused (415:
    kubectl's typed generators such as ``kubectl create namespace`` send protobuf); a stale
    ``metadata.resourceVersion`` in a patch or PUT is 409 Conflict; no-op patches do not
    bump the resource version. ``PUT`` (replace) is supported (KMock answers 404).
E9  Errors as Kubernetes ``Status`` objects with the standard reasons (``AlreadyExists``,
    ``NotFound``, ``Conflict``, ``Invalid``...), which Go clients such as kubectl match on.
E10 Resources must be declared: writes to undeclared ones are 404 (KMock stores anything).
    Creating a CRD declares its resources for discovery (kind, shortNames, subresources,
    scope), which is what ``kubectl get nbm`` needs; deleting it undeclares them.
E11 Namespaces: objects need an existing namespace; deleting one deletes its objects.
E12 Garbage collection by ``ownerReferences`` (background; Jobs orphan by default when
    deleted through the API, as in Kubernetes), and finalizers/``deletionTimestamp``.
E13 Secrets: ``stringData`` becomes base64 ``data``.
E14 ``pods/<name>/log`` serves what the test kubelet captured.
E15 Discovery: ``/api/v1`` says ``groupVersion: v1`` (KMock: ``/v1``, so kubectl knows no
    core resources: "the server doesn't have a resource type pods"); subresources come
    without the parent's shortNames and categories (KMock repeats them, and kubectl warns
    that ``nbm`` "could also match" ``.../status``); ``/version`` reports Kubernetes 1.36
    (KMock: 1.26, which kubectl 1.37 warns about).
E16 Speed: without user-added DSL reactions, requests are routed directly (KMock matches
    reactions by replaying all past requests, which makes each request slower than the
    last); the request history is trimmed to ``max_requests``.

Not emulated: admission, schema validation/defaulting, RBAC, strategic-merge list
directives, managedFields/server-side apply, multi-version CRD conversion, pagination
(``limit`` is ignored: all items in one page).

:class:`EmulatorServer` runs the emulator in a background thread with its own event loop,
on 127.0.0.1 and a free port; :func:`write_kubeconfig` points kubectl, kopf and the
kubernetes client at it over plain HTTP without credentials.
"""

from __future__ import annotations

import asyncio
import base64
import bisect
import concurrent.futures
import contextlib
import copy
import dataclasses
import datetime
import re
import secrets
import threading
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import attrs
import jsonpatch
import jsonpointer
import kmock
import yaml
from kmock._internal import apps, parsing, rendering

from testing.k8s.resources import (
    BUILTIN_RESOURCES,
    CRDS,
    JOBS,
    NAMESPACES,
    PODS,
    SECRETS,
    Res,
    product_crds,
)

T = TypeVar("T")

ALL_VERBS = frozenset(
    {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
)
DEFAULT_NAMESPACES = ("default", "kube-system", "kube-public")
SERVER_VERSION: dict[str, str] = {
    "major": "1",
    "minor": "36",
    "gitVersion": "v1.36.0+kmock",
    "gitCommit": "0000000000000000000000000000000000000000",
    "gitTreeState": "clean",
    "buildDate": "2026-04-22T00:00:00Z",
    "goVersion": "go1.26.2",
    "compiler": "gc",
    "platform": "linux/amd64",
}
SERVER_SET_METADATA = (
    "name", "namespace", "uid", "creationTimestamp", "generation", "resourceVersion",
    "deletionTimestamp", "deletionGracePeriodSeconds",
)  # fmt: skip
_GENERATE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"  # the apiserver's, no vowels


# --------------------------------------------------------------------------------------------
# E1: the parser fix (process-wide hook: KMock parses paths in a module-level function).
# --------------------------------------------------------------------------------------------

ORIGINAL_PARSE_PATH = parsing.parse_path
_NAMESPACE_SUBRESOURCES = {"status", "finalize"}


def parse_path(path: str) -> parsing.ParsedPath:
    """KMock's path parser, except for the cluster-scoped ``namespaces`` resource itself."""
    parts = path.strip("/").split("/")
    if len(parts) >= 3 and parts[0] == "api" and parts[2] == "namespaces":
        rest = parts[3:]
        if len(rest) <= 1 or (len(rest) == 2 and rest[1] in _NAMESPACE_SUBRESOURCES):
            return parsing.ParsedPath(
                group="",
                version=parts[1],
                plural="namespaces",
                namespace=None,
                name=rest[0] if rest else None,
                subresource=rest[1] if len(rest) == 2 else None,
            )
    return ORIGINAL_PARSE_PATH(path)


parsing.parse_path = parse_path


# --------------------------------------------------------------------------------------------
# E9: errors shaped like the apiserver's.
# --------------------------------------------------------------------------------------------


def api_error(
    code: int, reason: str, message: str, res: Res | None = None, name: str | None = None
) -> kmock.KubernetesError:
    details: dict[str, Any] = {}
    if res is not None:
        details.update(group=res.group, kind=res.plural)
    if name is not None:
        details["name"] = name
    return kmock.KubernetesError(status=code, reason=reason, message=message, details=details)


def not_found(res: Res, name: str) -> kmock.KubernetesError:
    return api_error(404, "NotFound", f'{_qualified(res)} "{name}" not found', res, name)


def _qualified(res: Res) -> str:
    return f"{res.plural}.{res.group}" if res.group else res.plural


# --------------------------------------------------------------------------------------------
# E6: selectors.
# --------------------------------------------------------------------------------------------

_SET_TERM = re.compile(r"^\s*([^\s!=(),]+)\s+(in|notin)\s*\(([^)]*)\)\s*$")
_TERM_SPLIT = re.compile(r",(?![^()]*\))")

Predicate = Callable[[Mapping[str, Any]], bool]
Labels = Mapping[str, str]


def _label_term(term: str) -> Callable[[Labels], bool]:
    """One term of a label selector: ``k=v``, ``k==v``, ``k!=v``, ``k in (..)``, ``!k``, ``k``."""
    if m := _SET_TERM.match(term):
        key, negate = m.group(1), m.group(2) == "notin"
        values = {v.strip() for v in m.group(3).split(",")}

        def in_set(labels: Labels) -> bool:
            return (key in labels and labels[key] in values) != negate

        return in_set
    if "=" in term:
        negate = "!=" in term
        key, value = (s.strip() for s in re.split(r"!=|==|=", term, maxsplit=1))

        def equals(labels: Labels) -> bool:
            return (labels.get(key) == value) != negate

        return equals
    negate = term.startswith("!")
    key = term.lstrip("!").strip()

    def exists(labels: Labels) -> bool:
        return (key in labels) != negate

    return exists


def label_selector(text: str | None) -> Predicate:
    """A predicate on objects for a label selector: ``a=b,c!=d,e in (f,g),!h,i``."""
    terms = [_label_term(t.strip()) for t in _TERM_SPLIT.split(text or "") if t.strip()]

    def matches(obj: Mapping[str, Any]) -> bool:
        labels = obj.get("metadata", {}).get("labels") or {}
        return all(term(labels) for term in terms)

    return matches


def field_selector(text: str | None) -> Predicate:
    """A predicate for a field selector: ``metadata.name=x,involvedObject.uid!=y``."""
    terms: list[tuple[str, str, bool]] = []
    for term in (text or "").split(","):
        if term.strip():
            path, value = (s.strip() for s in re.split(r"!=|==|=", term, maxsplit=1))
            terms.append((path, value, "!=" in term))

    def matches(obj: Mapping[str, Any]) -> bool:
        return all((_field(obj, path) == value) != negate for path, value, negate in terms)

    return matches


def _field(obj: Mapping[str, Any], path: str) -> str:
    value: Any = obj
    for part in path.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


# --------------------------------------------------------------------------------------------
# E8: RFC 7386 JSON merge patch.
# --------------------------------------------------------------------------------------------


def merge_patch(target: Any, patch: Any) -> Any:
    """Apply an RFC 7386 merge patch: dicts merge, ``None`` deletes, the rest replaces."""
    if not isinstance(patch, Mapping):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, Mapping) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def _content_type(request: rendering.Request) -> str:
    for header, value in request.headers.items():
        if header.lower() == "content-type":
            return str(value).split(";")[0].strip().lower()
    return ""


def _expired(message: str) -> dict[str, Any]:
    status = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
              "reason": "Expired", "code": 410, "message": message}  # fmt: skip
    return {"type": "ERROR", "object": status}


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _without(obj: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k not in keys}


@dataclasses.dataclass(frozen=True)
class Change:
    """One entry of the change log that feeds the watches (E5)."""

    rv: int
    resource: kmock.resource
    type: str  # ADDED, MODIFIED, DELETED
    obj: dict[str, Any]
    old: dict[str, Any] | None  # the previous state, for selector transitions (E6)


@attrs.define(kw_only=True)
class ClusterEmulator(kmock.KubernetesEmulator):
    """``kmock.KubernetesEmulator`` with the apiserver behaviours listed in the module doc.

    KMock's DSL stays available for fault injection and assertions (``emulator[...] << 503``,
    ``emulator.objects[...]``): writes still change the stored state first, as in KMock,
    and user reactions then decide the responses (E16: at KMock's speed). Create it inside
    the event loop that serves it (see :class:`EmulatorServer`).
    """

    max_log: int = 100_000  # watch events kept for resuming watches (E5)
    max_requests: int = 100_000  # requests kept for inspection (E16)
    crds: Iterable[Mapping[str, Any]] = attrs.field(factory=product_crds)
    namespaces: Iterable[str] = DEFAULT_NAMESPACES
    server_version: Mapping[str, str] = attrs.field(factory=lambda: dict(SERVER_VERSION))

    pod_logs: dict[tuple[str, str], str] = attrs.field(factory=dict, init=False)
    _rv: int = attrs.field(default=0, init=False)
    _log: list[Change] = attrs.field(factory=list, init=False)
    _log_rvs: list[int] = attrs.field(factory=list, init=False)
    _log_floor: int = attrs.field(default=0, init=False)
    _tick: asyncio.Event = attrs.field(factory=asyncio.Event, init=False)
    _closing: bool = attrs.field(default=False, init=False)
    _outcomes: dict[rendering.Request, dict[str, Any]] = attrs.field(factory=dict, init=False)
    _own_payloads: list[Any] = attrs.field(factory=list, init=False)

    @property
    def _discovery_routes(
        self,
    ) -> dict[str, Callable[[rendering.Request], Awaitable[rendering.Payload]]]:
        return {
            "/": self._serve_root,
            "/api": self._serve_api,
            "/apis": self._serve_apis,
            "/version": self._serve_server_version,
        }

    def __attrs_post_init__(self) -> None:
        # Discovery & the 404 catch-all come from KMock's scaffold; the object-serving
        # fallbacks are ours (KubernetesEmulator's are not registered at all).
        kmock.KubernetesScaffold.__attrs_post_init__(self)
        json_type = {"Content-Type": "application/json"}
        self.fallback[kmock.action.WATCH] << kmock.headers(json_type) << self._serve_watch
        self.fallback[kmock.action.LIST] << self._serve_list
        self.fallback[kmock.action.FETCH] << self._serve_fetch
        self.fallback[kmock.action.CREATE] << self._serve_outcome
        self.fallback[kmock.action.UPDATE] << self._serve_outcome
        self.fallback[kmock.action.DELETE] << self._serve_outcome
        self.fallback[kmock.method.PUT] << self._serve_outcome
        self.fallback[kmock.method.DELETE] << self._serve_outcome

        for res, (kind, singular, namespaced, short, subs, cats) in BUILTIN_RESOURCES.items():
            self.declare(res, kind=kind, singular=singular, namespaced=namespaced,
                         shortnames=short, subresources=subs, categories=cats)  # fmt: skip
        for ns in self.namespaces:
            self._create(NAMESPACES, None, {"metadata": {"name": ns}})
        for crd in self.crds:
            self._create(CRDS, None, copy.deepcopy(dict(crd)))
        self._own_payloads = list(self._payloads)

    # ---------------------------------------------------------------------------- declaring

    def declare(
        self,
        res: Res,
        *,
        kind: str,
        singular: str | None = None,
        namespaced: bool = True,
        shortnames: Iterable[str] = (),
        subresources: Iterable[str] = (),
        categories: Iterable[str] = (),
    ) -> None:
        """Declare a resource for discovery and for serving (E10)."""
        self.resources[self._key(res)] = kmock.ResourceInfo(
            kind=kind,
            singular=singular or kind.lower(),
            namespaced=namespaced,
            verbs=ALL_VERBS,
            shortnames=set(shortnames),
            subresources=set(subresources),
            categories=set(categories),
        )

    @staticmethod
    def _key(res: Res | kmock.resource) -> kmock.resource:
        return kmock.resource(res.group, res.version, res.plural)

    def _res(self, key: kmock.resource | None) -> Res | None:
        """The declared resource of a request, or None (undeclared or not a resource URL)."""
        if key is None or key.plural is None or key.group is None or key.version is None:
            return None
        if key not in self.resources:
            return None
        info = self.resources[key]
        return Res(key.group, key.version, key.plural, namespaced=bool(info.namespaced))

    def _info(self, res: Res) -> kmock.ResourceInfo:
        return self.resources[self._key(res)]

    def _get_resources(self) -> list[kmock.resource]:
        # Discovery shows declared resources (and KMock's DSL-implied ones), not every
        # resource that ever had an object: a deleted CRD's resource must disappear (E10).
        return kmock.KubernetesScaffold._get_resources(self)

    # ---------------------------------------------------------------------------- the store

    def live(self, res: Res, namespace: str | None, name: str) -> dict[str, Any] | None:
        """The current state of an object, or None. Call it in the serving loop."""
        key = (self._key(res), namespace if res.namespaced else None, name)
        if key not in self.objects:
            return None
        obj = self.objects[key]
        return None if obj.deleted else obj.raw

    def select(
        self, res: Res, namespace: str | None = None, where: Predicate | None = None
    ) -> list[dict[str, Any]]:
        """The live objects of a resource (all namespaces if ``namespace`` is None)."""
        key = self._key(res)
        found = []
        for (r, ns, _), obj in self.objects.items():
            if r == key and not obj.deleted and (namespace is None or ns == namespace):
                raw = obj.raw
                if where is None or where(raw):
                    found.append(raw)
        return found

    def _record(self, res: Res, kind: str, obj: dict[str, Any], old: dict[str, Any] | None) -> None:
        change = Change(self._rv, self._key(res), kind, obj, old)
        self._log.append(change)
        self._log_rvs.append(change.rv)
        if len(self._log) > 2 * self.max_log:
            self._log_floor = self._log_rvs[-self.max_log - 1]
            del self._log[: -self.max_log], self._log_rvs[: -self.max_log]
        self._tick.set()
        self._tick = asyncio.Event()

    def _bump(self, obj: dict[str, Any]) -> dict[str, Any]:
        self._rv += 1
        obj.setdefault("metadata", {})["resourceVersion"] = str(self._rv)
        return obj

    # ------------------------------------------------------------------------------ writes

    async def _handle(self, request: rendering.Request) -> Any:
        res = self._res(request.resource)
        if res is not None:  # writes change the state first, even if a reaction intercepts
            async with self._lock:
                outcome = self._mutate(res, request)
            if outcome is not None:
                self._outcomes[request] = outcome
        try:
            if self._has_user_reactions():
                return await apps.RawHandler._handle(self, request)
            return await self._dispatch(request)
        finally:
            self._outcomes.pop(request, None)

    def _has_user_reactions(self) -> bool:
        own = self._own_payloads
        return len(self._payloads) != len(own) or any(
            mine is not current for mine, current in zip(own, self._payloads, strict=True)
        )

    async def _dispatch(self, request: rendering.Request) -> Any:
        """E16: serve as our fallbacks would, without KMock's reaction matching.

        KMock decides whether a reaction matches a request by replaying *every* request
        received so far through the reaction's filters (``request in view`` iterates the
        view), so each request costs O(requests so far x reactions): a benchmark slows to
        seconds per request. Without user reactions, the routing below is equivalent.
        """
        if len(self._requests) > self.max_requests:  # the history is for DSL users only
            del self._requests[: -self.max_requests // 2]
        if self._errors and len(self._errors[-1]) > self.max_requests:  # 404s and the like
            del self._errors[-1][: -self.max_requests // 2]
        method = str(request.method.value).upper()
        path, key = request.url.path, request.resource
        headers: dict[str, str | None] | None = None
        serve: Callable[[rendering.Request], Awaitable[Any] | AsyncIterator[Any]]
        if method == "GET" and path in self._discovery_routes:
            serve = self._discovery_routes[path]
        elif method == "GET" and key is not None and key.plural is None:
            serve = self._serve_group if key.version is None else self._serve_version
        elif request.action == kmock.action.WATCH:
            serve, headers = self._serve_watch, {"Content-Type": "application/json"}
        elif request.action == kmock.action.LIST:
            serve = self._serve_list
        elif request.action == kmock.action.FETCH:
            serve = self._serve_fetch
        elif key is not None and method in {"POST", "PATCH", "PUT", "DELETE"}:
            serve = self._serve_outcome
        else:
            raise kmock.KubernetesEndpointNotFoundError()
        return await rendering.Response(payload=serve, headers=headers)(request)

    def _mutate(self, res: Res, request: rendering.Request) -> dict[str, Any] | None:
        method = str(request.method.value).upper()
        name, ns, sub, data = request.name, request.namespace, request.subresource, request.data
        if "protobuf" in _content_type(request):
            raise api_error(
                415,
                "UnsupportedMediaType",
                "the emulator speaks JSON only: kubectl's typed generators (kubectl create "
                "namespace/secret/...) send protobuf; use manifests (kubectl apply/create -f)",
            )
        if method == "POST" and name is None:
            return self._create(res, ns, data)
        if name is None:
            if method == "DELETE":
                return self._delete_collection(res, ns, request.params)
            return None
        if method not in {"PATCH", "PUT", "DELETE"}:
            return None
        if sub not in (None, "status") or (sub and sub not in self._info(res).subresources):
            raise api_error(404, "NotFound", "the server could not find the requested resource")
        old = self.live(res, ns, name)
        if old is None:
            raise not_found(res, name)
        if method == "DELETE":
            options = data if isinstance(data, Mapping) else {}
            return self._delete(res, old, options.get("propagationPolicy"))
        if method == "PUT":
            if not isinstance(data, Mapping):
                raise api_error(400, "BadRequest", "the body of a PUT must be an object")
            self._check_version(res, old, data)
            if data.get("metadata", {}).get("name", name) != name:
                raise api_error(400, "BadRequest", "the name of the object does not match")
            return self._update(res, old, copy.deepcopy(dict(data)), sub)
        return self._update(res, old, self._patched(res, old, request), sub)

    def _patched(self, res: Res, old: dict[str, Any], request: rendering.Request) -> Any:
        content_type = _content_type(request)
        data = request.data
        if content_type == "application/apply-patch+yaml":
            raise api_error(415, "UnsupportedMediaType", "server-side apply is not emulated")
        if content_type == "application/json-patch+json" or isinstance(data, list):
            try:
                return jsonpatch.apply_patch(old, data)
            except jsonpatch.JsonPatchTestFailed as e:
                raise api_error(422, "Invalid", f"the JSON patch test failed: {e}") from e
            except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException) as e:
                raise api_error(422, "Invalid", f"the JSON patch cannot apply: {e}") from e
        if not isinstance(data, Mapping):
            raise api_error(400, "BadRequest", "a merge patch must be a JSON object")
        self._check_version(res, old, data)
        return merge_patch(old, data)

    def _check_version(self, res: Res, old: dict[str, Any], data: Mapping[str, Any]) -> None:
        wanted = (data.get("metadata") or {}).get("resourceVersion")
        if wanted and wanted != old["metadata"]["resourceVersion"]:
            name = old["metadata"]["name"]
            raise api_error(
                409,
                "Conflict",
                f'Operation cannot be fulfilled on {_qualified(res)} "{name}": the object has '
                "been modified; please apply your changes to the latest version and try again",
                res,
                name,
            )

    def _create(self, res: Res, url_ns: str | None, body: Any) -> dict[str, Any]:
        if not isinstance(body, Mapping):
            raise api_error(400, "BadRequest", "the body of a create must be a JSON object")
        info = self._info(res)
        obj = copy.deepcopy(dict(body))
        meta = obj.setdefault("metadata", {})
        if res.namespaced:
            ns = url_ns or meta.get("namespace")
            if url_ns and meta.get("namespace") not in (None, url_ns):
                raise api_error(
                    400,
                    "BadRequest",
                    "the namespace of the provided object does not match the namespace sent "
                    "on the request",
                )
            if not ns:
                raise api_error(400, "BadRequest", "a namespace is required")
            if self.live(NAMESPACES, None, ns) is None:
                raise not_found(NAMESPACES, ns)
            meta["namespace"] = ns
        else:
            ns = None
            meta.pop("namespace", None)
        name = meta.get("name")
        if not name:
            prefix = meta.get("generateName")
            if not prefix:
                raise api_error(422, "Invalid", "metadata.name or generateName is required")
            while not name or self.live(res, ns, name) is not None:
                name = prefix + "".join(secrets.choice(_GENERATE_ALPHABET) for _ in range(5))
        if self.live(res, ns, name) is not None:
            raise api_error(
                409, "AlreadyExists", f'{_qualified(res)} "{name}" already exists', res, name
            )
        if res == CRDS:
            self._check_crd(obj)
        obj["apiVersion"] = res.api_version
        obj["kind"] = info.kind
        meta.update(name=name, uid=str(uuid.uuid4()), creationTimestamp=_now(), generation=1)
        for transient in ("deletionTimestamp", "deletionGracePeriodSeconds", "resourceVersion"):
            meta.pop(transient, None)
        if "status" in info.subresources:
            obj.pop("status", None)
        if res == NAMESPACES:
            obj["status"] = {"phase": "Active"}
        if res == SECRETS:
            self._encode_string_data(obj)
        if res == CRDS:
            self._establish_crd(obj)
        self._bump(obj)
        key = (self._key(res), ns, name)
        if key in self.objects:
            self.objects[key].create(obj)  # re-created after a deletion: KMock keeps history
        else:
            self.objects[key] = obj
        self._record(res, "ADDED", obj, None)
        return obj

    def _update(self, res: Res, old: dict[str, Any], new: Any, sub: str | None) -> dict[str, Any]:
        if not isinstance(new, dict):
            raise api_error(422, "Invalid", "the patched object is not a JSON object")
        new = copy.deepcopy(new)  # merge patches share sub-dicts with the stored version
        info = self._info(res)
        has_status = "status" in info.subresources
        if sub == "status":
            result = copy.deepcopy(old)
            result.pop("status", None)
            if new.get("status") is not None:
                result["status"] = new["status"]
        else:
            result = new
            if has_status:
                result.pop("status", None)
                if "status" in old:
                    result["status"] = copy.deepcopy(old["status"])
        meta = result.setdefault("metadata", {})
        old_meta = old["metadata"]
        for fixed in SERVER_SET_METADATA:
            if fixed in old_meta:
                meta[fixed] = old_meta[fixed]
            else:
                meta.pop(fixed, None)
        result["apiVersion"], result["kind"] = old["apiVersion"], old["kind"]
        if res == SECRETS:
            self._encode_string_data(result)
        if result == old:
            return old  # a no-op: the apiserver keeps the resource version as it is
        ignored = ("metadata", "status") if has_status else ("metadata",)
        if _without(result, *ignored) != _without(old, *ignored):
            meta["generation"] = int(old_meta.get("generation", 1)) + 1
        if res == CRDS:
            self._check_crd(result)
            self._establish_crd(result)
        if meta.get("deletionTimestamp") and not meta.get("finalizers"):
            return self._remove(res, result, old)
        self._bump(result)
        key = (self._key(res), meta.get("namespace"), meta["name"])
        self.objects[key].history.append(result)
        self._record(res, "MODIFIED", result, old)
        return result

    def _delete(self, res: Res, old: dict[str, Any], policy: str | None) -> dict[str, Any]:
        meta = old["metadata"]
        if meta.get("deletionTimestamp"):
            return old
        if meta.get("finalizers"):
            marked = copy.deepcopy(old)
            marked["metadata"].update(deletionTimestamp=_now(), deletionGracePeriodSeconds=0)
            self._bump(marked)
            key = (self._key(res), meta.get("namespace"), meta["name"])
            self.objects[key].history.append(marked)
            self._record(res, "MODIFIED", marked, old)
            return marked
        return self._remove(res, copy.deepcopy(old), old, policy)

    def _remove(
        self, res: Res, final: dict[str, Any], old: dict[str, Any], policy: str | None = None
    ) -> dict[str, Any]:
        """Really delete: DELETED event, then namespaces' contents, CRs and dependents."""
        meta = final["metadata"]
        self._bump(final)
        key = (self._key(res), meta.get("namespace"), meta["name"])
        self.objects[key].history.append(final)
        self.objects[key].delete()
        self._record(res, "DELETED", final, old)
        if res == NAMESPACES:
            for (rkey, ns, _), obj in list(self.objects.items()):
                other = self._res(rkey)
                if ns == meta["name"] and other is not None and not obj.deleted:
                    self._delete(other, obj.raw, None)
        if res == CRDS:
            self._drop_crd(final)
        if policy is None and res == JOBS:
            policy = "Orphan"  # batch/v1 Jobs default to orphaning when deleted via the API
        if policy != "Orphan":
            self._collect_garbage(meta["uid"])
        return final

    def _collect_garbage(self, owner_uid: str) -> None:
        for (rkey, _, _), obj in list(self.objects.items()):
            other = self._res(rkey)
            if obj.deleted or other is None:
                continue
            raw = obj.raw
            refs = raw.get("metadata", {}).get("ownerReferences") or []
            if any(ref.get("uid") == owner_uid for ref in refs):
                self._delete(other, raw, "Background")

    def _delete_collection(
        self, res: Res, ns: str | None, params: Mapping[str, str]
    ) -> dict[str, Any]:
        labels = label_selector(params.get("labelSelector"))
        fields = field_selector(params.get("fieldSelector"))
        items = [
            self._delete(res, obj, None)
            for obj in self.select(res, ns, lambda o: labels(o) and fields(o))
        ]
        return self._list_body(res, items)

    # ------------------------------------------------------------------ E10: CRDs, E13: secrets

    @staticmethod
    def _check_crd(obj: Mapping[str, Any]) -> None:
        spec = obj.get("spec") or {}
        names = spec.get("names") or {}
        expected = f"{names.get('plural')}.{spec.get('group')}"
        if obj.get("metadata", {}).get("name") != expected or not names.get("kind"):
            raise api_error(422, "Invalid", f"a CRD must be named {expected!r} and have a kind")

    def _establish_crd(self, obj: dict[str, Any]) -> None:
        spec = obj["spec"]
        names = spec["names"]
        for version in spec.get("versions") or []:
            if version.get("served", True):
                self.declare(
                    Res(spec["group"], version["name"], names["plural"]),
                    kind=names["kind"],
                    singular=names.get("singular"),
                    namespaced=spec.get("scope", "Namespaced") == "Namespaced",
                    shortnames=names.get("shortNames") or (),
                    subresources=(version.get("subresources") or {}).keys(),
                    categories=names.get("categories") or (),
                )
        now = _now()
        obj["status"] = {
            "acceptedNames": names,
            "storedVersions": [v["name"] for v in spec.get("versions") or [] if v.get("storage")],
            "conditions": [
                {"type": t, "status": "True", "reason": r, "lastTransitionTime": now}
                for t, r in [("NamesAccepted", "NoConflicts"),
                             ("Established", "InitialNamesAccepted")]
            ],
        }  # fmt: skip

    def _drop_crd(self, obj: Mapping[str, Any]) -> None:
        spec = obj["spec"]
        for version in spec.get("versions") or []:
            res = self._res(self._key(Res(spec["group"], version["name"], spec["names"]["plural"])))
            if res is not None:
                for item in self.select(res):
                    self._remove(res, copy.deepcopy(item), item)
                del self.resources[self._key(res)]

    @staticmethod
    def _encode_string_data(obj: dict[str, Any]) -> None:
        string_data = obj.pop("stringData", None) or {}
        if string_data:
            data = obj.setdefault("data", {})
            for key, value in string_data.items():
                data[key] = base64.b64encode(str(value).encode()).decode()

    # ------------------------------------------------------------------------------ reads

    def _require(self, request: rendering.Request) -> Res:
        res = self._res(request.resource)
        if res is None:
            raise api_error(404, "NotFound", "the server could not find the requested resource")
        return res

    def _list_body(self, res: Res, items: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "kind": f"{self._info(res).kind}List",
            "apiVersion": res.api_version,
            "metadata": {"resourceVersion": str(self._rv)},
            "items": items,
        }

    async def _serve_outcome(self, request: rendering.Request) -> rendering.Payload:
        self._require(request)
        if request not in self._outcomes:
            raise api_error(405, "MethodNotAllowed", "the server does not allow this method")
        return self._outcomes[request]

    async def _serve_list(self, request: rendering.Request) -> rendering.Payload:
        res = self._require(request)
        labels = label_selector(request.params.get("labelSelector"))
        fields = field_selector(request.params.get("fieldSelector"))
        async with self._lock:
            items = self.select(res, request.namespace, lambda o: labels(o) and fields(o))
            return self._list_body(res, items)

    async def _serve_fetch(self, request: rendering.Request) -> rendering.Payload:
        res = self._require(request)
        name = request.name or ""
        async with self._lock:
            obj = self.live(res, request.namespace, name)
        if obj is None:
            raise not_found(res, name)
        if request.subresource == "log" and res == PODS:
            return self.pod_logs.get((request.namespace or "", name), "").encode()
        if request.subresource not in (None, "status"):
            raise api_error(404, "NotFound", "the server could not find the requested resource")
        return obj

    async def _serve_server_version(self, request: rendering.Request) -> rendering.Payload:
        return dict(self.server_version)

    async def _serve_version(self, request: rendering.Request) -> rendering.Payload:
        listing = await super()._serve_version(request)
        if isinstance(listing, dict):
            listing["groupVersion"] = listing["groupVersion"].lstrip("/")  # "/v1" for the core
            for entry in listing.get("resources", []):
                if "/" in entry["name"]:
                    log = entry["name"].endswith("/log")
                    verbs = ["get"] if log else ["get", "patch", "update"]
                    entry.update(shortNames=[], categories=[], verbs=verbs)
        return listing

    async def _serve_watch(self, request: rendering.Request) -> AsyncIterator[rendering.Payload]:
        res = self._require(request)
        key = self._key(res)
        params = request.params
        labels = label_selector(params.get("labelSelector"))
        fields = field_selector(params.get("fieldSelector"))
        ns, name = request.namespace, request.name

        def matches(obj: Mapping[str, Any] | None) -> bool:
            meta = (obj or {}).get("metadata", {})
            return bool(
                obj is not None
                and (ns is None or meta.get("namespace") == ns)
                and (name is None or meta.get("name") == name)
                and labels(obj)
                and fields(obj)
            )

        loop = asyncio.get_running_loop()
        timeout = params.get("timeoutSeconds")
        deadline = loop.time() + float(timeout) if timeout else None
        since = params.get("resourceVersion") or "0"
        initial_events = params.get("sendInitialEvents") == "true"
        kind = self._info(res).kind
        async with self._lock:
            backlog: list[rendering.Payload] = []
            if since == "0" or initial_events:
                cursor = self._rv
                backlog = [{"type": "ADDED", "object": o} for o in self.select(res, ns, matches)]
                if initial_events:
                    backlog.append({"type": "BOOKMARK", "object": {
                        "kind": kind, "apiVersion": res.api_version, "metadata": {
                            "resourceVersion": str(cursor),
                            "annotations": {"k8s.io/initial-events-end": "true"}}}})  # fmt: skip
            elif not since.isdigit() or int(since) < self._log_floor:
                cursor = -1
                backlog = [_expired(f"too old resource version: {since} ({self._log_floor})")]
            else:
                cursor = int(since)

        yield b""  # send the headers now: the stream is established
        for event in backlog:
            yield event
        if cursor < 0:
            return

        transport = request._raw_request.transport if request._raw_request else None
        while not self._closing:
            if transport is not None and transport.is_closing():
                return
            if cursor < self._log_floor:  # this watcher fell behind the trimmed change log
                yield _expired("the watch fell behind the change log")
                return
            tick = self._tick
            start = bisect.bisect_right(self._log_rvs, cursor)
            changes = self._log[start:]
            if not changes:
                wait = 1.0 if deadline is None else min(1.0, deadline - loop.time())
                if wait <= 0:
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(tick.wait(), timeout=wait)
                continue
            cursor = changes[-1].rv
            for change in changes:
                if change.resource != key:
                    continue
                now, before = matches(change.obj), matches(change.old)
                if change.type == "MODIFIED" and now != before:
                    yield {"type": "ADDED" if now else "DELETED", "object": change.obj}
                elif now or (change.type == "DELETED" and before):
                    yield {"type": change.type, "object": change.obj}

    def shutdown(self) -> None:
        """End all watch streams (so that the HTTP server can stop without waiting)."""
        self._closing = True
        self._tick.set()


# --------------------------------------------------------------------------------------------
# The HTTP server in a background thread, and the kubeconfig.
# --------------------------------------------------------------------------------------------


class EmulatorServer:
    """Serve a :class:`ClusterEmulator` on ``127.0.0.1:<free port>`` from a background thread.

    Usage::

        with EmulatorServer() as server:
            server.write_kubeconfig(tmp_path / "kubeconfig")
            server.url  # http://127.0.0.1:PORT
            server.call(lambda emu: emu.select(JOBS))  # runs in the server's loop, locked
    """

    def __init__(
        self,
        factory: Callable[[], kmock.KubernetesEmulator] = ClusterEmulator,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
    ) -> None:
        self._factory = factory
        self._host = host
        self._port = port
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._emulator: kmock.KubernetesEmulator | None = None
        self.url = ""

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    @property
    def emulator(self) -> kmock.KubernetesEmulator:
        """The emulator itself: touch its state only through :meth:`call`."""
        if self._emulator is None:
            raise RuntimeError("the emulator server is not running")
        return self._emulator

    def start(self, timeout: float = 15) -> Self:
        self._thread = threading.Thread(target=self._run, name="kmock-emulator", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError("the KMock emulator did not start in time")
        if self._failure is not None:
            raise RuntimeError("the KMock emulator failed to start") from self._failure
        return self

    def stop(self, timeout: float = 15) -> None:
        if self._loop is not None and self._stopping is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stopping.set)
        if self._thread is not None:
            self._thread.join(timeout)
        self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as e:  # surfaced to start(); the thread must not die silently
            self._failure = e
        finally:
            self._ready.set()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        emulator = self._factory()
        async with emulator, kmock.Server(emulator, host=self._host, port=self._port) as server:
            self._emulator = emulator
            self.url = f"http://{server.host}:{server.port}"
            self._ready.set()
            await self._stopping.wait()
            if isinstance(emulator, ClusterEmulator):
                emulator.shutdown()
                await asyncio.sleep(0)

    def call(self, fn: Callable[[Any], T], timeout: float = 10) -> T:
        """Run ``fn(emulator)`` in the server's loop, under the emulator's lock; return that."""
        if self._loop is None:
            raise RuntimeError("the emulator server is not running")
        emulator = self.emulator

        async def locked() -> T:
            async with emulator._lock:
                return fn(emulator)

        future: concurrent.futures.Future[T] = asyncio.run_coroutine_threadsafe(
            locked(), self._loop
        )
        return future.result(timeout)

    def request_log(self) -> list[str]:
        """``"METHOD /path?query"`` of every request served so far (for debugging)."""
        return self.call(lambda emu: [f"{r.method.value} {r.url.path_qs}" for r in emu._requests])

    def set_pod_log(self, namespace: str, pod: str, text: str) -> None:
        """Store what a pod printed, for ``GET .../pods/<pod>/log`` (E14)."""

        def store(emu: ClusterEmulator) -> None:
            emu.pod_logs[namespace, pod] = text

        self.call(store)

    def write_kubeconfig(self, path: Path, namespace: str = "default") -> Path:
        return write_kubeconfig(path, self.url, namespace=namespace)


def write_kubeconfig(
    path: Path, server: str, *, namespace: str = "default", name: str = "kmock"
) -> Path:
    """Write a kubeconfig for an insecure HTTP API server without credentials."""
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": name, "cluster": {"server": server}}],
        "users": [{"name": name, "user": {}}],
        "contexts": [
            {"name": name, "context": {"cluster": name, "user": name, "namespace": namespace}}
        ],
        "current-context": name,
        "preferences": {},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path
