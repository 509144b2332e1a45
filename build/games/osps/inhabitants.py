"""Names of inhabitants, which the 2026 Polish spelling capitalises: a named profile choice.

Why this is a choice and not a rule: the spelling reform in force from 2026 writes the names
of inhabitants of towns, villages and districts with a capital letter (``moskwianin`` ->
``Moskwianin``, ``chojniczanka`` -> ``Chojniczanka``), and sjp.pl (``wpolish`` 20260301-1,
``hunspell-pl`` 26.x) lists them capitalised only. The rule book (seed 002) excludes words
that begin with a capital letter, so by its text these forms leave the game; a federation
may decide to keep them. The profile says which (``[options] inhabitants``):

* ``follow_sources`` (default): the rule book's text. Such a form is rejected, but under its
  own reason ``inhabitant_capitalised`` instead of ``capitalised``, so that the manifest,
  ``lexicon check`` and ``lexicon diff`` show the class and its size;
* ``keep_lowercase``: the lowercase spelling is admitted as well (evidence kind
  ``inhabitant_lowercase``, source ``inhabitant-lowercased``); its lemma's SGJP paradigm is
  then generated like any admitted form's.

How an inhabitant name is recognised (how well it matches the spellings that moved between
two editions of the list is in docs/games/osps.md, "Names of inhabitants"): a listed form
written with one initial capital, whose lowercase spelling no word list has, and which
Morfeusz 2 (SGJP 2026) reads as a form of a *lowercase* common personal noun
(``subst``/``depr``, gender ``m1`` or ``f``: SGJP still keeps ``moskwianin`` in lower case)
in -anin, -anka or -czyk; in -iak when the lists hold its personal plural capitalised
(``Poznaniacy``: a surname in -iak has -iakowie); in -ka when they hold its masculine in
-czyk capitalised (``Andorka``: ``Andorczyk``). Every such name gets the one reason,
whatever its suffix. Forms SGJP does not know (``Kątowianin``) are not flagged: guessing
them from the list's own capitalised lemma is too often wrong (names of inhabitants of
countries and regions, ``Fidżyjczyk``, are capitalised in either spelling). SGJP marks no
inhabitant class of its own, and the previous edition of the list is not a build input, so
this is the evidence a build has.
Capitalised surnames and place names fail it (their lemma is capitalised or their class is a
proper-name class); a capitalised form whose lowercase is also listed (``Polak`` beside
``polak``) is not a moved spelling.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Container

from lexicon.build.games.osps.evidence import INHABITANT, SOURCE_BITS, Candidate
from lexicon.build.rulebook import Admit, Evidence, Reject, RuleBook
from lexicon.sources import morfeusz

POLICIES = {
    "follow_sources": "names of inhabitants the 2026 spelling capitalises are capitalised "
                      "words, out by the rule book's text (reason inhabitant_capitalised)",
    "keep_lowercase": "the lowercase spelling of a name of inhabitants the 2026 spelling "
                      "capitalises is admitted (a federation keeps the old lowercase forms)",
}
DEFAULT = "follow_sources"
OPTION = "inhabitants"            # the key in a Polish profile's [options]
PERSONAL_GENDERS = frozenset({"m1", "f"})
# Lemma endings of Polish names of inhabitants (warszawianin, krakowianka, amsterdamczyk)
# that are evidence enough alone. Lowercase personal nouns with other endings that meet the
# other tests are mostly unrelated common nouns a surname or place name happens to inflect
# like (Wacho: wacha, Płanetą: płaneta), not moved spellings; the two endings below are
# names of inhabitants only with the list's word for it.
LEMMA_ENDINGS = ("anin", "anka", "czyk")
# -iak (warszawiak, poznaniak): a name of inhabitants when the lists hold its personal
# plural in -iacy, capitalised (Poznaniacy); a surname in -iak read as a common noun
# (Gwardiak: gwardiak) has -iakowie instead, and the lists hold no Gwardiacy.
IAK = "iak"
# -ka (andorka, barcelonka, ateńka): the feminine of a name of inhabitants in -czyk, when the
# lists hold that masculine capitalised (Andorczyk, Barcelończyk); other -ka nouns a name
# inflects like (beemka, chanuka) have none.
KA = "ka"
EVIDENCE_KIND = "inhabitant_lowercase"


def policy_of(options: dict[str, object]) -> str:
    """The profile's choice; an unknown value is a profile error, never a silent default."""
    value = options.get(OPTION, DEFAULT)
    if value not in POLICIES:
        raise ValueError(f"[options] {OPTION} = {value!r}: expected one of "
                         f"{', '.join(repr(p) for p in POLICIES)}")
    return str(value)


def _personal_common_noun(a: morfeusz.Interpretation) -> bool:
    if a.is_agglutinate or a.pos not in ("subst", "depr") or not a.lemma.islower():
        return False
    if any(n not in morfeusz.COMMON_NAME_CLASSES for n in a.names):
        return False
    return bool(set(a.tags.rsplit(":", 1)[-1].split(".")) & PERSONAL_GENDERS)


