"""Judging one Serbo-Croatian analysis against the Kvizovka rule book.

An *analysis* is a lemma plus apertium tags (``kuća`` + ``n f sg dat``). The rule book admits
common nouns in the nominative, verbs in the infinitive (not reflexive-only ones), adjectives
in the positive degree in the nominative (three genders, definite and indefinite), pronouns and
numbers in the nominative; adverbs only when the profile switches them on. Every other analysis
is rejected by exactly one rule, and the rules are ordered by how much the explanation tells a
player: "comparative of lep" says more than "not admitted".

Why per analysis: a written form is usually ambiguous (*kući* is the noun *kuća* in the
dative or locative, the adverb *kući* and an imperative of *kućiti*). The builder admits a form
when ANY analysis passes; otherwise it explains it with the most informative analysis (the one
rejected by the earliest rule), merging analyses of the same lemma into one message
("noun kuća in dative/locative singular").

Hunspell forms get analyses of the same shape, inferred from the paradigm slot (see
:mod:`.paradigms`), so both sources are judged by the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from lexicon.build.rulebook import Reject, RuleBook, Verdict

Tags = tuple[str, ...]

NOMINAL = frozenset({"n", "adj", "prn", "num"})
VERBAL = frozenset({"vblex", "vbmod", "vbser", "vbhaver"})
CASES = {"nom": "nominative", "gen": "genitive", "dat": "dative", "acc": "accusative",
         "voc": "vocative", "loc": "locative", "ins": "instrumental"}
NUMBERS = {"sg": "singular", "pl": "plural", "sp": "", "du": "dual"}
POS_NAMES = {"n": "noun", "adj": "adjective", "prn": "pronoun", "num": "number"}
VERB_FORMS = {  # first matching tag names the form
    "pres": "present tense", "aor": "aorist", "pii": "imperfect", "imp": "imperative",
    "lp": "active past participle", "pp": "passive participle",
    "pprs": "verbal adverb", "adv": "verbal adverb", "futI": "future tense",
    "futII": "future perfect", "fin": "conjugated form",
    "trunc": "truncated infinitive (written only before the future auxiliary, 'čitat ću')",
}
FUNCTION_WORDS = {"pr": "preposition", "cnjcoo": "conjunction", "cnjsub": "conjunction",
                  "cnjadv": "conjunction", "part": "particle"}
PROPER_KINDS = {"top": "place name", "ant": "personal name", "cog": "surname",
                "org": "organisation", "al": "name"}
DEGREES = {"comp": "comparative", "sup": "superlative"}
#: apertium's <ssup>: the pre- form of an adjective, "very X" (prelep: very beautiful); it is
#: neither a comparative nor a superlative, so it has a reason of its own
ELATIVE = "ssup"
#: Tags that tell lexical class, not inflection; paradigm slots learned from apertium drop
#: them, because hunspell cannot tell (aspect, transitivity, reflexivity).
LEXICAL_TAGS = frozenset({"perf", "impf", "tv", "iv", "ref"})
#: What a possessive adjective apertium derives from a noun belongs to: the noun's class
#: (``bratov<n><ma>+pos<adj>...``), as :func:`.apertium.fold_join` marks it. A possessive
#: names what belongs to a person or an animal (seed 000 admits adjectives; of a thing or
#: a name no possessive is a word of the language), so the class decides; hunspell cannot
#: tell it, so paradigm slots drop it like the lexical tags.
POSSESSOR = {"ma": "of_ma", "mi": "of_mi", "f": "of_f", "nt": "of_nt", "np": "of_np"}
LEXICAL_TAGS = LEXICAL_TAGS | frozenset(POSSESSOR.values())
ROMAN = re.compile(r"^[ivxlcdm]+$")
#: Pseudo part of speech of a hunspell form whose paradigm slot could not be learned.
UNCLASSIFIED = "?"


@dataclass(frozen=True, slots=True)
class HbsAnalysis:
    """One analysis of one written form, with where it came from."""

    form: str          # lower-case Latin surface
    lemma: str
    tags: Tags
    source: str        # source id: "apertium-hbs-slv", "hunspell-sr", "hunspell-hr"
    note: str = ""     # "ekavian", "ijekavian", or how a hunspell analysis was inferred
    evidence: str = ""  # the evidence code when not the source's usual one (own_lemma, ...)

    @property
    def pos(self) -> str:
        return self.tags[0] if self.tags else ""


def elative_message(base: str) -> str:
    """What a player reads about a pre- elative of ``base``: what the word is, and why the
    rule book's "samo u pozitivu" (seed 000) leaves it out."""
    return (f"elative of {base}: pre- + {base}, 'very {base}'; the rule book admits "
            "adjectives in the positive only (samo u pozitivu)")


def normalise(tags: Iterable[str]) -> Tags:
    """Tags without lexical-class marks: what a paradigm slot of any lemma shares."""
    return tuple(t for t in tags if t not in LEXICAL_TAGS)


