"""Writing a game's words as a KWG, the DAWG + GADDAG file that wolges and macondo load.

The layout follows wolges (``src/kwg.rs``, ``src/build.rs``) exactly where an engine can
see it:

* the file is a flat array of little-endian u32 nodes; a node holds its tile in bits
  24-31, "a word ends here" in bit 23, "last sibling" in bit 22 and the index of its
  first child in bits 0-21 (0: no children). Siblings are contiguous, in tile order;
* node 0 points at the DAWG's root list, node 1 at the GADDAG's;
* tiles are numbered from 1 in the game's alphabet order (the profile's tile order; in
  Kvizovka LJ, NJ and DŽ are single tiles), 0 is the GADDAG separator;
* the GADDAG holds, for a word CARE, ``ERAC`` (accepting) and ``RAC@``, ``AC@``, ``C@``,
  where the separator's arc points into the DAWG at ``CAR``, ``CA``, ``C``: after the
  separator an engine reads the rest of the word forwards from the DAWG, so that half is
  never stored twice.

How it is built, and why it is linear-ish: the input is sorted, so each word shares a
prefix with the one before; the builder keeps only the current path (Daciuk et al.'s
incremental construction of a minimal automaton from sorted data) and, whenever it leaves a
node, freezes that node's children as a sibling list. A register (a dict) maps each frozen
(tile, accepts, child, next sibling) to its state, so equal sibling lists (and equal tails
of lists) are stored once: that is the node deduplication. Each entry costs its length in
work, the register holds only distinct states. The frozen states are then laid out: every
list reached from a root is written once, contiguously; a list that is the tail of one
already written points into it.

An alphabet file (wolges' ``src/alphabets/*.txt`` columns: tile, blank label, count,
score, vowel, then two zeros) is written beside the KWG, so an engine maps numbers to
letters.
"""

from __future__ import annotations

import gzip
import os
import sys
import time
from array import array
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from lexicon.errors import LexiconError
from lexicon.profile import Profile
from lexicon.store import Release

MAX_NODES = 0x400000          # 22 bits of arc index
SEPARATOR = 0
VOWELS = frozenset("aeiouyąęóаеиоу")   # the vowel column of the alphabet file (display only)


class KwgTooLarge(LexiconError):
    code = "kwg_too_large"
    status = 500


def tile_numbers(profile: Profile) -> dict[str, int]:
    """Canonical code point -> tile number (1-based, the profile's alphabet order)."""
    return {t.canonical: i for i, t in enumerate(profile.tiles, 1)}


def encode_words(profile: Profile, keys: Iterable[str]) -> list[bytes]:
    """Keys as byte strings of tile numbers (one byte a tile), sorted by tile number."""
    table = str.maketrans({c: chr(n) for c, n in tile_numbers(profile).items()})
    out = [k.translate(table).encode("latin-1") for k in keys]
    out.sort()
    return out


class _StateMaker:
    """The register of frozen states; state 0 is the sink (no tile, no children)."""

    def __init__(self) -> None:
        self.tile = array("B", [0])
        self.accepts = array("B", [0])
        self.arc = array("I", [0])
        self.next = array("I", [0])
        self.register: dict[int, int] = {0: 0}

    def make_state(self, tiles: list[int], accepts: list[bool], arcs: list[int],
                   start: int) -> int:
        """Freeze the transitions from ``start`` on as one sibling list; returns its head."""
        ret = 0
        register = self.register
        for i in range(len(tiles) - 1, start - 1, -1):
            key = tiles[i] | accepts[i] << 8 | arcs[i] << 9 | ret << 41
            found = register.get(key)
            if found is None:
                found = register[key] = len(self.tile)
                self.tile.append(tiles[i])
                self.accepts.append(accepts[i])
                self.arc.append(arcs[i])
                self.next.append(ret)
            ret = found
        return ret

    def dawg_state(self, start: int, forward: bytes) -> int:
        """The state reached from the list ``start`` by reading ``forward``."""
        p = start
        tile, nxt, arc = self.tile, self.next, self.arc
        for sought in forward:
            while tile[p] != sought:
                p = nxt[p]
                if p == 0:
                    raise ValueError("GADDAG prefix missing from the DAWG (unsorted input?)")
            p = arc[p]
        return p

    def make_dawg(self, entries: Iterable[bytes], dawg_start: int, gaddag: bool,
                  progress: Callable[[int], None] | None = None) -> int:
        """Build from sorted unique entries; returns the head of the root's children."""
        tiles: list[int] = []
        accepts: list[bool] = []
        arcs: list[int] = []
        depth: list[int] = []      # for each open node on the path: where its children start
        prev = b""

        def pop() -> None:
            start = depth.pop()
            arcs[start - 1] = self.make_state(tiles, accepts, arcs, start)
            del tiles[start:], accepts[start:], arcs[start:]

        for n, word in enumerate(entries):
            open_len = len(depth)
            common = 0
            limit = min(len(word), open_len)
            while common < limit and prev[common] == word[common]:
                common += 1
            for _ in range(open_len - common):
                pop()
            for t in word[common:]:
                tiles.append(t)
                accepts.append(False)
                arcs.append(0)
                depth.append(len(tiles))
            if gaddag and word[-1] == SEPARATOR:
                depth.pop()  # the separator has no children of its own: it joins the DAWG
                arcs[-1] = self.dawg_state(dawg_start, word[-2::-1])
            else:
                accepts[-1] = True
            prev = word
            if progress is not None and n % 200_000 == 0:
                progress(n)
        while depth:
            pop()
        return self.make_state(tiles, accepts, arcs, 0)


