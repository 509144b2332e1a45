"""Polish Scrabble (osps) and Remik słowny (remik): one vocabulary, two releases.

Candidates are every form of Debian ``wpolish`` (sjp.pl, primary: it lists every inflected
form) and of ``hunspell-pl`` expanded by :mod:`sources.hunspell` (second path). Each form
is analysed by Morfeusz 2 (SGJP), which supplies lemma, tags, name class and usage labels
and marks abbreviations. The rule book (shared/seeds/002) excludes capitalised words,
abbreviations, prefixes/suffixes and words needing a hyphen or apostrophe; the tiles add
"only Polish letters". Remik (seed 004) plays the same vocabulary with other length limits,
which the checker applies from each profile.

Policy for disagreements, recorded in the manifest:

* a form listed by wpolish is admitted unless a rule rejects it, even if Morfeusz does not
  know it (sjp.pl is far larger than SGJP for rare words);
* a form that only the 2017 hunspell-pl expansion produces is admitted only when Morfeusz
  also knows it; otherwise it is rejected as ``unattested`` (such forms are mostly words
  sjp.pl has since removed, or affix-expansion artefacts);
* of every lemma with an admitted form, Morfeusz 2 generates only the paradigm slots the
  lists leave out by policy and OSPS carries (:data:`~.evidence.GENERATED_SLOTS`: the neuter
  past ``pachnęłoś``, the conditional ``zataiłobyś``, negated gerunds ``niepodkuć``; source
  ``morfeusz2-generated``), judged by the same rules. The other slots were almost never in
  the official list (docs/games/osps.md), so they are not generated;
* a form only wpolish lists and Morfeusz does not know is admitted on that listing unless it
  negates (``nie-``) a base with the same single listing (policy ``supported``, reason
  ``unsupported_listing``: ``nieolibanowy``);
* a word of 2 or 3 letters needs a Morfeusz reading the rules accept or an entry with a
  reason in the reviewed list ``pl_short_words.txt``: the lists carry many short
  abbreviations and symbols without their full stop (``zz``, ``yh``, ``agf``). A generated
  short form also needs a list (SGJP's short archaic forms ``ośm``, ``żże``, ``owę`` are
  not tournament words; a referee hears short words most often);
* a spelling is an abbreviation only when every reading of it is one: ``al`` abbreviates
  "aleja" but is also the genitive plural of ``ala``, so the short-word list saves it;
* the neuter first/second person past and conditional (``-łoś``, ``-łom``, ``-łobyś``,
  ``-łobym``) of a listed verb SGJP lacks is completed from the lists' own ``-ło``,
  ``-łoby`` and ``-łaś`` forms (source ``paradigm-completed``);
* every admitted form carries an evidence grade (:data:`GRADES`).

Modules: :mod:`.evidence` (a candidate, its readings and grade; the parallel Morfeusz
workers), :mod:`.rules` (the rule book), :mod:`.builder` (candidates to records).
"""

from lexicon.build.games.osps.book import LISTING_ONLY_POLICIES, LISTING_ONLY_POLICY, make_rules
from lexicon.build.games.osps.builder import (
    ABBREVIATIONS,
    PREFIXES,
    SHORT_WORDS,
    PolishBuilder,
    Progress,
    builder,
)
from lexicon.build.games.osps.evidence import (
    COMPLETED,
    GENERATED,
    GRADES,
    HUNSPELL,
    SOURCE_BITS,
    WPOLISH,
    Candidate,
    accepted_reading,
    category,
    grade,
)

__all__ = [
    "ABBREVIATIONS", "COMPLETED", "GENERATED", "GRADES", "HUNSPELL", "LISTING_ONLY_POLICIES",
    "LISTING_ONLY_POLICY", "PREFIXES", "SHORT_WORDS", "SOURCE_BITS", "WPOLISH", "Candidate",
    "PolishBuilder", "Progress", "accepted_reading", "builder", "category", "grade",
    "make_rules",
]