def _case_number(r: HbsAnalysis) -> tuple[str | None, str]:
    case = next((t for t in r.tags if t in CASES), None)
    number = next((NUMBERS[t] for t in r.tags if t in NUMBERS), "")
    return case, number


def _verb_form(r: HbsAnalysis) -> str:
    return next((VERB_FORMS[t] for t in r.tags if t in VERB_FORMS), "verb form")


class AnalysisJudge:
    """The analysis-level rule book plus a cache, since 9M analyses share ~2,400 tag sets.

    ``reflexive_only(lemma)`` says whether a verb exists only with *se*; ``admit_adverbs``
    comes from the profile's ``[options]``.
    """

    def __init__(self, *, admit_adverbs: bool, reflexive_only: Callable[[str], bool]) -> None:
        self.admit_adverbs = admit_adverbs
        self.reflexive_only = reflexive_only
        self.book: RuleBook[HbsAnalysis] = RuleBook("kvizovka-analysis", self._rules())
        self.rules = self.book.rules
        self.codes = [rule.code for rule in self.rules]
        self._rank_cache: dict[Tags, int] = {}

    # -- the rules, most informative first -----------------------------------------------
    def _rules(self) -> list[Reject[HbsAnalysis]]:
        """What an analysis is (degree, case, verb form) before what class of word it is:
        "comparative of lep" tells a player more than "not admitted"."""
        return [*self._form_rules(), *self._class_rules()]

    def _form_rules(self) -> list[Reject[HbsAnalysis]]:
        """The rules on the inflected form: degree, case, verb form, reflexivity."""
        def degree(r: HbsAnalysis) -> str | None:
            if r.pos not in ("adj", "adv"):
                return None
            d = next((DEGREES[t] for t in r.tags if t in DEGREES), None)
            return f"{d} of {r.lemma}; only the positive degree is admitted" if d else None

        def elative(r: HbsAnalysis) -> str | None:
            if r.pos not in ("adj", "adv") or ELATIVE not in r.tags:
                return None
            return elative_message(r.lemma)

        def case(r: HbsAnalysis) -> str | None:
            if r.pos not in NOMINAL:
                return None
            c, number = _case_number(r)
            if c is None or c == "nom":
                return None
            where = f"{CASES[c]} {number}".strip()
            return f"{POS_NAMES[r.pos]} {r.lemma} in {where}; only nominative is admitted"

        def verb_form(r: HbsAnalysis) -> str | None:
            if r.pos not in VERBAL or "inf" in r.tags:
                return None
            return f"{_verb_form(r)} of {r.lemma}; only the infinitive is admitted"

        def reflexive(r: HbsAnalysis) -> str | None:
            if r.pos in VERBAL and "inf" in r.tags and self.reflexive_only(r.lemma):
                return f"{r.lemma} exists only as a reflexive verb ({r.lemma} se)"
            return None

        return [
            Reject("comparative", "comparatives and superlatives", degree),
            Reject("elative", "'pre-' elatives (pre- + adjective, \"very X\")", elative),
            Reject("inflected_form", "nouns, adjectives, pronouns, numbers outside nominative",
                 case),
            Reject("verb_form", "verb forms other than the infinitive", verb_form),
            Reject("reflexive_verb", "verbs that exist only with 'se'", reflexive),
        ]

    def _class_rules(self) -> list[Reject[HbsAnalysis]]:
        """The rules on the class of word: names, abbreviations, function words, the
        parts of speech the rule book does not list."""
        def proper(r: HbsAnalysis) -> str | None:
            if r.pos != "np":
                return None
            kind = next((PROPER_KINDS[t] for t in r.tags if t in PROPER_KINDS), "")
            return f"proper noun ({kind})" if kind else "proper noun"

        def abbreviation(r: HbsAnalysis) -> str | None:
            if r.pos == "abbr" or "acr" in r.tags:
                return f"abbreviation ({r.lemma})"
            if r.pos == "num" and ROMAN.match(r.lemma):
                return f"Roman numeral {r.lemma.upper()}"
            return None

        def interjection(r: HbsAnalysis) -> str | None:
            return f"interjection ({r.lemma})" if r.pos == "ij" else None

        def function_word(r: HbsAnalysis) -> str | None:
            name = FUNCTION_WORDS.get(r.pos)
            return f"{name}: a non-independent word (nesamostalna reč)" if name else None

        def adverb(r: HbsAnalysis) -> str | None:
            if r.pos == "adv" and not self.admit_adverbs:
                return ("adverb: adverbs are not in the rule book's list "
                        "(profile option admit_adverbs is off)")
            return None

        def unclassified(r: HbsAnalysis) -> str | None:
            if r.pos != UNCLASSIFIED:
                return None
            return (f"{r.source} has it as a form of {r.lemma}, but its paradigm slot "
                    "could not be classified (see the manifest's policy)")

        def other(r: HbsAnalysis) -> str | None:
            if r.pos in NOMINAL or r.pos in VERBAL or (r.pos == "adv" and self.admit_adverbs):
                return None
            return f"part of speech <{r.pos}> is not admitted" if r.pos else "no part of speech"

        return [
            Reject("proper_noun", "proper nouns (apertium <np>, capitalised hunspell stems)",
                 proper),
            Reject("abbreviation", "abbreviations, acronyms, Roman numerals", abbreviation),
            Reject("interjection", "interjections", interjection),
            Reject("function_word", "prepositions, conjunctions, particles", function_word),
            Reject("part_of_speech", "adverbs (unless admit_adverbs)", adverb),
            Reject("unclassified", "hunspell forms whose paradigm slot is not learned",
                 unclassified),
            Reject("part_of_speech", "any other part of speech", other),
        ]

    # -- fast path: rank only ------------------------------------------------------------
    def rank(self, r: HbsAnalysis) -> int:
        """0 if admissible, else 1 + index of the first rule that rejects it."""
        return self.rank_tags(r.form, r.lemma, r.tags, r)

    def rank_tags(self, form: str, lemma: str, tags: Tags, r: HbsAnalysis | None = None) -> int:
        """:meth:`rank` without building a :class:`HbsAnalysis` unless the tags are new."""
        pos = tags[0] if tags else ""
        if (pos in VERBAL and "inf" in tags) or pos == "num":
            # depends on the lemma (reflexive-only verbs, Roman numerals): not cached
            return self._rank(r or HbsAnalysis(form, lemma, tags, ""))
        got = self._rank_cache.get(tags)
        if got is None:
            got = self._rank_cache[tags] = self._rank(r or HbsAnalysis(form, lemma, tags, ""))
        return got

    def _rank(self, r: HbsAnalysis) -> int:
        for i, rule in enumerate(self.rules):
            if rule.test(r) is not None:
                return i + 1
        return 0

    # -- full verdicts -------------------------------------------------------------------
    def judge(self, r: HbsAnalysis) -> Verdict:
        return self.book.judge(r)

    def explain(self, readings: Sequence[HbsAnalysis]) -> tuple[str, str, list[HbsAnalysis]]:
        """Code, message and the readings behind it, for a form none of whose analyses pass.

        The readings of the earliest rejecting rule are grouped by lemma; the lemma closest
        to the written form wins (``lepši`` -> *lep*, not its ijekavian twin *lijep*), and
        its readings' cases or verb forms are merged into one message.
        """
        ranked = [(self.rank(r), r) for r in readings]
        best = min(rank for rank, _ in ranked)
        top = [r for rank, r in ranked if rank == best]
        form = top[0].form
        lemma = min({r.lemma for r in top}, key=lambda lem: (-common_prefix_len(lem.lower(), form),
                                                             len(lem), lem))
        group = [r for r in top if r.lemma == lemma]
        verdict = self.judge(group[0])
        code = verdict.code or self.codes[best - 1]
        return code, _joint_message(code, group, verdict.message or ""), group