def gaddag_entries(words: list[bytes]) -> list[bytes]:
    """wolges' GADDAG strings for sorted ``words``: each word reversed, and each proper
    prefix reversed plus the separator (once, however many words share the prefix)."""
    out: list[bytes] = []
    sep = bytes([SEPARATOR])
    prev = b""
    for word in words:
        n = len(word)
        common = 0
        limit = min(n, len(prev) - 1)
        while common < limit and prev[common] == word[common]:
            common += 1
        rev = word[::-1]
        out.append(rev)
        rev += sep
        for cut in range(1, n - common):
            out.append(rev[cut:])
        prev = word
    out.sort()
    return out


def _layout(sm: _StateMaker, roots: list[int]) -> tuple[array, int]:
    """Place every sibling list reachable from ``roots``; returns (destination, size).

    A list must be contiguous. Lists are placed longest first, so a list that is the tail
    of a longer one already placed points into it instead of being written again; only
    lists that merge into a shared tail (neither a suffix of the other) repeat that tail.
    """
    count = len(sm.tile)
    nxt, arc = sm.next, sm.arc
    heads: list[int] = []
    seen = bytearray(count)
    todo = [r for r in roots if r]
    while todo:
        head = todo.pop()
        if seen[head]:
            continue
        seen[head] = 1
        heads.append(head)
        p = head
        while p:
            a = arc[p]
            if a and not seen[a]:
                todo.append(a)
            p = nxt[p]
    to_end = array("I", bytes(4 * count))    # a state's next always has a smaller index
    for p in range(1, count):
        n = nxt[p]
        to_end[p] = 1 + (to_end[n] if n else 0)
    heads.sort(key=lambda h: -to_end[h])
    dest = array("I", bytes(4 * count))
    written = len(roots)
    for head in heads:
        if dest[head]:
            continue
        p, d = head, written
        while p:
            if not dest[p]:
                dest[p] = d
            p, d = nxt[p], d + 1
        written = d
    return dest, written


def build_kwg(words: list[bytes], progress: Callable[[str], None] | None = None, *,
              gaddag: bool = True) -> bytes:
    """The KWG bytes of sorted unique tile-number strings (DAWG at node 0, GADDAG at 1;
    ``gaddag=False``: wolges' DAWG-only KWG, node 0 alone)."""
    say = progress or (lambda _m: None)
    sm = _StateMaker()
    t0 = time.monotonic()
    roots = [sm.make_dawg(words, 0, False)]
    say(f"dawg: {len(words):,} words, {len(sm.tile):,} states, "
        f"{time.monotonic() - t0:.1f} s")
    if gaddag:
        entries = gaddag_entries(words)
        say(f"gaddag: {len(entries):,} entries sorted, {time.monotonic() - t0:.1f} s")
        roots.append(sm.make_dawg(entries, roots[0], True))
        del entries
        say(f"gaddag: {len(sm.tile):,} states, {time.monotonic() - t0:.1f} s")
    sm.register.clear()
    dest, size = _layout(sm, roots)
    if size > MAX_NODES:
        hint = "; `--dawg-only` writes the DAWG alone" if gaddag else ""
        raise KwgTooLarge(f"{size:,} nodes; the KWG format (22-bit arc index) holds at most "
                          f"{MAX_NODES:,}{hint}", detail={"nodes": size, "gaddag": gaddag})
    nodes = array("I", bytes(4 * size))
    for i, root in enumerate(roots):
        nodes[i] = 1 << 22 | dest[root]
    tile, acc, arc, nxt = sm.tile, sm.accepts, sm.arc, sm.next
    done = bytearray(size)
    for p in range(1, len(tile)):
        d = dest[p]
        if not d or done[d]:
            continue
        while True:
            q = nxt[p]
            nodes[d] = (tile[p] << 24 | acc[p] << 23 | (q == 0) << 22 | dest[arc[p]])
            done[d] = 1
            if q == 0:
                break
            p, d = q, d + 1
    if sys.byteorder != "little":
        nodes.byteswap()
    say(f"kwg: {size:,} nodes, {time.monotonic() - t0:.1f} s")
    return nodes.tobytes()


def alphabet_text(profile: Profile) -> str:
    """wolges' alphabet columns: label, blank label, count, score, vowel, 0, 0."""
    rows = [f"?\t?\t{profile.jokers.count}\t0\t0\t0\t0"]
    for t in profile.tiles:
        score = 1 if profile.scoring == "letter_count" else (t.value or 0)
        vowel = int(t.canonical in VOWELS)
        rows.append(f"{t.letter}\t{t.letter.lower()}\t{t.count or 0}\t{score}\t{vowel}\t0\t0")
    return "\n".join(rows) + "\n"


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def export_kwg(profile: Profile, release: Release, output: Path,
               log: Callable[[str], None] | None = None, *, gaddag: bool = True
               ) -> dict[str, Any]:
    """Write ``output`` (the KWG) and ``output`` with ``.alphabet.txt`` beside it."""
    from lexicon.export import valid_keys

    say = log or (lambda m: print(m, file=sys.stderr, flush=True))
    t0 = time.monotonic()
    words = encode_words(profile, valid_keys(profile, release))
    say(f"{profile.id}: {len(words):,} words read, {time.monotonic() - t0:.1f} s")
    data = build_kwg(words, say, gaddag=gaddag)
    output = Path(output)
    alphabet = output.with_suffix(".alphabet.txt")
    _atomic_write(output, data)
    _atomic_write(alphabet, alphabet_text(profile).encode())
    return {"format": "kwg", "words": len(words), "release": release.id,
            "output": str(output), "alphabet": str(alphabet), "bytes": len(data),
            "nodes": len(data) // 4, "gaddag": gaddag, "gzip_bytes": len(gzip.compress(data, 6)),
            "seconds": round(time.monotonic() - t0, 1)}
