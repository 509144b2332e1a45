"""The query indexes inside a release: marisa-tries, memory-mapped, never loaded.

A release built with indexes has ``indexes/`` beside ``records.lmdb/`` (written by
:mod:`build.index_writer` when the release is published):

* ``words.marisa``: every valid key. Membership (the batch hot path: a marisa lookup is
  about twice as fast as an LMDB get from Python) and hooks. Derived from the record
  store (``records.lmdb/``, :mod:`lexicon.store.recordfile`) when the release is written.
* ``forward.marisa``: ``length_tag(len(key)) + key`` for playable valid keys, and
  ``backward.marisa``: the same with the key spelled backwards. Patterns walk the one that
  reads from their better-fixed end (``KA?IN`` forwards, ``*OWY`` backwards), one length
  at a time: the length tag first means every subtree holds words of that length only, so
  a fixed-length query (the usual one at a table) never enumerates longer words.
* ``alphagram-nodes.bin``: the trie of alphagrams (a key's tiles sorted) as edge lists,
  so the anagram walk visits only children that exist, minimised into a DAWG: a node whose
  edges, counts and children equal another's is stored once and both parents point at it
  (osps: 2.7M edges where a plain trie has 12.6M words). An array of native uint32: word 0
  is the root's offset (0: no alphagrams); a node is its edges, consecutive, in ascending
  label order, each ``label << 26 | last << 25 | terminal << 24 | child offset`` (``last``
  on a node's final edge; child 0: no children; a label is the letter's index in the
  game's tiles sorted by code point, the alphagram order, :class:`lexicon.game.profile.
  Alphabet`). Beside it, one entry per word of the node array: ``alphagram-counts.bin``
  (native uint8, or uint16 when an alphagram has 256 keys or more, the entry's
  ``counts_type``) holds at each terminal edge how many keys have that alphagram, so a
  query counts its words without reading them, and ``alphagram-ranks.bin`` (native uint32)
  how many keys lie in the subtrees of the node's earlier edges.
* ``alphagram-keys.bin``: every playable key's id in ``forward.marisa``, in (alphagram,
  key) order, little-endian, ``key_id_bytes`` (3 or 4) bytes each. The walk sums the ranks
  along an alphagram's path (plus the counts of the alphagrams it passes, which sort before
  their extensions): that sum is where the alphagram's keys start, so reading them is
  ``count`` id lookups and no search, and the ids take less room than a trie of
  ``alphagram + SEP + key`` would.
* ``latin.marisa`` and ``latin-edge.marisa`` (games with multi-letter tiles: Kvizovka):
  the Latin spellings a typed word is valid for, on the board's inside and at its edge
  (:mod:`build.latin_spellings`), so a Latin batch is a membership test
  instead of a speller walk for each word with lj, nj or dž. The manifest entry's
  ``latin`` says they are there; a release without them answers as before.
* A walk asks "does any key start with p" at every step: ``forward_prefixes`` and
  ``backward_prefixes`` answer it from the tries themselves (:class:`_Prefixes`). (The
  anagram walk needs more: the children themselves, hence the edge lists above.)

The runtime reads index format 8 only; a release with older indexes answers its queries
with ``no_index`` naming ``lexicon repack GAME``, which writes them anew (its checks are
unaffected: they read the record store).

The tries are opened with ``mmap``: a server holds page cache, shared between processes,
not Python objects, which is what keeps four games under the memory budget.
"""

from __future__ import annotations

import mmap
from array import array
from pathlib import Path
from typing import Any

import marisa_trie
import numpy as np

from lexicon.errors import LexiconError