def common_prefix_len(a: str, b: str) -> int:
    """How many leading characters two spellings share (picks the lemma nearest a form)."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _joint_message(code: str, group: Sequence[HbsAnalysis], first: str) -> str:
    """One message for several readings of one lemma (cases or verb forms joined by '/')."""
    r0 = group[0]
    if code == "inflected_form":
        by_number: dict[str, list[str]] = {}
        for r in group:
            c, number = _case_number(r)
            if c is not None:
                cases = by_number.setdefault(number, [])
                if CASES[c] not in cases:
                    cases.append(CASES[c])
        where = ", ".join(f"{'/'.join(cases)} {number}".strip()
                          for number, cases in by_number.items())
        return f"{POS_NAMES[r0.pos]} {r0.lemma} in {where}; only nominative is admitted"
    if code == "verb_form":
        names = list(dict.fromkeys(_verb_form(r) for r in group))
        return f"{'/'.join(names)} of {r0.lemma}; only the infinitive is admitted"
    return first


def _no_verb(_lemma: str) -> bool:
    return False


def walk_rank(*, admit_adverbs: bool) -> Callable[[str, str, Tags], int]:
    """How apertium's walk ranks an analysis (``rank(form, lemma, tags)``, 0: admissible),
    to keep only the best analyses of each (form, lemma) (:mod:`.apertium`): the analysis
    rules' rank, with infinitives ranked as if no verb were reflexive-only. Whether one is
    depends on all of its lemma's infinitives, which the walk itself collects: the judge
    that knows them (:class:`AnalysisJudge`) is made once the evidence is complete and
    judges what the walk kept."""
    return AnalysisJudge(admit_adverbs=admit_adverbs, reflexive_only=_no_verb).rank_tags
