"""Is each of many keys a word of the release: answered for a whole batch at once.

The release's words trie (marisa) answers one key in about a microsecond, which caps a
batch check near a million words a second however lean the rest is. For a big batch this
module answers with two sorted arrays instead: every valid key's two 64-bit hashes, built
once per release and process on first big batch, in a background thread (16 bytes a key, a
few seconds for the largest release; the trie answers meanwhile). A batch is hashed, sorted
and looked up with numpy's ``searchsorted`` in a handful of vectorised calls, and no Python
code runs per word: the batch's keys are hashed as one newline-joined string.

The hashes are multilinear over a word's UTF-32 code units: ``h(w) = sum_i w_i * W[i] mod
2**64`` over positions ``i = 0 .. len(w)``, where ``w_len`` is the newline that ends the word
(so the length is hashed too) and ``W`` a table of random 64-bit weights per position, drawn
from ``os.urandom`` for each set of arrays (a keyed hash, like Python's ``hash``: nobody
outside the process can choose colliding words). Two independent tables give the two hashes.

Why a false match is negligible. Two distinct words ``x != y`` differ at some position ``i``
(a different code point, or one word's newline against the other's letter or end), by
``d = x_i - y_i`` with ``0 < |d| < 2**21`` (code points are below 0x110000), so ``d = 2**k * u``
with ``u`` odd and ``k <= 20``. Fixing every weight but ``W[i]``, ``h(x) = h(y)`` asks ``d * W[i]``
to be one given value mod 2**64, which at most ``2**k`` of the ``2**64`` weights do: a
collision has probability at most ``2**-44``, and of both independent hashes at most
``2**-88``. A word that is not valid is taken for one of the ~4.3M valid Polish keys with
probability below ``4.3e6 * 2**-88``, about 1e-20 per lookup. A key counts only when both
hashes match a valid key's, and if two valid keys ever share a first hash (so that a lookup
could land on the wrong one of them) the release keeps using the trie: the answer is the
trie's. Words longer than the longest valid key are not hashed (they cannot be valid).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import threading
import weakref
from collections.abc import Collection, Iterable, Iterator
from itertools import islice
from typing import Any

import numpy as np

from lexicon.store.indexes import INDEX_DIR, LATIN, LATIN_EDGE, WORDS
from lexicon.store.release import Release

MIN_BATCH = 4096        # smaller batches use the trie: building the arrays would not pay
_CHUNK = 1024           # keys hashed at once while building, and characters per piece of
_PIECE = 12_000         # a batch (about a thousand words): the per-code-unit arrays stay in
                        # the CPU's L2 cache (osps batch: 8,192 words a piece 1.55M words/s,
                        # 1,024: 2.0M/s)
_NEWLINE = 10


class HashedKeys:
    """The valid keys of one release as two aligned, sorted hash arrays."""

    def __init__(self, keys: Collection[str] | Iterable[str], count: int | None = None
                 ) -> None:
        # Memory, not time, shapes this build: a server must stay within its budget while
        # it runs beside big batches. Both hash arrays are filled in place (no chunk lists
        # to concatenate, chunks of a few thousand keys), the first is sorted in place and
        # only the second is permuted into a new array: four arrays' worth at the peak,
        # not seven.
        if count is None:
            keys = list(keys)
            count = len(keys)
        #: the weights of both hashes, one row per hash, one column per position (a word of
        #: n code points uses columns 0..n); grown while building to the longest key's length
        self.weights = np.empty((2, 0), np.uint64)
        self.longest = -1
        first, second = np.empty(count, np.uint64), np.empty(count, np.uint64)
        done = 0
        it: Iterator[str] = iter(keys)
        while chunk := list(islice(it, _CHUNK)):
            n = len(chunk)
            if done + n > count:
                raise ValueError(f"more than the {count} keys announced")
            codes, starts, lengths = _code_units("\n".join(chunk))
            if len(starts) != n:
                raise ValueError("a key holds a newline")
            self._grow(int(lengths.max()))
            first[done:done + n], second[done:done + n] = self._hash(codes, starts, lengths)
            done += n
        if done != count:
            raise ValueError(f"{done} keys where {count} were announced")
        # numpy's default sorts (vectorised) over stable ones: 1.6 s less for osps. Ties
        # need no order: equal first hashes make the release keep its trie
        second = second[np.argsort(first)]
        first.sort()
        self.first, self.second = first, second
        self.unique = bool(count < 2 or not np.any(first[1:] == first[:-1]))

    def _grow(self, longest: int) -> None:
        """Weights for every position of a word of ``longest`` code points (and its end)."""
        if longest > self.longest:
            more = longest + 1 - self.weights.shape[1]
            drawn = np.frombuffer(os.urandom(16 * more), np.uint64).reshape(2, more)
            self.weights = np.concatenate([self.weights, drawn], axis=1)
            self.longest = longest

    def _hash(self, codes: np.ndarray, starts: np.ndarray, lengths: np.ndarray
              ) -> np.ndarray:
        """Both hashes of each word of one piece (one row per hash). A word longer than
        :attr:`longest` gets a meaningless hash (its positions are clipped to the table):
        the caller masks it out. One hash at a time: a broadcast multiply of both at once
        cost twice as much."""
        # each code unit's position inside its word: 0 .. len (the newline)
        pos = np.repeat(starts, lengths + 1)
        np.subtract(_counting(len(codes)), pos, out=pos)
        wide = codes.astype(np.uint64)
        out = np.empty((2, len(starts)), np.uint64)
        for row, weights in enumerate(self.weights):
            terms = weights.take(pos, mode="clip")
            np.multiply(terms, wide, out=terms)
            np.add.reduceat(terms, starts, out=out[row])
        return out

    def contains_joined(self, text: str, count: int) -> tuple[np.ndarray, np.ndarray] | None:
        """Membership of each of the ``count`` keys that ``text`` joins with newlines, and
        each key's length (the caller's length rules need them, and here they are free); as
        two arrays. None when ``text`` does not hold ``count`` keys (a key with a newline).

        The text is hashed in pieces of about ``_PIECE`` characters (cut at a newline), so
        that only the hashes and lengths are whole-batch arrays (24 bytes a word): the code
        units and their products stay in the CPU cache and out of the server's peak memory.
        """
        pair = np.empty((2, count), np.uint64)
        lengths = np.empty(count, np.intp)
        done = at = 0
        while True:
            stop = text.find("\n", at + _PIECE)
            codes, starts, piece_lengths = _code_units(text[at:stop] if stop >= 0 else
                                                       text[at:])
            n = len(starts)
            if done + n > count:
                return None
            lengths[done:done + n] = piece_lengths
            if len(self.first):
                pair[:, done:done + n] = self._hash(codes, starts, piece_lengths)
            done += n
            if stop < 0:
                break
            at = stop + 1
        if done != count:
            return None
        hit = np.zeros(count, bool)
        if len(self.first) == 0:
            return hit, lengths
        order = np.argsort(pair[0])          # sorted probes walk the table in order
        probes = pair[0][order]
        slot = np.searchsorted(self.first, probes)
        slot[slot == len(self.first)] = 0
        hit[order] = (self.first[slot] == probes) & (self.second[slot] == pair[1][order])
        hit &= lengths <= self.longest        # longer words were hashed clipped
        return hit, lengths

    def contains_many(self, keys: list[str]) -> np.ndarray:
        """Membership of each key, as a boolean array (a key with a newline: False, no
        valid key has one)."""
        if not keys:
            return np.zeros(0, bool)
        found = self.contains_joined("\n".join(keys), len(keys))
        if found is not None:
            return found[0]
        plain = ["\n" not in k for k in keys]
        hit = np.zeros(len(keys), bool)
        hit[np.flatnonzero(plain)] = self.contains_many(
            [k for k, ok in zip(keys, plain, strict=True) if ok])
        return hit


_count = np.arange(1 << 16)
_KEPT = 1 << 18         # a longer count (a piece that is one huge "word") is not kept


def _counting(n: int) -> np.ndarray:
    """``np.arange(n)``, sliced from one kept array (made once, not per piece)."""
    global _count
    count = _count                  # threads may grow it meanwhile: slice the one read
    if len(count) < n:
        if n > _KEPT:
            return np.arange(n)
        count = _count = np.arange(_KEPT)
    return count[:n]


def _code_units(text: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The UTF-32 code units of ``text`` and a final newline (one per code point, as Python
    counts a string's length), where each newline-separated word starts, and its length."""
    codes = np.frombuffer((text + "\n").encode("utf-32-le", "surrogatepass"), np.uint32)
    ends = np.flatnonzero(codes == _NEWLINE)
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    return codes, starts, ends - starts


