"""Game profiles: each game's rules as data, read from ``lexicon/profiles/<game>.toml``.

A profile says what a game's tiles are (including multi-letter tiles such as Kvizovka's LJ,
NJ and DŽ), what they are worth, how many there are, how many jokers exist and what they may
stand for, and the length limits. Code never hard-codes any of that: adding a game means
adding a profile (and, for a lexicon, a builder under ``build/games``).

Every tile has a *canonical* code point. A word is stored as the string of its tiles'
canonical code points, so one tile is always one character: Kvizovka uses Serbian Cyrillic
(``љ`` is the tile LJ), the Latin-alphabet games use their lowercase letters. Every other
numbering of the tiles (the alphabet order of results, the KWG's tile numbers, the
alphagram index's labels) is the profile's too: :class:`Alphabet`.
"""

from __future__ import annotations

import codecs
import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from lexicon.errors import UnknownGame

PROFILE_DIR = Path(__file__).parents[1] / "profiles"
T = TypeVar("T")


@dataclass(frozen=True)
class Tile:
    letter: str            # as printed on the tile, upper case: "LJ", "Ż"
    canonical: str         # one lower-case code point: "љ", "ż"
    value: int | None      # nominal points; None where the game publishes none
    count: int | None      # tiles of this letter in the set; None where unpublished
    joker_only: bool = False   # a letter no tile carries: only a joker can play it

    @property
    def spelling(self) -> str:
        """The lower-case Latin spelling, what a user types for this tile."""
        return self.letter.lower()


@dataclass(frozen=True)
class Jokers:
    count: int
    value: int | str | None          # points, or "as_letter" (worth the letter it replaces)
    extra_letters: tuple[str, ...] = ()  # letters only a joker can stand for
    extra_value: int | None = None


@dataclass(frozen=True)
class Engine:
    """What a game engine needs beyond the words (the ``[engine]`` table of a profile).

    The profile owns the tile numbering of its exports, not the exporter (:class:`Alphabet`
    numbers by it): ``order`` is the letters in KWG tile order (1, 2, ...), which follows
    the stock wolges alphabet named by ``stock_alphabet`` where one exists for the same
    letters, so an engine that uses its own alphabet file reads our tiles right.
    ``vowels`` fills the alphabet file's vowel column. ``counts_provisional`` marks a letter
    distribution the rule book does not publish (``counts_note`` says how it was
    estimated). ``board`` and ``rules`` are what the engine pack writes beside the lexicon:
    the board the rule book fixes, and the rules the lexicon file cannot carry.
    """

    stock_alphabet: str | None = None
    order: tuple[str, ...] = ()
    vowels: frozenset[str] = frozenset()
    counts_provisional: bool = False
    counts_note: str = ""
    board: dict[str, Any] = field(default_factory=dict)
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Profile:
    id: str
    name: str
    language: str
    rule_book: str
    rules_version: str
    min_length: int
    max_length: int
    edge_min_length: int | None
    rack_size: int
    scoring: str                    # "tile_values" | "letter_count"
    letter_case: str                # "lower" | "as_stored"
    phrases: bool
    tiles: tuple[Tile, ...]
    jokers: Jokers
    vocabulary: str                 # the game whose lexicon this game's words come from
    values_provisional: bool = False
    total_tiles: int | None = None
    opening_min_length: int | None = None
    reopening_min_length: int | None = None
    opening_double_letters: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ("Latn",)
    options: dict[str, Any] = field(default_factory=dict)
    admissible: tuple[str, ...] = ()
    #: the analyses that are readings the game admits, as sets of tags (an analysis is one
    #: when its tags hold every tag of some set); empty: every stored analysis is one
    readings: tuple[frozenset[str], ...] = ()
    notes: str = ""
    # words whose verdict must never change: a build that flips one is not published
    canaries: dict[str, tuple[str, ...]] = field(default_factory=dict)
    engine: Engine = field(default_factory=Engine)
    by_canonical: dict[str, Tile] = field(default_factory=dict, repr=False, compare=False)
    by_spelling: dict[str, Tile] = field(default_factory=dict, repr=False, compare=False)
    _derived: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def admits_reading(self, tags: str) -> bool:
        """Is an analysis with these tags (``n.f.sg.nom``, ``subst:sg:nom:m2``) a reading the
        game admits (:attr:`readings`)? A builder may store every analysis of a form (the
        genitive *rok* of Slovenian ``roka`` beside its nominative *roka*); only the
        admitted ones say what the word laid means."""
        if not self.readings:
            return True
        have = set(tags.replace(":", ".").split("."))
        return any(need <= have for need in self.readings)

    @property
    def multi_letter_tiles(self) -> tuple[Tile, ...]:
        return tuple(t for t in self.tiles if len(t.letter) > 1)

    @property
    def alphabet(self) -> Alphabet:
        """Every numbering of this game's tiles (:class:`Alphabet`), built once."""
        return self.derived(Alphabet)

    def derived(self, make: Callable[[Profile], T]) -> T:
        """The object ``make(self)``, built once per profile (its speller, its play rules):
        everything derived from a profile is derived in one place, and only once."""
        hit = self._derived.get(make)
        if hit is None:
            hit = self._derived[make] = make(self)
        return hit

    def summary(self) -> dict[str, Any]:
        """The profile as JSON for ``/v1/games`` and ``lexicon games``."""
        return {
            "id": self.id,
            "name": self.name,
            "language": self.language,
            "rule_book": self.rule_book,
            "rules_version": self.rules_version,
            "min_length": self.min_length,
            "edge_min_length": self.edge_min_length,
            "max_length": self.max_length,
            "rack_size": self.rack_size,
            "scoring": self.scoring,
            "values_provisional": self.values_provisional,
            "counts_provisional": self.engine.counts_provisional,
            "tiles": [
                {"letter": t.letter, "canonical": t.canonical, "value": t.value,
                 "count": t.count, "joker_only": t.joker_only}
                for t in self.tiles
            ],
            "jokers": {
                "count": self.jokers.count, "value": self.jokers.value,
                "extra_letters": list(self.jokers.extra_letters),
                "extra_value": self.jokers.extra_value,
            },
            "total_tiles": self.total_tiles,
            "opening_min_length": self.opening_min_length,
            "reopening_min_length": self.reopening_min_length,
            "opening_double_letters": list(self.opening_double_letters),
            "phrases": self.phrases,
            "options": self.options,
            "admissible": list(self.admissible),
            "notes": self.notes,
            "vocabulary": self.vocabulary,
        }


