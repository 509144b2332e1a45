"""Writing a game's words as a KWG, the DAWG + GADDAG file that wolges and macondo load.

The layout follows wolges (``src/kwg.rs``, ``src/build.rs``) exactly where an engine can
see it. Two node layouts exist, both flat arrays of little-endian u32 nodes with siblings
contiguous, in tile order:

* the KWG (``.kwg``): tile in bits 24-31, "a word ends here" (accepts) in bit 23, "last
  sibling" (end) in bit 22, the index of the first child in bits 0-21 (0: no children),
  so at most 4,194,304 nodes;
* wolges' big KWG (``.kbwg``, its ``Node24``, ``-kbwg`` in ``main_build.rs``): tile in
  bits 0-5, end in bit 6, accepts in bit 7, arc index in bits 8-31, so up to 16,777,216
  nodes and tiles 1-63. The Polish GADDAG (about 4.9M nodes) needs it.

In both, node 0 points at the DAWG's root list, node 1 at the GADDAG's (``gaddag=False``:
node 0 alone, wolges' DAWG-only file). Tiles are numbered from 1 in the profile's engine
order (``Profile.alphabet``, :class:`lexicon.game.profile.Alphabet`: the stock wolges
alphabet's order where one exists for the same letters; Kvizovka's LJ, NJ and DŽ are
single tiles), 0 is the GADDAG separator.
The GADDAG holds, for a word CARE, ``ERAC`` (accepting) and ``RAC@``, ``AC@``, ``C@``,
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
already written points into it. The layout does not depend on the node format, so the
engine pack builds the graph once and picks the KWG when it fits, the big KWG when not.

An alphabet file (wolges' ``src/alphabets/*.txt`` columns: tile, blank label, count,
score, vowel, then two zeros) is written beside the KWG, so an engine maps numbers to
letters.
"""

from __future__ import annotations

import gzip
import sys
import time
import unicodedata
from array import array
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from lexicon import atomic
from lexicon.errors import EXIT_FAILED, LexiconError
from lexicon.export import kwgfigures
from lexicon.export.playable import valid_keys
from lexicon.game.profile import Profile
from lexicon.store.release import Release

MAX_NODES = 0x400000          # 22 bits of arc index (the KWG)
MAX_BIG_NODES = 0x1000000     # 24 bits of arc index (wolges' big KWG, Node24)
MAX_BIG_TILE = 0x3F           # 6 bits of tile in the big KWG
SEPARATOR = 0


class KwgTooLarge(LexiconError):
    code = "kwg_too_large"
    status = 500
    exit_code = EXIT_FAILED


class NoDistribution(LexiconError):
    """An engine's bag needs a count for every tile; a game whose profile has none (Remik's
    rule book publishes no distribution) cannot be exported for an engine."""

    code = "no_distribution"
    status = 409
    exit_code = EXIT_FAILED     # the export cannot be made: not a usage error


def encode_words(profile: Profile, keys: Iterable[str]) -> list[bytes]:
    """Keys as byte strings of tile numbers (one byte a tile, the profile's numbering:
    :class:`lexicon.game.profile.Alphabet`), sorted by tile number."""
    encode = profile.alphabet.engine_bytes
    out = [encode(k) for k in keys]
    out.sort()
    return out


class _Full(Exception):
    """The register passed its cap (see :class:`_StateMaker`)."""


class _StateMaker:
    """The register of frozen states; state 0 is the sink (no tile, no children).

    It also counts, while the graph is built, the nodes the file will have beside the
    roots (:attr:`nodes`), exactly as :func:`_layout` will place them: every state but the
    sink is reachable from a root (a state is made only as the tail of the sibling list
    whose head its parent's arc then names), and the layout writes the chain of every
    state that no other state has as its next sibling (a *leaf*: the head of a list that
    is no other list's tail) whole, once; every other list lies inside one of those. So
    the file has the sum of the leaves' chain lengths. A new state is a new leaf; its next
    state stops being one if it was (one node more: the chain grew by one) or, when that
    state already followed another, its whole chain is written a second time behind the
    new one (:attr:`to_end` of it, plus one). ``cap`` stops the build with :class:`_Full`
    the moment that count reaches it: a file that cannot fit fails then, not after the
    whole graph is built, laid out and encoded."""

    def __init__(self, cap: int | None = None) -> None:
        self.cap = cap if cap is not None else 1 << 62
        self.nodes = 0
        self.followed = bytearray(1)    # per state: 1 once some state has it as next
        self.to_end = array("I", [0])   # per state: the length of its chain
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
                self.followed.append(0)
                chain = 1
                if ret:
                    chain += self.to_end[ret]
                    if self.followed[ret]:
                        self.nodes += chain      # ret's chain is written again after this
                    else:
                        self.followed[ret] = 1
                        self.nodes += 1          # ret's leaf chain grows by this state
                else:
                    self.nodes += 1
                self.to_end.append(chain)
                if self.nodes >= self.cap:
                    raise _Full
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


