"""Why each extension of KMock exists: plain KMock (left) vs. ClusterEmulator (right).

Each test does the same thing to a plain ``kmock.KubernetesEmulator`` (with the same
resources declared) and to our :class:`ClusterEmulator`, asserting what plain KMock does
that a kopf operator, kubectl or the kubernetes client cannot live with, and that ours
behaves like the apiserver. When a KMock upgrade makes a "plain" assertion fail, the
corresponding extension (E-number, see testing/k8s/emulator.py) may be obsolete.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import kmock
import pytest
from kmock._internal import apps

from testing.k8s.client import ApiError, K8sApi
from testing.k8s.emulator import ORIGINAL_PARSE_PATH, EmulatorServer, parse_path
from testing.k8s.resources import (
    BUILTIN_RESOURCES,
    CRDS,
    EVENTS,
    JOBS,
    NAMESPACES,
    NBM_KIND,
    NBMS,
    PODS,
    SECRETS,
    Res,
)


def plain_kmock() -> kmock.KubernetesEmulator:
    emulator = kmock.KubernetesEmulator()
    declared = {**BUILTIN_RESOURCES, NBMS: (NBM_KIND, "nbm", True, {"nbm"}, {"status"}, set())}
    for res, (kind, singular, namespaced, short, subs, cats) in declared.items():
        emulator.resources[kmock.resource(res.group, res.version, res.plural)] = (
            kmock.ResourceInfo(kind=kind, singular=singular, namespaced=namespaced,
                               verbs={"get", "list", "watch", "create", "patch", "delete"},
                               shortnames=short, subresources=subs, categories=cats)
        )  # fmt: skip
    return emulator


@pytest.fixture
def plain(tmp_path: Path) -> Iterator[K8sApi]:
    with EmulatorServer(plain_kmock) as server:
        api = K8sApi(server.write_kubeconfig(tmp_path / "plain-kubeconfig"), server=server)
        yield api
        api.close()


@pytest.fixture
def ours(k8s_emulator: EmulatorServer, k8s_api: K8sApi) -> K8sApi:
    return k8s_api


def attempt(call: Callable[[], Any]) -> Any:
    """The call's result, or the ApiError it raised."""
    try:
        return call()
    except ApiError as e:
        return e


def job(name: str, **labels: str) -> dict[str, Any]:
    return {"metadata": {"name": name, "labels": labels}, "spec": {"template": {}}}


def nbm(name: str, **extra: Any) -> dict[str, Any]:
    return {"kind": NBM_KIND, "metadata": {"name": name}, "spec": {"x": 1}, **extra}


def test_e1_namespaces_urls_parse(ours: K8sApi) -> None:
    with pytest.raises(ValueError):  # plain KMock: "not enough values to unpack" -> HTTP 500
        ORIGINAL_PARSE_PATH("/api/v1/namespaces")
    assert ORIGINAL_PARSE_PATH("/api/v1/namespaces/default").plural is None

    assert parse_path("/api/v1/namespaces/default/status").subresource == "status"
    assert parse_path("/api/v1/namespaces/default/pods").plural == "pods"
    assert {ns["metadata"]["name"] for ns in ours.list(NAMESPACES)} >= {"default"}
    assert ours.get(NAMESPACES, "default")["status"] == {"phase": "Active"}


def test_e2_server_set_metadata(plain: K8sApi, ours: K8sApi) -> None:
    assert "uid" not in plain.create(NBMS, nbm("a"))["metadata"]

    meta = ours.create(NBMS, nbm("a"))["metadata"]
    assert meta["resourceVersion"].isdigit() and meta["generation"] == 1
    assert meta["uid"] and meta["creationTimestamp"].endswith("Z")
    patched = ours.patch(NBMS, "a", {"spec": {"x": 2}})["metadata"]
    assert int(patched["resourceVersion"]) > int(meta["resourceVersion"])
    assert patched["generation"] == 2 and patched["uid"] == meta["uid"]


def test_e3_generate_name(plain: K8sApi, ours: K8sApi) -> None:
    event = {"metadata": {"generateName": "kopf-event-"}, "reason": "Test"}
    plain.create(EVENTS, event)
    assert isinstance(attempt(lambda: plain.create(EVENTS, event)), ApiError)

    names = {ours.create(EVENTS, event)["metadata"]["name"] for _ in range(3)}
    assert len(names) == 3 and all(n.startswith("kopf-event-") for n in names)