class AlphabetOrder:
    """The game's alphabet order as bytes: a charmap codec turns each tile into one byte in
    alphabet order (the profile's ``tiles`` order: Polish ą after a, not after z), so
    encoded keys sort by plain byte comparison."""

    SEP = "\n"       # never part of a key (length tags are stripped before ordering)

    def __init__(self, profile: Profile) -> None:
        tiles = [t.canonical for t in profile.tiles]
        if len(tiles) > 200:
            raise ValueError(f"{profile.id}: more tiles than one byte can order")
        table = ["\ufffe"] * 256
        table[ord(self.SEP)] = self.SEP
        for i, tile in enumerate(tiles):
            table[32 + i] = tile
        self.decoding = "".join(table)
        self.encoding = codecs.charmap_build(self.decoding)
        # (separator + tile, every key starting with the tile in a joined text), in order
        self.by_first_tile = [
            (self.SEP + tile, re.compile(f"{self.SEP}({re.escape(tile)}[^{self.SEP}]*)").findall)
            for tile in tiles]

    def first(self, keys: Iterable[str], n: int) -> list[str]:
        """The first ``n`` keys in alphabet order (all of them, sorted, if ``n`` is large).

        A page of a 23,000-word pattern needs 50 words. The keys are joined once; for a
        short page, the keys starting with each tile are taken from the joined text by a
        regex scan, tile by tile in alphabet order, until the page is full, and only those
        are ordered. Ordering encodes keys to one byte per tile in one C call (not one
        translation per key) and sorts bytes.
        """
        keys = list(keys)
        if not keys or n <= 0:
            return []
        if n * 8 < len(keys):
            joined = self.SEP + self.SEP.join(keys)
            picked: list[str] = []
            for starts, find in self.by_first_tile:
                if starts in joined:
                    picked += self._sorted(find(joined))
                    if len(picked) >= n:
                        return picked[:n]
        return self._sorted(keys)[:n]

    def key(self, key: str) -> bytes:
        """A sort key: ``key`` as one byte per tile, in alphabet order."""
        return codecs.charmap_encode(key, "strict", self.encoding)[0]

    def _sorted(self, keys: list[str]) -> list[str]:
        sep = self.SEP.encode()
        encoded = codecs.charmap_encode(self.SEP.join(keys), "strict", self.encoding)[0]
        ordered = sorted(encoded.split(sep))
        return codecs.charmap_decode(sep.join(ordered), "strict", self.decoding)[0].split(
            self.SEP)


