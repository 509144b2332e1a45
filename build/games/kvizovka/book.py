"""The Kvizovka form rules: vetoes, admission by a passing analysis, explanations (seed 000).

Rule book (``shared/seeds/000_7c5a43b80d0fed7b.txt``, "pravila sastavljanja reči"): common
nouns in the nominative singular and plural; verbs in the infinitive except reflexive ones;
adjectives in three genders, definite and indefinite, positive degree only; pronouns and
numbers in the nominative; no proper nouns, phrases, interjections, abbreviations, prefixes,
suffixes or other non-independent words. Adverbs only with the profile option
``admit_adverbs``. Length (4 tiles, 3 at the edge) is a play rule, applied by the checker.

Each *analysis* of a form is judged by the analysis rules (:mod:`.analysis`); a form is
admitted when ANY analysis passes and has a dictionary behind it, otherwise it is explained
by its most informative analysis. The form rules around that are here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lexicon.build.games.kvizovka.analysis import (
    ELATIVE,
    AnalysisJudge,
    HbsAnalysis,
    elative_message,
)
from lexicon.build.games.kvizovka.evidence import APERTIUM, PARTICIPLE_INFINITIVES, FormCandidate
from lexicon.build.games.kvizovka.lists import ReviewedLists
from lexicon.build.rulebook import Admit, Evidence, Reject, Rejection, RuleBook

CATEGORY = {"n": "noun", "vblex": "verb", "vbmod": "verb", "vbser": "verb", "prn": "prn",
            "num": "num", "adj": "adj", "adv": "adv"}


def phrase(c: FormCandidate) -> str | None:
    return f"a multiword expression ('{c.latin}')" if " " in c.latin else None


def hyphen(c: FormCandidate) -> str | None:
    odd = "".join(ch for ch in "-'’" if ch in c.latin)
    return f"contains {odd!r}: not a single word" if odd else None


def capital_in_every_dictionary(c: FormCandidate) -> Rejection | None:
    """Issue 8 item 5: a name every dictionary that has it writes with a capital letter is a
    proper noun, whatever one analyser says (apertium lists *srbija* as a common noun)."""
    if not c.capitalised_by:
        return None
    names = "; ".join(f"{sid}: {stem}" for sid, stem in c.capitalised_by)
    return Rejection(
        f"proper noun: every dictionary that has it writes it with a capital letter ({names})",
        tuple(Evidence("capitalised_in_dictionary", f"{sid}: {stem}", None, (sid,))
              for sid, stem in c.capitalised_by))


def verbal_adverb(c: FormCandidate) -> str | None:
    """Seed 000 admits verbs only in the infinitive and adjectives in the positive; a
    present participle in -ći (glagolski prilog sadašnji) is a verb form. One dictionary's
    adjective flags on it are no evidence of an adjective of its own (hunspell-sr flags
    *locirajući*, *sumirajući*); apertium's adjective lemmas (*budući*) or both
    dictionaries' entries are, and then this rule does not fire."""
    if c.verbal_adverb is None:
        return None
    stem, source, verb = c.verbal_adverb
    return (f"verbal adverb (glagolski prilog sadašnji) {stem} of {verb}: only {source} "
            f"lists it as an adjective; only the infinitive of a verb is admitted")


def missing_diacritics(c: FormCandidate) -> str | None:
    """A form only one dictionary has, whose spelling with diacritics two sources have, is
    a typo of that spelling (hunspell-sr's *uvrstavanje* beside *uvrštavanje*)."""
    if c.diacritic_twin is None:
        return None
    return (f"only {c.sources[0]} has it, without the diacritics of "
            f"{c.diacritic_twin}, which two sources have: a typo")


#: A soft (palatal) consonant, or c, before a final -o: Latin lj, nj and dž end in j or ž
SOFT_THEN_O = re.compile(r"[čćđžšjc]o$")


