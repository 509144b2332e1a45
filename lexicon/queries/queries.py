"""Engine and referee queries: the one library entry point the CLI and the HTTP API call.

* :func:`blanks`: a word with jokers (``KA?IN``) -> every admissible word and what each
  joker stands for;
* :func:`pattern`: ``?`` ``*`` ``[ABC]`` patterns with length bounds, counted and paged;
* :func:`anagrams`: words from a rack (plus jokers, plus board letters the word must use);
* :func:`hooks` and :func:`prefix`: what extends a word, and can a word go on;
* :func:`extend`: Remik's rebuilds, every word holding a table word's tiles and some of a
  rack's.

Everything works in canonical keys (one code point per tile) and answers with the game's
display spelling, tiles and score. A joker's score is the profile's: 0 in Polish Scrabble,
"as_letter" (the letter's value) in Kvizovka and Križemkražem; results say which positions
(1-based) jokers fill. Every answer is bounded: see the ``MAX_*`` limits, which raise
:class:`~lexicon.errors.InputError` (or a subclass) with a stable ``code``; the work of a
pattern or blanks query is counted (:class:`~lexicon.queries.search.Budget`) and refused past
:data:`MAX_PATTERN_WORK` with ``query_too_broad``, like an anagram walk.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from typing import Any

import numpy as np

from lexicon.errors import InputError
from lexicon.game.inputs import clean_word
from lexicon.game.play import PlayRules, play_rules
from lexicon.game.profile import Profile
from lexicon.game.tiles import speller
from lexicon.queries import anagrams as anagram_engine
from lexicon.queries import hooks as hook_engine
from lexicon.queries.patterns import Compiled, Pattern, parse
from lexicon.queries.search import Budget, TooManyMatches, find_keys, least_work
from lexicon.store.indexes import Indexes
from lexicon.store.release import Release

DEFAULT_LIMIT = 50
MAX_LIMIT = 500           # results per page
MAX_OFFSET = 50_000
MAX_MATCHES = 50_000      # words a pattern or blanks query may match before it is refused
# Work units (lexicon.queries.search.Budget) a pattern or blanks query may spend over all its
# readings: 0.5 s on the project's quiet 2-core machine, 1.5 s under heavy load. On osps
# `*OWY` spends 24k, `*ą*` of 8 tiles 464k, `k*ą` 300k; a scan of every key (`*ź*ż*`) 7M.
MAX_PATTERN_WORK = 1_000_000
SORTS = ("alpha", "score", "length")


# -- shared pieces -----------------------------------------------------------------------

def _check_page(limit: int, offset: int, sort: str) -> None:
    if not 1 <= limit <= MAX_LIMIT:
        raise InputError(f"limit {limit} is outside 1..{MAX_LIMIT}", code="result_limit",
                         detail={"max_limit": MAX_LIMIT})
    if not 0 <= offset <= MAX_OFFSET:
        raise InputError(f"offset {offset} is outside 0..{MAX_OFFSET}", code="result_limit",
                         detail={"max_offset": MAX_OFFSET})
    if sort not in SORTS:
        raise InputError(f"sort must be one of {', '.join(SORTS)}", code="bad_sort",
                         detail={"sorts": list(SORTS)})


def _lengths(profile: Profile, min_length: int | None, max_length: int | None
             ) -> tuple[int, int]:
    """The query's length bounds, the game's move lengths where none is given."""
    default_low, default_high = play_rules(profile).lengths()
    low = default_low if min_length is None else min_length
    high = default_high if max_length is None else max_length
    if not 1 <= low <= high <= 64:
        raise InputError(f"length bounds {low}..{high} are not 1 <= min <= max <= 64",
                         code="bad_length", detail={"min_length": low, "max_length": high})
    return low, high


def _alphabet_order(profile: Profile) -> Callable[[str], bytes]:
    """Sort key putting keys in the game's alphabet order (Polish ą after a, not after z):
    the profile's numbering (:class:`lexicon.game.profile.AlphabetOrder`)."""
    return profile.alphabet.order.key


def _item(profile: Profile, rel: Release, rules: PlayRules, key: str,
          jokers: list[int] | None = None) -> dict[str, Any]:
    record = rel.get(key)
    spell = speller(profile)
    tiles = spell.tiles_of(key)
    item: dict[str, Any] = {
        "word": record.word if record else spell.to_latin(key),
        "key": key,
        "tiles": list(tiles),
        "length": len(key),
        "score": rules.score(key, [key[i] for i in jokers or ()]),
    }
    if jokers is not None:
        item["jokers"] = [{"position": i + 1, "letter": tiles[i]} for i in jokers]
    return item


