"""Building a release's query indexes (see :mod:`lexicon.indexes` for what each one is for).

Called by :meth:`build.release.ReleaseWriter.publish` on the compacted LMDB in the staging
directory, so the indexes are published atomically with the words they index. A release
is never indexed again after it is published: a new index format means a new build.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lmdb
import marisa_trie

from lexicon.errors import BuildError
from lexicon.indexes import (
    ALPHAGRAM_COUNTS,
    ALPHAGRAM_NODES,
    ALPHAGRAM_WORDS,
    BACKWARD,
    BACKWARD_PREFIXES,
    FORMAT,
    FORWARD,
    FORWARD_PREFIXES,
    INDEX_DIR,
    NODE_CHILD_MASK,
    NODE_LABEL_SHIFT,
    NODE_TERMINAL_SHIFT,
    SEP,
    WORDS,
    length_tag,
)
from lexicon.play import play_rules
from lexicon.profile import Profile
from lexicon.records import VALID
from lexicon.store import FORMS_DB

MAP_SIZE = 16 << 30   # address space only




def _valid_keys(lmdb_dir: Path) -> Iterator[str]:
    env = lmdb.open(str(lmdb_dir), readonly=True, lock=False, max_dbs=4, readahead=False)
    try:
        db = env.open_db(FORMS_DB, create=False)
        with env.begin(db=db, buffers=True) as txn:
            for k, v in txn.cursor():
                if v[:1] == VALID:
                    yield bytes(k).decode()
    finally:
        env.close()


def _playable(lmdb_dir: Path, profile: Profile) -> Iterator[str]:
    """Valid keys some move can play (:meth:`lexicon.play.PlayRules.is_playable`)."""
    playable = play_rules(profile).is_playable
    for key in _valid_keys(lmdb_dir):
        if playable(key):
            yield key


def _prefix_closed(sorted_strings: list[str]) -> Iterator[str]:
    """Every prefix of every string, each once (the input must be sorted)."""
    previous = ""
    for s in sorted_strings:
        common = 0
        for a, b in zip(previous, s, strict=False):
            if a != b:
                break
            common += 1
        for i in range(common + 1, len(s) + 1):
            yield s[:i]
        previous = s


def _trie_pair(strings: list[str], out: Path, name: str, prefixes_name: str) -> None:
    """Save ``strings`` as a trie and its prefix-closed set as another."""
    strings.sort()
    marisa_trie.Trie(strings).save(str(out / name))
    marisa_trie.Trie(_prefix_closed(strings)).save(str(out / prefixes_name))


def _entry(keys: list[str]) -> bytes:
    """How many keys (2 bytes, little-endian), then the keys joined by SEP."""
    return min(len(keys), 0xFFFF).to_bytes(2, "little") + SEP.join(keys).encode()


def _alphagram_db(pairs: list[str], out: Path) -> None:
    """alphagram -> its keys, written in key order (pairs: sorted alpha+SEP+key).

    The count comes first so a query can count a rack's words without decoding them.
    """
    env = lmdb.open(str(out / ALPHAGRAM_WORDS), map_size=MAP_SIZE, subdir=True, sync=False,
                    metasync=False, max_dbs=1)
    try:
        with env.begin(write=True) as txn:
            cursor = txn.cursor()
            current, keys = None, []
            for pair in pairs:
                alpha, _, key = pair.partition(SEP)
                if alpha != current and current is not None:
                    cursor.put(current.encode(), _entry(keys), append=True)
                    keys = []
                current = alpha
                keys.append(key)
            if current is not None:
                cursor.put(current.encode(), _entry(keys), append=True)
        env.sync(True)
    finally:
        env.close()


def _alphagram_nodes(alphagrams: dict[str, int], letters: list[str], out_dir: Path) -> None:
    """Write the alphagram trie as child lists, and its word counts (see :mod:`lexicon.indexes`).

    Streams over the sorted alphagrams keeping only the current path: a node is written
    when the walk leaves it (after its children), so every edge knows its child's offset.
    """
    label = {c: i for i, c in enumerate(letters)}
    out = array("I", [0])
    counts = array("H", [0])
    nodes: list[list[list[int]]] = [[]]     # per depth: [label, words, child] edges
    current: list[int] = []

    def write(edges: list[list[int]]) -> int:
        if not edges:
            return 0
        offset = len(out)
        if offset + len(edges) >= NODE_CHILD_MASK:
            raise BuildError("the alphagram trie outgrew its 25-bit offsets")
        out.append(len(edges))
        counts.append(0)
        out.extend((lab << NODE_LABEL_SHIFT) | (bool(n) << NODE_TERMINAL_SHIFT) | child
                   for lab, n, child in edges)
        counts.extend(min(n, 0xFFFF) for _lab, n, _child in edges)
        return offset

    def close() -> None:
        offset = write(nodes.pop())
        nodes[-1][-1][2] = offset
        current.pop()

    for alpha, n_words in alphagrams.items():
        labels = [label[c] for c in alpha]
        common = 0
        for a, b in zip(current, labels, strict=False):
            if a != b:
                break
            common += 1
        while len(current) > common:
            close()
        for lab in labels[common:]:
            nodes[-1].append([lab, 0, 0])
            nodes.append([])
            current.append(lab)
        nodes[-2][-1][1] = n_words
    while current:
        close()
    out[0] = write(nodes[0])
    with open(out_dir / ALPHAGRAM_NODES, "wb") as fh:
        out.tofile(fh)
    with open(out_dir / ALPHAGRAM_COUNTS, "wb") as fh:
        counts.tofile(fh)


def build_indexes(profile: Profile, lmdb_dir: Path, release_dir: Path) -> dict[str, Any]:
    """Write ``release_dir/indexes/`` from the LMDB at ``lmdb_dir``; returns the manifest entry.

    Each structure is built from one pass over the LMDB cursor into one sorted list of
    strings (about 80 bytes a word: some 300 MB for Polish), saved, and dropped before the
    next, so the peak stays far below the few GB a build may use.
    """
    started = time.monotonic()
    out = Path(release_dir) / INDEX_DIR
    out.mkdir(exist_ok=True)
    counts = {"words": 0, "playable": 0}

    def counted(it: Iterator[str], name: str) -> Iterator[str]:
        for key in it:
            counts[name] += 1
            yield key

    marisa_trie.Trie(counted(_valid_keys(lmdb_dir), "words")).save(str(out / WORDS))
    _trie_pair([length_tag(len(k)) + k for k in counted(_playable(lmdb_dir, profile), "playable")],
               out, FORWARD, FORWARD_PREFIXES)
    _trie_pair([length_tag(len(k)) + k[::-1] for k in _playable(lmdb_dir, profile)],
               out, BACKWARD, BACKWARD_PREFIXES)
    pairs = sorted("".join(sorted(k)) + SEP + k for k in _playable(lmdb_dir, profile))
    _alphagram_db(pairs, out)
    alphagrams: dict[str, int] = {}       # alphagram -> how many keys, in sorted order
    for pair in pairs:
        alpha = pair[:pair.index(SEP)]
        alphagrams[alpha] = alphagrams.get(alpha, 0) + 1
    del pairs
    _alphagram_nodes(alphagrams, sorted(profile.by_canonical), out)
    del alphagrams
    files = {p.relative_to(out).as_posix(): p.stat().st_size
             for p in sorted(out.rglob("*")) if p.is_file()}
    return {
        "format": FORMAT,
        "dir": INDEX_DIR,
        "files": files,
        "keys": counts["words"],
        "playable_keys": counts["playable"],
        "lengths": list(play_rules(profile).playable_lengths),
        "build_seconds": round(time.monotonic() - started, 1),
    }
