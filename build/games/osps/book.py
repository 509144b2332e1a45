"""The Polish rule book (seed 002 and, for Remik, seed 004): named rules over a
:class:`~build.games.osps.evidence.Candidate`, each rejection with a reason code and a
message, plus the named admission policy for forms only a word list attests."""

from __future__ import annotations

from collections.abc import Callable

from lexicon.build.games.osps.evidence import (
    COMPLETED,
    GRADES,
    HUNSPELL,
    NEGATION,
    SHORT_LENGTHS,
    SOURCE_BITS,
    WPOLISH,
    Candidate,
    accepted_reading,
    category,
    evidence_text,
    grade,
    source_names,
)
from lexicon.build.rulebook import Admit, Evidence, Reject, RuleBook
from lexicon.sources import morfeusz

from lexicon.game.profile import load as load_profile

LISTING_ONLY_POLICIES = {
    "wpolish": "a form without a Morfeusz reading is admitted when wpolish lists it",
    "two_lists": "a form without a Morfeusz reading is admitted only when both packages (or "
                 "lists) have it",
    "supported": "a form without a Morfeusz reading that wpolish alone lists is admitted unless "
                 "it is the nie- negation of a form that has that same single listing and "
                 "nothing more (a derivative of an unsupported word: nieolibanowy)",
}
LISTING_ONLY_POLICY = "supported"
"""The named admission policy for listing-only forms. Requiring further evidence of every
``one_list`` form would cost the official list more of its words than the reviewers allow
(the figures are in docs/games/osps.md), so the cut is aimed at the weakest class: a
negation whose base has no support either. The ``two_lists`` forms stay; the manifest
counts both grades by the evidence of their base (``*_negation_of_*``). The hand-labelled
sample behind the choice: tests/data/polish/labelled_listing_only.tsv."""


def polish_letters() -> frozenset[str]:
    return frozenset(t.canonical for t in load_profile("osps").tiles)


# -- vetoes: rejected whatever else is known ------------------------------------------------

def hyphen(c: Candidate) -> str | None:
    if "-" not in c.form and "'" not in c.form and "’" not in c.form:
        return None   # the common case, asked of every candidate
    odd = [ch for ch in c.form if ch in "-'’"]
    if odd:
        return f"needs {'a hyphen' if '-' in odd else 'an apostrophe'}"
    return None


def capital(c: Candidate) -> str | None:
    if c.form == c.form.lower():
        return None
    names = sorted({a.name for a in c.analyses if a.name})
    detail = f" (Morfeusz: {', '.join(names)})" if names else ""
    return f"written with a capital letter{detail}"


def foreign_letters(letters: frozenset[str]) -> Callable[[Candidate], str | None]:
    """The veto of a letter no Polish tile stands for."""
    def foreign(c: Candidate) -> str | None:
        if letters.issuperset(c.form):
            return None
        odd = sorted({ch for ch in c.form if ch not in letters})
        if odd:
            return f"contains {', '.join(repr(ch) for ch in odd)}, not a letter of the Polish tiles"
        return None
    return foreign


def listed(entries: dict[str, str], what: str) -> Callable[[Candidate], str | None]:
    """A rule backed by a reviewed list: rejects an entry, quoting the list's reason."""
    def test(c: Candidate) -> str | None:
        why = entries.get(c.form)
        return f"{what} (reviewed list: {why})" if why is not None else None
    return test


def abbreviation_list(abbreviations: dict[str, str]) -> Callable[[Candidate], str | None]:
    """The reviewed list names abbreviations; a reviewed short-word reading saves one."""
    def listed_abbreviation(c: Candidate) -> str | None:
        why = abbreviations.get(c.form)
        if why is None or c.short_reading is not None:
            return None
        return f"abbreviation (reviewed list: {why})"
    return listed_abbreviation


def brev(c: Candidate) -> str | None:
    """Every reading must be an abbreviation: ``ha`` (hektar) is also an interjection."""
    if morfeusz.is_abbreviation(c.analyses) and c.short_reading is None:
        tags = sorted({a.tags for a in c.analyses})
        of = sorted({a.lemma for a in c.analyses if a.lemma != c.form})
        full = f" of {', '.join(of)}" if of else ""
        return f"abbreviation{full} (Morfeusz: {', '.join(tags)})"
    return None


def bound(c: Candidate) -> str | None:
    if morfeusz.is_prefix_or_suffix(c.analyses):
        tags = sorted({a.tags for a in c.analyses})
        return f"not an independent word (Morfeusz: {', '.join(tags)})"
    return None


def vetoes(letters: frozenset[str], abbreviations: dict[str, str],
           prefixes: dict[str, str]) -> list[Reject[Candidate]]:
    return [
        Reject("hyphen_or_apostrophe", "words needing a hyphen or apostrophe", hyphen),
        Reject("capitalised", "words written with a capital letter", capital),
        Reject("foreign_letters", "letters outside the Polish tile set (q, v, x, digits)",
               foreign_letters(letters)),
        Reject("abbreviation", "lowercase abbreviations in the reviewed list, unless the "
               "reviewed short-word list gives another reading", abbreviation_list(abbreviations)),
        Reject("abbreviation", "forms every reading of which is an abbreviation (Morfeusz brev, "
               "no reviewed short-word reading)", brev),
        Reject("prefix_or_suffix", "prefixes in the reviewed list",
               listed(prefixes, "a prefix, not a word")),
        Reject("prefix_or_suffix", "forms Morfeusz analyses only as bound morphemes", bound),
    ]