INDEX_DIR = "indexes"
WORDS = "words.marisa"
FORWARD = "forward.marisa"
BACKWARD = "backward.marisa"
ALPHAGRAM_NODES = "alphagram-nodes.bin"
ALPHAGRAM_COUNTS = "alphagram-counts.bin"
ALPHAGRAM_RANKS = "alphagram-ranks.bin"   # keys in a node's earlier edges' subtrees
ALPHAGRAM_KEYS = "alphagram-keys.bin"     # forward ids of the keys, in alphagram order
LATIN = "latin.marisa"                    # Latin spellings valid on the board's inside
LATIN_EDGE = "latin-edge.marisa"          # ... and at its edge (Kvizovka's 3-tile words)
SEP = "\x00"          # ends an alphagram in the build's sort; no tile is a control character
FORMAT = 8
READABLE = (8,)
NODE_LABEL_SHIFT = 26
NODE_LAST_SHIFT = 25
NODE_TERMINAL_SHIFT = 24
NODE_LAST = 1 << NODE_LAST_SHIFT
NODE_TERMINAL = 1 << NODE_TERMINAL_SHIFT
NODE_CHILD_MASK = NODE_TERMINAL - 1


def node_label_masks(nodes: memoryview) -> memoryview:
    """At each node's offset in ``alphagram-nodes.bin``, the set of its edges' labels as
    bits (``1 << label``), uint64; 0 elsewhere.

    The anagram walk reads a node's edges by label: the rack's letters (and, while a joker
    is left, every label) intersected with this set are the only edges worth reading, and
    an edge's place is the number of the node's labels below it (a popcount), so the
    edges of letters the rack lacks are never read. Computed from the node array when a
    release's first anagram query runs (8 bytes a word of the array), not stored, so
    the release format needs none of it."""
    words = np.frombuffer(nodes, dtype=np.uint32)
    out = np.zeros(len(words), dtype=np.uint64)
    if len(words) > 1:
        edges = words[1:]
        bits = np.left_shift(np.uint64(1), (edges >> NODE_LABEL_SHIFT).astype(np.uint64))
        starts = np.concatenate(([0], np.flatnonzero(edges & NODE_LAST)[:-1] + 1))
        out[starts + 1] = np.bitwise_or.reduceat(bits, starts)
        del edges
    del words            # no export of the mapped view is left: close() can release it
    return memoryview(out)


def key_id_bytes(keys: int) -> int:
    """Bytes per key id in ``alphagram-keys.bin``: 3 while the ids fit (16.7M keys)."""
    return 3 if keys <= 1 << 24 else 4


def pack_ids(ids: array, width: int) -> bytes:
    """uint32 ids as little-endian ``width``-byte integers, one after another."""
    little = np.frombuffer(ids, dtype=np.uint32).astype("<u4")
    return little.view(np.uint8).reshape(-1, 4)[:, :width].tobytes()


def length_tag(length: int) -> str:
    """The first character of a forward/backward key: its length (a control character)."""
    return chr(length)


class NoIndex(LexiconError):
    """The release lost its query indexes (or their format is not this code's); queries need
    a rebuild."""

    code = "no_index"
    status = 503


class _Prefixes:
    """The prefix-closed set of a trie, answered by the trie itself.

    No ``*-prefixes.marisa`` is stored: "does some key start with p" is one ``iterkeys``
    step on the trie, within a few microseconds of a lookup in a stored prefix set, and
    such sets would be a large share of a release.
    """

    __slots__ = ("_iterkeys",)

    def __init__(self, trie: marisa_trie.Trie) -> None:
        self._iterkeys = trie.iterkeys

    def __contains__(self, prefix: str) -> bool:
        return next(self._iterkeys(prefix), None) is not None