def inhabitant_lemma(lemma: str, listed: Container[str]) -> bool:
    """Is the lowercase ``lemma`` a name of inhabitants, by its ending and, for the endings
    other nouns share, by what the lists hold of its paradigm or its masculine (see
    :data:`LEMMA_ENDINGS`, :data:`IAK`, :data:`KA`)?"""
    if lemma.endswith(LEMMA_ENDINGS):
        return True
    if lemma.endswith(IAK):
        return lemma[:-1].capitalize() + "cy" in listed
    if lemma.endswith(KA):
        stem = lemma[:-2].capitalize()
        soft = stem[:-1] + "ń" if stem.endswith("n") else None
        return stem + "czyk" in listed or (soft is not None and soft + "czyk" in listed)
    return False


def readings(form: str, analyses: list[morfeusz.Interpretation],
             listed: Container[str]) -> list[morfeusz.Interpretation]:
    """The lowercase readings that make ``form`` a capitalised name of inhabitants (empty:
    it is not one); ``listed`` holds every listed spelling."""
    if len(form) < 2 or not form[0].isupper() or form[1:] != form[1:].lower():
        return []
    if not form[1:].isalpha() or form.lower() in listed:
        return []
    return [a for a in analyses
            if _personal_common_noun(a) and inhabitant_lemma(a.lemma, listed)]


class Inhabitants:
    """The class of one build: its veto, its admission, its lowercase candidates, its counts.

    ``listed`` is set by the builder once the word lists are read (:meth:`PolishBuilder.
    records`); until then nothing is an inhabitant name.
    """

    def __init__(self, policy: str = DEFAULT) -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown inhabitants policy {policy!r}")
        self.policy = policy
        self.listed: Container[str] = frozenset()
        self.capitalised = 0          # capitalised inhabitant spellings seen
        self.kept = 0                 # lowercase spellings added (keep_lowercase)

    def _lemmas(self, c: Candidate) -> list[str]:
        found = readings(c.form, c.analyses, self.listed)
        return sorted({a.lemma for a in found}) if found else []

    def capitalised_name(self, c: Candidate) -> str | None:
        """The veto: a capitalised name of inhabitants, under its own reason code."""
        lemmas = self._lemmas(c)
        if not lemmas:
            return None
        self.capitalised += 1
        kept = (f"; its lowercase {c.form.lower()!r} is kept (inhabitants = keep_lowercase)"
                if self.policy == "keep_lowercase" else "")
        return (f"written with a capital letter: a name of inhabitants, capitalised by the "
                f"2026 spelling (Morfeusz: common noun {', '.join(lemmas)}){kept}")

    def lowercase(self, c: Candidate) -> Candidate | None:
        """Under ``keep_lowercase``, the lowercase candidate of a capitalised inhabitant name
        (with its lowercase readings); else None."""
        if self.policy != "keep_lowercase":
            return None
        found = readings(c.form, c.analyses, self.listed)
        if not found:
            return None
        self.kept += 1
        return Candidate(c.form.lower(), SOURCE_BITS[INHABITANT], found)

    def admit(self, c: Candidate) -> Evidence | None:
        if not c.sources & SOURCE_BITS[INHABITANT]:
            return None
        lemmas = sorted({a.lemma for a in c.analyses})
        return Evidence(EVIDENCE_KIND,
                        f"a name of inhabitants: the word lists write it {c.form.capitalize()} "
                        f"(2026 spelling), Morfeusz knows {', '.join(lemmas)} in lower case; "
                        "kept lowercase by the profile (inhabitants = keep_lowercase)",
                        "noun", (INHABITANT, "morfeusz2"))

    def apply(self, book: RuleBook[Candidate]) -> RuleBook[Candidate]:
        """``book`` with this class's veto before the ``capitalised`` one and, under
        ``keep_lowercase``, its admission first."""
        veto = Reject("inhabitant_capitalised", "names of inhabitants that the 2026 spelling "
                      "capitalises (a capital, a lowercase common personal noun to Morfeusz, "
                      "no lowercase listing)", self.capitalised_name)
        vetoes = list(book.vetoes)
        at = next((i for i, r in enumerate(vetoes) if r.code == "capitalised"), len(vetoes))
        vetoes.insert(at, veto)
        admissions = list(book.admissions)
        if self.policy == "keep_lowercase":
            admissions.insert(0, Admit(EVIDENCE_KIND, POLICIES["keep_lowercase"], self.admit))
        return dataclasses.replace(book, vetoes=vetoes, admissions=admissions)

    def stats(self) -> dict[str, object]:
        return {"name": self.policy, "text": POLICIES[self.policy],
                "capitalised_forms": self.capitalised, "lowercase_admitted": self.kept}
