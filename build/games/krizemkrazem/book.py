"""The Križemkražem rule book: vetoes, admissions by evidence, explanations (seed 001).

The rule book (shared/seeds/001, IZBOR BESED) admits nouns in the nominative singular,
common and proper (the joker example accepts Kacin, kalin, Kanin, Karin); pluralia tantum
(hlače); the nominative plural only for inhabitants and nations (Škoti) and established
plural use (padavine); known phrases (pustni ples) and first name + surname (Tone
Pavček); abbreviations only where they became nouns (Unesco). Length (at least 4 tiles)
and letters only a joker can play (W, X, Y, Q) are play rules applied by the checker.

Admission evidence, strongest first (the first decides the category, all are recorded):
reviewed lists; the apertium analyser (``<n>``/``<np>`` ``<sg><nom>``, or a plural whose
lemma is the form itself; not a nominative the same lemma's hunspell-sl paradigm
contradicts, *osla*); FreeDict noun headwords; thesaurus (mythes-sl) headwords with a noun
meaning ``(sam.)``, beside adjective forms only when the meaning's synonyms are nouns by the
other sources (*sloka*: *kljunač*); a noun declension found among the
hunspell forms (:mod:`.morph`), strong alone, weak with LemmaGen's "its own lemma"; an
uninflected capitalised entry with an attested possessive (*Karin*: *Karinin*); an
inhabitant plural, masculine or feminine (*Ljubljančani*, *Ljubljančanke*). A spelling
is admitted when any of its readings is:
*Stanko* is the accusative of *Stanka* and a masculine name with forms of its own
(*Stanku*, *Stankom*); *Fužine* a genitive of the village *Fužina* and a plural place
name; *matematika*, which the analyser knows only as *matematik*'s genitive, a feminine by
its own *matematiko*.
A plural headword of the thesaurus or FreeDict (``<n, f, pl>``) whose singular is a noun
too is an established plural (the rule book's *padavine*).
Hunspell flags are not used as part-of-speech evidence:
in hunspell-sl they compress the list rather than describe it (``hiš/A`` gives *hiša hiše
hiši hišo*; 84k entries have no flag), so the bare-stem/flag test was measured and dropped.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable

from lexicon.build.games.krizemkrazem import morph
from lexicon.build.games.krizemkrazem.evidence import (
    APERTIUM,
    FREEDICT,
    HUNSPELL,
    LEMMAGEN,
    MYTHES,
    Candidate,
    InhabitantPair,
    is_nom_sg,
)
from lexicon.build.rulebook import Admit, Evidence, Reject, Rejection, RuleBook

CASE = {"nom": "nominative", "gen": "genitive", "dat": "dative", "acc": "accusative",
        "loc": "locative", "ins": "instrumental"}
NUMBER = {"sg": "singular", "du": "dual", "pl": "plural"}
CLOSED = {"adv": "an adverb", "prn": "a pronoun", "num": "a numeral", "pr": "a preposition",
          "cnjcoo": "a conjunction", "cnjsub": "a conjunction", "cnjadv": "a conjunction",
          "part": "a particle", "ij": "an interjection", "vbser": "a form of the verb biti",
          "det": "a determiner"}
ROMAN = re.compile(r"^[IVXLCDM]+$")
PLURAL_NOTE = ("; the plural is admitted only for inhabitants and nations, pluralia tantum "
               "and established plural use")
ONLY_NOM = "; only the nominative singular is admitted"


def tag_text(tags: tuple[str, ...]) -> str:
    """``("n", "f", "sg", "gen")`` -> ``"genitive singular"`` (empty if no case)."""
    case = next((CASE[t] for t in tags if t in CASE), None)
    num = next((NUMBER[t] for t in tags if t in NUMBER), None)
    return " ".join(x for x in (case, num) if x)


def _inflection_message(cases: Iterable[str], lemma: str) -> str:
    cs = [c for c in dict.fromkeys(cases) if c]
    text = morph.describe_cases(cs)
    note = PLURAL_NOTE if cs and "plural" in cs[0] and "nominative" in cs[0] else ONLY_NOM
    return f"{text} of {lemma}{note}"


def _name_or_noun(c: Candidate) -> str:
    return "name" if c.capitalised else "noun"


# -- vetoes: whatever the evidence ------------------------------------------------------------

def excluded(c: Candidate) -> str | None:
    if c.excluded:
        return f"excluded by {c.excluded.file}: {c.excluded.reason}"
    return None


def hyphen(c: Candidate) -> str | None:
    odd = [ch for ch in c.word if ch in "-'’"]
    return f"contains {''.join(dict.fromkeys(odd))!r}" if odd else None


def roman(c: Candidate) -> str | None:
    return "a Roman numeral" if ROMAN.match(c.word) and not c.listed else None


def written_abbreviation(c: Candidate) -> str | None:
    if c.listed and c.listed.category == "abbreviation_noun":
        return None
    if c.word.endswith("."):
        return "an abbreviation (written with a full stop)"
    letters = c.word.replace(" ", "")
    if len(letters) > 1 and letters.isupper():
        return "an abbreviation (written in capitals); only abbreviations that became " \
               "nouns, such as Unesco, are admitted"
    if len(letters) <= 4 and any(ch.isupper() for ch in letters[1:]):
        return "an abbreviation (capitals inside the word)"
    return None


def capital_in_every_dictionary(c: Candidate) -> Rejection | None:
    """Issue 8 item 5, in a game that admits names: a lower-case spelling that only the
    analyser has, while every dictionary that has the word writes it with a capital letter,
    is the name (the capitalised spelling is judged on its own, as a name)."""
    by = c.written_capitalised_by
    if not by:
        return None
    return Rejection(
        f"a proper name, written with a capital letter by every dictionary that has it "
        f"({'; '.join(by)}); only the analyser has it in lower case",
        tuple(Evidence("capitalised_in_dictionary", text) for text in by))


# -- admissions: positive evidence ------------------------------------------------------------

def listed(c: Candidate) -> Evidence | None:
    if not c.listed:
        return None
    e = c.listed
    return Evidence(f"list:{e.file}", f"{e.file}: {e.reason}", e.category, (f"lists/{e.file}",))


def analyser(c: Candidate) -> Evidence | None:
    nouns = c.noun_analyses()
    nom_sg = [a for a in nouns if is_nom_sg(a.tags)]
    if nom_sg:
        a = nom_sg[0]
        cat = "name" if a.tags[0] == "np" or c.capitalised else "noun"
        return Evidence("apertium", f"apertium-hbs-slv: {a}", cat, (APERTIUM,))
    plural_lemma = [a for a in nouns if a.lemma == c.word and "pl" in a.tags and "nom" in a.tags]
    if plural_lemma:
        return Evidence("apertium_plural_lemma",
                        f"apertium-hbs-slv: plural-only lemma {plural_lemma[0]}",
                        "plurale_tantum", (APERTIUM,))
    return None


def _plural_category(c: Candidate) -> str:
    """A plural headword whose singular is a noun too (*brki*: *brk*) is an established
    plural; one without a singular (*hlače*) a plurale tantum."""
    plural_of = any(morph.NP in cf.cases for cf in c.inflection_of) or any(
        "pl" in a.tags and "nom" in a.tags and a.lemma != c.word for a in c.noun_analyses())
    return "established_plural" if plural_of else "plurale_tantum"


def dictionary(c: Candidate) -> Evidence | None:
    for e in c.dict_entries:
        if e.pos == "n" and e.number in ("sg", None):
            return Evidence("freedict", f"FreeDict: {e.describe()}", _name_or_noun(c),
                            (FREEDICT,))
        if e.pos == "n" and e.number == "pl":
            return Evidence("freedict_plural", f"FreeDict: {e.describe()}",
                            _plural_category(c), (FREEDICT,))
    return None


def thesaurus(c: Candidate) -> Evidence | None:
    """A thesaurus headword with a noun meaning ``(sam.)``: the thesaurus lists lemmas, so
    the headword is a noun in the nominative; a plural one (*počitnice*) is a plurale
    tantum or, beside a singular noun, an established plural.

    A headword with adjective forms (*-ega*, *-emu*) is a noun only where its noun meaning's
    synonyms are nouns by the other sources (:meth:`SlovenianSources.noun_synonyms`): the
    thesaurus tags some adjectives ``(sam.)`` (*netipičen*), but *sloka* (sam.) *kljunač* is
    the woodcock whatever else the spelling is (a form of *slok*), and *urin* (sam.) *seč*
    the noun beside a genitive plural of *urino*; the rule book admits "samostalniki v 1.
    sklonu ednine" (seed 001, IZBOR BESED), and a noun headword is one."""
    e = c.thesaurus
    if e is None or not e.is_noun() or not c.single:
        return None
    nouns = [m for m in e.meanings if m.pos == "sam."]
    text = f"mythes-sl: {e.headword} (sam.) {', '.join(nouns[0].synonyms[:3])}".rstrip()
    kind = "thesaurus"
    if c.adjective_forms:
        vouched = c.sources.noun_synonyms(e, c.word)
        if not vouched:
            return None
        kind = "thesaurus_noun_synonyms"
        text += (f"; a noun beside its adjective forms ({', '.join(c.adjective_forms[:2])}):"
                 f" its synonyms {', '.join(vouched[:3])} are nouns")
    plural = any(morph.NP in cf.cases for cf in c.inflection_of) or any(
        p.cls in morph.PLURAL_ONLY for p in c.paradigms)
    singular = any(p.cls not in morph.PLURAL_ONLY for p in c.paradigms)
    cat = _plural_category(c) if plural and not singular else _name_or_noun(c)
    return Evidence(kind, text, cat, (MYTHES,))