def _envelope(game: str, rel: Release, query: dict[str, Any], count: int, offset: int,
              limit: int, results: list[dict[str, Any]]) -> dict[str, Any]:
    return {"game": game, "release": rel.id, "query": query, "count": count,
            "offset": offset, "limit": limit, "results": results}


def _ordered(profile: Profile, rules: PlayRules, keys: Collection[str], sort: str,
             jokers_of: Callable[[str], list[str]] = lambda _k: [],
             stop: int | None = None) -> list[str]:
    """``keys`` in the page order; for the alphabet order only the first ``stop``."""
    order = profile.alphabet.order
    if sort == "alpha":
        return order.first(keys, len(keys) if stop is None else stop)
    keys = order.first(keys, len(keys))
    if sort == "score":
        keys.sort(key=lambda k: -(rules.score(k, jokers_of(k)) or 0))
    elif sort == "length":
        keys.sort(key=lambda k: -len(k))
    return keys


# -- joker resolution --------------------------------------------------------------------

def _joker_slots(rules: PlayRules, compiled: Compiled, key: str) -> list[int]:
    """0-based positions a joker fills: the '?'s and letters only a joker can play."""
    return [i for i, slot in enumerate(compiled.slots)
            if slot.joker or key[i] in rules.joker_only]


def blanks(profile: Profile, rel: Release, word: str, *, edge: bool = False, sort: str = "alpha",
           limit: int = DEFAULT_LIMIT, offset: int = 0) -> dict[str, Any]:
    """Every admissible word ``word`` can be with its jokers (``?``) filled in."""
    _check_page(limit, offset, sort)
    game, index = profile.id, rel.indexes
    compiled = parse(profile, word, stars=False, sets=False, known=index.has_prefix)
    rules = play_rules(profile)
    for reading in compiled.readings:
        needed = sum(1 for s in reading.slots if s.joker or
                     (s.tiles and next(iter(s.tiles)) in rules.joker_only))
        if needed > rules.jokers:
            raise InputError(f"{word!r} needs {needed} jokers; {profile.name} has "
                             f"{rules.jokers}", code="too_many_jokers",
                             detail={"max_jokers": rules.jokers})
    low, high = rules.lengths(edge=edge)
    matched: dict[str, list[int]] = {}
    budget = Budget(MAX_PATTERN_WORK, len(compiled.readings))
    alphabet = profile.alphabet.labels
    budget.require(sum(least_work(index, reading, alphabet, low, high)
                       for reading in compiled.readings))
    for reading in compiled.readings:
        for key in find_keys(index, reading, alphabet, low, high, MAX_MATCHES, budget):
            matched.setdefault(key, _joker_slots(rules, reading, key))
    if len(matched) > MAX_MATCHES:
        raise TooManyMatches(f"more than {MAX_MATCHES:,} words", detail={"limit": MAX_MATCHES})
    keys = _ordered(profile, rules, matched, sort,
                    lambda k: [k[i] for i in matched[k]], stop=offset + limit)
    page = [_item(profile, rel, rules, k, matched[k]) for k in keys[offset:offset + limit]]
    query = {"word": word, "edge": edge, "sort": sort}
    return _envelope(game, rel, query, len(matched), offset, limit, page)


# -- patterns ----------------------------------------------------------------------------

def match_keys(index: Indexes, profile: Profile, compiled: Pattern, low: int, high: int,
               budget: Budget) -> set[str]:
    """The keys of every reading of ``compiled`` within the lengths, pooled, all readings
    paid from one ``budget``: 64 readings of a digraph pattern cost 64 searches. What is
    known to be too much is refused before any reading is searched."""
    keys: set[str] = set()
    alphabet = profile.alphabet.labels
    budget.require(sum(least_work(index, reading, alphabet, low, high)
                       for reading in compiled.readings))
    for reading in compiled.readings:
        keys |= find_keys(index, reading, alphabet, low, high, MAX_MATCHES - len(keys), budget)
    return keys


