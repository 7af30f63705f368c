"""The operator's read-through cache over the revision store (S3 on moto's server)."""

from __future__ import annotations

from collections import Counter

from nbmodernizer.engine import fix_step, grade_revision, record_result, replay, store_execution
from nbmodernizer.fixers import FixerChain
from nbmodernizer.loop import Execute, RequestFix, start
from nbmodernizer.notebook import serialise
from nbmodernizer.revision import RunOutput
from nbmodernizer.store.cache import CachedStore, ObjectCache
from nbmodernizer.store.layout import NOTEBOOK
from nbmodernizer.store.revisions import S3Store
from testing.factories import ran
from testing.notebooks import notebook
from testing.s3server import S3Bucket, s3_bucket_fixture  # noqa: F401
from tests.test_engine import ANSWERS, SPEC, ChangeOneCell


class CountingStore(S3Store):
    """An S3Store that counts the reads that reach S3 (`calls`) and notes each (`reads`:
    method, revision, file name)."""

    def __init__(self, uri: str) -> None:
        super().__init__(uri)
        self.calls: Counter[str] = Counter()
        self.reads: list[tuple[str, int, str]] = []

    def _note(self, method: str, revision: int = -1, name: str = "") -> None:
        self.calls[method] += 1
        self.reads.append((method, revision, name))

    def revisions(self) -> list[int]:
        self._note("revisions")
        return super().revisions()

    def get(self, revision: int, name: str) -> bytes:
        self._note("get", revision, name)
        return super().get(revision, name)

    def exists(self, revision: int, name: str) -> bool:
        self._note("exists", revision, name)
        return super().exists(revision, name)

    def get_at_most(self, revision: int, name: str, max_bytes: int) -> bytes | int | None:
        self._note("get_at_most", revision, name)
        return super().get_at_most(revision, name, max_bytes)


def test_write_once_files_are_read_once(s3_bucket: S3Bucket) -> None:
    cache = ObjectCache()
    inner = CountingStore(s3_bucket.uri("ns/run"))
    store = CachedStore(inner, cache)
    store.put(0, "notebook.ipynb", b"{}")
    assert store.get(0, "notebook.ipynb") == b"{}" and inner.calls["get"] == 0  # written here
    s3_bucket.put("ns/run/revisions/0001/result.json", b"graded")  # written by someone else
    for _ in range(3):
        assert store.exists(1, "result.json") and store.get(1, "result.json") == b"graded"
    assert inner.calls == {"get_at_most": 1}  # one GET, no HEAD first: it is kept
    s3_bucket.put("ns/run/revisions/0001/big.json", b"1234567")
    small = CachedStore(inner, ObjectCache(max_object_bytes=6))
    assert small.exists(1, "big.json") and small.exists(1, "big.json")  # larger: not kept
    assert small.get(1, "big.json") == b"1234567" and inner.calls["get_at_most"] == 2
    # a new store object over the same cache (the operator makes one per reconcile)
    again = CachedStore(CountingStore(s3_bucket.uri("ns/run")), cache)
    assert again.get(1, "result.json") == b"graded" and again.revisions() == [0, 1]


def test_absent_files_are_asked_again_until_they_appear(s3_bucket: S3Bucket) -> None:
    inner = CountingStore(s3_bucket.uri("ns/run"))
    store = CachedStore(inner, ObjectCache())
    assert not store.exists(2, "execution.json")
    s3_bucket.put("ns/run/revisions/0002/execution.json", b"{}")  # the runner pod wrote it
    assert store.exists(2, "execution.json")
    assert inner.calls["get_at_most"] == 2


def test_forgetting_a_prefix_and_the_size_bounds(s3_bucket: S3Bucket) -> None:
    cache = ObjectCache(max_bytes=10, max_object_bytes=6)
    store = CachedStore(S3Store(s3_bucket.uri("ns/a")), cache)
    other = CachedStore(S3Store(s3_bucket.uri("ns/ab")), cache)
    store.put(0, "x", b"12345")
    other.put(0, "x", b"abcde")
    store.put(0, "big", b"1234567")  # over max_object_bytes: known to exist, not kept
    assert cache.size == 10 and cache.exists(store.uri_of(0, "big"))
    assert cache.get(store.uri_of(0, "big")) is None
    store.put(0, "y", b"67")  # past max_bytes: the least recently used goes
    assert cache.get(store.uri_of(0, "x")) is None and cache.size == 7
    cache.forget_prefix(store.uri)  # ns/a, not ns/ab
    assert cache.get(other.uri_of(0, "x")) == b"abcde" and cache.size == 5
    assert not cache.exists(store.uri_of(0, "big"))


def test_replay_through_the_cache_reads_each_file_once(s3_bucket: S3Bucket) -> None:
    inner = CountingStore(s3_bucket.uri("ns/replayed"))
    inner.put(0, NOTEBOOK, serialise(notebook("broken = 1 / 0")))
    state, action = start(4)
    store_execution(
        inner, 0, [RunOutput(notebook("broken = 1 / 0"), ran((1, "ZeroDivision")), None)]
    )
    state, action = record_result(inner, state, 0, *grade_revision(inner, 0, ANSWERS, SPEC))
    assert isinstance(action, RequestFix)
    fixed = fix_step(inner, state, action, FixerChain([ChangeOneCell()]), SPEC, None)
    assert fixed.action == Execute(1)  # revision 1 stored, not executed yet

    cache = ObjectCache()
    before = sum(inner.calls.values())
    assert replay(CachedStore(inner, cache), 4) == (fixed.state, fixed.action)
    first = sum(inner.calls.values()) - before
    assert replay(CachedStore(inner, cache), 4) == (fixed.state, fixed.action)
    second = sum(inner.calls.values()) - before - first
    # one GET a file (result 0, fix 1, result 1: absent), no HEAD, no listing; then only: is
    # revision 1 graded yet?
    assert (first, second) == (3, 1)


def test_what_a_runner_wrote_is_read_in_one_bounded_request(s3_bucket: S3Bucket) -> None:
    """Grading reads execution.json and each submission with one GET (its size comes with
    the reply): no HEAD first, and a body over the bound is not read."""
    store = CountingStore(s3_bucket.uri("ns/graded"))
    good = RunOutput(notebook("x = 1"), ran(), b"id,y\n1,1\n2,0\n")
    store_execution(store, 0, [good])
    score = grade_revision(store, 0, ANSWERS, SPEC).score
    assert score.reproduced and store.calls == {"get_at_most": 2}
    assert store.get_at_most(0, "submission.csv", 4) == len(b"id,y\n1,1\n2,0\n")
    assert store.get_at_most(0, "absent.csv", 4) is None