def soft_stem_neuter(c: FormCandidate) -> str | None:
    """After a soft consonant (č, ć, đ, ž, š, j, lj, nj, dž) or c the neuter of an
    adjective ends in -e, never -o (*drukčije*, *krajnje*, *loše*, *gudaće*).
    hunspell-hr's adjective flags give every stem in -i an -o neuter, so its slot admits
    the non-words *drukčijo*, *krajnjo*, *lošo*, *gudaćo* (some 400 in the 2026 build).
    Only where a dictionary's paradigm slot is all that admits the form: an apertium
    reading, or any other admissible reading, keeps it."""
    if not c.admissible or not SOFT_THEN_O.search(c.latin):
        return None
    if not all(r.source != APERTIUM and r.pos == "adj" and "nt" in r.tags
               and "sg" in r.tags and "nom" in r.tags for r in c.admissible):
        return None
    slots = ", ".join(sorted({r.source for r in c.admissible}))
    return (f"a neuter in -o after a soft consonant: the neuter of {c.admissible[0].lemma} "
            f"is {c.latin[:-1]}e; only {slots}'s paradigm slot gives -o")


#: A relational adjective's nominative: stem + -ski, -ska, -sko, -ske (-čki, -ški, -ćki
#: after the consonant changes), whether the dictionary lists the adjective (рударски) or
#: derives it from the noun (рудар + ски)
RELATIONAL = re.compile(r"[sčšćž]k[aeio]$")
#: The shapes of a passive participle (-en, -jen, -an, -nut, -et, -at; see
#: :data:`~build.games.kvizovka.evidence.PARTICIPLE_INFINITIVES`)
PARTICIPLE = re.compile("(?:" + "|".join(e for e, _ in PARTICIPLE_INFINITIVES) + ")$")


def _negated_base(c: FormCandidate, pos: str = "adj") -> str | None:
    """The lemma a form is ``ne-`` + a form of, when one dictionary's prefix flag is all
    that admits it: only that dictionary has the spelling, and every passing analysis is
    a ``pos`` slot (an adjective's, unless said) of a stem that does not itself begin with
    ne- (the analyses of a prefixed form name the unprefixed stem). None otherwise: a ne-
    word another source has (*neljudski*, *neratifikovan* where apertium or hunspell-hr
    lists it) keeps its verdict."""
    if not c.admissible or not c.latin.startswith("ne") or len(c.sources) != 1 \
            or c.sources[0] == APERTIUM:
        return None
    lemmas = {r.lemma for r in c.admissible}
    if len(lemmas) != 1 or not all(r.source != APERTIUM and not r.evidence and r.pos == pos
                                   for r in c.admissible):
        return None
    lemma = lemmas.pop()
    low = lemma.lower()
    if low.startswith("ne") or len(low) < 4 or not c.latin[2:].startswith(low[:3]):
        return None
    return lemma


def negated_relational(c: FormCandidate) -> str | None:
    """A relational adjective (-ski, -čki, -ški: *rudarski*, *geodetski*) names what
    something belongs to and is not negated: *nerudarska*, *negeodetski*, *neradiološko*
    are no words of the lexical fund. hunspell-sr's ne- prefix flag is on thousands of
    them (some 3,200 admitted forms of the 2026 build); where apertium or the other
    dictionary has the ne- word (*neljudski*), this rule does not fire."""
    base = _negated_base(c)
    if base is None or not RELATIONAL.search(c.latin):
        return None
    return (f"ne- + the relational adjective {c.latin[2:]} (of {base}): only "
            f"{c.sources[0]}'s ne- prefix makes it, and no other source has the word")


def negated_participle(c: FormCandidate) -> str | None:
    """hunspell-sr puts its ne- prefix flag on every passive participle it lists as an
    adjective, so it generates *nenaježena*, *nezamoljena*, *nebajcovane*, *neposipani*
    (some 17,000 admitted forms of the 2026 build) that no dictionary of the language has;
    the rule book admits words of the lexical fund. Where another source has the ne-
    form (*neobjavljen*, *nepoznat*), it keeps its verdict; the unprefixed participle
    is not touched."""
    base = _negated_base(c)
    if base is None or RELATIONAL.search(c.latin) or not PARTICIPLE.search(base.lower()):
        return None
    return (f"ne- + the participle {base}: only {c.sources[0]}'s ne- prefix makes it, and "
            f"no other source has the word")


