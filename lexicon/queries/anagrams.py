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
from dataclasses import dataclass
from typing import NamedTuple

from lexicon.errors import InputError, LexiconError
from lexicon.game.inputs import EDGE_SPACE, control_error, first_control, normalise
from lexicon.game.play import play_rules
from lexicon.game.profile import Profile
from lexicon.game.tiles import speller
from lexicon.store.indexes import NODE_CHILD_MASK, NODE_TERMINAL, Indexes

JOKER = "?"
MAX_RACK_TILES = 15       # Remik's 13 (and a draw or two); the longest osps word is 15
MAX_BOARD_TILES = 8
MAX_JOKERS = 3            # beyond 3 jokers a 10-tile rack's sub-anagrams are most of a lexicon
MAX_CHARS_PER_TILE = 6    # "[dž], " at most: a longer rack text is refused before it is read
MAX_STEPS = 400_000       # trie probes per query (a 10-tile rack with 2 jokers needs ~10^4)


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


def find_alphagrams(index: Indexes, profile: Profile, rack: Rack, min_length: int,
                    max_length: int, exact: bool) -> list[Found]:
    """Every alphagram makeable from ``rack`` (using all board letters) within the lengths.

    ``exact``: use every rack tile and joker (a full anagram, not a sub-anagram). The score
    is summed along the walk, so finding an alphagram costs no more than reaching it.

    A node's edges are read by label, not in a scan: the labels worth reading are the
    node's labels (:attr:`Indexes.alphagram_masks`) that the board, the rack or a joker can
    play, as bits, and no higher than the first board letter still needed; each is found by
    counting the node's labels below it. Once the jokers are spent, which is where most of
    the walk is, the rack's few letters are all that is read of a node of thirty edges.
    """
    letters = profile.alphabet.labels        # the alphagram trie's labels
    rules = play_rules(profile)
    tile_value = [rules.values[c] or 0 for c in letters]
    joker_value = [rules.joker_value(c) for c in letters]
    known = rules.known_values
    rack_left = [rack.tiles.get(c, 0) for c in letters]
    board_left = [rack.board.get(c, 0) for c in letters]
    board_total = sum(board_left)
    total = rack.size + board_total
    max_length = min(max_length, total)
    min_length = max(min_length, board_total + 1, total if exact else 0)
    nodes = index.alphagram_nodes
    counts = index.alphagram_counts
    ranks = index.alphagram_ranks
    found: list[Found] = []
    if not (min_length <= max_length and nodes[0]):
        return found
    masks = index.alphagram_masks
    path: list[str] = []          # the letters from the root
    joker_stack: list[str] = []
    steps = 0
    jokers_left = rack.jokers
    # the labels the rack and the board still hold, as bits
    rack_bits = sum(1 << i for i, n in enumerate(rack_left) if n)
    board_bits = sum(1 << i for i, n in enumerate(board_left) if n)
    every = (1 << len(letters)) - 1

    def visit(offset: int, depth: int, score: int, base: int) -> None:
        """Walk the node at ``offset``, whose subtree's keys start at rank ``base``."""
        nonlocal steps, jokers_left, rack_bits, board_bits
        if steps > MAX_STEPS:     # counted per edge read, checked per node
            raise QueryTooBroad(f"the query needs more than {MAX_STEPS:,} steps; use "
                                f"fewer jokers or a longer minimum length",
                                detail={"max_steps": MAX_STEPS})
        mask = masks[offset]
        wanted = mask & (every if jokers_left else rack_bits | board_bits)
        if board_bits:   # board letters must all be used: none may be passed over
            wanted &= ((board_bits & -board_bits) << 1) - 1
        depth += 1
        while wanted:
            bit = wanted & -wanted
            wanted ^= bit
            label = bit.bit_length() - 1
            k = offset + (mask & (bit - 1)).bit_count()
            edge = nodes[k]
            steps += 1
            if board_bits & bit:
                board_left[label] -= 1
                if not board_left[label]:
                    board_bits ^= bit
                source = 0
                gained = tile_value[label]
            elif rack_bits & bit:
                rack_left[label] -= 1
                if not rack_left[label]:
                    rack_bits ^= bit
                source = 1
                gained = tile_value[label]
            else:
                jokers_left -= 1
                joker_stack.append(letters[label])
                source = 2
                gained = joker_value[label]
            path.append(letters[label])
            rank = base + ranks[k]
            if edge & NODE_TERMINAL and depth >= min_length and not board_bits:
                found.append(Found("".join(path), tuple(joker_stack) if joker_stack else (),
                                   score + gained if known else None, counts[k], rank))
            child = edge & NODE_CHILD_MASK
            if child and depth < max_length:
                visit(child, depth, score + gained, rank + counts[k])
            path.pop()
            if source == 0:
                board_left[label] += 1
                board_bits |= bit
            elif source == 1:
                rack_left[label] += 1
                rack_bits |= bit
            else:
                jokers_left += 1
                joker_stack.pop()

    visit(nodes[0], 0, 0, 0)
    return found


def joker_positions(key: str, jokers: tuple[str, ...]) -> list[int]:
    """0-based positions a joker fills: the last occurrences of each letter it stands for."""
    out: list[int] = []
    for letter, count in Counter(jokers).items():
        spots = [i for i, c in enumerate(key) if c == letter]
        out += spots[-count:]
    return sorted(out)
