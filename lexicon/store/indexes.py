"""The query indexes inside a release: marisa-tries, memory-mapped, never loaded.

A release built with indexes has ``indexes/`` beside ``records.lmdb/`` (written by
:mod:`build.indexes` when the release is published):

* ``words.marisa``: every valid key. Membership (the batch hot path: a marisa lookup is
  about twice as fast as an LMDB get from Python) and hooks. Derived from the record
  store (``records.lmdb/``, :mod:`lexicon.store.recordfile`) when the release is written.
* ``forward.marisa``: ``length_tag(len(key)) + key`` for playable valid keys, and
  ``backward.marisa``: the same with the key spelled backwards. Patterns walk the one that
  reads from their better-fixed end (``KA?IN`` forwards, ``*OWY`` backwards), one length
  at a time: the length tag first means every subtree holds words of that length only, so
  a fixed-length query (the usual one at a table) never enumerates longer words.
* ``alphagram-nodes.bin``: the trie of alphagrams (a key's tiles sorted) as child lists,
  so the anagram walk visits only children that exist, minimised into a DAWG: a node whose
  edges, counts and children equal another's is stored once and both parents point at it
  (osps: 3.6M words instead of 12.6M; the walk cannot tell). An array of native uint32: word 0
  is the root's offset; a node is ``n`` then ``n`` edges, each ``label << 26 | terminal
  << 25 | child offset`` (0: no children), labels in ascending order (a label is the
  letter's index in the game's tiles sorted by code point, the alphagram order).
  ``alphagram-counts.bin`` (one per word of the node array: native uint8, or uint16 when
  an alphagram has 256 keys or more, the entry's ``counts_type``) holds at each terminal
  edge how many keys have that alphagram, so a query counts its words without reading
  them; ``alphagrams.marisa`` holds ``alphagram + SEP + key`` for every playable key, so
  the keys of an alphagram are one prefix query.
* ``latin.marisa`` and ``latin-edge.marisa`` (games with multi-letter tiles: Kvizovka):
  the Latin spellings a typed word is valid for, on the board's inside and at its edge
  (:func:`lexicon.verdicts.fastcheck.latin_spellings`), so a Latin batch is a membership test
  instead of a speller walk for each word with lj, nj or dž. The manifest entry's
  ``latin`` says they are there; a release without them answers as before.
* A walk asks "does any key start with p" at every step: ``forward_prefixes`` and
  ``backward_prefixes`` answer it from the tries themselves (:class:`_Prefixes`). Format
  6 stored them as ``*-prefixes.marisa`` (and the alphagram keys as ``alphagrams.lmdb``);
  such releases are still read. (The anagram walk needs more: the children themselves,
  hence the child lists above.)

The tries are opened with ``mmap``: a server holds page cache, shared between processes,
not Python objects, which is what keeps four games under the memory budget.
"""

from __future__ import annotations

import mmap
from pathlib import Path
from typing import Any

import lmdb
import marisa_trie

from lexicon.errors import LexiconError

INDEX_DIR = "indexes"
WORDS = "words.marisa"
FORWARD = "forward.marisa"
FORWARD_PREFIXES = "forward-prefixes.marisa"
BACKWARD = "backward.marisa"
BACKWARD_PREFIXES = "backward-prefixes.marisa"
ALPHAGRAM_NODES = "alphagram-nodes.bin"
ALPHAGRAM_COUNTS = "alphagram-counts.bin"
ALPHAGRAM_WORDS = "alphagrams.lmdb"       # format 6: alphagram -> count + keys
ALPHAGRAM_KEYS = "alphagrams.marisa"      # format 7: alphagram + SEP + key, per playable key
LATIN = "latin.marisa"                    # Latin spellings valid on the board's inside
LATIN_EDGE = "latin-edge.marisa"          # ... and at its edge (Kvizovka's 3-tile words)
SEP = "\x00"          # ends an alphagram; no tile is a control character
FORMAT = 7
READABLE = (6, 7)     # format 6 also stored the prefix tries and an alphagram LMDB
NODE_LABEL_SHIFT = 26
NODE_TERMINAL_SHIFT = 25
NODE_TERMINAL = 1 << NODE_TERMINAL_SHIFT
NODE_CHILD_MASK = NODE_TERMINAL - 1


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

    Format 7 stores no ``*-prefixes.marisa``: "does some key start with p" is one
    ``iterkeys`` step on the trie (about 4 us against 2 us for a lookup in a stored
    prefix set, measured on osps), and the two sets were 38 MB of the Polish release.
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
            raise NoIndex(f"index format {entry.get('format')!r} is not {FORMAT}; rebuild "
                          f"the game (`lexicon build GAME`)")
        base = Path(release_dir) / entry.get("dir", INDEX_DIR)
        self.entry = entry

        def trie(name: str) -> marisa_trie.Trie:
            return marisa_trie.Trie().mmap(str(base / name))

        self.words = trie(WORDS)
        self.forward = trie(FORWARD)
        self.backward = trie(BACKWARD)
        self.forward_prefixes: marisa_trie.Trie | _Prefixes
        self.backward_prefixes: marisa_trie.Trie | _Prefixes
        if entry["format"] == 6:
            self.forward_prefixes = trie(FORWARD_PREFIXES)
            self.backward_prefixes = trie(BACKWARD_PREFIXES)
        else:
            self.forward_prefixes = _Prefixes(self.forward)
            self.backward_prefixes = _Prefixes(self.backward)
        self._maps: list[mmap.mmap] = []
        self.alphagram_nodes = self._array(base / ALPHAGRAM_NODES, "I")
        self.alphagram_counts = self._array(base / ALPHAGRAM_COUNTS,
                                            entry.get("counts_type", "H"))
        self._alpha_env: lmdb.Environment | None = None
        self._alpha_keys: marisa_trie.Trie | None = None
        if entry["format"] == 6:
            self._alpha_env = lmdb.open(str(base / ALPHAGRAM_WORDS), readonly=True,
                                        lock=False, readahead=False, max_dbs=1)
        else:
            self._alpha_keys = trie(ALPHAGRAM_KEYS)
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

    def words_of(self, alphagrams: list[str]) -> list[list[str]]:
        """The keys of each alphagram, sorted."""
        if self._alpha_keys is not None:
            keys = self._alpha_keys.keys
            return [sorted(k[len(a) + 1:] for k in keys(a + SEP)) for a in alphagrams]
        assert self._alpha_env is not None
        out = []
        with self._alpha_env.begin(buffers=True) as txn:
            get = txn.get
            for alpha in alphagrams:
                raw = get(alpha.encode())
                out.append(bytes(raw[2:]).decode().split(SEP) if raw is not None else [])
        return out

    def _array(self, path: Path, code: str) -> memoryview:
        with open(path, "rb") as fh:
            mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        self._maps.append(mapped)
        return memoryview(mapped).cast(code)

    def close(self) -> None:
        self.alphagram_nodes.release()
        self.alphagram_counts.release()
        for mapped in self._maps:
            mapped.close()
        if self._alpha_env is not None:
            self._alpha_env.close()


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
    except (OSError, RuntimeError, ValueError, TypeError, lmdb.Error) as exc:
        raise NoIndex(
            f"the query indexes of release {manifest.get('release')} cannot be read "
            f"({type(exc).__name__}: {exc}); rebuild the game",
            detail={"release": manifest.get("release")},
        ) from exc