def test_e4_lists_have_kind_and_version(plain: K8sApi, ours: K8sApi) -> None:
    assert "kind" not in plain.request("GET", JOBS.path("default"))
    assert plain.request("GET", JOBS.path("default"))["metadata"]["resourceVersion"] == "..."

    listing = ours.request("GET", JOBS.path("default"))
    assert (listing["kind"], listing["apiVersion"]) == ("JobList", "batch/v1")
    assert listing["metadata"]["resourceVersion"].isdigit()


def test_e5_watches_resume_from_a_resource_version(plain: K8sApi, ours: K8sApi) -> None:
    for api in (plain, ours):
        api.create(JOBS, job("before"))
    version = ours.request("GET", JOBS.path("default"))["metadata"]["resourceVersion"]
    for api in (plain, ours):
        api.create(JOBS, job("after"))

    def names(api: K8sApi, since: str) -> list[tuple[str, str]]:
        events = api.watch(JOBS, params={"resourceVersion": since}, timeout=1)
        return [(e["type"], e["object"].get("metadata", {}).get("name", "")) for e in events]

    assert names(plain, version) == [("ADDED", "before"), ("ADDED", "after")]  # replayed
    assert names(ours, version) == [("ADDED", "after")]
    [(kind, _)] = names(ours, "x")
    assert kind == "ERROR"  # 410 Expired: re-list, as the clients do


def test_e5_initial_events_end_with_a_bookmark(ours: K8sApi) -> None:
    ours.create(JOBS, job("one"))
    params = {"sendInitialEvents": "true", "resourceVersionMatch": "NotOlderThan"}
    events = list(ours.watch(JOBS, params=params, timeout=1))
    assert [e["type"] for e in events] == ["ADDED", "BOOKMARK"]
    annotations = events[-1]["object"]["metadata"]["annotations"]
    assert annotations == {"k8s.io/initial-events-end": "true"}


def test_e6_selectors(plain: K8sApi, ours: K8sApi) -> None:
    for api in (plain, ours):
        api.create(JOBS, job("a", app="x", tier="1"))
        api.create(JOBS, job("b", app="y"))
    assert len(plain.list(JOBS, label_selector="app=x")) == 2  # ignored

    def names(label_selector: str | None = None, field_selector: str | None = None) -> list[str]:
        found = ours.list(JOBS, label_selector=label_selector, field_selector=field_selector)
        return sorted(j["metadata"]["name"] for j in found)

    assert names(label_selector="app=x") == ["a"]
    assert names(label_selector="app!=x") == ["b"]
    assert names(label_selector="app in (x, y),!tier") == ["b"]
    assert names(label_selector="tier") == ["a"]
    assert names(field_selector="metadata.name=b") == ["b"]

    events = ours.watch(JOBS, params={"labelSelector": "app=x", "resourceVersion": "1"}, timeout=1)
    ours.patch(JOBS, "a", {"metadata": {"labels": {"app": "z"}}})  # stops matching
    assert [(e["type"], e["object"]["metadata"]["name"]) for e in events] == [
        ("ADDED", "a"),
        ("DELETED", "a"),
    ]


def test_e7_status_subresource(plain: K8sApi, ours: K8sApi) -> None:
    for api in (plain, ours):
        api.create(NBMS, nbm("s", status={"phase": "Forged"}))
        api.patch(NBMS, "s", {"status": {"phase": "ViaMain"}})
        api.patch(NBMS, "s", {"spec": {"x": 9}, "status": {"n": 1}}, subresource="status")
    assert plain.get(NBMS, "s")["status"] == {"phase": "ViaMain", "n": 1}
    assert plain.get(NBMS, "s")["spec"] == {"x": 9}

    obj = ours.get(NBMS, "s")
    assert obj["status"] == {"n": 1} and obj["spec"] == {"x": 1}
    assert obj["metadata"]["generation"] == 1  # status changes do not move the generation