def gaddag_entries(words: list[bytes]) -> Iterator[bytes]:
    """wolges' GADDAG strings for sorted ``words``, in order: each word reversed, and each
    proper prefix reversed plus the separator (once, however many words share the prefix).

    They are several times as many as the words; as Python objects all at once they would
    be most of the export's memory. So they are kept packed, one buffer per first tile
    (an entry and a delimiter byte no tile has), and each group is split and sorted only
    when it is its turn: groups follow in tile order, so the whole stream is sorted."""
    sep = bytes([SEPARATOR])
    groups: dict[int, bytearray] = {}
    prev = b""
    for word in words:
        n = len(word)
        common = 0
        limit = min(n, len(prev) - 1)
        while common < limit and prev[common] == word[common]:
            common += 1
        rev = word[::-1]
        _pack(groups, rev)
        rev += sep
        for cut in range(1, n - common):
            _pack(groups, rev[cut:])
        prev = word
    for first in sorted(groups):
        packed = groups.pop(first)
        group = bytes(packed).split(_DELIMITER)
        del packed
        group.pop()
        group.sort()
        yield from group


#: ends each packed GADDAG entry: no tile is numbered 255 (the big KWG's are at most 63)
_DELIMITER = b"\xff"


def _pack(groups: dict[int, bytearray], entry: bytes) -> None:
    packed = groups.get(entry[0])
    if packed is None:
        packed = groups[entry[0]] = bytearray()
    packed += entry
    packed += _DELIMITER


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
    to_end = sm.to_end
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


def too_large(nodes: int, limit: int, *, big: bool, gaddag: bool, at_least: bool = False,
              known: bool = False, **detail: Any) -> KwgTooLarge:
    """The refusal of a graph of ``nodes`` nodes (``at_least``: counted so far, the build
    stopped there; ``known``: the release's kept figure, :mod:`.kwgfigures`) for a format
    holding ``limit``, with the way out: the big KWG or the DAWG alone for the KWG, the
    DAWG alone for the big KWG."""
    if big:
        hint = "; `--dawg-only` writes the DAWG alone" if gaddag else ""
        what = "the big KWG format (24-bit arc index)"
    else:
        hint = ("; `--format kbwg` writes wolges' big KWG (24-bit arc index, up to "
                f"{MAX_BIG_NODES:,} nodes)")
        if gaddag:
            hint += ", `--dawg-only` the DAWG alone"
        what = "the KWG format (22-bit arc index)"
    if known:
        counted = (f"more than {nodes - 1:,} nodes" if at_least else f"{nodes:,} nodes") + \
            " (counted once for this release"
    elif at_least:
        counted = f"more than {limit:,} nodes (stopped counting there"
    else:
        counted = f"{nodes:,} nodes ("
    return KwgTooLarge(f"{counted}); {what} holds at most {limit:,}{hint}",
                       detail={"nodes": nodes, "at_least": at_least, "gaddag": gaddag,
                               "format": "kbwg" if big else "kwg",
                               "counted": "release" if known else "export", **detail})


