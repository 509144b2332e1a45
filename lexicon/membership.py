"""Is each of many keys a word of the release: answered for a whole batch at once.

The release's words trie (marisa) answers one key in about a microsecond, which caps a
batch check near a million words a second however lean the rest is. For a big batch this
module answers with two sorted arrays instead: every valid key's two 64-bit hashes (the
key's and its reversal's, Python's keyed SipHash), built once per release and process on
first big batch, in a background thread (about 4M keys for Polish: 64 MB, a few seconds;
the trie answers meanwhile). A batch is hashed, sorted and
looked up with numpy's ``searchsorted`` in a handful of vectorised calls. A key counts only
when both hashes match a valid key's (a false match needs two independent 64-bit hashes to
collide: about 1e-26 per word), and if two valid keys ever share a first hash the release
keeps using the trie, so the answer is the trie's.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import threading
import weakref
from collections.abc import Callable, Collection, Iterable, Iterator
from itertools import islice

import numpy as np

from lexicon.store import Release

MIN_BATCH = 4096        # smaller batches use the trie: building the arrays would not pay
_CHUNK = 200_000


class HashedKeys:
    """The valid keys of one release as two aligned, sorted hash arrays."""

    def __init__(self, keys: Collection[str] | Iterable[str], count: int | None = None
                 ) -> None:
        # Memory, not time, shapes this build: a server must stay within its budget while
        # it runs beside big batches. Both hash arrays are filled in place (no chunk lists
        # to concatenate), the first is sorted in place and only the second is permuted
        # into a new array: four arrays' worth at the peak (osps: 128 MB), not seven.
        if count is None:
            keys = list(keys)
            count = len(keys)
        first, second = np.empty(count, np.int64), np.empty(count, np.int64)
        done = 0
        it: Iterator[str] = iter(keys)
        while chunk := list(islice(it, _CHUNK)):
            n = len(chunk)
            if done + n > count:
                raise ValueError(f"more than the {count} keys announced")
            first[done:done + n] = np.fromiter(map(hash, chunk), np.int64, n)
            reversed_keys = "\x00".join(chunk)[::-1].split("\x00")[::-1]
            second[done:done + n] = np.fromiter(map(hash, reversed_keys), np.int64, n)
            done += n
        if done != count:
            raise ValueError(f"{done} keys where {count} were announced")
        second = second[np.argsort(first, kind="stable")]
        first.sort(kind="stable")
        self.first, self.second = first, second
        self.unique = bool(count < 2 or not np.any(first[1:] == first[:-1]))

    def contains_many(self, keys: list[str]) -> np.ndarray:
        """Membership of each key, as a boolean array (keys never contain NUL)."""
        n = len(keys)
        if n == 0 or len(self.first) == 0:
            return np.zeros(n, bool)
        q1 = np.fromiter(map(hash, keys), np.int64, n)
        reversed_keys = "\x00".join(keys)[::-1].split("\x00")[::-1]
        q2 = np.fromiter(map(hash, reversed_keys), np.int64, n)
        order = np.argsort(q1)             # sorted probes walk the table in order
        probes = q1[order]
        at = np.searchsorted(self.first, probes)
        at[at == len(self.first)] = 0
        hit = np.empty(n, bool)
        hit[order] = (self.first[at] == probes) & (self.second[at] == q2[order])
        return hit


_M_MMAP_THRESHOLD = -3    # glibc mallopt parameter


def _give_back_memory(before: bool) -> None:
    """Keep the build's transient memory from staying with the server (glibc).

    The build is a serving process's one big transient allocation (strings and 1.6 MB
    chunk arrays, in a background thread's malloc arena). glibc raises its mmap threshold
    after the first big free and then keeps such blocks on a heap it rarely returns: a
    server that had built its arrays stayed ~100 MB above its settled size, over its
    memory budget. Before the build the threshold is fixed at 256 KiB (blocks that large
    are mapped and unmapped, never kept); after it, unreachable cycles are collected and
    the heaps trimmed. Elsewhere than glibc this does nothing.
    """
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6")
        if before:
            libc.mallopt(_M_MMAP_THRESHOLD, 256 * 1024)
        else:
            gc.collect()
            libc.malloc_trim(0)


_built: weakref.WeakKeyDictionary[Release, HashedKeys] = weakref.WeakKeyDictionary()
_building: weakref.WeakSet[Release] = weakref.WeakSet()
_lock = threading.Lock()


def prepare(rel: Release) -> HashedKeys:
    """The release's hash arrays, built now if they are not yet (blocking)."""
    with _lock:
        hashed = _built.get(rel)
    if hashed is None:
        words = rel.indexes.words
        _give_back_memory(before=True)
        hashed = HashedKeys(words.iterkeys(), len(words))
        _give_back_memory(before=False)
        with _lock:
            hashed = _built.setdefault(rel, hashed)
    return hashed


def _build_in_background(rel: Release) -> None:
    with _lock:
        if rel in _built or rel in _building:
            return
        _building.add(rel)
    threading.Thread(target=prepare, args=(rel,), daemon=True,
                     name=f"hash-arrays-{rel.id}").start()


def batch_lookup(rel: Release, size: int
                 ) -> Callable[[list[str]], Iterable[bool] | np.ndarray]:
    """The fastest exact membership test for a batch of ``size`` keys of ``rel``.

    The first big batch of a release starts building its arrays in a background thread and
    is answered by the trie, like every batch until they are ready: no request waits
    seconds for them.
    """
    words = rel.indexes.words
    if size >= MIN_BATCH:
        hashed = _built.get(rel)
        if hashed is None:
            _build_in_background(rel)
        elif hashed.unique:
            return hashed.contains_many
    return lambda keys: map(words.__contains__, keys)
