"""One active operator among replicas: a coordination.k8s.io/v1 Lease, as client-go does it.

A replica takes the Lease when nobody holds it or its holder stopped renewing it for
`lease_seconds`, then renews it every `renew_seconds`. Only the holder runs the controller; a
standby waits, answering its health probe. The holder that cannot renew for `lease_seconds`
(a network partition, a stalled process) stops at once, so two replicas never act together
for longer than the clock skew between them. A crashed or drained holder is replaced after at
most `lease_seconds + retry_seconds`.

Every write carries the Lease's resourceVersion: of two standbys racing for an expired Lease,
one wins and the other gets 409 Conflict and goes on waiting.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import quote

from nbmodernizer.cluster.kube import Kube, KubeError
from nbmodernizer.cluster.wire import JsonObject, child, number, text

log = logging.getLogger(__name__)


def lease_path(namespace: str, name: str = "") -> str:
    base = f"/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases"
    return f"{base}/{quote(name)}" if name else base


def _micro_time(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_time(stamp: str | None) -> float | None:
    if not stamp:
        return None
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


@dataclass(frozen=True)
class LeaseTiming:
    lease_seconds: float = 15.0
    renew_seconds: float = 5.0
    retry_seconds: float = 2.0

    @staticmethod
    def of(lease_seconds: float) -> LeaseTiming:
        return LeaseTiming(lease_seconds, lease_seconds / 3, min(2.0, lease_seconds / 5))


class LeaderElection:
    def __init__(
        self,
        kube: Kube,
        namespace: str,
        name: str,
        identity: str,
        timing: LeaseTiming = LeaseTiming(),
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.kube, self.namespace, self.name, self.identity = kube, namespace, name, identity
        self.timing, self.clock = timing, clock

    def _spec(self, now: float, transitions: int, acquired: float | None = None) -> JsonObject:
        return {
            "holderIdentity": self.identity,
            "leaseDurationSeconds": max(1, round(self.timing.lease_seconds)),
            "acquireTime": _micro_time(acquired if acquired is not None else now),
            "renewTime": _micro_time(now),
            "leaseTransitions": transitions,
        }

    def try_acquire(self) -> bool:
        """Take the Lease if it is free or expired (or ours); False if another holds it."""
        now = self.clock()
        lease = self.kube.get(lease_path(self.namespace, self.name))
        if lease is None:
            body = {"metadata": {"name": self.name}, "spec": self._spec(now, 0)}
            try:
                self.kube.request("POST", lease_path(self.namespace), body=body)
            except KubeError as error:
                if error.status == 409:
                    return False  # another replica created it first
                raise
            return True
        spec = child(lease, "spec")
        holder = text(spec, "holderIdentity")
        renewed = _parse_time(text(spec, "renewTime")) or 0.0
        duration = float(number(spec, "leaseDurationSeconds") or self.timing.lease_seconds)
        if holder not in (None, "", self.identity) and renewed + duration > now:
            return False
        transitions = (number(spec, "leaseTransitions") or 0) + (holder != self.identity)
        return self._write(lease, self._spec(now, transitions))

    def renew(self) -> bool:
        """Extend our hold; False when the Lease is no longer ours."""
        lease = self.kube.get(lease_path(self.namespace, self.name))
        spec = child(lease or {}, "spec")
        if lease is None or text(spec, "holderIdentity") != self.identity:
            return False
        acquired = _parse_time(text(spec, "acquireTime"))
        transitions = number(spec, "leaseTransitions") or 0
        return self._write(lease, self._spec(self.clock(), transitions, acquired))

    def _write(self, lease: JsonObject, spec: JsonObject) -> bool:
        version = text(child(lease, "metadata"), "resourceVersion")
        patch = {"metadata": {"resourceVersion": version}, "spec": spec}
        try:
            self.kube.merge_patch(lease_path(self.namespace, self.name), patch)
        except KubeError as error:
            if error.status == 409:
                return False  # someone wrote it since we read it
            raise
        return True

    def acquire(self, stop: threading.Event | None = None) -> bool:
        """Wait until we hold the Lease (True), or until `stop` is set (False)."""
        announced = False
        while stop is None or not stop.is_set():
            try:
                if self.try_acquire():
                    log.warning("leading: %s holds lease %s/%s", *self._who())
                    return True
            except KubeError as error:
                log.warning("lease %s/%s: %s", self.namespace, self.name, error)
            if not announced:
                log.warning("standing by: lease %s/%s is held by another replica", *self._who()[1:])
                announced = True
            time.sleep(self.timing.retry_seconds)
        return False

    def _who(self) -> tuple[str, str, str]:
        return self.identity, self.namespace, self.name

    def keep(self, on_lost: Callable[[], None]) -> threading.Thread:
        """Renew in the background; call `on_lost` once the Lease cannot be kept."""

        def renew_forever() -> None:
            last = self.clock()
            while True:
                time.sleep(self.timing.renew_seconds)
                try:
                    if self.renew():
                        last = self.clock()
                        continue
                    reason = "another replica holds it"
                except KubeError as error:
                    # stop a renewal period before a standby may take over (client-go's
                    # renewDeadline); until then, a passing API error is tried again
                    deadline = self.timing.lease_seconds - self.timing.renew_seconds
                    if self.clock() - last < deadline:
                        continue
                    reason = f"no renewal for {deadline:g}s: {error}"
                log.error("lost lease %s/%s: %s", self.namespace, self.name, reason)
                on_lost()
                return

        thread = threading.Thread(target=renew_forever, name="lease-renewal", daemon=True)
        thread.start()
        return thread