def pattern(profile: Profile, rel: Release, text: str, *, min_length: int | None = None,
            max_length: int | None = None, sort: str = "alpha", limit: int = DEFAULT_LIMIT,
            offset: int = 0) -> dict[str, Any]:
    """Words matching ``text`` (see :mod:`lexicon.queries.patterns`), counted and paged."""
    _check_page(limit, offset, sort)
    game, index = profile.id, rel.indexes
    low, high = _lengths(profile, min_length, max_length)
    compiled = parse(profile, text, known=index.has_prefix)
    keys = match_keys(index, profile, compiled, low, high,
                      Budget(MAX_PATTERN_WORK, len(compiled.readings)))
    rules = play_rules(profile)
    ordered = _ordered(profile, rules, keys, sort, stop=offset + limit)
    page = [_item(profile, rel, rules, k) for k in ordered[offset:offset + limit]]
    query = {"pattern": text, "min_length": low, "max_length": high, "sort": sort}
    return _envelope(game, rel, query, len(keys), offset, limit, page)


# -- anagrams ----------------------------------------------------------------------------

def anagrams(profile: Profile, rel: Release, rack: str, *, board: str = "", exact: bool = False,
             min_length: int | None = None, max_length: int | None = None,
             sort: str = "score", limit: int = DEFAULT_LIMIT, offset: int = 0
             ) -> dict[str, Any]:
    """Words from ``rack`` (``?`` = joker) that use every letter of ``board``.

    ``exact``: only words using the whole rack. Sorting by score or length happens per
    alphagram (all its words score alike), so only the page's words are read.
    """
    _check_page(limit, offset, sort)
    game, index = profile.id, rel.indexes
    low, high = _lengths(profile, min_length, max_length)
    parsed = anagram_engine.parse_rack(profile, rack, board)
    found = anagram_engine.find_alphagrams(index, profile, parsed, low, high, exact)
    rules = play_rules(profile)
    total, pairs = _alphagram_page(profile, index, found, sort, offset + limit)
    full = parsed.size + sum(parsed.board.values())
    board_letters = [profile.by_canonical[c].letter for c in sorted(parsed.board.elements())]
    page = []
    for key, hit in pairs[offset:offset + limit]:
        item = _item(profile, rel, rules, key,
                     anagram_engine.joker_positions(key, hit.jokers))
        item["board"] = board_letters
        item["uses_all_tiles"] = len(key) == full
        page.append(item)
    query = {"rack": rack, "board": board, "exact": exact, "min_length": low,
             "max_length": high, "sort": sort}
    return _envelope(game, rel, query, total, offset, limit, page)


def _alphagram_page(profile: Profile, index: Indexes, found: list[anagram_engine.Found],
                    sort: str, wanted: int
                    ) -> tuple[int, list[tuple[str, anagram_engine.Found]]]:
    """How many words the alphagrams hold, and (key, alphagram) pairs in page order, at
    least the first ``wanted``. Sorting by score or length happens per alphagram (all its
    words score alike), so only the page's words are read."""
    alpha = _alphabet_order(profile)
    arrays = isinstance(found, anagram_engine.Alphagrams)
    total = int(found.words.sum()) if arrays else sum(f.words for f in found)
    if sort != "alpha" and arrays and 0 < wanted < len(found):
        # the page needs at most `wanted` alphagrams (each has a word): keep those whose
        # (score, length) is no worse than the wanted-th best, and sort only them; the
        # order below is the same as a sort of all of them, cut
        first = -found.lengths if sort == "length" else -found.scores * 128 - found.lengths
        bound = np.partition(first, wanted - 1)[wanted - 1]
        found = found.take(np.flatnonzero(first <= bound).tolist())
    elif arrays:
        found = list(found)     # sorted below: the arrays stay in the walk's order
    if sort == "score":
        found.sort(key=lambda f: (-(f.score or 0), -len(f.alphagram), f.alphagram))
    elif sort == "length":
        found.sort(key=lambda f: (-len(f.alphagram), f.alphagram))
    # read the words of just enough alphagrams to fill the page
    chosen, taken = [], 0
    for f in found:
        if taken >= wanted and sort != "alpha":
            break
        chosen.append(f)
        taken += f.words
    words = index.words_of([(f.rank, f.words) for f in chosen])
    pairs = [(key, f) for f, keys in zip(chosen, words, strict=True)
             for key in sorted(keys, key=alpha)]
    if sort == "alpha":
        pairs.sort(key=lambda p: alpha(p[0]))
    return total, pairs