class Indexes:
    """The tries (and the alphagram table) of one release, mapped read-only."""

    def __init__(self, release_dir: Path, entry: dict[str, Any]) -> None:
        if entry.get("format") not in READABLE:
            raise NoIndex(f"index format {entry.get('format')!r} is not {FORMAT}; "
                          f"`lexicon repack GAME` writes the indexes anew (or rebuild the "
                          f"game)", detail={"format": entry.get("format"), "readable": FORMAT})
        base = Path(release_dir) / entry.get("dir", INDEX_DIR)
        self.entry = entry

        def trie(name: str) -> marisa_trie.Trie:
            return marisa_trie.Trie().mmap(str(base / name))

        self.words = trie(WORDS)
        self.forward = trie(FORWARD)
        self.backward = trie(BACKWARD)
        self.forward_prefixes = _Prefixes(self.forward)
        self.backward_prefixes = _Prefixes(self.backward)
        self._maps: list[mmap.mmap] = []
        self.alphagram_nodes = self._array(base / ALPHAGRAM_NODES, "I")
        self.alphagram_counts = self._array(base / ALPHAGRAM_COUNTS,
                                            entry.get("counts_type", "H"))
        self.alphagram_ranks = self._array(base / ALPHAGRAM_RANKS, "I")
        self._key_ids = self._array(base / ALPHAGRAM_KEYS, "B")
        self._masks: memoryview | None = None
        self._id_bytes = int(entry.get("key_id_bytes", 4))
        self.latin: marisa_trie.Trie | None = None
        self.latin_edge: marisa_trie.Trie | None = None
        if entry.get("latin"):
            self.latin = trie(LATIN)
            self.latin_edge = trie(LATIN_EDGE)
        lengths = entry.get("lengths", [1, 64])
        self.min_length, self.max_length = int(lengths[0]), int(lengths[1])

    def has_prefix(self, prefix: str) -> bool:
        """Does some valid key start with ``prefix``? The prefix oracle a Latin Kvizovka
        word is tiled against on the hot path (see :meth:`lexicon.game.tiles.Speller.readings`)."""
        return next(self.words.iterkeys(prefix), None) is not None

    @property
    def alphagram_masks(self) -> memoryview:
        """Each node's labels as bits (:func:`node_label_masks`), made on first use."""
        masks = self._masks
        if masks is None:       # two threads at once make it twice; either result serves
            masks = self._masks = node_label_masks(self.alphagram_nodes)
        return masks

    def words_of(self, alphagrams: list[tuple[int, int]]) -> list[list[str]]:
        """The keys of each alphagram, given as (rank, count) from the walk
        (:func:`lexicon.queries.anagrams.find_alphagrams`), sorted."""
        ids, width = self._key_ids, self._id_bytes
        restore = self.forward.restore_key
        out = []
        for rank, count in alphagrams:
            at = rank * width
            out.append(sorted(
                restore(int.from_bytes(ids[i:i + width], "little"))[1:]   # no length tag
                for i in range(at, at + count * width, width)))
        return out

    def _array(self, path: Path, code: str) -> memoryview:
        if path.stat().st_size == 0:          # no playable key: nothing to map
            return memoryview(b"").cast(code)
        with open(path, "rb") as fh:
            mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        self._maps.append(mapped)
        return memoryview(mapped).cast(code)

    def close(self) -> None:
        for view in (self.alphagram_nodes, self.alphagram_counts, self.alphagram_ranks,
                     self._key_ids):
            view.release()
        for mapped in self._maps:
            mapped.close()


def open_indexes(release_dir: Path, manifest: dict[str, Any]) -> Indexes:
    """The release's indexes; NoIndex (503) when it has none or they cannot be mapped (a
    missing or truncated file is the game's 503, not a 500)."""
    entry = manifest.get("indexes")
    if not entry or not isinstance(entry, dict):
        raise NoIndex(
            f"release {manifest.get('release')} has no query indexes; rebuild the game "
            f"(`lexicon build {manifest.get('game', 'GAME')}`)",
            detail={"release": manifest.get("release")},
        )
    try:
        return Indexes(release_dir, entry)
    except (OSError, RuntimeError, ValueError, TypeError) as exc:
        raise NoIndex(
            f"the query indexes of release {manifest.get('release')} cannot be read "
            f"({type(exc).__name__}: {exc}); rebuild the game",
            detail={"release": manifest.get("release")},
        ) from exc
