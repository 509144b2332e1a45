"""Anagrams and sub-anagrams of a rack (plus jokers, plus letters already on the board).

Words are found through their *alphagrams* (the key's tiles sorted): a word can be made
from the rack exactly when its alphagram is a sub-multiset of the rack. We walk the
alphagram trie's edge lists (see :mod:`lexicon.store.indexes`), which hold only tiles in
sorted order, so each multiset is visited once whatever the order of the rack, and only
children that exist are ever looked at: no string is built and no lookup fails along the
way. Summing the edges' ranks along the path gives each alphagram found the place where
its keys start, so reading a page's words needs no search.
At each step a tile is taken from the board first (board letters must all be used), then
from the rack, then from a joker, which gives every alphagram with the fewest jokers and
so the best score. A joker may stand for any tile, including letters only a joker can play
(Križemkražem's W, X, Y, Q).

The walk is bounded by ``MAX_STEPS`` trie probes (edges read); a query that would need
more is refused with ``query_too_broad`` rather than left to run.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from itertools import repeat
from typing import Any, NamedTuple

import numpy as np

from lexicon.errors import InputError, LexiconError
from lexicon.game.inputs import EDGE_SPACE, control_error, first_control, normalise
from lexicon.game.play import play_rules
from lexicon.game.profile import Profile
from lexicon.game.tiles import speller
from lexicon.store.indexes import NODE_CHILD_MASK, NODE_LABEL_SHIFT, NODE_TERMINAL, Indexes

JOKER = "?"
MAX_RACK_TILES = 15       # Remik's 13 (and a draw or two); the longest osps word is 15
MAX_BOARD_TILES = 8
MAX_JOKERS = 3            # beyond 3 jokers a 10-tile rack's sub-anagrams are most of a lexicon
MAX_CHARS_PER_TILE = 6    # "[dž], " at most: a longer rack text is refused before it is read
MAX_STEPS = 400_000       # edges of the nodes a walk opens (10 tiles, 2 jokers: ~5*10^4)


class QueryTooBroad(LexiconError):
    code = "query_too_broad"
    status = 422


@dataclass(frozen=True)
class Rack:
    tiles: Counter[str]       # canonical -> count (jokers excluded)
    jokers: int
    board: Counter[str]       # canonical -> count: letters on the board the word must use

    @property
    def size(self) -> int:
        return sum(self.tiles.values()) + self.jokers


def _read_tiles(profile: Profile, text: str, what: str, *, jokers: bool
                ) -> tuple[list[str], int]:
    """Tiles (canonical) and joker count of a rack or board string.

    Latin multi-letter tiles are read greedily (``lj`` is LJ); spaces, commas, ``|`` or
    ``[..]`` separate or group tiles where it matters (``l j``, ``l|j``, ``[lj]``).
    """
    text = normalise(text or "").strip(EDGE_SPACE).lower()
    if (bad := first_control(text)) is not None:   # never a separator (regex \s takes U+0085)
        raise control_error(text, bad, f" of the {what}")
    longest = MAX_CHARS_PER_TILE * (MAX_RACK_TILES if jokers else MAX_BOARD_TILES)
    if len(text) > longest:
        raise InputError(f"the {what} is {len(text)} characters long; at most {longest}",
                         code="rack_too_long", detail={"max_chars": longest})
    tiles: list[str] = []
    n_jokers = 0
    position = 0
    for chunk in re.split(r"([\s,?]+)", text):
        if not chunk:
            continue
        if chunk.strip(" ,\t\n") == "" or set(chunk) <= set(" ,\t\n?"):
            count = chunk.count(JOKER)
            if count and not jokers:
                raise InputError(f"the {what} cannot hold a joker ('?' at position "
                                 f"{position + chunk.index(JOKER) + 1})", code="bad_rack",
                                 detail={"position": position + chunk.index(JOKER) + 1})
            n_jokers += count
            position += len(chunk)
            continue
        for i, ch in enumerate(chunk):
            if ch in "[]|":
                continue
            if speller(profile).tile(ch) is None:
                raise InputError(f"{ch!r} (position {position + i + 1}) is not a tile of "
                                 f"{profile.name}", code="bad_rack",
                                 detail={"position": position + i + 1})
        for key_char in speller(profile).first(chunk).key:
            tile = profile.by_canonical[key_char]
            if tile.joker_only and jokers:
                raise InputError(f"no tile carries {tile.letter} in {profile.name}; a rack "
                                 f"holds a joker '?' for it", code="bad_rack",
                                 detail={"letter": tile.letter})
            tiles.append(key_char)
        position += len(chunk)
    return tiles, n_jokers


def parse_rack(profile: Profile, rack: str, board: str = "") -> Rack:
    """Read and check a rack (``?`` = joker) and optional board letters against the limits."""
    tiles, jokers = _read_tiles(profile, rack, "rack", jokers=True)
    board_tiles, _ = _read_tiles(profile, board, "board", jokers=False)
    if not tiles and not jokers:
        raise InputError("the rack is empty", code="bad_rack")
    if len(tiles) + jokers > MAX_RACK_TILES:
        raise InputError(f"the rack has {len(tiles) + jokers} tiles; at most {MAX_RACK_TILES}",
                         code="rack_too_long", detail={"max_tiles": MAX_RACK_TILES})
    if len(board_tiles) > MAX_BOARD_TILES:
        raise InputError(f"{len(board_tiles)} board letters; at most {MAX_BOARD_TILES}",
                         code="rack_too_long", detail={"max_board_tiles": MAX_BOARD_TILES})
    allowed = min(profile.jokers.count, MAX_JOKERS)
    if jokers > allowed:
        why = (f"{profile.name} has {profile.jokers.count} jokers"
               if profile.jokers.count < MAX_JOKERS else
               f"anagram queries take at most {MAX_JOKERS} jokers")
        raise InputError(f"the rack has {jokers} jokers; {why}", code="too_many_jokers",
                         detail={"max_jokers": allowed})
    return Rack(Counter(tiles), jokers, Counter(board_tiles))


class Found(NamedTuple):
    alphagram: str
    jokers: tuple[str, ...]   # letters the jokers stand for
    score: int | None         # with jokers at the game's joker value
    words: int                # how many words have this alphagram
    rank: int                 # where its keys start in alphagram order (Indexes.words_of)


class Alphagrams(Sequence[Found]):
    """What :func:`find_alphagrams` found: a sequence of :class:`Found`, with each one's
    score (0 when the game's values are unknown), length and word count as numpy arrays in
    its order. The rows are made only when asked for: a page of the best few of 8,000 is
    chosen on the arrays and made with :meth:`take` (``queries._alphagram_page``); walking
    the sequence makes them all (once)."""

    def __init__(self, walk: _Walk | None = None) -> None:
        self._walk = walk
        self._blocks: list[tuple[np.ndarray, ...]] = []   # one a level: the walk's rows
        self._starts: list[int] = []
        self._all: list[Found] | None = None
        self.scores = self.lengths = self.words = np.zeros(0, dtype=np.int64)

    def add(self, paths: np.ndarray, joker_labels: np.ndarray, scores: np.ndarray,
            counts: np.ndarray, ranks: np.ndarray) -> None:
        self._starts.append(len(self.words))
        self._blocks.append((paths, joker_labels, scores, counts, ranks))
        self.scores = np.concatenate([self.scores, scores])
        self.lengths = np.concatenate([self.lengths, np.full(len(counts), paths.shape[1])])
        self.words = np.concatenate([self.words, counts.astype(np.int64)])

    def take(self, indices: Sequence[int]) -> list[Found]:
        """The rows at ``indices`` (ascending), made a level at a time."""
        if self._all is not None or self._walk is None:
            return [self[i] for i in indices]
        out: list[Found] = []
        where = np.asarray(indices, dtype=np.int64)
        level = np.searchsorted(np.array(self._starts), where, side="right") - 1
        for b, block in enumerate(self._blocks):
            rows = where[level == b] - self._starts[b]
            if len(rows):
                out += self._walk.found(*(part[rows] for part in block))
        return out

    def _rows(self) -> list[Found]:
        if self._all is None:
            walk = self._walk
            self._all = [f for block in self._blocks for f in walk.found(*block)] \
                if walk is not None else []
        return self._all

    def __len__(self) -> int:
        return len(self.words)

    def __getitem__(self, i):  # type: ignore[no-untyped-def]  (int or slice, as a list)
        return self._rows()[i]

    def __iter__(self) -> Iterator[Found]:
        return iter(self._rows())


def find_alphagrams(index: Indexes, profile: Profile, rack: Rack, min_length: int,
                    max_length: int, exact: bool) -> Alphagrams:
    """Every alphagram makeable from ``rack`` (using all board letters) within the lengths,
    in no particular order (every caller sorts them).

    ``exact``: use every rack tile and joker (a full anagram, not a sub-anagram). The score
    is summed along the walk, so finding an alphagram costs no more than reaching it.

    The walk goes a level (a tile) at a time over every path still open, with numpy: a
    10-tile rack with 2 jokers opens some 16,000 paths and finds some 8,000 alphagrams on
    osps, where a Python step per edge cost most of the query. Each path keeps what is left
    of its rack, board letters and jokers; each open node's edges are read at once (a
    node's length is the popcount of its labels, :attr:`Indexes.alphagram_masks`), and an
    edge is taken from the board first, then from the rack, then by a joker, and never past
    the first board letter still needed (in sorted order it could not be used later).
    """
    letters = profile.alphabet.labels        # the alphagram trie's labels
    rules = play_rules(profile)
    known = rules.known_values
    rack_left = [rack.tiles.get(c, 0) for c in letters]
    board_left = [rack.board.get(c, 0) for c in letters]
    board_total = sum(board_left)
    total = rack.size + board_total
    max_length = min(max_length, total)
    min_length = max(min_length, board_total + 1, total if exact else 0)
    nodes = index.alphagram_nodes
    if not (min_length <= max_length and nodes[0]):
        return Alphagrams()
    walk = _Walk(index, letters, rules, known)
    found = Alphagrams(walk)
    now = _Open.start(nodes[0], rack_left, board_left, rack.jokers)
    steps = 0
    for depth in range(1, max_length + 1):
        parent, k, label, steps = _read_edges(walk, now.off, steps)
        now = _take(walk, now, parent, k, label, rack.jokers, board_total, len(letters))
        edge = walk.nodes[now.off]
        counts = walk.counts[now.off]
        ranks = now.bases + walk.ranks[now.off]
        if depth >= min_length:
            hits = np.flatnonzero((edge & NODE_TERMINAL != 0) & ~now.boards.any(axis=1))
            found.add(now.paths[hits], now.joker_labels[hits],
                      now.scores[hits] if known else np.zeros(len(hits), dtype=np.int64),
                      counts[hits], ranks[hits])
        if depth == max_length:
            break
        going = np.flatnonzero(edge & NODE_CHILD_MASK)
        if not len(going):
            break
        now = now.rows(going)
        now.off = (edge[going] & NODE_CHILD_MASK).astype(np.int64)
        now.bases = ranks[going] + counts[going]
    walk.release()      # the rows made later need no view of the mapped index
    return found


@dataclass
class _Open:
    """The open paths of a walk, one row each."""

    off: Any            # where the path is: its node's first edge, or the edge it took
    racks: Any          # tiles left, by label
    boards: Any         # board letters still to use, by label
    jokers: Any         # jokers left
    scores: Any
    bases: Any          # where the path's subtree's keys start
    paths: Any          # the labels along the path
    joker_labels: Any   # what each joker stood for (-1: not used yet)

    @classmethod
    def start(cls, root: int, rack_left: list[int], board_left: list[int],
              jokers: int) -> _Open:
        """The one path at the root, with the whole rack and board."""
        return cls(off=np.array([root], dtype=np.int64),
                   racks=np.array([rack_left], dtype=np.int16),
                   boards=np.array([board_left], dtype=np.int16),
                   jokers=np.array([jokers], dtype=np.int16),
                   scores=np.zeros(1, dtype=np.int64), bases=np.zeros(1, dtype=np.int64),
                   paths=np.zeros((1, 0), dtype=np.intp),
                   joker_labels=np.full((1, jokers), -1, dtype=np.intp))

    def rows(self, index: Any) -> _Open:
        """The paths at ``index``."""
        return _Open(*(getattr(self, f.name)[index] for f in fields(self)))


def _read_edges(walk: _Walk, off: Any, steps: int) -> tuple[Any, Any, Any, int]:
    """Every edge of every open node, at once: the path it extends, its index and its label,
    and the steps counted so far (past :data:`MAX_STEPS` the query is refused). A node's
    edges are its popcount of labels (:attr:`Indexes.alphagram_masks`)."""
    lens = np.bitwise_count(walk.masks[off]).astype(np.int64)
    edges_read = int(lens.sum())
    steps += edges_read
    if steps > MAX_STEPS:
        raise QueryTooBroad(f"the query needs more than {MAX_STEPS:,} steps; use "
                            f"fewer jokers or a longer minimum length",
                            detail={"max_steps": MAX_STEPS})
    parent = np.repeat(np.arange(len(off)), lens)
    k = np.repeat(off - (np.cumsum(lens) - lens), lens) + np.arange(edges_read)
    label = (walk.nodes[k] >> NODE_LABEL_SHIFT).astype(np.intp)
    return parent, k, label, steps


def _take(walk: _Walk, now: _Open, parent: Any, k: Any, label: Any, rack_jokers: int,
          board_total: int, n_letters: int) -> _Open:
    """The paths one edge longer (``off``: the edge each took): an edge is taken from the
    board first, then from the rack, then by a joker, and never past the first board letter
    still needed (in sorted order it could not be used later)."""
    on_board = now.boards[parent, label] > 0
    on_rack = ~on_board & (now.racks[parent, label] > 0)
    by_joker = ~on_board & ~on_rack & (now.jokers[parent] > 0)
    take = on_board | on_rack | by_joker
    if board_total:     # board letters must all be used: none may be passed over
        needed = now.boards > 0
        first = np.where(needed.any(axis=1), needed.argmax(axis=1), n_letters)
        take &= label <= first[parent]
    chosen = np.flatnonzero(take)
    parent, k, label = parent[chosen], k[chosen], label[chosen]
    on_board, on_rack, by_joker = on_board[chosen], on_rack[chosen], by_joker[chosen]
    rows = np.arange(len(chosen))
    racks = now.racks[parent]
    racks[rows, label] -= on_rack
    boards = now.boards[parent]
    boards[rows, label] -= on_board
    joker_labels = now.joker_labels[parent]
    if rack_jokers:
        spent = rows[by_joker]
        joker_labels[spent, rack_jokers - now.jokers[parent][by_joker]] = label[by_joker]
    return _Open(off=k, racks=racks, boards=boards, jokers=now.jokers[parent] - by_joker,
                 scores=now.scores[parent] + np.where(by_joker, walk.joker_value[label],
                                                      walk.tile_value[label]),
                 bases=now.bases[parent],
                 paths=np.concatenate([now.paths[parent], label[:, None]], axis=1),
                 joker_labels=joker_labels)


class _Walk:
    """The arrays one walk reads: the index's (numpy views of the mapped files, no copy)
    and the game's values by label."""

    def __init__(self, index: Indexes, letters: tuple[str, ...] | list[str], rules: Any,
                 known: bool) -> None:
        self.known = known          # scores are None when the game's values are unknown
        self.nodes = np.frombuffer(index.alphagram_nodes, dtype=np.uint32)
        self.counts = np.frombuffer(index.alphagram_counts,
                                    dtype=np.dtype(index.alphagram_counts.format))
        self.ranks = np.frombuffer(index.alphagram_ranks, dtype=np.uint32)
        self.masks = np.frombuffer(index.alphagram_masks, dtype=np.uint64)
        self.letters = list(letters)
        self.tile_value = np.array([rules.values[c] or 0 for c in letters], dtype=np.int64)
        self.joker_value = np.array([rules.joker_value(c) for c in letters], dtype=np.int64)
        # one code point a label (every game's canonical tiles are): a path of labels is
        # spelt by a view of its code points as a string, no Python step a letter
        self.code_points = (np.array([ord(c) for c in letters], dtype=np.uint32)
                            if all(len(c) == 1 for c in letters) else None)
        self.spelt: dict[int, tuple[str, ...]] = {0: ()}

    def release(self) -> None:
        """Drop the views of the index's mapped files: a release may be closed (its maps
        unmapped) while the walk's result is still held."""
        del self.nodes, self.counts, self.ranks, self.masks

    def spell(self, paths: np.ndarray) -> list[str]:
        if self.code_points is None or not paths.shape[1]:
            return ["".join(self.letters[i] for i in row) for row in paths.tolist()]
        points = np.ascontiguousarray(self.code_points[paths])
        return points.view(f"<U{paths.shape[1]}").ravel().tolist()

    def found(self, paths: np.ndarray, joker_labels: np.ndarray, scores: np.ndarray,
              counts: np.ndarray, ranks: np.ndarray) -> list[Found]:
        # what the jokers stood for, as one number a row (labels + 1, base 65): each
        # distinct one is spelt once a walk
        width = joker_labels.shape[1]
        keys = ((joker_labels + 1) @ (65 ** np.arange(width, dtype=np.int64))).tolist() \
            if width else [0] * len(counts)
        spelt = self.spelt
        for key in set(keys).difference(spelt):
            spelt[key] = tuple(self.letters[key // 65 ** i % 65 - 1] for i in range(width)
                               if key // 65 ** i % 65)
        jokers = [spelt[key] for key in keys]
        score_list = scores.tolist() if self.known else [None] * len(counts)
        # tuple.__new__ straight from C: a namedtuple's own __new__ is a Python call a row
        return list(map(tuple.__new__, repeat(Found, len(jokers)), zip(
            self.spell(paths), jokers, score_list, counts.tolist(), ranks.tolist(),
            strict=True)))


def joker_positions(key: str, jokers: tuple[str, ...]) -> list[int]:
    """0-based positions a joker fills: the last occurrences of each letter it stands for."""
    out: list[int] = []
    for letter, count in Counter(jokers).items():
        spots = [i for i, c in enumerate(key) if c == letter]
        out += spots[-count:]
    return sorted(out)