def test_e8_patches_and_replace(plain: K8sApi, ours: K8sApi) -> None:
    scalar_to_dict = {"spec": {"x": {"nested": True}}}
    test_fails = [{"op": "test", "path": "/metadata/resourceVersion", "value": "0"}]
    for api in (plain, ours):
        api.create(NBMS, nbm("p"))
    assert attempt(lambda: plain.patch(NBMS, "p", scalar_to_dict)).status == 500
    assert attempt(lambda: plain.patch(NBMS, "p", test_fails, patch_type="json")).status == 500
    assert attempt(lambda: plain.replace(NBMS, nbm("p"))).status == 404

    assert ours.patch(NBMS, "p", scalar_to_dict)["spec"] == {"x": {"nested": True}}
    assert attempt(lambda: ours.patch(NBMS, "p", test_fails, patch_type="json")).status == 422
    current = ours.get(NBMS, "p")
    version = current["metadata"]["resourceVersion"]
    assert ours.patch(NBMS, "p", {"spec": {"x": {"nested": True}}}) == current  # no-op
    stale = {"metadata": {"resourceVersion": "1"}, "spec": {"x": 3}}
    assert attempt(lambda: ours.patch(NBMS, "p", stale)).reason == "Conflict"
    replaced = ours.replace(NBMS, {**nbm("p"), "spec": {"y": 1}})
    assert replaced["spec"] == {"y": 1} and replaced["metadata"]["resourceVersion"] > version
    assert attempt(lambda: ours.replace(NBMS, {**current, "spec": {}})).status == 409


def test_e9_standard_error_reasons(plain: K8sApi, ours: K8sApi) -> None:
    for api in (plain, ours):
        api.create(NBMS, nbm("d"))
    assert attempt(lambda: plain.create(NBMS, nbm("d"))).reason == "Object Already Exists"

    duplicate = attempt(lambda: ours.create(NBMS, nbm("d")))
    assert (duplicate.status, duplicate.reason) == (409, "AlreadyExists")
    assert attempt(lambda: ours.get(NBMS, "nope")).reason == "NotFound"


def test_e10_resources_must_be_declared_and_crds_declare_them(plain: K8sApi, ours: K8sApi) -> None:
    widgets = Res("example.com", "v1", "widgets")
    assert plain.create(widgets, {"metadata": {"name": "w"}})  # silently stored
    assert attempt(lambda: ours.create(widgets, {"metadata": {"name": "w"}})).status == 404

    crd = {
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets", "shortNames": ["wg"]},
            "versions": [{"name": "v1", "served": True, "storage": True}],
        },
    }
    ours.create(CRDS, crd)
    discovery = ours.request("GET", "/apis/example.com/v1")["resources"]
    assert [(r["name"], r["kind"], r["shortNames"]) for r in discovery] == [
        ("widgets", "Widget", ["wg"])
    ]
    assert ours.create(widgets, {"metadata": {"name": "w"}})["kind"] == "Widget"
    ours.delete(CRDS, "widgets.example.com")
    assert attempt(lambda: ours.list(widgets)).status == 404


def test_e11_namespaces_exist_and_take_their_objects_along(plain: K8sApi, ours: K8sApi) -> None:
    assert plain.create(JOBS, job("j"), namespace="nowhere")

    assert attempt(lambda: ours.create(JOBS, job("j"), namespace="nowhere")).status == 404
    ours.create(NAMESPACES, {"metadata": {"name": "team"}})
    ours.create(JOBS, job("j"), namespace="team")
    ours.delete(NAMESPACES, "team")
    assert ours.list(JOBS, "team") == []


def test_e12_garbage_collection_and_finalizers(plain: K8sApi, ours: K8sApi) -> None:
    for api in (plain, ours):
        owner = api.create(NBMS, nbm("owner"))
        ref = {"apiVersion": NBMS.api_version, "kind": NBM_KIND, "name": "owner",
               "uid": owner["metadata"].get("uid", "none"), "controller": True}  # fmt: skip
        api.create(JOBS, {**job("child"), "metadata": {"name": "child", "ownerReferences": [ref]}})
        api.delete(NBMS, "owner")
    assert plain.find(JOBS, "child") is not None

    assert ours.find(JOBS, "child") is None
    ours.create(NBMS, nbm("held", metadata={"name": "held", "finalizers": ["x/y"]}))
    marked = ours.delete(NBMS, "held")
    assert marked is not None and marked["metadata"]["deletionTimestamp"]
    ours.patch(NBMS, "held", {"metadata": {"finalizers": None}})
    assert ours.find(NBMS, "held") is None


