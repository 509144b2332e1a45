"""How the audit reads a word of a sheet or a list in a release: exactly as the checker
does (:func:`lexicon.verdicts.checker.decide`), so a label of ``ljuba`` is a label of the
tiling a referee would be shown, and ``amend`` overrides that same record."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from lexicon.errors import LexiconError
from lexicon.game.inputs import clean_word
from lexicon.game.profile import Profile
from lexicon.game.tiles import speller
from lexicon.store.records import Record
from lexicon.store.store import Release
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
        if spell.tiling(decided.key).foreign:
            yield word, None, None
            continue
        yield word, decided.key, release.get(decided.key)