class Graph:
    """A built DAWG (+ GADDAG), laid out: what either node format encodes.

    ``limit``: the most nodes the file may have (the format's). The build counts the
    file's nodes as it makes states (see :class:`_StateMaker`) and stops with
    :class:`KwgTooLarge` the moment they pass it, before the rest of the graph, its layout
    and its encoding are made: a lexicon too large for the format fails as soon as that
    is certain, not after the whole build."""

    def __init__(self, words: list[bytes], progress: Callable[[str], None] | None = None,
                 *, gaddag: bool = True, limit: int | None = None, big: bool = False
                 ) -> None:
        say = progress or (lambda _m: None)
        self.gaddag = gaddag
        roots_n = 2 if gaddag else 1
        # the file has roots + sm.nodes nodes: at limit - roots + 1 it is too large
        sm = self.sm = _StateMaker(None if limit is None else limit - roots_n + 1)
        t0 = time.monotonic()
        stage = "dawg"
        try:
            roots = [sm.make_dawg(words, 0, False)]
            say(f"dawg: {len(words):,} words, {len(sm.tile):,} states, "
                f"{time.monotonic() - t0:.1f} s")
            if gaddag:
                stage = "gaddag"
                roots.append(sm.make_dawg(gaddag_entries(words), roots[0], True))
                say(f"gaddag: {len(sm.tile):,} states, {time.monotonic() - t0:.1f} s")
        except _Full:
            assert limit is not None
            raise too_large(limit + 1, limit, big=big, gaddag=gaddag, at_least=True,
                            stage=stage, seconds=round(time.monotonic() - t0, 1)) from None
        sm.register.clear()
        self.roots = roots
        self.dest, self.size = _layout(sm, roots)
        self.max_tile = max(sm.tile) if len(sm.tile) else 0

    def encode(self, *, big: bool = False) -> bytes:
        """The file: KWG nodes, or (``big``) wolges' Node24 nodes. Raises
        :class:`KwgTooLarge` when the graph has more nodes than the format addresses."""
        limit = MAX_BIG_NODES if big else MAX_NODES
        if self.size > limit:
            raise too_large(self.size, limit, big=big, gaddag=self.gaddag)
        if big and self.max_tile > MAX_BIG_TILE:
            raise KwgTooLarge(f"tile {self.max_tile}; the big KWG holds tiles 1-{MAX_BIG_TILE}",
                              detail={"tiles": self.max_tile, "format": "kbwg"})
        sm, dest, size = self.sm, self.dest, self.size
        if big:
            def node(tile: int, accepts: int, end: int, arc: int) -> int:
                return arc << 8 | accepts << 7 | end << 6 | tile
        else:
            def node(tile: int, accepts: int, end: int, arc: int) -> int:
                return tile << 24 | accepts << 23 | end << 22 | arc
        nodes = array("I", bytes(4 * size))
        for i, root in enumerate(self.roots):
            nodes[i] = node(0, 0, 1, dest[root])
        tile, acc, arc, nxt = sm.tile, sm.accepts, sm.arc, sm.next
        done = bytearray(size)
        for p in range(1, len(tile)):
            d = dest[p]
            if not d or done[d]:
                continue
            while True:
                q = nxt[p]
                nodes[d] = node(tile[p], acc[p], q == 0, dest[arc[p]])
                done[d] = 1
                if q == 0:
                    break
                p, d = q, d + 1
        if sys.byteorder != "little":
            nodes.byteswap()
        return nodes.tobytes()


def count_release(profile: Profile, release: Release) -> dict[str, Any]:
    """Count the nodes ``release``'s KWG (DAWG + GADDAG) and DAWG-only KWG have, as
    :class:`Graph` lays them out, and keep them (:mod:`lexicon.export.kwgfigures`), so
    that an export in a format too small is refused at once. The states are made exactly
    as an export makes them, without the layout or an encoding, and no further than
    :data:`MAX_BIG_NODES`: past that no format holds the file. Returns the parts kept."""
    words = encode_words(profile, valid_keys(profile, release))
    sm = _StateMaker(MAX_BIG_NODES)      # the file has a root or two beside sm.nodes
    parts: dict[str, dict[str, int]] = {}
    try:
        root = sm.make_dawg(words, 0, False)
        parts["dawg_only"] = {"nodes": 1 + sm.nodes}
        sm.make_dawg(gaddag_entries(words), root, True)
        parts["kwg"] = {"nodes": 2 + sm.nodes}
    except _Full:
        parts.setdefault("dawg_only", {"more_than": MAX_BIG_NODES})
        parts["kwg"] = {"more_than": MAX_BIG_NODES}
    kwgfigures.keep(profile, release, **parts)
    return parts


def build_kwg(words: list[bytes], progress: Callable[[str], None] | None = None, *,
              gaddag: bool = True, big: bool = False) -> bytes:
    """The KWG bytes of sorted unique tile-number strings (DAWG at node 0, GADDAG at 1;
    ``gaddag=False``: wolges' DAWG-only KWG, node 0 alone; ``big``: the Node24 layout)."""
    say = progress or (lambda _m: None)
    t0 = time.monotonic()
    data = Graph(words, say, gaddag=gaddag, big=big,
                 limit=MAX_BIG_NODES if big else MAX_NODES).encode(big=big)
    say(f"{'kbwg' if big else 'kwg'}: {len(data) // 4:,} nodes, "
        f"{time.monotonic() - t0:.1f} s")
    return data


def alphabet_rows(profile: Profile) -> list[tuple[str, str, int, int, int]]:
    """(label, blank label, count, score, vowel) per tile, the joker first, then the
    tiles in KWG order: the columns wolges' alphabet files and MAGPIE's letter
    distributions share. A letter only a joker plays has count 0 and the score the joker
    takes for it; every tile of the set has its count (provisional where the profile says
    so), never 0."""
    alphabet = profile.alphabet
    rows = [("?", "?", profile.jokers.count, 0, 0)]
    for t in alphabet.engine:
        if t.joker_only:
            count, score = 0, profile.jokers.extra_value or 0
        else:
            if not t.count:
                raise NoDistribution(
                    f"{profile.name}: tile {t.letter} has no count in its profile (the rule "
                    "book publishes no distribution), so an engine's bag cannot be written",
                    detail={"tile": t.letter})
            count = t.count
            score = 1 if profile.scoring == "letter_count" else (t.value or 0)
        rows.append((t.letter, t.letter.lower(), count, score,
                     int(alphabet.vowel(t))))
    return rows


