"""Building a release's query indexes (see :mod:`lexicon.store.indexes` for what each one is for).

Called by :meth:`build.release_writer.ReleaseWriter.publish` on the record store in the staging
directory, so the indexes are published atomically with the words they index. A release
is never indexed again after it is published: a new index format means a new build.
"""

from __future__ import annotations

import multiprocessing
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import marisa_trie
from lexicon.build.latin_spellings import latin_spellings

from lexicon.errors import BuildError
from lexicon.game.play import play_rules
from lexicon.game.profile import Profile
from lexicon.game.tiles import speller
from lexicon.store.indexes import (
    ALPHAGRAM_COUNTS,
    ALPHAGRAM_KEYS,
    ALPHAGRAM_NODES,
    ALPHAGRAM_RANKS,
    BACKWARD,
    FORMAT,
    FORWARD,
    INDEX_DIR,
    LATIN,
    LATIN_EDGE,
    NODE_CHILD_MASK,
    NODE_LABEL_SHIFT,
    NODE_LAST_SHIFT,
    NODE_TERMINAL_SHIFT,
    SEP,
    WORDS,
    key_id_bytes,
    length_tag,
    pack_ids,
)
from lexicon.store.recordfile import RecordStore


def _valid_keys(store_dir: Path) -> Iterator[str]:
    """Valid keys in code-point order, from a record store (``records.lmdb/``)."""
    store = RecordStore(store_dir)
    try:
        yield from store.valid_keys()
    finally:
        store.close()


def _trie(strings: list[str], out: Path, name: str) -> None:
    """Save ``strings`` as a trie (its prefix set is the trie itself: lexicon.store.indexes)."""
    marisa_trie.Trie(strings).save(str(out / name))


def _alphagram_nodes(alphagrams: dict[str, int], letters: list[str], out_dir: Path) -> str:
    """Write the alphagram trie as edge lists with their word counts and ranks
    (see :mod:`lexicon.store.indexes`); returns the counts' array type code (``B`` when
    every count fits a byte, else ``H``).

    Streams over the sorted alphagrams keeping only the current path: a node is written
    when the walk leaves it (after its children), so every edge knows its child's offset
    and how many keys lie below it. Written nodes are shared (the trie is minimised into a
    DAWG, Daciuk's incremental construction for sorted input): a node whose edges (labels,
    word counts and children) equal an already written node's is not written again, its
    parent points at the first. Ranks are relative to the node (keys in its earlier edges'
    subtrees), so a shared node serves every path that reaches it; the sorted tails of
    alphagrams repeat so much that osps's trie shrinks from 12.6M words to 2.7M.
    """
    label = {c: i for i, c in enumerate(letters)}
    out = array("I", [0])
    counts = array("H", [0])
    ranks = array("I", [0])
    # the open path, per depth: its edges as flat (label, words, child) triples, and the
    # keys below each edge (flat, so that a node's shape is one tuple() call)
    flat: list[list[int]] = [[]]
    below: list[list[int]] = [[]]
    written: dict[tuple[int, ...], tuple[int, int]] = {}
    last = 1 << NODE_LAST_SHIFT

    def write(edges: list[int], under: list[int]) -> tuple[int, int]:
        """(offset, keys in the subtree) of the node with these edges, written if new."""
        if not under:
            return 0, 0
        shape = tuple(edges)
        if (shared := written.get(shape)) is not None:
            return shared
        offset = len(out)
        if offset + len(under) > NODE_CHILD_MASK:
            raise BuildError("the alphagram trie outgrew its 24-bit offsets")
        before = 0
        for i, keys_below in enumerate(under):
            lab, n, child = edges[3 * i:3 * i + 3]
            out.append((lab << NODE_LABEL_SHIFT) | ((n > 0) << NODE_TERMINAL_SHIFT) | child)
            counts.append(min(n, 0xFFFF))
            ranks.append(before)
            before += n + keys_below
        out[-1] |= last
        written[shape] = offset, before
        return offset, before

    def close() -> None:
        flat[-1][-1], below[-1][-1] = write(flat.pop(), below.pop())

    path = ""                               # the alphagram whose path is open
    for alpha, n_words in alphagrams.items():
        common = 0
        for a, b in zip(path, alpha, strict=False):
            if a != b:
                break
            common += 1
        for _ in range(len(path) - common):
            close()
        for c in alpha[common:]:
            flat[-1].extend((label[c], 0, 0))
            below[-1].append(0)
            flat.append([])
            below.append([])
        flat[-2][-2] = n_words
        path = alpha
    for _ in range(len(path)):
        close()
    out[0] = write(flat[0], below[0])[0]
    with open(out_dir / ALPHAGRAM_NODES, "wb") as fh:
        out.tofile(fh)
    with open(out_dir / ALPHAGRAM_RANKS, "wb") as fh:
        ranks.tofile(fh)
    if max(counts, default=0) <= 0xFF:    # one byte an edge when no alphagram has 256 keys
        counts = array("B", counts)
    with open(out_dir / ALPHAGRAM_COUNTS, "wb") as fh:
        counts.tofile(fh)
    return counts.typecode