_M_MMAP_THRESHOLD = -3    # glibc mallopt parameter


def _give_back_memory(before: bool) -> None:
    """Keep the build's transient memory from staying with the server (glibc).

    The build is a serving process's one big transient allocation (strings and 1.6 MB
    chunk arrays, in a background thread's malloc arena). glibc raises its mmap threshold
    after the first big free and then keeps such blocks on a heap it rarely returns, so a
    server that had built its arrays would stay above its settled size, over its memory
    budget. Before the build the threshold is fixed at 256 KiB (blocks that large
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


_built: weakref.WeakKeyDictionary[Release, dict[str, HashedKeys]] = weakref.WeakKeyDictionary()
_building: weakref.WeakKeyDictionary[Release, set[str]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()
#: The arrays by the trie file they hash (device, inode): a release that hard-links another
#: one's tries (Remik links osps's) uses the arrays already built from the same file
#: instead of a second copy of them. Weak: they live while a release
#: holding them does, and that release keeps the file, so its inode cannot be reused.
_by_file: weakref.WeakValueDictionary[tuple[int, int], HashedKeys] = (
    weakref.WeakValueDictionary())
_TRIE_FILES = {"words": WORDS, "latin": LATIN, "latin_edge": LATIN_EDGE}


def _file_of(rel: Release, name: str) -> tuple[int, int] | None:
    """(device, inode) of the release's trie ``name``; None when it cannot be read."""
    entry = rel.manifest.get("indexes") or {}
    try:
        st = os.stat(rel.path / entry.get("dir", INDEX_DIR) / _TRIE_FILES[name])
    except (OSError, KeyError, TypeError):
        return None
    return st.st_dev, st.st_ino


