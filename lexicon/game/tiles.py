"""Spelling: the one reader from typed letters to a game's tiles, and back.

Every path from text to tiles goes through a :class:`Speller`: the checker and the batch
hot path (words), the anagram queries (racks and board letters), the pattern parser (runs
and ``[..]`` sets) and the builders (a source's spelling to a stored key). So build time and
check time cannot disagree on how ``lj`` or ``dž`` is read; the tables come from the game's
profile (``lexicon/profiles/*.toml``), nowhere else.

In Kvizovka LJ, NJ and DŽ are single tiles, but a Latin spelling does not say whether
"nj" is the tile NJ (njiva) or N followed by J (konjugacija = kon+jugacija). The lexicon
decides (:meth:`Speller.resolve`, for every caller); Cyrillic input is unambiguous, one
letter per tile.
An engine can remove the ambiguity itself with explicit notation:

* ``[dž]`` (brackets) makes the enclosed letters one tile: ``na[dž]ivotni``;
* ``|`` forbids a tile across it: ``nad|živeti``, ``kon|jugacija``.

Characters that are no tile of the game (a hyphen, a digit, ``q`` in Polish) are kept as
themselves so the word can still be looked up and explained.

Why a left-to-right programme and not "every tiling": a word of n digraphs has 2^n tilings
(``lj`` * 32 has 4 billion). :meth:`Speller.readings` walks the word once, keeping at each
position only the partial keys the lexicon can still complete (a prefix oracle: the
release's key trie), at most :data:`MAX_READINGS` of them, so its work is linear in the
word's length whatever the word holds, and without a lexicon (build time) still bounded.
"""

from __future__ import annotations

import bisect
import heapq
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from lexicon.errors import InputError
from lexicon.game.profile import Profile

#: Partial readings kept per position, and readings reported per word.
MAX_READINGS = 64
JOIN_OPEN, JOIN_CLOSE, BREAK = "[", "]", "|"

#: ``known(prefix)``: may some key of the lexicon start with ``prefix``?
PrefixOracle = Callable[[str], bool]


@dataclass(frozen=True)
class Tiling:
    """One way of spelling the input in tiles."""

    key: str                  # canonical code points, one per tile (non-tiles kept as is)
    tiles: tuple[str, ...]    # tile letters for display, e.g. ("LJ", "U", "B", "A", "V")
    foreign: tuple[str, ...]  # characters that are no tile of this game


#: ``held(key)``: does the lexicon hold ``key``, in the sense a caller decides by (valid,
#: stored at all, staged, overridden ...)
Held = Callable[[str], object]


class Resolution(NamedTuple):
    """The reading of a typed spelling that the lexicon decides (:meth:`Speller.resolve`).

    A named tuple, not a frozen dataclass: the batch path makes one per word with a Latin
    digraph, and a tuple is made at C speed (a frozen dataclass's ``__init__`` cost more
    than the lookup it reports)."""

    key: str                  # the key that decides
    rank: int | None          # which test held it (0: the first); None: none did, so the
                              # preferred reading stands
    keys: tuple[str, ...]     # the readings looked at, the preferred first (every one of
                              # them when asked for: a verdict's alternatives)

    @property
    def held(self) -> bool:
        return self.rank is not None


class Work:
    """A step counter: how much a reading cost, for tests and measurements (not time)."""

    def __init__(self) -> None:
        self.steps = 0