def negated_relational_ni(c: FormCandidate) -> str | None:
    """hunspell-sr lists relational adjectives by their definite -ni form (*modni*,
    *rasudni*, *egzistencijalni*, flag 746) and puts its ne- prefix flag on them, making
    *nemodni*, *nerasudna*, *neegzistencijalni* (some 4,400 admitted forms of the 2026
    build, no word of the lexical fund); like the -ski adjectives of
    :func:`negated_relational`, a relational adjective is not negated. The same listing
    holds qualitative -ni adjectives (*srećni*, *tačni*), but their ne- words a player
    meets (*nesrećni*, *netačni*, *nestručni*) another source has, and then this rule
    does not fire: it takes only the ne- forms one dictionary alone makes. An ijekavian
    spelling whose ekavian twin apertium has (*nevjerovatno*: *neverovatno*) is such a
    word too, spelled as only that dictionary spells it, and stays."""
    base = _negated_base(c)
    if base is None or not base.lower().endswith("ni") or RELATIONAL.search(c.latin) \
            or PARTICIPLE.search(base.lower()) or c.ekavian_twin is not None:
        return None
    return (f"ne- + the -ni adjective {base}: only {c.sources[0]}'s ne- prefix makes it, "
            f"and no other source has the word")


def negated_verbal_noun(c: FormCandidate) -> str | None:
    """hunspell-sr's ne- prefix flag is on its verbal nouns too, making *nežigosanje*,
    *nezadobijanje*, *nehodanje* and their plurals *nepočinjanja*, *negarantovanja* (some
    2,500 admitted forms of the 2026 build) that no dictionary of the language lists. The
    negated verbal nouns of the lexical fund (*nepoštovanje*, *neplaćanje*,
    *nepostojanje*, *nepušenje*) apertium has, and then this rule does not fire: it takes
    only the ne- forms one dictionary alone makes."""
    base = _negated_base(c, "n")
    if base is None or not base.lower().endswith("nje"):
        return None
    return (f"ne- + the verbal noun {base}: only {c.sources[0]}'s ne- prefix makes it, and "
            f"no other source has the word")


#: The tens and hundreds a compound number's ordinal is written apart from
#: (*dvadeset prvi*, *sto treći*), ekavian and ijekavian
TENS_AND_HUNDREDS = ("dvadeset", "trideset", "četrdeset", "pedeset", "šezdeset",
                     "sedamdeset", "osamdeset", "devedeset", "sto", "dvesta", "dvjesta",
                     "tristo", "četiristo", "petsto", "šeststo", "sedamsto", "osamsto",
                     "devetsto")
#: The ordinals of the units, without their ending (prv-i, drug-i, treć-i, ...)
UNIT_ORDINALS = ("prv", "drug", "treć", "četvrt", "pet", "šest", "sedm", "osm", "devet")
#: One word made of a ten or hundred and a unit's ordinal in the nominative
COMPOUND_ORDINAL = re.compile(f"^(?:{'|'.join(TENS_AND_HUNDREDS)})"
                              f"(?:{'|'.join(UNIT_ORDINALS)})[aeio]$")


def compound_ordinal(c: FormCandidate) -> str | None:
    """The ordinal of a compound number is written in words apart: *dvadeset prvi*,
    *sto treći* (only the last word takes the ordinal ending), so *dvadesetprvi*,
    *tridesetosma*, *stodruga* are phrases written as one word, which the rule book does
    not admit. hunspell-sr lists them as entries of their own (some 250 admitted forms of
    the 2026 build). Ordinals that are one word stay: *dvestoti*, *hiljaditi*,
    *dvadesetpetogodišnji* (the ending must follow the unit's ordinal). Only where no
    apertium reading admits the form."""
    if not c.admissible or not COMPOUND_ORDINAL.match(c.latin) \
            or any(r.source == APERTIUM for r in c.admissible):
        return None
    return (f"a compound number's ordinal written as one word ({c.admissible[0].lemma}): "
            f"it is two words")


def unfleeting_a(c: FormCandidate) -> str | None:
    """A qualitative adjective in -an drops its a in every other form (*sumaran*:
    *sumarna*, *uvozan*: *uvozna*, *razgovetan*: *razgovetna*), but hunspell-sr's and
    hunspell-hr's participle flags on such stems keep it, as a passive participle does
    (*pisan*: *pisana*): *sumarana*, *uvozano*, *razgovetani* (some 200 admitted forms of
    the 2026 build). Only where one dictionary's adjective slots of the stem are all that
    admit the form, a dictionary has the short form (*sumarna*) that a source reads as a
    positive adjective, and no source has a verb in -ati the stem would be the participle
    of (*obavezan*: *obavezati*, so *obavezana* stays)."""
    if c.fleeting_a is None:
        return None
    stem, source, short = c.fleeting_a
    return (f"a form of the adjective {stem}, whose a is fleeting ({short}); only "
            f"{source}'s slot keeps it as if {stem} were a participle")