def declension(c: Candidate) -> list[Evidence]:
    """The noun paradigms found among the hunspell forms, weakest guarded hardest."""
    out: list[Evidence] = []
    w, cat, src = c.word, _name_or_noun(c), c.sources
    contradicted, self_lemma = c.contradicted, c.self_lemma
    for p in c.paradigms:
        forms = f"hunspell-sl forms, {p.describe()}"
        if p.cls in morph.PLURAL_ONLY:
            if not contradicted or self_lemma:
                out.append(Evidence("plural_paradigm", forms if p.note else
                                    f"{forms}; no singular forms",
                                    "plurale_tantum", (HUNSPELL,)))
            continue
        if p.strong and not (contradicted and not self_lemma):
            out.append(Evidence("paradigm", forms, cat, (HUNSPELL,)))
            break
        # the analyser's other lemma leaves room for this reading only where own forms
        # show it; not through a +j stem, whose forms may be a neuter's (gor: gorje's gorja)
        free = not contradicted or p.shadowed
        if not p.strong and self_lemma and not c.adjective_forms and (free or (
                p.note != "stem +j" and src.rivals_explain_analyses(c))):
            if free and (p.shadowed or w not in src.strong_inflection):
                out.append(Evidence("paradigm+lemmagen", f"{forms}; LemmaGen: its own lemma",
                                    cat, (HUNSPELL, LEMMAGEN)))
                break
            own = src.own_forms(w, p)
            if own:       # also a case form of another lemma: any admissible reading admits
                other = c.inflection_of[0].lemma
                out.append(Evidence("paradigm_own_forms", f"{forms}; also a case form of "
                                    f"{other}, but with forms of its own ({', '.join(own[:3])}); "
                                    "LemmaGen: its own lemma", cat, (HUNSPELL, LEMMAGEN)))
                break
        if not p.strong and not contradicted and src.singular_name(w, p) and \
                w not in src.strong_inflection:
            out.append(Evidence("paradigm_name", f"{forms}; a capitalised masculine with no "
                                f"feminine or plural-name reading ({w}o, {w}ah unattested)",
                                "name", (HUNSPELL,)))
            break
    return out


