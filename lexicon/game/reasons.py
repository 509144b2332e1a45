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
    "inhabitant_capitalised": "a name of inhabitants (of a town, village or district) that "
                              "the 2026 Polish spelling writes with a capital letter; the "
                              "profile's inhabitants = follow_sources keeps it out",
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
    "elative": "an elative: pre- + an adjective, 'very X' (prelep, preskup); the game admits "
               "adjectives in the positive only",
    "part_of_speech": "a part of speech the game does not admit",
    "foreign_letters": "spelled with letters that are not tiles of this game",
    "listed_exclusion": "excluded by a reviewed list",
    "unattested": "not attested well enough: the sources lack what this game requires "
                  "(the detail says what)",
    "unsupported_listing": "listed by one word list only, with none of the further evidence the "
                           "game's listing-only policy asks for (the detail says what is missing)",
    "override": "removed by a maintainer's override (the detail gives the reason)",
    "not_in_imported_list": "not in the authoritative list the game's profile restricts to",
    "no_noun_evidence": "no source attests it as a noun in the nominative (Križemkražem)",
    # play (decided at check time from the profile)
    "too_short": "fewer tiles than the game's minimum",
    "too_long": "more tiles than the game's maximum",
    "not_in_alphabet": "contains a character that is no tile of this game",
    "too_many_jokers": "needs more jokers than the game has",
    # lexical, added for Kvizovka (build/games/kvizovka/analysis.py)
    "function_word": "a preposition, conjunction or particle (a non-independent word)",
    "unclassified": "a dictionary knows the form, but not its part of speech or case",
    "verbal_adverb": "a verbal adverb (present participle in -ći) that only one dictionary "
                     "lists as an adjective: a verb form, not the infinitive",
    "missing_diacritics": "a typo: only one dictionary has it, and two sources have the "
                          "spelling with č, ć, š, ž or đ",
    "soft_stem_neuter": "a neuter in -o after a soft consonant (č, ć, đ, ž, š, j, c): such "
                        "adjectives end in -e (drukčije, not drukčijo); only one "
                        "dictionary's paradigm gives -o",
    "negated_relational": "ne- + a relational adjective (nerudarski): only one dictionary's "
                          "prefix flag makes it; no other source has the word",
    "negated_relational_ni": "ne- + an adjective in -ni, mostly relational (nemodni): only "
                             "one dictionary's prefix flag makes it; no other source has the "
                             "word",
    "negated_participle": "ne- + a passive participle (nenaježen): only one dictionary's "
                          "prefix flag makes it; no other source has the word",
    "infinitive_as_adjective": "a verb's infinitive declined as an adjective by one "
                               "dictionary (odmahnuti -> odmahnuta): a verb form, not the "
                               "infinitive",
    "intransitive_participle": "the passive participle of an intransitive verb (dejstvovan "
                               "of dejstvovati), which has none: only one dictionary's "
                               "adjective slot makes it",
    "negated_verbal_noun": "ne- + a verbal noun (nežigosanje, nepočinjanja): only one "
                           "dictionary's prefix flag makes it; no other source has the word",
    "compound_ordinal": "the ordinal of a compound number written as one word "
                        "(dvadesetprvi): it is two words, dvadeset prvi",
    "hyper_ijekavian": "je or ije where the word has no yat (zavjesti for zavesti): the "
                       "ijekavian sources write it with e; only one dictionary writes je",
    "possessive_suffix": "a possessive adjective spelled against the norm (ježov for "
                         "ježev, korisnicin for korisničin): after a palatal consonant "
                         "the suffix is -ev, and c turns into č",
    "unfleeting_a": "a form of an adjective whose a is fleeting, made as if it were a "
                    "participle (sumarana beside sumarna): only one dictionary's slot makes it",
    # a Remik move (lexicon.verdicts.remik, from the rule book, seed 004)
    "tiles_not_conserved": "the table after the move needs tiles that neither the table "
                           "before it nor the player's shelf holds (no assignment exists)",
    "table_tile_not_relaid": "a tile taken from the table was not laid again in the same move",
    "opening_not_own_tiles": "an opening (or re-opening) is laid from the player's own tiles "
                             "only and leaves the table words as they lay",
    "opening_one_word": "an opening (or re-opening) lays exactly one word",
    "opening_too_short": "an opening word needs at least 5 letters, a re-opening word 4",
    "no_own_letter_added": "a rebuilt table word must gain at least one letter from the "
                           "player's shelf",
    "leftover_letters": "variant II: no letters may stay on the table as no word",
    "nothing_laid": "the move lays no letter from the player's shelf",
    "repeated_arrangement": "an arrangement of the table used earlier in the game may not "
                            "be repeated",
    "wrong_word": "a word of the move is not a correct word",
    # which reading of a Remik move's tiles the ruling took
    "own_assumed": "which letters of each laid word came from the shelf was not said: the "
                   "ruling takes the reading with the fewest rule faults, then the fewest "
                   "letters sent back to the shelf, then the fewest letters from the shelf "
                   "(a tile that could have come from the table did)",
    "own_said": "the letters each laid word took from the shelf are as the referee said",
    # the outcome of a Remik move
    "move_stands": "the move stands: it scores the letters of the newly formed words, less "
                   "2 points for each letter sent back to the shelf",
    "move_wrong_word": "a word of the move is wrong: the table is restored, the player draws "
                       "one tile and loses 3 points",
    "move_taken_back": "the move breaks the rule book: the table is restored as it lay before "
                       "the move and the player draws one tile from the bank (the rule book "
                       "sets no penalty points for this)",
}


def describe(code: str) -> str:
    return REASONS.get(code, code)