def _trie(rel: Release, name: str) -> Any:
    """The release's trie of that name: its valid keys (``words``) or the Latin spellings
    of its valid words (``latin``, ``latin_edge``: :mod:`lexicon.store.indexes`)."""
    return getattr(rel.indexes, name)


def prepare(rel: Release, name: str = "words") -> HashedKeys:
    """The hash arrays of one of the release's tries, built now if they are not yet
    (blocking)."""
    trie = _trie(rel, name)                # maps the tries: the file is the release's now
    source = _file_of(rel, name)
    with _lock:
        hashed = _built.get(rel, {}).get(name)
        if hashed is None and source is not None:
            hashed = _by_file.get(source)      # built for another release from this file
            if hashed is not None:
                _built.setdefault(rel, {})[name] = hashed
    if hashed is None:
        _give_back_memory(before=True)
        hashed = HashedKeys(trie.iterkeys(), len(trie))
        _give_back_memory(before=False)
        with _lock:
            hashed = _built.setdefault(rel, {}).setdefault(name, hashed)
            if source is not None:
                _by_file.setdefault(source, hashed)
    return hashed


def _build_in_background(rel: Release, name: str) -> None:
    with _lock:
        if name in _built.get(rel, {}) or name in _building.get(rel, set()):
            return
        _building.setdefault(rel, set()).add(name)
    threading.Thread(target=prepare, args=(rel, name), daemon=True,
                     name=f"hash-arrays-{rel.id}-{name}").start()


def batch_index(rel: Release, size: int, name: str = "words") -> HashedKeys | Any:
    """The fastest exact membership index for a batch of ``size`` strings in the trie
    ``name`` of ``rel`` (valid keys, or Latin spellings): its :class:`HashedKeys` (ask
    :meth:`HashedKeys.contains_joined`) or the trie itself (``in``).

    The first big batch of a release starts building its arrays in a background thread and
    is answered by the trie, like every batch until they are ready: no request waits
    seconds for them.
    """
    if size >= MIN_BATCH:
        hashed = _built.get(rel, {}).get(name)
        if hashed is None:
            _build_in_background(rel, name)
        elif hashed.unique:
            return hashed
    return _trie(rel, name)