def name_entry(c: Candidate) -> Evidence | None:
    w = c.word
    if not (c.single and c.capitalised and not w.isupper() and c.in_hunspell and c.self_lemma
            and not c.analyses and not c.inflection_of and not c.paradigms
            and not c.adjective_forms and not c.verb_forms
            and not c.sources.inflected_looking(w)):
        return None
    possessive = c.sources.possessive_of(w)
    if not possessive:
        return None
    return Evidence("name_entry", f"hunspell-sl: capitalised entry with the possessive "
                    f"{possessive} and no inflection of another word; LemmaGen: its own lemma",
                    "name", (HUNSPELL, LEMMAGEN))


def _inhabitant_pair(c: Candidate, feminine: bool) -> InhabitantPair | None:
    pair = c.derived_plural_of
    if pair is None or pair.feminine_plural != feminine or \
            any(is_nom_sg(a.tags) for a in c.noun_analyses()):
        return None
    return pair


def inhabitant_plural(c: Candidate) -> Evidence | None:
    """The plural "pri prebivalcih, narodih" of a masculine (*Ljubljančani*)."""
    pair = _inhabitant_pair(c, False)
    if pair is None:
        return None
    listed = f"; {pair.listed_in}" if pair.listed_in else ""
    return Evidence("inhabitant_plural", f"nominative plural of {pair.masculine}, an "
                    f"inhabitant/nation noun (feminine {pair.feminine}){listed}",
                    "nation_plural")


