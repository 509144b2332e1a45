"""Is this word valid in this game, and why (not)?

The answer combines two kinds of rule:

* *lexical* rules, decided at build time and stored with each word in the release
  (abbreviation, proper noun, dative case, comparative ...), and
* *play* rules, decided here by :class:`lexicon.game.play.PlayRules` because they depend on the
  move (length limits, the 3-letter exception at Kvizovka's board edge, letters that no
  tile carries, letters only a joker can stand for).

For a Latin Kvizovka word the tilings the release may hold are looked up (see
:mod:`lexicon.game.tiles`): the one the lexicon holds decides, the others are reported as
``alternatives``.

An admitted word's ``meanings`` are what the release's dictionaries say of its lemmas, with
each source and licence (:mod:`lexicon.store.meanings`); ``[]`` when none lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from lexicon.errors import LexiconError
from lexicon.game.gloss import gloss, language, localized_reason
from lexicon.game.inputs import clean_word, printable
from lexicon.game.play import play_rules
from lexicon.game.profile import Profile
from lexicon.game.reasons import describe
from lexicon.game.tiles import PrefixOracle, Resolution, Speller, Tiling, speller
from lexicon.store.records import Record
from lexicon.store.store import Release

MAX_BATCH = 10_000


def _reason(code: str, message: str | None = None) -> dict[str, str]:
    return {"code": code, "message": message or describe(code)}


def decide(spell: Speller, word: str, record: Callable[[str], Record | None], *,
           known: PrefixOracle | None = None, every: bool = False) -> Resolution:
    """The reading of ``word`` a store of records decides (``record``: a key's record, or
    None): the first reading with a valid record, else the first with any record, else the
    preferred reading (:meth:`~lexicon.game.tiles.Speller.resolve`). A verdict reads a word so,
    and amend overrides the record so chosen, so an override changes the word the checker
    shows: "ljuba" whose preferred tiling is a rejected form but whose other is a word is
    that word, to the checker and to ``remove``."""
    return spell.resolve(word, lambda k: (r := record(k)) is not None and r.valid,
                         lambda k: record(k) is not None, known=known, every=every)


def _choose(spell: Speller, rel: Release, word: str
            ) -> tuple[Tiling, Record | None, list[dict]]:
    """The reading the release decides (:func:`decide`), its record, and every other
    reading as an alternative. Each reading's record is read once."""
    records: dict[str, Record | None] = {}

    def record(key: str) -> Record | None:
        if key not in records:
            records[key] = rel.get(key)
        return records[key]

    decided = decide(spell, word, record, known=rel.has_prefix, every=True)
    alternatives = [
        {"tiles": list(spell.tiles_of(k)), "word": rec.word if rec else None,
         "known": rec is not None, "valid": bool(rec and rec.valid)}
        for k in decided.keys if k != decided.key for rec in (record(k),)
    ]
    chosen = record(decided.key) if decided.held else None
    return spell.tiling(decided.key), chosen, alternatives


def check_word(profile: Profile, rel: Release, text: str, *, edge: bool = False,
               lang: str | None = None) -> dict[str, Any]:
    """The full verdict for one word from ``rel`` (raises LexiconError for unusable input).

    Glosses and reason texts are in ``lang`` (pl, sr, sr-Cyrl, sl, en), by default in the language
    of the game's players. Any release object answers: the served one, an older published
    one ("valid as of edition X"), or one still being staged (canaries).
    """
    return _verdict(profile, rel, text, edge, language(profile.language, lang))


def _analyses(game: str, record: Record, lang: str) -> list[dict[str, Any]]:
    out = []
    for a in record.analyses:
        item = a.to_json()
        item["gloss"] = gloss(game, a.tags, lang)
        out.append(item)
    return out


def _meanings(rel: Release, record: Record | None) -> list[dict[str, Any]]:
    """What the release's dictionaries say of an admitted word's lemmas (its word when it
    has no analysis, as ``build.meanings_writer`` keys them); [] for any other word."""
    if record is None or not record.valid:
        return []
    return rel.meanings_for([a.lemma for a in record.analyses] or [record.word])


def _verdict(profile: Profile, rel: Release, text: str, edge: bool,
             lang: str) -> dict[str, Any]:
    game = profile.id
    word = clean_word(text)
    spell, rules = speller(profile), play_rules(profile)
    reading, record, alternatives = _choose(spell, rel, word)
    reason: dict[str, str] | None
    if record is not None and not record.valid:
        reason = _reason(record.reason_code or "unknown", record.reason_message)
    else:
        broken = rules.broken(reading.key, reading.foreign, edge=edge)
        reason = _reason(broken.code, broken.message) if broken else None
        if reason is None and record is None:
            reason = _reason("unknown", f"{word!r} is in none of this release's sources")
    if reason is not None:
        reason = localized_reason(reason["code"], reason["message"], lang)
    result: dict[str, Any] = {
        "input": text,
        "game": game,
        "word": record.word if record else spell.to_latin(reading.key),
        "valid": reason is None,
        "tiles": list(reading.tiles),
        "score": rules.score(reading.key),
        "reason": reason,
        "analyses": _analyses(game, record, lang) if record else [],
        "category": record.category if record else None,
        "sources": record.sources if record else [],
        "evidence": record.evidence if record else [],
        "meanings": _meanings(rel, record),
        "alternatives": alternatives,
        "jokers_needed": rules.joker_letters(reading.key),
        "release": rel.id,
    }
    opening = rules.opening_score(reading.key)
    if opening is not None:
        result["opening_score"] = opening
    return result


def check_many(profile: Profile, rel: Release, texts: Iterable[str], *,
               edge: bool = False, lang: str | None = None) -> list[dict[str, Any]]:
    """Verdicts for many words; a bad item gets an ``error`` object, not a failed batch.
    One release answers the whole batch, whatever is published meanwhile."""
    game = profile.id
    lang = language(profile.language, lang)
    out = []
    for text in texts:
        try:
            out.append(_verdict(profile, rel, text, edge, lang))
        except LexiconError as exc:
            out.append({"input": printable(text), "game": game, "valid": False,
                        "error": exc.to_json()})
    return out