def infinitive_as_adjective(c: FormCandidate) -> str | None:
    """hunspell-hr gives some verbs adjective flags on the infinitive (odmahnuti/140), as
    if its -ti were a definite adjective's -i: the slot then admits *odmahnuta*,
    *iskrsnuta*, *dokoturata*, *živnute* as adjectives of "odmahnuti" (some 190 forms of
    the 2026 build), though the rule book admits a verb only in the infinitive and these
    are no adjectives of their own (the masculine *odmahnut* is rejected as a
    participle). Only where that one dictionary's adjective slot is all that admits the
    form: an apertium adjective (*napeta* of *napet*) keeps it."""
    if c.infinitive_stem is None:
        return None
    stem, source = c.infinitive_stem
    return (f"a form of the verb {stem} that only {source} declines as an adjective; only "
            f"the infinitive of a verb is admitted")


def intransitive_participle(c: FormCandidate) -> str | None:
    """An intransitive verb has no passive participle, but hunspell-sr and hunspell-hr put
    adjective flags on such stems: *dejstvovan*, *reketaren*, *bljesnut*, *naskočeni* (about
    1,100 admitted forms of the 2026 build). Only where one dictionary's adjective slot of
    the stem is all that admits the form and apertium has the verb only as intransitive:
    where two dictionaries list it, apertium's tag was too often wrong (*priušten*,
    *imputiran*, *sricana* are participles of transitive uses)."""
    if c.intransitive is None:
        return None
    stem, source, verb = c.intransitive
    return (f"the passive participle {stem} of the intransitive verb {verb}, which has none; "
            f"only {source}'s adjective slot makes it")


def hyper_ijekavian(c: FormCandidate) -> str | None:
    """Seed 000 admits words of the lexical fund of Serbian or Croatian, in either
    pronunciation; a je or ije where the word has no yat is a spelling of neither.
    hunspell-sr's ijekavian entries hold such spellings (*zavjesti*, *djejstvovati*,
    *podrijeđen*, *međuvrijemena*, *srjedište*): the ijekavian sources write these words
    with e (:meth:`~.evidence.SerboCroatianSources.ijekavian_with_e`). Only where that
    one dictionary is all that has the form."""
    if c.hyper_ijekavian is None:
        return None
    return (f"a hyper-ijekavian spelling of {c.hyper_ijekavian}: the ijekavian sources "
            f"write it with e; only {c.sources[0]} writes je")


def possessive_suffix(c: FormCandidate) -> str | None:
    """A possessive adjective takes -ev after a palatal consonant (*kraljev*, *mužev*,
    *ježev*) and turns a final c into č (*stričev*, *kraljičin*); apertium derives -ov
    from every masculine noun, making *ježov*, *lakejov*, *kepecov*, which a
    dictionary's stray form of the same spelling then seems to attest, and hunspell-sr's
    possessive flag keeps the c of -ica nouns (*korisnicin*). Seed 000 admits words "iz
    leksičkog fonda srpskog, odnosno hrvatskog jezika", checked against the dictionaries
    and handbooks: the adjective in its right form only."""
    if c.possessive_suffix is None:
        return None
    wrong, right = c.possessive_suffix
    if wrong.endswith("in"):
        return f"the possessive {wrong} is spelled {right}: c turns into č before -in"
    return (f"the possessive {wrong} is spelled {right}: after a palatal consonant the "
            f"suffix is -ev, and c turns into č")


def analysis_line(r: HbsAnalysis) -> str:
    return f"{r.source}" + (f" ({r.note})" if r.note else "") + f": {r.lemma} {'.'.join(r.tags)}"


def passing_analyses(c: FormCandidate) -> list[Evidence]:
    return [Evidence(r.evidence or ("apertium_tags" if r.source == APERTIUM else "hunspell_slot"),
                     analysis_line(r), CATEGORY.get(r.pos), (r.source,))
            for r in c.admissible]