def inhabitant_plural_feminine(c: Candidate) -> Evidence | None:
    """The same plural of the feminine (*Ljubljančanke*, *Nemke*): a woman of Ljubljana is
    an inhabitant, and the rule book names no gender."""
    pair = _inhabitant_pair(c, True)
    if pair is None:
        return None
    listed = f"; {pair.listed_in}" if pair.listed_in else ""
    return Evidence("inhabitant_plural_feminine", f"nominative plural of {pair.feminine}, "
                    f"the feminine of an inhabitant/nation noun (masculine "
                    f"{pair.masculine}){listed}", "nation_plural")


def own_lemma(c: Candidate) -> Evidence | None:
    if not (c.single and c.word.isalpha() and c.self_lemma):
        return None
    return Evidence("lemmagen", "LemmaGen: its own lemma", None, (LEMMAGEN,))


# -- explanations: why a word nothing admitted is not one -------------------------------------

def analysed_abbreviation(c: Candidate) -> str | None:
    if c.analyses and all(a.tags[:1] == ("abbr",) for a in c.analyses):
        return "an abbreviation (apertium: abbr)"
    return None


def closed_class(c: Candidate) -> str | None:
    if c.noun_analyses():
        return None
    for a in c.analyses:
        if a.tags and a.tags[0] in CLOSED:
            return CLOSED[a.tags[0]] + (f" ({a.lemma})" if a.lemma != c.word.lower() else "")
    return None


def comparative(c: Candidate) -> str | None:
    for a in c.analyses:
        if a.tags[:1] == ("adj",) and ("comp" in a.tags or "sup" in a.tags):
            degree = "comparative" if "comp" in a.tags else "superlative"
            return f"{degree} of the adjective {a.lemma}"
    return None


def verb(c: Candidate) -> str | None:
    for a in c.analyses:
        if a.tags[:1] == ("vblex",):
            return "a verb (infinitive)" if "inf" in a.tags else f"a form of the verb {a.lemma}"
    return None


def adjective(c: Candidate) -> str | None:
    for a in c.analyses:
        if a.tags[:1] == ("adj",):
            if a.lemma == c.word and is_nom_sg(a.tags):
                return "an adjective"
            return f"a form of the adjective {a.lemma}"
    return None