def _alphagram_files(playable: list[str], letters: list[str], out: Path) -> None:
    """The forward trie and the alphagram structures (a forked child's half of the
    indexes): the keys of each alphagram are stored as their ids in the forward trie, in
    (alphagram, key) order, so an alphagram's rank in the trie walk finds them."""
    forward = marisa_trie.Trie([length_tag(len(k)) + k for k in playable])
    forward.save(str(out / FORWARD))
    # alphagram + SEP + the key as the forward trie holds it: the length tag sorts alike
    # for all keys of one alphagram, so the order is (alphagram, key)
    pairs = sorted("".join(sorted(k)) + SEP + length_tag(len(k)) + k for k in playable)
    cuts = [pair.index(SEP) for pair in pairs]
    alphagrams = Counter([pair[:cut] for pair, cut in zip(pairs, cuts, strict=True)])
    ids = array("I", map(forward.__getitem__,
                         [pair[cut + 1:] for pair, cut in zip(pairs, cuts, strict=True)]))
    del pairs, cuts, forward
    width = key_id_bytes(len(ids))
    with open(out / ALPHAGRAM_KEYS, "wb") as fh:
        fh.write(pack_ids(ids, width))
    del ids
    _alphagram_nodes(alphagrams, letters, out)


def _fork(target: Callable[..., None], *args: Any) -> multiprocessing.process.BaseProcess:
    proc = multiprocessing.get_context("fork").Process(target=target, args=args, daemon=True)
    proc.start()
    return proc


@dataclass
class Started:
    """Alphagram indexes already being built in a forked child, from valid keys known before
    the records were written (an amend knows them: its parent's, changed by the overrides).
    :func:`build_indexes` finishes the job and checks the keys against the written store."""

    child: multiprocessing.process.BaseProcess
    playable: list[str]
    valid: int

    def cancel(self) -> None:
        if self.child.is_alive():
            self.child.terminate()
        self.child.join()


def start_indexes(profile: Profile, valid_keys: Iterable[str], release_dir: Path) -> Started:
    """List the playable keys (in any order: the tries and the alphagram list sort their
    input) and start building the alphagram structures, the slower half of the indexes, in
    a forked child, which inherits the list copy-on-write. :func:`build_indexes` calls this
    itself; an amend calls it before writing the records, so on two cores the child runs
    while the records are written, not after them."""
    out = Path(release_dir) / INDEX_DIR
    out.mkdir(exist_ok=True)
    valid = 0

    def counted(keys: Iterable[str]) -> Iterator[str]:
        nonlocal valid
        for key in keys:
            valid += 1
            yield key

    playable = list(play_rules(profile).playable(counted(valid_keys)))
    # the labels the runtime's anagram walk reads them by: the profile's numbering
    child = _fork(_alphagram_files, playable, list(profile.alphabet.labels), out)
    return Started(child, playable, valid)


def build_indexes(profile: Profile, lmdb_dir: Path, release_dir: Path,
                  early: Started | None = None) -> dict[str, Any]:
    """Write ``release_dir/indexes/`` from the record store at ``lmdb_dir``; returns the
    manifest entry.

    The playable keys are listed once (about 70 bytes a word: some 300 MB for Polish); the
    word tries are built from them here and the alphagram structures in a forked child at
    the same time, each list dropped once saved, so the peak stays far below the few GB a
    build may use. ``early``: the child is already running (:func:`start_indexes`).
    """
    started = time.monotonic()
    out = Path(release_dir) / INDEX_DIR
    out.mkdir(exist_ok=True)
    counts = {"words": 0, "playable": 0}

    def counted(it: Iterator[str]) -> Iterator[str]:
        for key in it:
            counts["words"] += 1
            yield key

    # the batch hot path's membership set, derived from the store
    marisa_trie.Trie(counted(_valid_keys(lmdb_dir))).save(str(out / WORDS))
    # the alphagram child runs while this process builds the word tries: indexing takes
    # about the time of the slower half on two cores
    if early is None:
        early = start_indexes(profile, _valid_keys(lmdb_dir), release_dir)
    latin = _latin_tries(profile, out)
    if early.valid != counts["words"]:    # indexes of other words than the store's
        early.cancel()
        raise BuildError(f"the indexes were started for {early.valid:,} valid keys; "
                         f"the records hold {counts['words']:,}")
    counts["playable"] = len(early.playable)
    _trie([length_tag(len(k)) + k[::-1] for k in early.playable], out, BACKWARD)
    early.playable = []     # dropped before waiting for the child: the peak stays low
    early.child.join()
    if early.child.exitcode != 0:
        raise BuildError(f"building the alphagram indexes failed (exit {early.child.exitcode})")
    # uint8 or uint16 counts: one per word of the uint32 node array
    counts_type = "B" if (out / ALPHAGRAM_COUNTS).stat().st_size * 4 == (
        out / ALPHAGRAM_NODES).stat().st_size else "H"
    key_ids = key_id_bytes(counts["playable"])
    files = {p.relative_to(out).as_posix(): p.stat().st_size
             for p in sorted(out.rglob("*")) if p.is_file()}
    entry: dict[str, Any] = {
        "format": FORMAT,
        "dir": INDEX_DIR,
        "files": files,
        "keys": counts["words"],
        "playable_keys": counts["playable"],
        "lengths": list(play_rules(profile).playable_lengths),
        "counts_type": counts_type,
        "key_id_bytes": key_ids,
        "build_seconds": round(time.monotonic() - started, 1),
    }
    if latin is not None:
        entry["latin"] = latin
    return entry


def _latin_tries(profile: Profile, out: Path) -> dict[str, int] | None:
    """For a game whose Latin spelling is ambiguous (Kvizovka's lj, nj, dž), the tries of
    the Latin spellings a typed word is valid for (:mod:`lexicon.store.indexes`); None for the
    others, whose typed word is its key."""
    if not speller(profile).ambiguous:
        return None
    inside, edge = latin_spellings(profile, marisa_trie.Trie().mmap(str(out / WORDS)))
    marisa_trie.Trie(inside).save(str(out / LATIN))
    marisa_trie.Trie(edge).save(str(out / LATIN_EDGE))
    return {"inside": len(inside), "edge": len(edge)}