#: the one-code-point digraph letters (Ǉ ǉ Ǌ ǌ Ǆ ǆ, DZ dz too), by the two letters they
#: stand for: an alias no longest-tile-first reader can split or join wrongly
_DIGRAPHS = {unicodedata.normalize("NFKC", c): c
             for c in map(chr, [*range(0x01C4, 0x01CD), *range(0x01F1, 0x01F4)])}


def aliases(profile: Profile) -> dict[str, tuple[list[str], list[str]]]:
    """Each tile's alias labels for wolges' alphabet file (upper case, lower case): its
    canonical letter where that is not its label (Kvizovka's Cyrillic: Љ љ for LJ, А а for
    A) and, for a Latin digraph tile, the one-code-point digraph (Ǉ ǉ).

    wolges reads a word list longest tile first, without going back (``AlphabetReader``
    in ``src/alphabet.rs``), so Latin ``injekcija`` (N, J) is misread with the tile NJ, and
    ``nadživeti`` (D, Ž) with DŽ. Cyrillic has one letter per tile, and so have the
    digraph code points: a word written with them is read exactly."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for t in profile.alphabet.engine:
        upper, lower = [], []
        if t.canonical != t.letter.lower():
            upper.append(t.canonical.upper())
            lower.append(t.canonical)
        if len(t.letter) > 1 and t.letter in _DIGRAPHS:
            upper.append(_DIGRAPHS[t.letter])
            lower.append(_DIGRAPHS[t.letter.lower()])
        out[t.letter] = (upper, lower)
    return out


def alphabet_text(profile: Profile) -> str:
    """wolges' alphabet columns: label, blank label, count, score, vowel, then the number
    of alias labels and those, the number of alias blank labels and those
    (:func:`aliases`; ``0 0`` for a tile that has none)."""
    alias = aliases(profile)
    lines = []
    for a, b, c, s, v in alphabet_rows(profile):
        upper, lower = alias.get(a, ([], []))
        lines.append("\t".join(map(str, [a, b, c, s, v, len(upper), *upper, len(lower),
                                          *lower])) + "\n")
    return "".join(lines)


def export_kwg(profile: Profile, release: Release, output: Path,
               log: Callable[[str], None] | None = None, *, gaddag: bool = True,
               big: bool = False) -> dict[str, Any]:
    """Write ``output`` (the KWG, or ``big``: the big KWG) and ``output`` with
    ``.alphabet.txt`` beside it. A release whose kept figure (:mod:`.kwgfigures`) says its
    file has more nodes than the format holds is refused before a word is read; one with
    none is counted as the graph is built (:class:`Graph`), and what that count finds is
    kept for the exports after it."""
    say = log or (lambda m: print(m, file=sys.stderr, flush=True))
    t0 = time.monotonic()
    tiles = len(profile.alphabet.engine)
    if big and tiles > MAX_BIG_TILE:                 # known before a word is read
        raise KwgTooLarge(f"{tiles} tiles; the big KWG holds tiles 1-{MAX_BIG_TILE}",
                          detail={"tiles": tiles, "format": "kbwg"})
    alphabet_bytes = alphabet_text(profile).encode()
    part = "kwg" if gaddag else "dawg_only"
    known = kwgfigures.known_nodes(profile, release, gaddag=gaddag)
    limit = MAX_BIG_NODES if big else MAX_NODES
    if known is not None and known[0] > limit:      # the kept count: no word read
        raise too_large(known[0], limit, big=big, gaddag=gaddag, at_least=known[1],
                        known=True)
    words = encode_words(profile, valid_keys(profile, release))
    say(f"{profile.id}: {len(words):,} words read, {time.monotonic() - t0:.1f} s")
    try:
        data = build_kwg(words, say, gaddag=gaddag, big=big)
    except KwgTooLarge as err:       # too many nodes (or, for the big KWG, a tile)
        if "nodes" in err.detail:
            counted = {"more_than": limit} if err.detail["at_least"] else \
                {"nodes": err.detail["nodes"]}
            kwgfigures.keep(profile, release, **{part: counted})
        raise
    kwgfigures.keep(profile, release, **{part: {"nodes": len(data) // 4}})
    output = Path(output)
    alphabet = output.with_suffix(".alphabet.txt")
    atomic.write_bytes(output, data)
    atomic.write_bytes(alphabet, alphabet_bytes)
    return {"format": "kbwg" if big else "kwg", "words": len(words), "release": release.id,
            "output": str(output), "alphabet": str(alphabet), "bytes": len(data),
            "nodes": len(data) // 4, "gaddag": gaddag, "gzip_bytes": len(gzip.compress(data, 6)),
            "seconds": round(time.monotonic() - t0, 1)}