def possessive(c: Candidate) -> str | None:
    # capitalised first: the adjective forms cost lookups, and only a name has possessives
    if not c.capitalised or not morph.possessive(c.word, c.adjective_forms):
        return None
    also = ""
    nouns = c.noun_analyses()
    if nouns:
        also = f"; also {tag_text(nouns[0].tags)} of {nouns[0].lemma}"
    elif c.inflection_of:
        also = f"; also {morph.describe_cases(c.inflection_of[0].cases)} of " \
               f"{c.inflection_of[0].lemma}"
    return f"a possessive adjective (cf. {', '.join(c.adjective_forms[:2])}){also}"


def inflected(c: Candidate) -> str | None:
    nouns = c.noun_analyses()
    if nouns:
        by_lemma: dict[str, list[str]] = defaultdict(list)
        for a in nouns:
            by_lemma[a.lemma].append(tag_text(a.tags))
        lem, cases = next(iter(by_lemma.items()))
        return _inflection_message(cases, lem)
    if c.inflection_of:
        lem, found = c.inflection_of[0]
        return _inflection_message(list(found), lem)
    return None


def guessed(c: Candidate) -> str | None:
    """Facts from the word list and LemmaGen when no tagged source knows the word."""
    if c.derived_plural_of is None and c.word.endswith(("ti", "či")) and c.verb_forms:
        return f"a verb (infinitive; cf. {', '.join(c.verb_forms[:2])})"
    if c.adjective_forms:
        forms = ", ".join(c.adjective_forms[:2])
        if morph.possessive(c.word, c.adjective_forms):
            return f"a possessive adjective (cf. {forms})"
        return f"an adjective (cf. {forms})"
    lem = c.lemma
    if lem and lem != c.word and len(lem) > 1:
        if lem.endswith(("ti", "či")):
            return f"a form of the verb {lem} (LemmaGen)"
        if c.lemma_is_adjective:
            return f"a form of the adjective {lem} (LemmaGen)"
    return None


def lemma_other(c: Candidate) -> str | None:
    if not c.lemma or c.lemma == c.word:
        return None
    return f"an inflected form of {c.lemma} (LemmaGen){ONLY_NOM}"


def no_evidence(_c: Candidate) -> str:
    return ("no source attests it as a noun in the nominative singular (no noun analysis, "
            "no noun declension among the known forms)")


def foreign_letters(allowed_letters: frozenset[str]) -> Callable[[Candidate], str | None]:
    """The veto on letters no tile or joker letter stands for (``allowed_letters``)."""

    def letters(c: Candidate) -> str | None:
        if allowed_letters.issuperset(c.word.lower().replace(" ", "")):
            return None          # nearly every spelling: one pass in C
        odd = sorted({ch for ch in c.word.lower() if ch != " " and ch not in allowed_letters})
        if odd:
            return (f"spelled with {', '.join(odd)}, which no Križemkražem tile (or joker "
                    "letter) stands for")
        return None

    return letters


def vetoes(allowed_letters: frozenset[str]) -> list[Reject[Candidate]]:
    """What rejects a spelling whatever its evidence, in order."""
    return [
        Reject("listed_exclusion", "excluded by sources/lists/sl_exclusions.txt", excluded),
        Reject("hyphen_or_apostrophe", "written with a hyphen or apostrophe", hyphen),
        Reject("part_of_speech", "Roman numerals are numerals", roman),
        Reject("abbreviation", "abbreviations by their spelling (full stop, capitals), "
               "unless listed as having become nouns (Unesco)", written_abbreviation),
        Reject("foreign_letters", "letters no tile or joker letter stands for (ć, ü, ö, đ)",
               foreign_letters(allowed_letters)),
        Reject("proper_noun", "a lower-case spelling only the analyser has, of a word every "
               "dictionary that has it writes with a capital letter (the capitalised "
               "spelling is judged as a name)", capital_in_every_dictionary),
    ]