def dictionary_witnesses(c: FormCandidate) -> list[Evidence]:
    return [Evidence("dictionary", f"{sid}: a form of {stem}", None, (sid,))
            for sid, stem in c.tagged_by]


def unattested(c: FormCandidate) -> str | None:
    if not c.unsupported:
        return None
    r = c.unsupported[0]
    what = CATEGORY.get(r.pos, r.pos)
    if c.sources == [APERTIUM]:
        return (f"only apertium's generator produces it ({what} {r.lemma}); "
                "no dictionary attests the form")
    return (f"only apertium's generator makes it a {what} ({r.lemma}); no "
            "dictionary attests that word")


def nothing(_c: FormCandidate) -> str:
    return "no source says what this form is"


def make_book(tiles: frozenset[str], lists: ReviewedLists,
              judge: AnalysisJudge) -> RuleBook[FormCandidate]:
    """The form rules; ``tiles``: the Cyrillic letters that are Kvizovka tiles."""
    return RuleBook(
        "kvizovka-form",
        vetoes=[*_spelling_vetoes(tiles, lists), *_slot_vetoes()],
        admissions=[
            Admit("analysis", "an analysis passes the analysis rules and a dictionary is behind "
                  "it: its own learned slot, or for an apertium analysis a dictionary that has "
                  "the form as a lower-case word and has its lemma too; a noun slot of a "
                  "dictionary's own lemma apertium lacks (own_lemma) and the -a nominative "
                  "of an a-declension entry (a_declension) count beside apertium's readings "
                  "of other lemmas", passing_analyses),
            Admit("dictionary", "the dictionaries that list a form apertium tags",
                  dictionary_witnesses, supporting=True),
        ],
        explanations=_explanations(judge),
        otherwise=Reject("unclassified", "no analysis at all", nothing),
    )


def _spelling_vetoes(tiles: frozenset[str],
                     lists: ReviewedLists) -> list[Reject[FormCandidate]]:
    """The vetoes on a spelling as such (a phrase, a letter no tile spells, a reviewed
    exclusion, an elative), before what any source says of it."""

    def foreign(c: FormCandidate) -> str | None:
        odd = "".join(dict.fromkeys(ch for ch in c.key if ch not in tiles))
        if not odd:
            return None
        return f"spelled with {', '.join(repr(ch) for ch in odd)}: no Kvizovka tile"

    def excluded(c: FormCandidate) -> str | None:
        reason = lists.exclusions.get(c.latin)
        return None if reason is None else f"excluded by hbs_exclusions.txt: {reason}"

    def elative(c: FormCandidate) -> str | None:
        """A 'pre-' form apertium also generates as the elative ("very X") of another
        adjective; not when a reading of another class passes (*prepoznati*: an infinitive,
        and the elative plural of *poznat*): any admissible reading admits the spelling;
        nor when the sources derive the pre- word from a word of its own
        (:attr:`FormCandidate.pre_derivation`: *prenosiv* of *prenositi*). A pre- headword
        of apertium's own that no dictionary has is one when its compound head is a
        gradable adjective (:attr:`FormCandidate.compound_elative`: *prerigidan*)."""
        if not c.latin.startswith("pre") or c.latin in lists.not_elative:
            return None
        if any(r.pos != "adj" for r in c.admissible) or c.pre_derivation is not None:
            return None
        if any(r.lemma in lists.not_elative for r in c.analyses):
            return None
        if c.compound_elative is not None and not c.admissible:
            return elative_message(c.compound_elative)
        bases = [r.lemma for r in c.analyses if r.source == APERTIUM
                 and ELATIVE in r.tags and not r.lemma.startswith("pre")]
        if not bases:
            return None
        # the base the form spells (prelep: lep, not its ijekavian twin lijep)
        base = max(bases, key=lambda b: (b[:-1] in c.latin, -len(b)))
        return elative_message(base)

    return [
        Reject("phrase", "forms with a space (apertium multiword entries)", phrase),
        Reject("hyphen_or_apostrophe", "forms with a hyphen or apostrophe", hyphen),
        Reject("foreign_letters", "letters that are no Kvizovka tile (q, w, x, y, ...)",
               foreign),
        Reject("listed_exclusion", "sources/lists/hbs_exclusions.txt", excluded),
        Reject("elative", "'pre-' elatives (pre- + adjective, \"very X\"), even where "
               "listed as a lemma of their own; not a word the sources derive from a "
               "pre- verb or noun (prenosiv: prenositi), a relational adjective "
               "(preistorijski), nor one sources/lists/hbs_not_elative.txt lists",
               elative),
    ]