def test_e12_jobs_orphan_their_pods_unless_told_otherwise(ours: K8sApi) -> None:
    for name, policy in (("keep", None), ("drop", "Background")):
        uid = ours.create(JOBS, job(name))["metadata"]["uid"]
        ref = {"apiVersion": "batch/v1", "kind": "Job", "name": name, "uid": uid}
        ours.create(PODS, {"metadata": {"name": f"{name}-pod", "ownerReferences": [ref]}})
        ours.delete(JOBS, name, propagation=policy)
    assert ours.find(PODS, "keep-pod") is not None
    assert ours.find(PODS, "drop-pod") is None


def test_e13_secret_string_data(plain: K8sApi, ours: K8sApi) -> None:
    secret = {"metadata": {"name": "s"}, "stringData": {"k": "v"}}
    assert "data" not in plain.create(SECRETS, secret)

    created = ours.create(SECRETS, secret)
    assert created["data"] == {"k": "dg=="} and "stringData" not in created


def test_e14_pod_logs(plain: K8sApi, ours: K8sApi, k8s_emulator: EmulatorServer) -> None:
    for api in (plain, ours):
        api.create(PODS, {"metadata": {"name": "p"}})
    assert isinstance(plain.request("GET", PODS.path("default", "p", "log")), dict)  # the pod

    k8s_emulator.set_pod_log("default", "p", "line 1\nline 2\n")
    assert ours.request("GET", PODS.path("default", "p", "log")) == "line 1\nline 2\n"


def test_e15_discovery(plain: K8sApi, ours: K8sApi) -> None:
    assert plain.request("GET", "/api/v1")["groupVersion"] == "/v1"
    assert ours.request("GET", "/api/v1")["groupVersion"] == "v1"

    assert plain.request("GET", "/version")["minor"] == "26"
    discovery = plain.request("GET", f"/apis/{NBMS.group}/{NBMS.version}")["resources"]
    assert {r["name"]: r["shortNames"] for r in discovery}[f"{NBMS.plural}/status"] == ["nbm"]

    assert ours.request("GET", "/version")["minor"] == "36"
    discovery = ours.request("GET", f"/apis/{NBMS.group}/{NBMS.version}")["resources"]
    assert {r["name"]: r["shortNames"] for r in discovery} == {
        NBMS.plural: ["nbm"],
        f"{NBMS.plural}/status": [],
    }


def test_e16_requests_do_not_replay_the_request_history(
    plain: K8sApi, ours: K8sApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[object] = []

    def never(request: kmock.Request) -> bool:
        seen.append(request)
        return False

    def spy(emulator: kmock.KubernetesEmulator) -> None:  # a reaction that never matches
        emulator[kmock.Criteria.guess(never)] << 418

    assert plain.server is not None
    plain.server.call(spy)
    for _ in range(20):
        plain.list(JOBS)
    seen.clear()
    plain.list(JOBS)
    assert len(seen) > 20  # one request, yet every past request went through the filter

    def no_dsl(*_: object) -> None:
        raise AssertionError("KMock's reaction matching was used")

    monkeypatch.setattr(apps.RawHandler, "_handle", no_dsl)
    for _ in range(20):
        ours.list(JOBS)


def test_kmock_dsl_still_injects_faults(ours: K8sApi, k8s_emulator: EmulatorServer) -> None:
    def inject(emulator: kmock.KubernetesEmulator) -> None:
        emulator[kmock.action.CREATE, kmock.resource("batch", "v1", "jobs")][:1] << 503

    k8s_emulator.call(inject)
    failed = attempt(lambda: ours.create(JOBS, job("flaky")))
    assert isinstance(failed, ApiError) and failed.status == 503
    assert ours.find(JOBS, "flaky") is not None  # KMock: the write happened, the answer was lost
    assert attempt(lambda: ours.create(JOBS, job("fine")))["metadata"]["name"] == "fine"