class Alphabet:
    """Every numbering of one game's tiles, in one place, derived from its profile.

    wolges keeps one ``Alphabet`` per game: the table by which a tile's number means a
    letter, a score, a count and a vowel. Here a tile is numbered three ways, each for its
    own reader, and all three are decided here so that a writer and a reader (a build and
    the runtime, an export and an engine) cannot number differently:

    * ``order``: the alphabet order a person reads results in (the ``tiles`` list of the
      profile), as one byte a tile (:class:`AlphabetOrder`);
    * ``engine`` and ``numbers``: the exported KWG's tile numbers, 1-based in the engine
      order (``[engine] order``, the stock wolges alphabet's where one exists; 0 is the
      joker on a rack and the GADDAG separator), with ``vowel`` from ``[engine] vowels``;
    * ``labels`` and ``label``: the alphagram trie's labels (``lexicon.store.indexes``), a tile's
      place among the game's canonical code points sorted, which is also the order of an
      alphagram's tiles (a key's characters sorted).
    """

    def __init__(self, profile: Profile) -> None:
        self.order = AlphabetOrder(profile)
        #: every tile (joker-only letters included) in the engine's numbering: tile *i* of
        #: the tuple is KWG tile *i + 1*
        self.engine: tuple[Tile, ...] = (
            tuple(profile.by_spelling[letter.lower()] for letter in profile.engine.order)
            if profile.engine.order else profile.tiles)
        self.numbers: dict[str, int] = {t.canonical: i for i, t in enumerate(self.engine, 1)}
        #: canonical key -> the KWG's tile-number string, one ``str.translate``
        self.engine_table = str.maketrans({c: chr(n) for c, n in self.numbers.items()})
        self._vowels = profile.engine.vowels
        self.labels: tuple[str, ...] = tuple(sorted(profile.by_canonical))
        self.label: dict[str, int] = {c: i for i, c in enumerate(self.labels)}

    def vowel(self, tile: Tile) -> bool:
        """Is ``tile`` a vowel (the engine alphabet file's vowel column)?"""
        return tile.letter in self._vowels

    def engine_bytes(self, key: str) -> bytes:
        """A canonical key as KWG tile numbers, one byte a tile."""
        return key.translate(self.engine_table).encode("latin-1")


def _parse(data: dict[str, Any]) -> Profile:
    tiles: list[Tile] = []
    for raw in data["tiles"]:
        letter = raw["letter"]
        canonical = raw.get("canonical", letter.lower())
        if len(canonical) != 1:
            raise ValueError(f"{data['id']}: tile {letter} needs a one-character canonical form")
        tiles.append(Tile(letter, canonical, raw.get("value"), raw.get("count")))
    jk = data.get("jokers", {})
    extra = tuple(jk.get("extra_letters", ()))
    for letter in extra:
        tiles.append(Tile(letter, letter.lower(), jk.get("extra_value"), 0, joker_only=True))
    by_canonical = {t.canonical: t for t in tiles}
    by_spelling = {t.spelling: t for t in tiles}
    if len(by_canonical) != len(tiles) or len(by_spelling) != len(tiles):
        raise ValueError(f"{data['id']}: duplicate tile")
    eng = data.get("engine", {})
    order = tuple(eng.get("order", ()))
    if order and sorted(x.lower() for x in order) != sorted(by_spelling):
        raise ValueError(f"{data['id']}: engine.order must list every tile once")
    vowels = frozenset(eng.get("vowels", ()))
    if not vowels <= {t.letter for t in tiles}:
        raise ValueError(f"{data['id']}: engine.vowels names a letter that is no tile")
    engine = Engine(eng.get("stock_alphabet"), order, vowels,
                    eng.get("counts_provisional", False), eng.get("counts_note", ""),
                    dict(eng.get("board", {})), tuple(eng.get("rules", ())))
    return Profile(
        id=data["id"],
        name=data["name"],
        language=data["language"],
        rule_book=data["rule_book"],
        rules_version=data["rules_version"],
        min_length=data["min_length"],
        max_length=data["max_length"],
        edge_min_length=data.get("edge_min_length"),
        rack_size=data["rack_size"],
        scoring=data["scoring"],
        letter_case=data.get("letter_case", "lower"),
        phrases=data.get("phrases", False),
        tiles=tuple(tiles),
        jokers=Jokers(jk.get("count", 0), jk.get("value"), extra, jk.get("extra_value")),
        vocabulary=data.get("vocabulary", data["id"]),
        values_provisional=data.get("values_provisional", False),
        total_tiles=data.get("total_tiles"),
        opening_min_length=data.get("opening_min_length"),
        reopening_min_length=data.get("reopening_min_length"),
        opening_double_letters=tuple(data.get("opening_double_letters", ())),
        scripts=tuple(data.get("scripts", ("Latn",))),
        options=dict(data.get("options", {})),
        admissible=tuple(data.get("admissible", ())),
        readings=tuple(frozenset(r) for r in data.get("readings", ())),
        notes=data.get("notes", ""),
        canaries={k: tuple(v) for k, v in data.get("canaries", {}).items()},
        engine=engine,
        by_canonical=by_canonical,
        by_spelling=by_spelling,
    )


@cache
def game_ids() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in PROFILE_DIR.glob("*.toml")))


@cache
def load(game: str) -> Profile:
    """The profile of ``game``; raises :class:`UnknownGame` with the known ids."""
    if game not in game_ids():
        raise UnknownGame(
            f"unknown game {game!r}; known games: {', '.join(game_ids())}",
            detail={"known": list(game_ids())},
        )
    with open(PROFILE_DIR / f"{game}.toml", "rb") as fh:
        return _parse(tomllib.load(fh))
