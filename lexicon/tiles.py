"""Spelling: the one reader from typed letters to a game's tiles, and back.

Every path from text to tiles goes through a :class:`Speller`: the checker and the batch
hot path (words), the anagram queries (racks and board letters), the pattern parser (runs
and ``[..]`` sets) and the builders (a source's spelling to a stored key). So build time and
check time cannot disagree on how ``lj`` or ``dž`` is read; the tables come from the game's
profile (``lexicon/profiles/*.toml``), nowhere else.

In Kvizovka LJ, NJ and DŽ are single tiles, but a Latin spelling does not say whether
"nj" is the tile NJ (njiva) or N followed by J (konjugacija = kon+jugacija). The lexicon
decides (see :mod:`lexicon.checker`); Cyrillic input is unambiguous, one letter per tile.
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

from collections.abc import Callable
from dataclasses import dataclass

from lexicon.errors import InputError
from lexicon.profile import Profile

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


class Work:
    """A step counter: how much a reading cost, for tests and measurements (not time)."""

    def __init__(self) -> None:
        self.steps = 0


@dataclass(frozen=True)
class _Forced:
    """A ``[..]`` group: one tile, whatever its letters could otherwise be."""

    canonical: str


_Unit = str | _Forced     # a typed character, BREAK, or a forced tile


class Speller:
    """One game's spelling rules, derived from its profile's tile table."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self._canonical: dict[str, str] = {}
        for tile in profile.tiles:
            self._canonical[tile.canonical] = tile.canonical
            if len(tile.spelling) == 1:
                self._canonical[tile.spelling] = tile.canonical
        #: multi-letter spellings, longest first (the usual reading is tried first)
        self._multi: tuple[tuple[str, str], ...] = tuple(sorted(
            ((t.spelling, t.canonical) for t in profile.multi_letter_tiles),
            key=lambda pair: -len(pair[0])))
        self._multi_starts = frozenset(s[0] for s, _c in self._multi)
        #: one character -> its tile's canonical code point (a whole word at C speed)
        self.table = str.maketrans(self._canonical)
        self._latin = str.maketrans({t.canonical: t.spelling for t in profile.tiles})
        self._letter = {t.canonical: t.letter for t in profile.tiles}

    # -- single tiles ----------------------------------------------------------------------
    def tile(self, text: str) -> str | None:
        """The canonical code point of the tile written ``text`` (spelling or canonical)."""
        tile = self.profile.by_spelling.get(text) or self.profile.by_canonical.get(text)
        return tile.canonical if tile else None

    def is_tile_letter(self, ch: str) -> bool:
        """Is ``ch`` a letter some tile is written with (alone or inside a digraph)?"""
        return ch in self._canonical or any(ch in s for s, _c in self._multi)

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
        return tuple(self._letter.get(c) or c.upper() for c in key)

    def tiling(self, key: str) -> Tiling:
        return Tiling(key, self.tiles_of(key),
                      tuple(c for c in key if c not in self._letter))

    # -- the reader ------------------------------------------------------------------------
    def key_of(self, spelling: str) -> str:
        """The key of a plain lower-case spelling, multi-letter tiles wherever they fit.

        For sources (no ``[..]``/``|`` notation): Cyrillic, Polish and Slovenian spell one
        character per tile, so this is their only reading; a Latin Serbian form must be
        tiled against the Cyrillic sources instead (``build.games.hbs_script``).
        """
        if not any(s in spelling for s, _c in self._multi):
            return spelling.translate(self.table)
        return self._greedy(list(spelling))

    def first(self, text: str) -> Tiling:
        """The preferred reading of ``text`` (notation allowed): racks, boards, sets."""
        return self.tiling(self._greedy(self._units(text)))

    def readings(self, word: str, known: PrefixOracle | None = None, *,
                 limit: int = MAX_READINGS, work: Work | None = None) -> list[Tiling]:
        """The preferred reading of ``word``, then the others the lexicon may hold.

        ``word`` is cleaned and lower-cased (see :func:`lexicon.inputs.clean_word`). The
        preferred reading (multi-letter tiles wherever they fit) comes first, so it decides
        when the lexicon knows none. With ``known`` a partial reading is dropped as soon as
        no key of the lexicon starts with it; without, at most ``limit`` partial readings
        survive each position. Either way the work is at most ``limit`` x (tiles that can
        start at a position) steps per character.
        """
        text = word.replace(" ", "") if self.profile.phrases else word
        if (not any(s in text for s, _c in self._multi)
                and JOIN_OPEN not in text and JOIN_CLOSE not in text):
            if work is not None:
                work.steps += 1
            key = text.replace(BREAK, "").translate(self.table)
            return [self.tiling(_some_tile(key))]
        units = self._units(text)
        options = _Options(self, units)
        n = len(units)
        layers: list[list[tuple[str, str]]] = [[] for _ in range(n + 1)]   # (rank, key)
        layers[0].append(("", ""))
        steps = 0
        for i in range(n):
            layer = layers[i]
            if not layer:
                continue
            if len(layer) > limit:
                layer.sort()
                del layer[limit:]
            here = options[i]
            crowded = len(layer) > 1 or len(here) > 1
            for rank, key in layer:
                for r, (j, c) in enumerate(here):
                    steps += 1
                    longer = key + c
                    if known is not None and crowded and c and not known(longer):
                        continue
                    layers[j].append((rank + chr(48 + r), longer))
        preferred = _some_tile(options.first())
        if work is not None:
            work.steps += steps + n
        found = sorted(layers[n])[:limit]
        keys = [preferred] + [k for _r, k in found if k != preferred]
        return [self.tiling(k) for k in keys[:limit]]

    # -- reading helpers -------------------------------------------------------------------
    def _units(self, text: str) -> list[_Unit]:
        """Characters, ``|`` breaks and ``[..]`` forced tiles of ``text``."""
        units: list[_Unit] = []
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
                canonical = self.tile(inner)
                if canonical is None:
                    raise InputError(f"[{inner}] is not a tile of {self.profile.name}",
                                     code="bad_tile_notation", detail={"position": i + 1})
                units.append(_Forced(canonical))
                i = end + 1
                continue
            if ch == JOIN_CLOSE:
                raise InputError(f"']' without '[' at position {i + 1}",
                                 code="bad_tile_notation", detail={"position": i + 1})
            units.append(ch)
            i += 1
        return units

    def _greedy(self, units: list[_Unit]) -> str:
        return _Options(self, units).first()