# -- admissions: the evidence grades -----------------------------------------------------------

def short_ok(c: Candidate) -> bool:
    """A listing or generation admits a 2-3 letter word only with a reviewed entry or an
    accepted Morfeusz reading (the latter is the morfeusz admission itself)."""
    return len(c.form) not in SHORT_LENGTHS or c.short_reading is not None


def unsupported_negation(c: Candidate) -> bool:
    """A one-list form negating a base that is itself one-list only: nothing but one
    listing stands behind either (``nieolibanowy`` beside ``olibanowy``)."""
    return grade(c) == "one_list" and c.negated_base == "one_list"


def graded(level: str, applies: Callable[[Candidate], bool]) -> Admit[Candidate]:
    """Admission by one evidence grade; its Evidence kind is the grade."""
    def test(c: Candidate) -> Evidence | None:
        if grade(c) != level or not applies(c):
            return None
        srcs = source_names(c.sources)
        return Evidence(level, evidence_text(level, srcs, c.analyses),
                        category(c.analyses), tuple(srcs))
    return Admit(level, GRADES[level], test)


def short_word_entry(c: Candidate) -> Evidence | None:
    if c.short_reading is None:
        return None
    return Evidence("list:pl_short_words.txt",
                    f"reviewed short-word list: {c.short_reading}",
                    sources=("pl_short_words.txt",))


def admissions(listing_only: str) -> list[Admit[Candidate]]:
    """The grades, strongest first; a one-list form as ``listing_only`` says."""
    wpolish_listed = SOURCE_BITS[WPOLISH]

    def one_list_admitted(c: Candidate) -> bool:
        if listing_only == "two_lists" or not short_ok(c) or not c.sources & wpolish_listed:
            return False
        return listing_only == "wpolish" or not unsupported_negation(c)

    return [
        graded("completed", lambda c: bool(c.sources & SOURCE_BITS[COMPLETED])),
        graded("generated", short_ok),
        graded("morfeusz", lambda c: True),
        graded("two_lists", short_ok),
        graded("one_list_two_packages", short_ok),
        graded("one_list", one_list_admitted),
        Admit("list:pl_short_words.txt", "a reviewed short-word entry (supports a listing)",
              short_word_entry, supporting=True),
    ]


# -- explanations: why a form nothing admitted is no word --------------------------------------

def short_unattested(c: Candidate) -> str | None:
    n = len(c.form)
    if n not in SHORT_LENGTHS or c.short_reading is not None:
        return None
    if not c.listed:
        return (f"a generated {n}-letter form (archaic or rare: ośm, żże) needs a word "
                "list or the reviewed short-word list; it has neither")
    if any(accepted_reading(a) for a in c.analyses):
        return None
    return (f"a {n}-letter word needs a Morfeusz reading or an entry in the reviewed "
            "short-word list; it has neither (the lists carry many short symbols)")


def unattested(c: Candidate) -> str | None:
    if c.sources & ~SOURCE_BITS[HUNSPELL] or not morfeusz.is_unknown(c.analyses):
        return None
    return "only in the 2017 hunspell-pl expansion and unknown to Morfeusz"


def no_evidence(c: Candidate) -> str:
    return "no word list, Morfeusz reading or generated paradigm attests it"


def explanations(listing_only: str) -> list[Reject[Candidate]]:
    """The explanations, most informative first; the listing-only ones as ``listing_only``
    says."""
    def one_list_only(c: Candidate) -> str | None:
        if listing_only != "two_lists" or grade(c) != "one_list":
            return None
        return "listed by one word list only and unknown to Morfeusz"

    def unsupported_listing(c: Candidate) -> str | None:
        if listing_only != "supported" or not unsupported_negation(c):
            return None
        return (f"listed by wpolish only and unknown to Morfeusz; the negation of "
                f"{c.form[len(NEGATION):]}, which has that same single listing and no "
                "Morfeusz reading either")

    policy = f"listing-only policy {listing_only!r}: {LISTING_ONLY_POLICIES[listing_only]}"
    return [
        Reject("unattested", "2-3 letter words with neither a Morfeusz reading the rules accept "
               "nor a reviewed short-word entry; generated ones need a list", short_unattested),
        Reject("unattested", "hunspell-only forms Morfeusz does not know", unattested),
        Reject("unattested", policy, one_list_only),
        Reject("unsupported_listing", policy, unsupported_listing),
    ]


def make_rules(abbreviations: dict[str, str], prefixes: dict[str, str],
               listing_only: str = LISTING_ONLY_POLICY) -> RuleBook[Candidate]:
    """The Polish rule book: the vetoes, the evidence grades and the explanations, with the
    reviewed lists and the listing-only policy a build gives it."""
    if listing_only not in LISTING_ONLY_POLICIES:
        raise ValueError(f"unknown listing-only policy {listing_only!r}")
    return RuleBook("polish", vetoes=vetoes(polish_letters(), abbreviations, prefixes),
                    admissions=admissions(listing_only),
                    explanations=explanations(listing_only),
                    otherwise=Reject("unattested", "forms no evidence attests", no_evidence))