def _slot_vetoes() -> list[Reject[FormCandidate]]:
    """The vetoes on what the sources say: a name, a typo, and the forms one dictionary's
    paradigm slot or prefix flag makes that are no word of the lexical fund."""
    return [
        Reject("proper_noun", "names every dictionary that has them writes with a capital "
               "letter, whatever apertium says (a lower-case stem listed only to derive "
               "adjectives, србија -> српски, is no lower-case word)",
               capital_in_every_dictionary),
        Reject("missing_diacritics", "forms only one dictionary has whose spelling with "
               "č, ć, š, ž or đ two sources have (typos)", missing_diacritics),
        Reject("verbal_adverb", "present participles in -ći (glagolski prilog sadašnji) "
               "that only one dictionary's adjective slot admits: verb forms", verbal_adverb),
        Reject("soft_stem_neuter", "adjective neuters in -o after č, ć, đ, ž, š, j or c "
               "that only a dictionary's paradigm slot admits (soft stems take -e)",
               soft_stem_neuter),
        Reject("negated_relational", "ne- + a relational adjective (-ski, -čki, -ški) "
               "that only one dictionary's prefix flag makes", negated_relational),
        Reject("negated_participle", "ne- + a passive participle that only one "
               "dictionary's prefix flag makes and no other source has", negated_participle),
        Reject("negated_relational_ni", "ne- + an adjective a dictionary lists by its "
               "definite -ni form (mostly relational: modni, rasudni) that only that "
               "dictionary's prefix flag makes", negated_relational_ni),
        Reject("negated_verbal_noun", "ne- + a verbal noun (-nje) that only one "
               "dictionary's prefix flag makes and no other source has",
               negated_verbal_noun),
        Reject("compound_ordinal", "a compound number's ordinal written as one word "
               "(dvadesetprvi), when no apertium reading admits it", compound_ordinal),
        Reject("unfleeting_a", "forms of an -an adjective whose a is fleeting that one "
               "dictionary's slot makes keeping the a (sumarana beside sumarna)",
               unfleeting_a),
        Reject("infinitive_as_adjective", "adjective forms one dictionary's flags make of "
               "a verb's infinitive (odmahnuti -> odmahnuta)", infinitive_as_adjective),
        Reject("intransitive_participle", "passive participles of verbs apertium has only "
               "as intransitive, when one dictionary's adjective slot is all that admits "
               "them (dejstvovan, bljesnut, beseđen)", intransitive_participle),
        Reject("hyper_ijekavian", "je or ije where the ijekavian sources (apertium's "
               "ijekavian generator and hunspell-hr) write e, as a form of the same word, "
               "when one dictionary alone has the form (zavjesti: zavesti)", hyper_ijekavian),
        Reject("possessive_suffix", "possessive adjectives in -ov after a palatal consonant "
               "or c, or in -cin of an -ica noun, when no other reading admits them (ježov: "
               "ježev, kepecov: kepečev, korisnicin: korisničin)", possessive_suffix),
    ]


def _explanations(judge: AnalysisJudge) -> list[Reject[FormCandidate]]:
    """One explanation per analysis rule (a form none of whose analyses pass is explained
    by its most informative one), then ``unattested``."""

    def by_analysis(code: str) -> Callable[[FormCandidate], str | None]:
        def test(c: FormCandidate) -> str | None:
            if c.explained is not None and c.explained.code == code:
                return c.explained.message
            return None
        test.__name__ = f"analysis_{code}"
        return test

    explanations: list[Reject[FormCandidate]] = []
    for rule in judge.rules:
        if all(e.code != rule.code for e in explanations):
            explanations.append(Reject(rule.code, f"no analysis passes; best: {rule.summary}",
                                       by_analysis(rule.code)))
    explanations.append(Reject(
        "unattested", "admissible only by apertium's generator; no dictionary has the form, "
        "or the word it would be a form of", unattested))
    return explanations
