"""Is this word valid in this game, and why (not)?

The answer combines two kinds of rule:

* *lexical* rules, decided at build time and stored with each word in the release
  (abbreviation, proper noun, dative case, comparative ...), and
* *play* rules, decided here from the game's profile because they depend on the move
  (length limits, the 3-letter exception at Kvizovka's board edge, letters that no tile
  carries, letters only a joker can stand for).

For a Latin Kvizovka word the tilings the release may hold are looked up (see
:mod:`lexicon.tiles`): the one the lexicon holds decides, the others are reported as
``alternatives``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lexicon.catalog import Catalog
from lexicon.errors import LexiconError
from lexicon.inputs import clean_word, printable
from lexicon.profile import Profile
from lexicon.reasons import describe
from lexicon.records import Record
from lexicon.store import Release
from lexicon.tiles import Tiling, speller

MAX_BATCH = 10_000


def _reason(code: str, message: str | None = None) -> dict[str, str]:
    return {"code": code, "message": message or describe(code)}


def _choose(rel: Release, options: list[Tiling]) -> tuple[Tiling, Record | None, list[dict]]:
    found = [(r, rel.get(r.key)) for r in options]
    chosen = next(((r, rec) for r, rec in found if rec and rec.valid), None)
    if chosen is None:
        chosen = next(((r, rec) for r, rec in found if rec), (options[0], None))
    alternatives = [
        {"tiles": list(r.tiles), "word": rec.word if rec else None,
         "known": rec is not None, "valid": bool(rec and rec.valid)}
        for r, rec in found if r is not chosen[0]
    ]
    return chosen[0], chosen[1], alternatives


def play_reason(profile: Profile, reading: Tiling, *, edge: bool = False) -> dict | None:
    """The first play rule the reading breaks, or None."""
    if reading.foreign:
        odd = "".join(dict.fromkeys(reading.foreign))
        if set(odd) & {"-", "'", "’"}:
            return _reason("hyphen_or_apostrophe",
                           f"contains {odd!r}: words needing a hyphen or apostrophe are not played")
        return _reason("not_in_alphabet",
                       f"contains {', '.join(repr(c) for c in odd)}, which no tile of "
                       f"{profile.name} carries")
    jokers = joker_letters(profile, reading)
    if len(jokers) > profile.jokers.count:
        return _reason("too_many_jokers",
                       f"needs {len(jokers)} jokers for {', '.join(jokers)}; the game has "
                       f"{profile.jokers.count}")
    n = len(reading.tiles)
    minimum = profile.min_length
    if edge and profile.edge_min_length is not None:
        minimum = profile.edge_min_length
    if n < minimum:
        edge_note = ""
        if profile.edge_min_length is not None and not edge:
            edge_note = f" ({profile.edge_min_length} at the board's edge)"
        return _reason("too_short", f"{n} tiles; {minimum} required{edge_note}")
    if n > profile.max_length:
        return _reason("too_long", f"{n} tiles; at most {profile.max_length}")
    return None


def joker_letters(profile: Profile, reading: Tiling) -> list[str]:
    """Letters of the word that only a joker can stand for (Križemkražem's W, X, Y, Q)."""
    return [profile.by_canonical[c].letter for c in reading.key
            if c in profile.by_canonical and profile.by_canonical[c].joker_only]


def check_word(catalog: Catalog, game: str, text: str, *, edge: bool = False) -> dict[str, Any]:
    """The full verdict for one word (raises LexiconError for unusable input)."""
    return _verdict(catalog.profile(game), catalog.release(game), text, edge)


def _verdict(profile: Profile, rel: Release, text: str, edge: bool) -> dict[str, Any]:
    game = profile.id
    word = clean_word(text)
    spell = speller(profile)
    reading, record, alternatives = _choose(rel, spell.readings(word, rel.has_prefix))
    reason: dict[str, str] | None
    if record is not None and not record.valid:
        reason = _reason(record.reason_code or "unknown", record.reason_message)
    else:
        reason = play_reason(profile, reading, edge=edge)
        if reason is None and record is None:
            reason = _reason("unknown", f"{word!r} is in none of this release's sources")
    result: dict[str, Any] = {
        "input": text,
        "game": game,
        "word": record.word if record else spell.to_latin(reading.key),
        "valid": reason is None,
        "tiles": list(reading.tiles),
        "score": None if reading.foreign else profile.score(reading.key),
        "reason": reason,
        "analyses": [a.to_json() for a in record.analyses] if record else [],
        "category": record.category if record else None,
        "sources": record.sources if record else [],
        "evidence": record.evidence if record else [],
        "alternatives": alternatives,
        "jokers_needed": joker_letters(profile, reading),
        "release": rel.id,
    }
    if profile.opening_double_letters and result["score"] is not None:
        doubled = any(t in profile.opening_double_letters for t in reading.tiles)
        result["opening_score"] = result["score"] * (2 if doubled else 1)
    return result


def check_many(catalog: Catalog, game: str, texts: Iterable[str], *,
               edge: bool = False) -> list[dict[str, Any]]:
    """Verdicts for many words; a bad item gets an ``error`` object, not a failed batch.

    The profile and release are resolved once, so the whole batch is answered by one
    release even if a new one is published meanwhile.
    """
    profile = catalog.profile(game)
    rel = catalog.release(game)
    out = []
    for text in texts:
        try:
            out.append(_verdict(profile, rel, text, edge))
        except LexiconError as exc:
            out.append({"input": printable(text), "game": game, "valid": False,
                        "error": exc.to_json()})
    return out
