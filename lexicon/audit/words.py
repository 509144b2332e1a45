"""How the audit reads a word of a sheet or a list in a release: exactly as the checker
does (:func:`lexicon.verdicts.checker.decide`), so a label of ``ljuba`` is a label of the
tiling a referee would be shown, and ``amend`` overrides that same record.

A word that is no spelling of the game's tiles (``e-mail``, ``vat`` in osps: the release
rejects it as ``hyphen_or_apostrophe`` or ``foreign_letters``) is not read: no label can
change its verdict and ``amend`` cannot take it. So the release's population the audit
draws from, weighs by and compares with (:func:`audited_records`) holds only the records whose
key is spelled in tiles, the same test :func:`lookup` applies to a labelled word: every
word a draw writes on a sheet is one ``score`` reads."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from lexicon.audit.classes import evidence_class
from lexicon.errors import LexiconError
from lexicon.game.inputs import clean_word
from lexicon.game.profile import Profile
from lexicon.game.tiles import speller
from lexicon.store.records import Record
from lexicon.store.release import Release
from lexicon.verdicts.checker import decide


def lookup(profile: Profile, release: Release, words: Iterable[str]
               ) -> Iterator[tuple[str, str | None, Record | None]]:
    """``(word, key, record)`` for each word; a word that is no spelling of the game's
    tiles has key None, a word the release has no record of has record None."""
    spell = speller(profile)
    for word in words:
        try:
            decided = decide(spell, clean_word(word), release.get, known=release.has_prefix)
        except LexiconError:
            yield word, None, None
            continue
        if not spell.in_tiles(decided.key):
            yield word, None, None
            continue
        yield word, decided.key, release.get(decided.key)


def audited_records(profile: Profile, release: Release) -> Iterator[tuple[str, Record]]:
    """``(evidence class, record)`` of each record of the release the audit reads (its
    key spelled in the game's tiles), in key order."""
    spell = speller(profile)
    vocabulary = profile.vocabulary
    for rec in release.records():
        if spell.in_tiles(rec.key):
            yield evidence_class(vocabulary, rec), rec
