"""Is this word valid in this game, and why (not)?

The answer combines two kinds of rule:

* *lexical* rules, decided at build time and stored with each word in the release
  (abbreviation, proper noun, dative case, comparative ...), and
* *play* rules, which depend on the move (length limits, the 3-letter exception at
  Kvizovka's board edge, letters that no tile carries, letters only a joker can stand for).

Both are applied by the one decision of :mod:`lexicon.verdicts.validity`; this module reads
the word, picks its reading and explains the verdict around that decision.

For a Latin Kvizovka word the tilings the release may hold are looked up (see
:mod:`lexicon.game.tiles`): the one the lexicon holds decides, the others are reported as
``alternatives``.

An admitted word's ``meanings`` are what the release's dictionaries say of the lemmas of
its admitted readings (:func:`meaning_lemmas`), with each source and licence
(:mod:`lexicon.store.meanings`); ``[]`` when none lists them, and for every word the
verdict rejects, whatever the reason (its length too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from lexicon.errors import InputError, LexiconError
from lexicon.game.gloss import gloss, language, localized_reason, localized_text, spelled_in
from lexicon.game.inputs import clean_word, printable
from lexicon.game.play import play_rules
from lexicon.game.profile import Profile
from lexicon.game.tiles import PrefixOracle, Resolution, Speller, Tiling, speller
from lexicon.store.records import Record
from lexicon.store.release import Release
from lexicon.verdicts.validity import validity

MAX_BATCH = 10_000


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


def meaning_lemmas(profile: Profile, record: Record) -> list[str]:
    """The lemmas whose meanings an admitted word shows: those of its readings the game
    admits (:meth:`~lexicon.game.profile.Profile.admits_reading`: Križemkražem ``roka`` is
    the nominative of *roka*, not the genitive of *rok*). When the word is itself the
    citation form of one of them, that lemma alone: the referee asks what the word laid
    means, and a headword means what its entry says (Kvizovka ``more`` is *more*, the
    sea, though it is also the nominative plural of *mora*). A word with no analysis, or
    none admitted, is looked up as itself, as ``build.meanings_writer`` keys it."""
    lemmas = list(dict.fromkeys(a.lemma for a in record.analyses
                                if profile.admits_reading(a.tags)))
    own = [lemma for lemma in lemmas if lemma.casefold() == record.word.casefold()]
    return own or lemmas or [record.word]


def _meanings(profile: Profile, rel: Release, record: Record | None, valid: bool
              ) -> list[dict[str, Any]]:
    """What the release's dictionaries say of the word (:func:`meaning_lemmas`); [] for a
    word the game does not admit, also one its record admits but the move does not (too
    short, Kvizovka's 3 letters off the edge), as the verdict says."""
    if record is None or not record.valid or not valid:
        return []
    return rel.meanings_for(meaning_lemmas(profile, record))


def _verdict(profile: Profile, rel: Release, text: str, edge: bool,
             lang: str) -> dict[str, Any]:
    game = profile.id
    word = clean_word(text)
    spell, rules = speller(profile), play_rules(profile)
    reading, record, alternatives = _choose(spell, rel, word)
    broken = validity(profile).broken(reading.key, reading.foreign, record, edge=edge,
                                      word=word)
    reason = (None if broken is None
              else localized_reason(broken.code, broken.message, lang, game))
    result: dict[str, Any] = {
        "input": text,
        "game": game,
        "word": record.word if record else spell.written(word, reading.key),
        "valid": reason is None,
        "tiles": list(reading.tiles),
        "score": rules.score(reading.key),
        "reason": reason,
        "analyses": _analyses(game, record, lang) if record else [],
        "category": record.category if record else None,
        "sources": record.sources if record else [],
        "evidence": record.evidence if record else [],
        "meanings": _meanings(profile, rel, record, reason is None),
        "alternatives": alternatives,
        "jokers_needed": rules.joker_letters(reading.key),
        "release": rel.id,
    }
    opening = rules.opening_score(reading.key)
    if opening is not None:
        result["opening_score"] = opening
    shown = spelled_in(lang, profile.scripts, reading.key)
    if shown is not None:     # sr-Cyrl: the word, its tiles and lemmas as the reader writes
        letters = {t.letter: t.canonical.upper() for t in profile.tiles}
        result["script"] = {"word": shown, "tiles": [c.upper() for c in shown],
                            "lemmas": {a["lemma"]: _lemma_spelled(spell, rel, a["lemma"], lang)
                                       for a in result["analyses"]},
                            "alternatives": [[letters.get(x, x) for x in a["tiles"]]
                                             for a in alternatives]}
    return result


def _lemma_spelled(spell: Speller, rel: Release, lemma: str, lang: str) -> str:
    """A lemma in the reader's script: as the release tiles it when it is a word of the
    release (its key: the digraph question settled by the lexicon), else letter by letter."""
    try:
        reading, record, _ = _choose(spell, rel, lemma)
    except LexiconError:
        record = None
    if record is not None:
        return spelled_in(lang, ("Cyrl",), reading.key) or lemma
    return localized_text(lemma, lang)


def edges(edge: object, count: int) -> list[bool]:
    """One edge flag a word: ``edge`` as one flag for all ``count`` words, or a list of one
    flag a word (``bad_play`` for anything else: the play cannot be read as it stands)."""
    if isinstance(edge, bool):
        return [edge] * count
    if (not isinstance(edge, (list, tuple)) or len(edge) != count
            or not all(isinstance(e, bool) for e in edge)):
        raise InputError(f"edge must be true, false or a list of {count} flags, one a word "
                         f"in the order of the words", code="bad_play")
    return list(edge)


def check_many(profile: Profile, rel: Release, texts: Iterable[str], *,
               edge: bool | Sequence[bool] = False, lang: str | None = None
               ) -> list[dict[str, Any]]:
    """Verdicts for many words; a bad item gets an ``error`` object, not a failed batch.

    ``edge`` is one flag for every word, or one a word (Kvizovka's edge rule belongs to the
    word that touches the edge, not to the whole play; :func:`edges` checks the list).
    One release answers the whole batch, whatever is published meanwhile.
    """
    game = profile.id
    lang = language(profile.language, lang)
    texts = list(texts)
    out = []
    for text, at_edge in zip(texts, edges(edge, len(texts)), strict=True):
        try:
            out.append(_verdict(profile, rel, text, at_edge, lang))
        except LexiconError as exc:
            out.append({"input": printable(text), "game": game, "valid": False,
                        "error": exc.to_json()})
    return out
