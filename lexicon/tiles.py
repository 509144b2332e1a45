"""Spelling a typed word as a sequence of game tiles.

In Kvizovka LJ, NJ and DŽ are single tiles, but a Latin spelling does not say whether
"nj" is the tile NJ (njiva) or N followed by J (konjugacija = kon+jugacija). We therefore
enumerate every tiling of a Latin input and let the lexicon decide (see
:mod:`lexicon.checker`); Cyrillic input is unambiguous, one letter per tile.

An engine can remove the ambiguity itself with explicit notation:

* ``[dž]`` (brackets) makes the enclosed letters one tile: ``na[dž]ivotni``;
* ``|`` forbids a tile across it: ``nad|živeti``, ``kon|jugacija``.

Characters that are no tile of the game (a hyphen, a digit, ``q`` in Polish) are kept as
themselves so the word can still be looked up and explained.
"""

from __future__ import annotations

from dataclasses import dataclass

from lexicon.errors import InputError
from lexicon.profile import Profile

MAX_READINGS = 64


@dataclass(frozen=True)
class Reading:
    """One way of spelling the input in tiles."""

    key: str                  # canonical code points, one per tile (non-tiles kept as is)
    tiles: tuple[str, ...]    # tile letters for display, e.g. ("LJ", "U", "B", "A", "V")
    foreign: tuple[str, ...]  # characters that are no tile of this game


def _split_explicit(text: str) -> list[tuple[str, bool]]:
    """Split ``text`` into runs: (letters, forced_single_tile). ``|`` ends a run."""
    runs: list[tuple[str, bool]] = []
    buf = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "[":
            end = text.find("]", i)
            if end == -1:
                raise InputError(f"unclosed '[' at position {i + 1}", code="bad_tile_notation",
                                 detail={"position": i + 1})
            if buf:
                runs.append((buf, False))
                buf = ""
            inner = text[i + 1:end]
            if not inner:
                raise InputError(f"empty '[]' at position {i + 1}", code="bad_tile_notation",
                                 detail={"position": i + 1})
            runs.append((inner, True))
            i = end + 1
            continue
        if ch == "]":
            raise InputError(f"']' without '[' at position {i + 1}", code="bad_tile_notation",
                             detail={"position": i + 1})
        if ch == "|":
            if buf:
                runs.append((buf, False))
            buf = ""
        else:
            buf += ch
        i += 1
    if buf:
        runs.append((buf, False))
    return runs


def _tilings(run: str, profile: Profile) -> list[list[tuple[str, str | None]]]:
    """All tilings of a run as lists of (spelling, canonical or None for a foreign char)."""
    multi = sorted((t for t in profile.multi_letter_tiles), key=lambda t: -len(t.spelling))
    memo: dict[int, list[list[tuple[str, str | None]]]] = {}

    def from_pos(i: int) -> list[list[tuple[str, str | None]]]:
        if i == len(run):
            return [[]]
        if i in memo:
            return memo[i]
        out: list[list[tuple[str, str | None]]] = []
        for tile in multi:  # multi-letter tile first: it is the usual reading
            if run.startswith(tile.spelling, i):
                out += [[(tile.spelling, tile.canonical), *rest]
                        for rest in from_pos(i + len(tile.spelling))]
        ch = run[i]
        single = profile.by_spelling.get(ch) or profile.by_canonical.get(ch)
        out += [[(ch, single.canonical if single else None), *rest] for rest in from_pos(i + 1)]
        memo[i] = out[:MAX_READINGS]
        return memo[i]

    return from_pos(0)


def readings(profile: Profile, word: str) -> list[Reading]:
    """Every way to spell the cleaned, lower-cased ``word`` in the game's tiles.

    The first reading is the preferred one when the lexicon knows none of them
    (multi-letter tiles taken wherever they fit).
    """
    text = word.replace(" ", "") if profile.phrases else word
    combos: list[list[tuple[str, str | None]]] = [[]]
    for run, forced in _split_explicit(text):
        if forced:
            tile = profile.by_spelling.get(run) or profile.by_canonical.get(run)
            if tile is None:
                raise InputError(f"[{run}] is not a tile of {profile.name}",
                                 code="bad_tile_notation")
            options = [[(run, tile.canonical)]]
        else:
            options = _tilings(run, profile)
        combos = [c + o for c in combos for o in options][:MAX_READINGS]
    out: list[Reading] = []
    for combo in combos:
        key = "".join(canon if canon else sp for sp, canon in combo)
        tiles = tuple(
            profile.by_canonical[canon].letter if canon else sp.upper() for sp, canon in combo
        )
        foreign = tuple(sp for sp, canon in combo if canon is None)
        out.append(Reading(key, tiles, foreign))
    return out


def key_to_tiles(profile: Profile, key: str) -> tuple[str, ...]:
    """Tile letters of a stored canonical key."""
    return tuple(profile.by_canonical[c].letter if c in profile.by_canonical else c.upper()
                 for c in key)


def key_to_latin(profile: Profile, key: str) -> str:
    """The lower-case Latin spelling of a canonical key (Kvizovka: Cyrillic -> Latin)."""
    return "".join(profile.by_canonical[c].spelling if c in profile.by_canonical else c
                   for c in key)


def spelling_to_key(profile: Profile, spelling: str) -> str:
    """Canonical key of a spelling whose tiling is known to be the greedy one.

    Only for sources that already spell one character per tile (Cyrillic, Polish,
    Slovenian); a Latin Serbian source must be tiled against the Cyrillic source instead.
    """
    return "".join(
        (profile.by_spelling.get(c) or profile.by_canonical.get(c)).canonical  # type: ignore[union-attr]
        if (c in profile.by_spelling or c in profile.by_canonical) else c
        for c in spelling
    )
