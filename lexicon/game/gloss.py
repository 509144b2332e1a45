"""Analyses and reasons in words a referee at the table can read, in the players' language.

Raw tags (``impt:sg:sec:perf``, ``n.f.sg.dat``) mean nothing to a referee at a Polish or
Serbian table, so every analysis also gets a ``gloss`` ("czasownik, tryb rozkazujący,
2. osoba liczby pojedynczej, aspekt dokonany") and every reason a text in the same language.
The words are data, one TOML file per tag set in ``lexicon/glosses/`` (the Morfeusz/SGJP
tagset, Apertium's Serbo-Croatian tags, the Slovenian categories), plus ``reasons.toml``;
this module only reads a tag string position by position and looks each value up.

The language defaults to the game's (Polish for osps and remik, Serbian Latin for kvizovka,
Slovenian for krizemkrazem); ``en`` is always available, and ``sr-Cyrl`` is the Serbian
texts in Cyrillic (transliterated here, so no text is kept twice). A tag set without the
asked language falls back to English, and a value without a gloss is shown raw, never
dropped (the tests and ``tools/gloss_coverage.py`` make sure that does not happen with real
releases).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from lexicon.errors import InputError
from lexicon.game.reasons import describe

GLOSS_DIR = Path(__file__).parents[1] / "glosses"
#: Serbian in Cyrillic: the Serbian (Latin) texts transliterated here, once, so that every
#: face (CLI, HTTP, the referee page) gets the same texts; Kvizovka's players write both.
CYRILLIC = "sr-Cyrl"
LANGUAGES = ("pl", "sr", CYRILLIC, "sl", "en")
FALLBACK = "en"
#: profile ``language`` -> the language its players read (Kvizovka's "sh": Serbian Latin).
PLAYERS_LANGUAGE = {"pl": "pl", "sh": "sr", "sr": "sr", "hr": "sr", "sl": "sl", "en": "en"}


_DIGRAPHS = {"lj": "љ", "nj": "њ", "dž": "џ", "Lj": "Љ", "LJ": "Љ", "Nj": "Њ", "NJ": "Њ",
             "Dž": "Џ", "DŽ": "Џ"}
_LETTERS = dict(zip("abvgdđežzijklmnoprstćufhcčšABVGDĐEŽZIJKLMNOPRSTĆUFHCČŠ",
                    "абвгдђежзијклмнопрстћуфхцчшАБВГДЂЕЖЗИЈКЛМНОПРСТЋУФХЦЧШ", strict=True))


def to_cyrillic(text: str) -> str:
    """Serbian Latin text in Serbian Cyrillic, letter by letter (lj, nj, dž are one letter
    each). For the project's own texts (glosses, reasons, the page), which hold no word
    where a digraph spans a prefix (nad|živeti): such a word would need the lexicon."""
    out, i = [], 0
    while i < len(text):
        pair = _DIGRAPHS.get(text[i:i + 2])
        if pair:
            out.append(pair)
            i += 2
        else:
            out.append(_LETTERS.get(text[i], text[i]))
            i += 1
    return "".join(out)


def _script(lang: str) -> tuple[str, Any]:
    """The language whose texts ``lang`` writes, and how it writes them."""
    if lang == CYRILLIC:
        return "sr", to_cyrillic
    return lang, None


@dataclass(frozen=True)
class TagSet:
    """One tag set's glosses: how its tag strings are cut, and what each value means."""

    name: str
    games: tuple[str, ...]
    languages: tuple[str, ...]
    separator: str                       # between positions: ":" (Morfeusz) or "."
    alternative: str | None              # between alternatives inside a position: "."
    segment: str | None                  # between segments of an agglutinated form: "+"
    alternatives_joiner: dict[str, str]  # "lub", "ili", "ali", "or"
    tags: dict[str, dict[str, str]]
    combined: dict[str, dict[str, str]]  # a run of positions glossed as one phrase

    @classmethod
    def load(cls, path: Path) -> TagSet:
        with open(path, "rb") as fh:
            data: dict[str, Any] = tomllib.load(fh)
        return cls(name=data["tagset"], games=tuple(data["games"]),
                   languages=tuple(data["languages"]), separator=data["separator"],
                   alternative=data.get("alternative"), segment=data.get("segment"),
                   alternatives_joiner=data.get("or", {}), tags=data["tags"],
                   combined=data.get("combined", {}))

    def _segments(self, tags: str) -> list[list[str]]:
        parts = tags.split(self.segment) if self.segment else [tags]
        return [[p for p in seg.split(self.separator) if p] for seg in parts if seg]

    def atoms(self, tags: str) -> set[str]:
        """Every single value in a tag string (alternatives split)."""
        out = set()
        for positions in self._segments(tags):
            for p in positions:
                out.update(p.split(self.alternative) if self.alternative else [p])
        return out

    def missing(self, tags: str) -> set[str]:
        """Values of ``tags`` lacking a gloss in one of this tag set's languages."""
        return {a for a in self.atoms(tags)
                if any(lang not in self.tags.get(a, {}) for lang in self.languages)}

    def _value(self, value: str, lang: str, write: Any) -> str:
        text = self.tags.get(value, {}).get(lang)
        if text is None:
            return value                 # a value without a gloss is shown raw, as it is
        return write(text) if write else text

    def _position(self, position: str, lang: str, write: Any) -> str:
        if self.alternative and self.alternative in position:
            joiner = self.alternatives_joiner.get(lang, " / ")
            return (write(joiner) if write else joiner).join(
                self._value(v, lang, write) for v in position.split(self.alternative))
        return self._value(position, lang, write)

    def gloss(self, tags: str, lang: str) -> str:
        """The tag string in words, e.g. "rzeczownik, liczba pojedyncza, narzędnik"."""
        lang, write = _script(lang)
        if lang not in self.languages:
            lang, write = FALLBACK, None
        glossed = []
        for positions in self._segments(tags):
            words, i = [], 0
            while i < len(positions):
                for k in (3, 2, 1):
                    run = self.separator.join(positions[i:i + k])
                    if k <= len(positions) - i and run in self.combined:
                        text = self.combined[run].get(lang)
                        words.append(run if text is None else write(text) if write else text)
                        i += k
                        break
                else:
                    words.append(self._position(positions[i], lang, write))
                    i += 1
            glossed.append(", ".join(words))
        return " + ".join(glossed)


