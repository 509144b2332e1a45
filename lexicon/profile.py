"""Game profiles: each game's rules as data, read from ``lexicon/profiles/<game>.toml``.

A profile says what a game's tiles are (including multi-letter tiles such as Kvizovka's LJ,
NJ and DŽ), what they are worth, how many there are, how many jokers exist and what they may
stand for, and the length limits. Code never hard-codes any of that: adding a game means
adding a profile (and, for a lexicon, a builder under ``build/games``).

Every tile has a *canonical* code point. A word is stored as the string of its tiles'
canonical code points, so one tile is always one character: Kvizovka uses Serbian Cyrillic
(``љ`` is the tile LJ), the Latin-alphabet games use their lowercase letters.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from lexicon.errors import UnknownGame

PROFILE_DIR = Path(__file__).parent / "profiles"
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

    The profile owns the tile numbering of its exports, not the exporter: ``order`` is the
    letters in KWG tile order (1, 2, ...), which follows the stock wolges alphabet named by
    ``stock_alphabet`` where one exists for the same letters, so an engine that uses its
    own alphabet file reads our tiles right. ``vowels`` fills the alphabet file's vowel
    column. ``counts_provisional`` marks a letter distribution the rule book does not
    publish (``counts_note`` says how it was estimated). ``board`` and ``rules`` are what
    the engine pack writes beside the lexicon: the board the rule book fixes, and the rules
    the lexicon file cannot carry.
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
    notes: str = ""
    # words whose verdict must never change: a build that flips one is not published
    canaries: dict[str, tuple[str, ...]] = field(default_factory=dict)
    engine: Engine = field(default_factory=Engine)
    by_canonical: dict[str, Tile] = field(default_factory=dict, repr=False, compare=False)
    by_spelling: dict[str, Tile] = field(default_factory=dict, repr=False, compare=False)
    _derived: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def multi_letter_tiles(self) -> tuple[Tile, ...]:
        return tuple(t for t in self.tiles if len(t.letter) > 1)

    @property
    def engine_tiles(self) -> tuple[Tile, ...]:
        """Every tile (joker-only letters included) in the engine's numbering: tile *i* of
        the tuple is KWG tile *i + 1*; 0 is the joker on a rack and the GADDAG separator."""
        if not self.engine.order:
            return self.tiles
        return tuple(self.by_spelling[letter.lower()] for letter in self.engine.order)

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
