"""The Latin spellings of a Kvizovka release's valid words: what the batch hot path's Latin
index holds (``latin.marisa`` and ``latin-edge.marisa``, written by :mod:`build.index_writer`
and read by :mod:`lexicon.store.indexes`).

A Latin word is valid exactly when the key its reading decides
(:func:`lexicon.verdicts.fastcheck.decided_key`: with lj, nj or dž another tiling than the
preferred one may decide) passes the validity decision
(:meth:`lexicon.verdicts.validity.Validity.allows`), so the set of valid Latin spellings can be
written once at build time, for the board's inside and for its edge, and a batch of Latin
words is then one membership test, like a Polish one.
"""

from __future__ import annotations

from typing import Any

from lexicon.game.profile import Profile
from lexicon.game.tiles import speller
from lexicon.verdicts.fastcheck import decided_key
from lexicon.verdicts.validity import validity


def latin_spellings(profile: Profile, words: Any) -> tuple[list[str], list[str]]:
    """The Latin spellings a typed word is valid for, on the board's inside and at its
    edge: for each valid key of the ``words`` trie its Latin spelling, kept when the key
    that spelling decides passes the validity decision. Sorted, for the index writer."""
    spell = speller(profile)
    decision = validity(profile)
    digraphs = spell.ambiguous
    in_tiles = spell.in_tiles

    def has_prefix(prefix: str) -> bool:
        return next(words.iterkeys(prefix), None) is not None

    inside: list[str] = []
    edge: list[str] = []
    for key in words.iterkeys():
        if not in_tiles(key):
            continue
        latin = spell.to_latin(key)
        decided: str | None = key
        if any(d in latin for d in digraphs):
            decided = decided_key(spell, words, has_prefix, latin)
        if decided is None:
            continue
        if decision.allows(decided):
            inside.append(latin)
        if decision.allows(decided, edge=True):
            edge.append(latin)
    return sorted(set(inside)), sorted(set(edge))