def admissions() -> list[Admit[Candidate]]:
    """The evidence that admits a spelling, strongest first."""
    return [
        Admit("list", "reviewed lists (pluralia tantum, nation/inhabitant and established "
              "plurals, phrases, full names, abbreviation nouns)", listed),
        Admit("apertium", "apertium analyser <n>/<np> <sg><nom>, unless the same lemma's "
              "hunspell-sl paradigm has the form as another case (osla: genitive of "
              "osel); a plural analysis whose lemma is the form itself is a plurale "
              "tantum", analyser),
        Admit("freedict", "FreeDict noun headword (<n, ..., pl>: plurale tantum, or an "
              "established plural beside a singular noun)", dictionary),
        Admit("thesaurus", "mythes-sl thesaurus headword with a noun meaning (sam.); with "
              "adjective forms only when the meaning's synonyms are nouns by the other "
              "sources (tuja: klek); a plural headword is a plurale tantum or an "
              "established plural", thesaurus),
        Admit("paradigm", "a noun declension among the hunspell forms: a strong one alone; "
              "a weak one with LemmaGen's 'its own lemma', also when the word is a case "
              "form of another lemma if it has forms of its own for the dative and "
              "instrumental (Stanko: Stanku, Stankom), for a feminine in -a its -o "
              "(matematika: matematiko), also when the analyser reads it only as those "
              "rivals' case forms; one the analyser contradicts otherwise only with "
              "LemmaGen too; a capitalised masculine attested in the singular only "
              "(Hanoj) when no -o/-ah form makes it a genitive plural of a feminine name "
              "(Tamar < Tamara); plural case forms without any singular (hlačah, hlačam) "
              "make a plurale tantum, and so do they for a capitalised word LemmaGen "
              "leaves as is beside a homonymous singular (Fužine, Fužina)", declension),
        Admit("name_entry", "a capitalised hunspell entry LemmaGen leaves as is, no "
              "inflected form of an admitted noun, without adjective or verb endings, "
              "with an attested possessive (Karin: Karinin)", name_entry),
        Admit("inhabitant_plural", "nominative plural of an admitted capitalised masculine "
              "in -an/-ec with a feminine counterpart in -a (Slovenec/Slovenka)",
              inhabitant_plural),
        Admit("inhabitant_plural_feminine", "nominative plural of the feminine of an "
              "inhabitant or nation noun: of the feminine in -a of an -an/-ec masculine "
              "(Slovenka: Slovenke), or of a masculine whose plural a reviewed list names "
              "(Škoti: Škotinja, Škotinje)", inhabitant_plural_feminine),
        Admit("lemmagen", "LemmaGen lemmatises the form to itself", own_lemma,
              supporting=True),
    ]


def explanations() -> list[Reject[Candidate]]:
    """Why a spelling nothing admitted is not a word of the game, first match."""
    return [
        Reject("abbreviation", "forms the analyser knows only as abbreviations",
               analysed_abbreviation),
        Reject("part_of_speech", "closed classes per the apertium analyser (adverb, "
               "pronoun, numeral, preposition, conjunction, particle, interjection)",
               closed_class),
        Reject("comparative", "comparatives and superlatives (apertium)", comparative),
        Reject("part_of_speech", "verbs (apertium)", verb),
        Reject("part_of_speech", "adjectives (apertium)", adjective),
        Reject("part_of_speech", "possessive adjectives (Prešernov: Prešernovega among the "
               "hunspell forms), before their reading as a genitive plural", possessive),
        Reject("inflected_form", "cases other than the nominative, the dual, ordinary "
               "plurals (apertium tags, or the declension found in the hunspell forms)",
               inflected),
        Reject("part_of_speech", "verbs, adjectives and possessive adjectives recognised "
               "from their endings among the hunspell forms, or via the LemmaGen lemma",
               guessed),
        Reject("inflected_form", "forms LemmaGen lemmatises to another word", lemma_other),
    ]


def make_book(allowed_letters: frozenset[str]) -> RuleBook[Candidate]:
    """The ordered rules of Križemkražem (``allowed_letters``: tiles and joker letters)."""
    return RuleBook(
        "krizemkrazem", vetoes=vetoes(allowed_letters), admissions=admissions(),
        explanations=explanations(),
        otherwise=Reject("no_noun_evidence", "everything else: no evidence of a nominative noun",
                         no_evidence),
    )