class Speller:
    """One game's spelling rules, derived from its profile's tile table."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self._phrases = profile.phrases
        self._canonical: dict[str, str] = {}
        for tile in profile.tiles:
            self._canonical[tile.canonical] = tile.canonical
            if len(tile.spelling) == 1:
                self._canonical[tile.spelling] = tile.canonical
        #: multi-letter spellings, longest first (the usual reading is tried first)
        self._multi: tuple[tuple[str, str], ...] = tuple(sorted(
            ((t.spelling, t.canonical) for t in profile.multi_letter_tiles),
            key=lambda pair: -len(pair[0])))
        #: one character -> its tile's canonical code point (a whole word at C speed)
        self.table = str.maketrans(self._canonical)
        self._reading_table = {**self.table, ord(_BREAK): None}
        by_spelling = dict(self._multi)
        self._multi_re = re.compile("|".join(re.escape(sp) for sp, _c in self._multi))
        self._multi_key: Callable[[re.Match[str]], str] = lambda m: by_spelling[m.group()]
        self._latin = str.maketrans({t.canonical: t.spelling for t in profile.tiles})
        self._letter = {t.canonical: t.letter for t in profile.tiles}
        self._tile_letter = {c: letter for c, letter in self._letter.items() if letter}

    # -- single tiles ----------------------------------------------------------------------
    def tile(self, text: str) -> str | None:
        """The canonical code point of the tile written ``text`` (spelling or canonical)."""
        tile = self.profile.by_spelling.get(text) or self.profile.by_canonical.get(text)
        return tile.canonical if tile else None

    @property
    def ambiguous(self) -> tuple[str, ...]:
        """Spellings that may be one tile or several (Kvizovka's lj, nj, dž)."""
        return tuple(s for s, _c in self._multi)

    # -- keys back to letters --------------------------------------------------------------
    def to_latin(self, key: str) -> str:
        """The lower-case spelling of a canonical key (Kvizovka: Cyrillic -> Latin)."""
        return key.translate(self._latin)

    def tiles_of(self, key: str) -> tuple[str, ...]:
        """Tile letters of a canonical key (a non-tile character as itself, upper-cased)."""
        try:     # a key of tiles only, the common case: one C-level pass
            return tuple(map(self._tile_letter.__getitem__, key))
        except KeyError:
            return tuple(self._letter.get(c) or c.upper() for c in key)

    def in_tiles(self, key: str) -> bool:
        """Whether every character of ``key`` is a tile: its :meth:`tiling` has no
        ``foreign`` character (a C-level set test, nothing built)."""
        return self._letter.keys() >= set(key)

    def tiling(self, key: str) -> Tiling:
        if self.in_tiles(key):      # tiles only, the common case: C-level
            return Tiling(key, self.tiles_of(key), ())
        return Tiling(key, self.tiles_of(key),
                      tuple(c for c in key if c not in self._letter))

    # -- the reader ------------------------------------------------------------------------
    def key_of(self, spelling: str) -> str:
        """The key of a plain lower-case spelling, multi-letter tiles wherever they fit.

        For sources (no ``[..]``/``|`` notation): Cyrillic, Polish and Slovenian spell one
        character per tile, so this is their only reading; a Latin Serbian form must be
        tiled against the Cyrillic sources instead (``build.games.hbs_script``).
        """
        if self._multi:
            # an alternation tries its branches in order, longest spelling first, and scans
            # left to right: exactly the preferred reading, at C speed
            spelling = self._multi_re.sub(self._multi_key, spelling)
        return spelling.translate(self.table)

    def first(self, text: str) -> Tiling:
        """The preferred reading of ``text`` (notation allowed): racks, boards, sets."""
        return self.tiling(_Text(self, text).first())

    def preferred(self, word: str) -> str:
        """The key of the preferred reading of ``word`` (:meth:`keys`'s first) without
        reading the others: multi-letter tiles wherever they fit, notation obeyed."""
        text = word.replace(" ", "") if self._phrases else word
        if BREAK in text or JOIN_OPEN in text or JOIN_CLOSE in text:
            return _some_tile(_Text(self, text).first())
        key = self.key_of(text)
        return key if key else _some_tile(key)

    def resolve(self, word: str, *held: Held, known: PrefixOracle | None = None,
                every: bool = False) -> Resolution:
        """The reading of ``word`` the lexicon decides: the first reading (in the order of
        :meth:`keys`) that ``held[0]`` holds, else the first ``held[1]`` holds, and so on;
        when no test holds any, the preferred reading (``rank`` None).

        This is the one place that decides what a typed Kvizovka spelling stands for:
        "nadživeti" is nad+živeti and "konjugacija" kon+jugacija only because the lexicon
        holds those tilings and not the preferred ones (DŽ, NJ). The checker (valid first,
        then any record), the batch hot path and the queries (the valid keys) and amend (the
        parent's or the staged records) pass their own tests, and so read alike. ``known``
        is the prefix oracle of :meth:`keys` (None: no pruning, as at build time).

        When the preferred reading passes the first test, the others are never read unless
        ``every`` asks for them (a verdict lists them as alternatives): the hot path pays
        one translation and one lookup for the common word.
        """
        tried = 0          # readings the first test has refused already
        if held and not every:
            first = self.preferred(word)
            if held[0](first):
                return Resolution(first, 0, (first,))
            tried = 1      # the preferred reading is keys()[0]: not asked twice
        keys = tuple(self.keys(word, known))
        for rank, test in enumerate(held):
            for key in keys[tried:] if rank == 0 else keys:
                if test(key):
                    return Resolution(key, rank, keys)
        return Resolution(keys[0], None, keys)

    def readings(self, word: str, known: PrefixOracle | None = None, *,
                 limit: int = MAX_READINGS, work: Work | None = None) -> list[Tiling]:
        """The preferred reading of ``word``, then the others the lexicon may hold.

        ``word`` is cleaned and lower-cased (see :func:`lexicon.game.inputs.clean_word`). The
        preferred reading (multi-letter tiles wherever they fit) comes first, so it decides
        when the lexicon knows none. With ``known`` a partial reading is dropped as soon as
        no key of the lexicon starts with it; without, at most ``limit`` partial readings
        survive each position. Either way the work is at most ``limit`` x (tiles that can
        start at a position) steps per character.
        """
        return [self.tiling(k) for k in self.keys(word, known, limit=limit, work=work)]

    def keys(self, word: str, known: PrefixOracle | None = None, *,
             limit: int = MAX_READINGS, work: Work | None = None) -> list[str]:
        """The keys of :meth:`readings` (the batch hot path needs no more).

        The programme runs over positions where a multi-letter tile may start; the text
        between two such positions is translated in one ``str.translate``.
        """
        text = word.replace(" ", "") if self.profile.phrases else word
        if ((not self._multi or self._multi_re.search(text) is None)
                and JOIN_OPEN not in text and JOIN_CLOSE not in text):
            if work is not None:
                work.steps += 1
            return [_some_tile(text.replace(BREAK, "").translate(self.table))]
        read = _Text(self, text)
        preferred = _some_tile(read.first() if read.notation else self.key_of(text))
        layers: dict[int, list[tuple[str, str]]] = {0: [("", "")]}     # (rank, key)
        pending = [0]
        steps = 0
        while pending:
            i = heapq.heappop(pending)
            layer = layers[i]
            if i == read.n:
                break
            del layers[i]
            if len(layer) > limit:
                layer.sort()
                del layer[limit:]
            here = read.options(i)
            crowded = len(layer) > 1 or len(here) > 1
            for rank, key in layer:
                for r, (j, c) in enumerate(here):
                    steps += 1
                    longer = key + c
                    if known is not None and crowded and c and not known(longer):
                        continue
                    if j not in layers:
                        layers[j] = []
                        heapq.heappush(pending, j)
                    layers[j].append((rank + chr(48 + r), longer))
        if work is not None:
            work.steps += steps
        found = sorted(layers.get(read.n, ()))[:limit]
        return [preferred, *(k for _r, k in found if k != preferred)][:limit]


#: In a text being read, a ``|`` becomes _BREAK (no spelling holds it; the key drops it) and
#: a ``[..]`` tile _FORCED while looking for spellings (so nothing reads across either).
_BREAK, _FORCED = "\ue000", "\ue001"


class _Text:
    """A typed text ready to read: where a multi-letter tile may start, and what each
    character is in the key (the speller's table, ``[..]`` tiles already resolved)."""

    def __init__(self, spell: Speller, text: str, *, notation: bool = True) -> None:
        self.notation = notation and (BREAK in text or JOIN_OPEN in text or JOIN_CLOSE in text)
        detect, keyed = self._scan(spell, text) if self.notation else (text, text)
        self.n = len(detect)
        self.keyed = keyed
        self.table = spell._reading_table
        self.spots: dict[int, list[tuple[int, str]]] = {}
        for spelling, canonical in spell._multi:
            at = detect.find(spelling)
            while at != -1:
                self.spots.setdefault(at, []).append((at + len(spelling), canonical))
                at = detect.find(spelling, at + 1)
        self.starts = sorted(self.spots)

    @staticmethod
    def _scan(spell: Speller, text: str) -> tuple[str, str]:
        """(text for finding spellings, text for the key), one character per position."""
        if JOIN_OPEN not in text and JOIN_CLOSE not in text:
            plain = text.replace(BREAK, _BREAK)
            return plain, plain
        detect: list[str] = []
        keyed: list[str] = []
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == JOIN_OPEN:
                end = text.find(JOIN_CLOSE, i)
                if end == -1:
                    raise InputError(f"unclosed '[' at position {i + 1}",
                                     code="bad_tile_notation", detail={"position": i + 1})
                inner = text[i + 1:end]
                if not inner:
                    raise InputError(f"empty '[]' at position {i + 1}",
                                     code="bad_tile_notation", detail={"position": i + 1})
                canonical = spell.tile(inner)
                if canonical is None:
                    raise InputError(f"[{inner}] is not a tile of {spell.profile.name}",
                                     code="bad_tile_notation", detail={"position": i + 1})
                detect.append(_FORCED)
                keyed.append(canonical)
                i = end + 1
                continue
            if ch == JOIN_CLOSE:
                raise InputError(f"']' without '[' at position {i + 1}",
                                 code="bad_tile_notation", detail={"position": i + 1})
            ch = _BREAK if ch == BREAK else ch
            detect.append(ch)
            keyed.append(ch)
            i += 1
        return "".join(detect), "".join(keyed)

    def options(self, i: int) -> list[tuple[int, str]]:
        """(next position, key text) for each way to read on from position ``i``: at a spot
        every multi-letter tile starting there, then the single letter; elsewhere the whole
        stretch up to the next spot, which has one reading only."""
        here = self.spots.get(i)
        if here is None:
            k = bisect.bisect_left(self.starts, i)
            j = self.starts[k] if k < len(self.starts) else self.n
            return [(j, self.keyed[i:j].translate(self.table))]
        return [*here, (i + 1, self.keyed[i].translate(self.table))]

    def first(self) -> str:
        """The key of the preferred reading: the first option everywhere."""
        out, i = [], 0
        while i < self.n:
            i, c = self.options(i)[0]
            out.append(c)
        return "".join(out)


def _some_tile(key: str) -> str:
    """``key``, unless the word held only breaks: a word of no tile is no word."""
    if not key:
        raise InputError("the word holds no tile (only '|')", code="empty_word")
    return key


def speller(profile: Profile) -> Speller:
    """The (cached) speller of ``profile``: its tables are built once per process."""
    return profile.derived(Speller)
