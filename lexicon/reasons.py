"""The catalogue of reason codes a verdict can carry.

Codes are stable API: engines branch on them. The message stored with each rejected word
is specific ("noun kuća in dative/locative singular"); the text here is the generic
description shown in documentation and used where no specific message exists.
"""

from __future__ import annotations

REASONS: dict[str, str] = {
    # lexical (decided at build time, stored in the release)
    "unknown": "no source dictionary knows this word",
    "capitalised": "only written with a capital letter (a proper name)",
    "proper_noun": "a proper noun",
    "abbreviation": "an abbreviation or symbol",
    "prefix_or_suffix": "a prefix, suffix or other bound (non-independent) form",
    "hyphen_or_apostrophe": "needs a hyphen or an apostrophe",
    "interjection": "an interjection",
    "phrase": "a multiword expression",
    "inflected_form": "an inflected form the game does not admit (only the base form counts)",
    "verb_form": "a verb form other than the infinitive",
    "reflexive_verb": "a verb that exists only as reflexive (with 'se')",
    "comparative": "a comparative or superlative",
    "part_of_speech": "a part of speech the game does not admit",
    "foreign_letters": "spelled with letters that are not tiles of this game",
    "listed_exclusion": "excluded by a reviewed list",
    "unattested": "not attested well enough: the sources lack what this game requires "
                  "(the detail says what)",
    "override": "removed by a maintainer's override (the detail gives the reason)",
    "not_in_imported_list": "not in the authoritative list the game's profile restricts to",
    "no_noun_evidence": "no source attests it as a noun in the nominative (Križemkražem)",
    # play (decided at check time from the profile)
    "too_short": "fewer tiles than the game's minimum",
    "too_long": "more tiles than the game's maximum",
    "not_in_alphabet": "contains a character that is no tile of this game",
    "too_many_jokers": "needs more jokers than the game has",
    # lexical, added for Kvizovka (build/games/kvizovka.py)
    "function_word": "a preposition, conjunction or particle (a non-independent word)",
    "unclassified": "a dictionary knows the form, but not its part of speech or case",
}


def describe(code: str) -> str:
    return REASONS.get(code, code)