class _Options:
    """The tiles that can start at each unit, worked out only where a reading gets to."""

    def __init__(self, spell: Speller, units: list[_Unit]) -> None:
        self.spell = spell
        self.units = units
        # plain characters only; a break or forced tile is a character no spelling holds
        self.flat = "".join(u if type(u) is str and u != BREAK else "\x00" for u in units)
        self.memo: dict[int, list[tuple[int, str]]] = {}

    def __getitem__(self, i: int) -> list[tuple[int, str]]:
        """(next position, key character) for each tile that can start at unit ``i``."""
        hit = self.memo.get(i)
        if hit is not None:
            return hit
        unit = self.units[i]
        out: list[tuple[int, str]]
        if isinstance(unit, _Forced):
            out = [(i + 1, unit.canonical)]
        elif unit == BREAK:
            out = [(i + 1, "")]
        else:
            flat, spell = self.flat, self.spell
            out = [(i + len(s), c) for s, c in spell._multi if flat.startswith(s, i)]
            out.append((i + 1, spell._canonical.get(unit, unit)))
        self.memo[i] = out
        return out

    def first(self) -> str:
        """The key of the preferred reading: the first option everywhere."""
        out, i, n = [], 0, len(self.units)
        while i < n:
            i, c = self[i][0]
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
