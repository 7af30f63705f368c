"""A read-through cache over the revision store, for the operator.

The operator rebuilds each modernization from its revisions at every reconcile
(`engine.replay`): without a cache that is a GET per stored file per revision, every time.
Caching is safe because revision files are write-once (`s3.write_s3_once`): once a file
exists its bytes never change. What can change is caught: an absent file is
never remembered as absent, the listing of revisions is never cached, and deleting a
modernization's revisions (retention `Delete`) forgets them here too.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from nbmodernizer.store.layout import NOTEBOOK
from nbmodernizer.store.revisions import RevisionStore

MAX_BYTES = 64 * 2**20
MAX_OBJECT_BYTES = 2**20  # notebooks with large outputs are read from the store each time


class ObjectCache:
    """Bytes of write-once objects by URI; least recently used dropped past `max_bytes`.
    Shared by the operator's worker threads."""

    def __init__(self, max_bytes: int = MAX_BYTES, max_object_bytes: int = MAX_OBJECT_BYTES):
        self.max_bytes = max_bytes
        self.max_object_bytes = max_object_bytes
        self._data: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self._existing: set[str] = set()  # seen to exist, bytes cached or not
        self._lock = threading.Lock()

    def get(self, uri: str) -> bytes | None:
        with self._lock:
            data = self._data.get(uri)
            if data is not None:
                self._data.move_to_end(uri)
            return data

    def put(self, uri: str, data: bytes) -> None:
        with self._lock:
            self._existing.add(uri)
            if len(data) > self.max_object_bytes or uri in self._data:
                return
            self._data[uri] = data
            self._size += len(data)
            while self._size > self.max_bytes:
                _, dropped = self._data.popitem(last=False)
                self._size -= len(dropped)

    def exists(self, uri: str) -> bool:
        with self._lock:
            return uri in self._existing

    def saw(self, uri: str) -> None:
        with self._lock:
            self._existing.add(uri)

    def forget_prefix(self, prefix: str) -> None:
        root = prefix.rstrip("/") + "/"
        with self._lock:
            for uri in [u for u in self._data if u.startswith(root)]:
                self._size -= len(self._data.pop(uri))
            self._existing = {u for u in self._existing if not u.startswith(root)}

    @property
    def size(self) -> int:
        return self._size


class CachedStore:
    """A RevisionStore that reads each write-once file from `inner` once."""

    def __init__(self, inner: RevisionStore, cache: ObjectCache) -> None:
        self.inner = inner
        self.cache = cache

    @property
    def uri(self) -> str:
        return self.inner.uri

    def uri_of(self, revision: int, name: str = NOTEBOOK) -> str:
        return self.inner.uri_of(revision, name)

    def put(self, revision: int, name: str, data: bytes) -> str:
        uri = self.inner.put(revision, name, data)
        self.cache.put(uri, data)
        return uri

    def get(self, revision: int, name: str) -> bytes:
        uri = self.inner.uri_of(revision, name)
        data = self.cache.get(uri)
        if data is None:
            data = self.inner.get(revision, name)
            self.cache.put(uri, data)
        return data

    def exists(self, revision: int, name: str) -> bool:
        """One GET, not a HEAD: whoever asks whether a file is there reads it next (a Job's
        execution.json is graded once it is there), and a GET costs the round trip a HEAD
        does. The file is kept if it is small enough; a larger one's body is not read."""
        uri = self.inner.uri_of(revision, name)
        if self.cache.exists(uri):
            return True
        found = self.inner.get_at_most(revision, name, self.cache.max_object_bytes)
        if isinstance(found, bytes):
            self.cache.put(uri, found)
        elif found is not None:
            self.cache.saw(uri)
        return found is not None

    def get_at_most(self, revision: int, name: str, max_bytes: int) -> bytes | int | None:
        uri = self.inner.uri_of(revision, name)
        data = self.cache.get(uri)
        if data is not None:
            return data if len(data) <= max_bytes else len(data)
        found = self.inner.get_at_most(revision, name, max_bytes)
        if isinstance(found, bytes):
            self.cache.put(uri, found)
        return found

    def revisions(self) -> list[int]:
        return self.inner.revisions()