@cache
def tagsets() -> dict[str, TagSet]:
    """Every tag set in ``lexicon/glosses`` by name."""
    out = {}
    for path in sorted(GLOSS_DIR.glob("*.toml")):
        if path.stem not in ("reasons", "names"):
            ts = TagSet.load(path)
            out[ts.name] = ts
    return out


@cache
def tagset_for(game: str) -> TagSet | None:
    return next((ts for ts in tagsets().values() if game in ts.games), None)


@cache
def _reason_texts() -> dict[str, dict[str, Any]]:
    with open(GLOSS_DIR / "reasons.toml", "rb") as fh:
        return tomllib.load(fh)["reasons"]


@cache
def _game_names() -> dict[str, dict[str, str]]:
    with open(GLOSS_DIR / "names.toml", "rb") as fh:
        return tomllib.load(fh)["games"]


def game_name(game: str, name: str, lang: str) -> str:
    """The game's name in ``lang`` (a referee reads the page in one language), else
    ``name``, the profile's own."""
    base, write = _script(lang)
    found = _game_names().get(game, {}).get(base)
    if not found:
        return name
    return write(found) if write else found


def localized_text(text: str, lang: str) -> str:
    """Serbian Latin ``text`` in the script ``lang`` asks for (sr-Cyrl: Cyrillic)."""
    return to_cyrillic(text) if lang == CYRILLIC else text


def keys_language(scripts: tuple[str, ...]) -> str | None:
    """The language whose reader reads a game's keys as they are written, when the game
    stores its words in that language's script (Kvizovka: one Cyrillic letter a tile, so
    the key *is* the Cyrillic spelling); None for a game whose keys no reader reads so."""
    return CYRILLIC if "Cyrl" in scripts else None


def spelled_in(lang: str, scripts: tuple[str, ...], key: str) -> str | None:
    """A canonical key written in the script ``lang`` asks for, when the game stores its
    words in that script (:func:`keys_language`: ``nad|živeti`` included); None otherwise."""
    return key if lang == keys_language(scripts) else None


def language(profile_language: str, lang: str | None) -> str:
    """The language to answer in: ``lang`` if given (checked), else the game's players'."""
    if lang is None:
        return PLAYERS_LANGUAGE.get(profile_language, FALLBACK)
    if lang not in LANGUAGES:
        raise InputError(f"unknown language {lang!r}; use one of {', '.join(LANGUAGES)}",
                         code="bad_lang", detail={"languages": list(LANGUAGES)})
    return lang


@lru_cache(maxsize=65536)
def gloss(game: str, tags: str, lang: str) -> str | None:
    """The gloss of one analysis' tags in ``game``, or None for a game without a tag set."""
    ts = tagset_for(game)
    return ts.gloss(tags, lang) if ts is not None and tags else None


def reason_text(code: str, lang: str, game: str | None = None) -> str:
    """The reason code's text in ``lang`` (English from lexicon.game.reasons, the catalogue),
    ``game``'s own where the code means more in that game (reasons.toml's
    ``[reasons.CODE.GAME]``: Križemkražem's inflected form is any but the nominative
    *singular*)."""
    base, write = _script(lang)
    texts = _reason_texts().get(code, {})
    own = texts.get(game) if game else None
    found = own.get(base) if isinstance(own, dict) else None
    if not found and base != FALLBACK:
        found = texts.get(base)
    if found:
        return write(found) if write else found
    return describe(code)


def localized_reason(code: str, specific: str | None, lang: str,
                     game: str | None = None) -> dict[str, str]:
    """``{"code", "message", "detail"}``: the code's text in ``lang`` (``game``'s own where
    it has one) and, as ``detail``, the specific message stored with the word or made by a
    play rule (in English)."""
    out = {"code": code, "message": reason_text(code, lang, game)}
    if specific:
        out["detail"] = specific
    return out