def extend(profile: Profile, rel: Release, word: str, rack: str, *, edge: bool = False,
           sort: str = "alpha", limit: int = DEFAULT_LIMIT, offset: int = 0
           ) -> dict[str, Any]:
    """Remik's rebuild: every word that uses all the tiles of the table word ``word`` and at
    least one tile of ``rack`` (``?`` = joker where the game has them), with the rack
    tiles each uses. The alphagram walk (:mod:`lexicon.queries.anagrams`) takes the table word's
    tiles as board letters that must all be used and the rack's as the rest, so it visits
    only supersets of the word; the rack is held to the anagram limits, the walk to
    ``MAX_STEPS``, and the table word, which may be longer than a board's letters, to the
    word length.

    Only words the game admits as laid are offered: none shorter than its minimum (Remik's
    3, whatever the vocabulary game lists), so ``a`` with ``a`` on the shelf gives no
    ``aa``. A word shorter than the minimum only at Kvizovka's board edge (3 tiles) is
    offered with ``edge``, as ``check`` and ``blanks`` admit it, never by default."""
    _check_page(limit, offset, sort)
    game, index = profile.id, rel.indexes
    key, tiles = _reading_key(profile, index, word)
    parsed = anagram_engine.parse_rack(profile, rack)
    table = anagram_engine.Rack(parsed.tiles, parsed.jokers, Counter(key))
    rules = play_rules(profile)
    low, high = rules.lengths(edge=edge)
    found = anagram_engine.find_alphagrams(index, profile, table, max(len(key) + 1, low),
                                           high, False)
    total, pairs = _alphagram_page(profile, index, found, sort, offset + limit)
    page = []
    for longer, hit in pairs[offset:offset + limit]:
        jokers = anagram_engine.joker_positions(longer, hit.jokers)
        item = _item(profile, rel, rules, longer, jokers)
        added = Counter(longer) - Counter(key) - Counter(hit.jokers)
        item["rack_letters"] = [profile.by_canonical[c].letter for c in sorted(
            added.elements(), key=_alphabet_order(profile))]
        page.append(item)
    query = {"word": word, "key": key, "tiles": list(tiles), "rack": rack, "edge": edge,
             "min_length": max(len(key) + 1, low), "sort": sort}
    return _envelope(game, rel, query, total, offset, limit, page)


# -- hooks and prefixes ------------------------------------------------------------------

def _reading_key(profile: Profile, index: Indexes, text: str) -> tuple[str, tuple[str, ...]]:
    """The tiling of ``text`` the lexicon knows (else the preferred one), as key and tiles."""
    spell = speller(profile)
    words = index.words
    chosen = spell.tiling(spell.resolve(clean_word(text), words.__contains__,
                                        known=index.has_prefix).key)
    if chosen.foreign:
        odd = ", ".join(repr(c) for c in dict.fromkeys(chosen.foreign))
        raise InputError(f"{text!r} contains {odd}, which no tile of {profile.name} carries",
                         code="not_in_alphabet")
    return chosen.key, chosen.tiles


def hooks(profile: Profile, rel: Release, word: str) -> dict[str, Any]:
    """Tiles that extend ``word`` at the front or the back into an admissible word."""
    game, index = profile.id, rel.indexes
    key, tiles = _reading_key(profile, index, word)
    rules = play_rules(profile)

    def hook(tile: str, longer: str) -> dict[str, Any]:
        t = profile.by_canonical[tile]
        item = _item(profile, rel, rules, longer)
        return {"tile": t.letter, "joker_only": t.joker_only, **item}

    record = rel.get(key)
    return {
        "game": game, "release": rel.id, "word": record.word if record else word,
        "key": key, "tiles": list(tiles), "valid": key in index.words,
        "front": [hook(t, t + key) for t in hook_engine.front_hooks(index, profile, key)],
        "back": [hook(t, key + t) for t in hook_engine.back_hooks(index, profile, key)],
        "is_prefix": hook_engine.continues(index, key),
        "next_tiles": [profile.by_canonical[c].letter
                       for c in hook_engine.next_tiles(index, profile, key)],
    }


def prefix(profile: Profile, rel: Release, text: str) -> dict[str, Any]:
    """Does a playable word start with ``text``, and which tiles may come next."""
    game, index = profile.id, rel.indexes
    key, tiles = _reading_key(profile, index, text)
    nxt = hook_engine.next_tiles(index, profile, key)
    return {
        "game": game, "release": rel.id, "prefix": text, "key": key, "tiles": list(tiles),
        "is_word": key in index.words and index.min_length <= len(key) <= index.max_length,
        "is_prefix": bool(nxt),
        "next_tiles": [profile.by_canonical[c].letter for c in nxt],
    }
