"""Is each of many keys a word of the release: answered for a whole batch at once.

The release's words trie (marisa) answers one key in about a microsecond, which caps a
batch check near a million words a second however lean the rest is. For a big batch this
module answers with two sorted arrays instead: every valid key's two 64-bit hashes (the
key's and the salted key's, Python's keyed SipHash), built once per release and process on
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
from operator import itemgetter
from typing import Any

import numpy as np

from lexicon.store.store import Release

MIN_BATCH = 4096        # smaller batches use the trie: building the arrays would not pay
_CHUNK = 200_000
_SALT = "\x01"


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
            second[done:done + n] = _second_hashes(chunk)
            done += n
        if done != count:
            raise ValueError(f"{done} keys where {count} were announced")
        second = second[np.argsort(first, kind="stable")]
        first.sort(kind="stable")
        self.first, self.second = first, second
        self.unique = bool(count < 2 or not np.any(first[1:] == first[:-1]))

    def contains_many(self, keys: list[str]) -> np.ndarray:
        """Membership of each key, as a boolean array.

        The second hash is computed only for the keys whose first hash matched (in a
        typical batch the valid half): hashing is most of the cost of a batch."""
        n = len(keys)
        hit = np.zeros(n, bool)
        if n == 0 or len(self.first) == 0:
            return hit
        q1 = np.fromiter(map(hash, keys), np.int64, n)
        order = np.argsort(q1)             # sorted probes walk the table in order
        probes = q1[order]
        at = np.searchsorted(self.first, probes)
        at[at == len(self.first)] = 0
        matched = self.first[at] == probes
        where = order[matched]             # positions in ``keys`` of the first-hash matches
        if len(where):
            picked = itemgetter(*where.tolist())(keys)
            candidates = list(picked) if len(where) > 1 else [picked]
            hit[where] = self.second[at[matched]] == _second_hashes(candidates)
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


def _second_hashes(keys: list[str]) -> np.ndarray:
    """The second, independent hash of each key: Python's keyed hash of the key behind a
    salt character (a different input for every key, so a false match needs both 64-bit
    hashes to collide)."""
    return np.fromiter(map(hash, map(_SALT.__add__, keys)), np.int64, len(keys))


_built: weakref.WeakKeyDictionary[Release, dict[str, HashedKeys]] = weakref.WeakKeyDictionary()
_building: weakref.WeakKeyDictionary[Release, set[str]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _trie(rel: Release, name: str) -> Any:
    """The release's trie of that name: its valid keys (``words``) or the Latin spellings
    of its valid words (``latin``, ``latin_edge``: :mod:`lexicon.store.indexes`)."""
    return getattr(rel.indexes, name)


def prepare(rel: Release, name: str = "words") -> HashedKeys:
    """The hash arrays of one of the release's tries, built now if they are not yet
    (blocking)."""
    with _lock:
        hashed = _built.get(rel, {}).get(name)
    if hashed is None:
        trie = _trie(rel, name)
        _give_back_memory(before=True)
        hashed = HashedKeys(trie.iterkeys(), len(trie))
        _give_back_memory(before=False)
        with _lock:
            hashed = _built.setdefault(rel, {}).setdefault(name, hashed)
    return hashed


def _build_in_background(rel: Release, name: str) -> None:
    with _lock:
        if name in _built.get(rel, {}) or name in _building.get(rel, set()):
            return
        _building.setdefault(rel, set()).add(name)
    threading.Thread(target=prepare, args=(rel, name), daemon=True,
                     name=f"hash-arrays-{rel.id}-{name}").start()


def batch_lookup(rel: Release, size: int, name: str = "words"
                 ) -> Callable[[list[str]], Iterable[bool] | np.ndarray]:
    """The fastest exact membership test for a batch of ``size`` strings in the trie
    ``name`` of ``rel`` (valid keys, or Latin spellings).

    The first big batch of a release starts building its arrays in a background thread and
    is answered by the trie, like every batch until they are ready: no request waits
    seconds for them.
    """
    trie = _trie(rel, name)
    if size >= MIN_BATCH:
        hashed = _built.get(rel, {}).get(name)
        if hashed is None:
            _build_in_background(rel, name)
        elif hashed.unique:
            return hashed.contains_many
    return lambda keys: map(trie.__contains__, keys)
