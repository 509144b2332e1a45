"""What the Serbo-Croatian sources say about each Kvizovka key, as typed values.

:class:`SerboCroatianSources` reads the sources once:

1. apertium's generators (:mod:`.apertium`): every form with its best analyses per lemma;
   where apertium tags a form of a common lemma, its analyses are the form's grammar;
2. hunspell-sr and -hr (:mod:`.paradigms`): each dictionary's paradigm *slots* are learned
   from the forms apertium also tags, and every hunspell form becomes a :class:`Witness`
   of its key: a form apertium tags (:attr:`Kind.TAGGED`), a form of a capitalised stem
   (:attr:`Kind.PROPER`, :attr:`Kind.ACRONYM`) or a form in a learned slot
   (:attr:`Kind.SLOT`, with the :class:`.paradigms.SlotVerdict`);
3. keys: Cyrillic, one letter per tile, from :class:`build.games.hbs_script.LatinToCyrillic`
   (which learns the нј/лј/дж splits from the Cyrillic hunspell-sr and reads the Kvizovka
   profile's tiles through :class:`lexicon.game.tiles.Speller`).

:meth:`SerboCroatianSources.candidate` then turns one key's :class:`KeyEvidence` into a
:class:`FormCandidate`: its analyses, which of them pass the analysis rules with a
dictionary behind them, and the explanation if none does.
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import IntEnum
from pathlib import Path
from typing import Any, NamedTuple

from lexicon.build.games.hbs_script import LatinToCyrillic, to_latin
from lexicon.build.games.kvizovka import apertium
from lexicon.build.games.kvizovka.analysis import (
    ELATIVE,
    POSSESSOR,
    UNCLASSIFIED,
    VERBAL,
    AnalysisJudge,
    HbsAnalysis,
    Tags,
    normalise,
)
from lexicon.build.games.kvizovka.apertium import ApertiumForms
from lexicon.build.games.kvizovka.lists import ReviewedLists
from lexicon.build.games.kvizovka.paradigms import (
    FormSpool,
    HForm,
    HunspellSource,
    Slot,
    SlotLearner,
    SlotVerdict,
    slot_keys,
)
from lexicon.build.progress import Progress, track
from lexicon.sources.hunspell import declared_entries

from lexicon.store.records import (
    ANIMATE_POSSESSIVE_LABEL,
    FEMININE_OF_LABEL,
    POSSESSIVE_LABEL,
    RELATIONAL_LABEL,
    RELATIONAL_NOUN_LABEL,
)

APERTIUM = "apertium-hbs-slv"
HUNSPELL_SR = "hunspell-sr"
HUNSPELL_HR = "hunspell-hr"
APERTIUM_BIT = 1


class Kind(IntEnum):
    """What a hunspell form says about its key, beyond that the form exists."""

    TAGGED = 1    # apertium tags this form (of a common lemma): apertium's analyses decide
    PROPER = 2    # a form of a capitalised stem: a proper noun
    ACRONYM = 3   # a form of an all-capital stem: an abbreviation
    SLOT = 4      # the analyses of its learned paradigm slot (none: slot not learned)
    OWN_LEMMA = 5     # apertium tags the form only as another lemma's; the dictionary has
                      # it in the paradigm of its own stem, a lemma apertium does not know
    A_NOMINATIVE = 6  # the -a form of an entry declined in the a-declension (fašist/20:
                      # fašista, fašiste, fašisti, fašistu, fašisto, fašistom): its nominative


#: The singular endings of the a-declension (žena: -a nom, -e gen, -i dat, -u acc, -o voc,
#: -om ins): an entry whose consonant stem takes all of them declines like *žena*, so its
#: -a form is the nominative singular of the lemma stem + a (hunspell-sr lists *fašista*,
#: *komunista* as фашист/20, the stem with the a-declension's endings; apertium knows only
#: *fašist*, whose genitive the same spelling is).
A_DECLENSION = frozenset({"a", "e", "i", "u", "o", "om"})
#: Endings only adjectives have (lepog, lepoj, lepih, lepim): an adjective's paradigm has
#: the six endings above too (lepa, lepe, lepi, lepu, lepo, lepom), and is no noun.
ADJECTIVE_ENDINGS = frozenset({"og", "oj", "ih", "im"})
VOWELS = frozenset("aeiou")
DIACRITICS = "čćšžđ"
PLAIN_LETTERS = "ccszd"
#: an ijekavian yat reflex after a consonant (vjera, bezbjedan, vrijeme, gdje); not after
#: l or n, whose lje, nje spell the tiles LJ, NJ
IJEKAVIAN_YAT = re.compile(r"(?<=[bcčćdđfghkmprsštvzž])i?je")
#: an e after a consonant, where an ijekavian spelling may have je or ije
EKAVIAN_E = re.compile(r"(?<=[bcčćdđfghkmprsštvzž])e")
STRIP_DIACRITICS = str.maketrans(DIACRITICS, PLAIN_LETTERS)


class Witness(NamedTuple):
    """One hunspell dictionary's form for a key."""

    source: int                       # index of the dictionary in the builder's list
    stem: str                         # Latin stem, capitals kept
    kind: Kind
    slot: SlotVerdict | None = None   # Kind.SLOT and Kind.OWN_LEMMA only


@dataclass(slots=True)
class KeyEvidence:
    """Everything the sources say about one key (~4M of these in a full build)."""

    sources: int = 0                       # bit 1: apertium; 2 << i: hunspell dictionary i
    witnesses: tuple[Witness, ...] = ()
    attested: bool = False   # a dictionary has the form as a lower-case word, not only as
                             # a form of a capitalised name (apertium needs this witness)
    as_word: bool = False    # ... and not only as a bare stem it derives other words from
                             # (sr_RS lists србија/1206 to derive српски, Serbian)


class Explanation(NamedTuple):
    """Why no analysis of a form passes: the most informative rule's code and message."""

    code: str
    message: str
    analyses: list[HbsAnalysis]


@dataclass
class FormCandidate:
    """Everything known about one key, as the form rules see it."""

    key: str
    latin: str
    analyses: list[HbsAnalysis]
    admissible: list[HbsAnalysis]    # pass the rules, with a dictionary behind them
    unsupported: list[HbsAnalysis]   # pass the rules, but only apertium knows form or lemma
    sources: list[str]
    explained: Explanation | None    # when none pass
    tagged_by: list[tuple[str, str]] = field(default_factory=list)   # (source id, stem)
    capitalised_by: list[tuple[str, str]] = field(default_factory=list)
    """(source id, capitalised stem) when no dictionary writes the form lower-case as a word."""
    verbal_adverb: tuple[str, str, str] | None = None
    """(stem, dictionary, verb) when only one dictionary's adjective slot of an -ći stem
    admits it and that stem is the verb's present participle (see
    :meth:`SerboCroatianSources.verbal_adverb_of`)."""
    diacritic_twin: str | None = None
    """The spelling with č, ć, š, ž, đ that two sources have, when only one dictionary has
    this one (see :meth:`SerboCroatianSources.diacritic_twin`)."""
    infinitive_stem: tuple[str, str] | None = None
    """(stem, dictionary) when only that dictionary's adjective slots of one stem admit the
    form and the stem is a verb's infinitive (see :meth:`SerboCroatianSources.infinitive`):
    hunspell-hr's odmahnuti/140 declined as if -ti were a definite adjective's -i."""
    intransitive: tuple[str, str, str] | None = None
    """(stem, dictionary, verb) when only that dictionary's adjective slots of one stem
    admit the form and the stem is the passive participle of a verb apertium has only as
    intransitive (see :meth:`SerboCroatianSources.intransitive_verb`)."""
    ekavian_twin: str | None = None
    """The ekavian spelling apertium has as a word, when only one dictionary spells this
    ijekavian ne- form (*nevjerovatno*: *neverovatno*; see
    :meth:`SerboCroatianSources.ekavian_twin`)."""
    fleeting_a: tuple[str, str, str] | None = None
    """(stem, dictionary, short form) when only that dictionary's adjective slots of one
    -an stem admit the form, which keeps the a the stem's short form drops (*sumarana*
    beside *sumarna*; see :meth:`SerboCroatianSources.fleeting_a`)."""
    pre_derivation: str | None = None
    """The pre- verb or noun the sources derive a pre- adjective of this form from
    (*prenosiv*: *prenositi*), when apertium also reads it as an elative; see
    :meth:`SerboCroatianSources.pre_derivation`."""
    hyper_ijekavian: str | None = None
    """The spelling with e that the ijekavian sources have, when only one dictionary
    spells this form with je or ije in its place (*zavjesti*: *zavesti*; see
    :meth:`SerboCroatianSources.ijekavian_with_e`)."""
    possessive_suffix: tuple[str, str] | None = None
    """(possessive, the right spelling) when every admitting reading is a possessive
    adjective in -ov after a palatal consonant or c (*ježov*: *ježev*; see
    :func:`wrong_possessive_suffix`)."""
    compound_elative: str | None = None
    """The gradable adjective a pre- headword only apertium has is the elative of
    (*prerigidan*: *rigidan*; see :meth:`SerboCroatianSources.compound_elative`)."""


#: The shortest first part and head of a compound apertium lists that a dictionary's head
#: word vouches for (ne- + plemić; makro- + jezik): see
#: :meth:`SerboCroatianSources.compound_head`
MIN_COMPOUND_PART = 2
MIN_COMPOUND_HEAD = 4
#: How many of the dictionaries' own stems a first part must make of another stem to be
#: one the language builds compounds with (makro-, staro-, anti-, su-)
MIN_PART_USES = 3


#: The nominative endings of a relational adjective in -ski, -čki, -ški, -ćki (*trilionski*,
#: *pobočnički*) and the tags of each (its definite positive: such adjectives have no
#: indefinite form); -ska and -ske also spell oblique cases, the nominative is enough
RELATIONAL_NOMINATIVES: dict[str, tuple[Tags, ...]] = {
    "i": (("adj", "pst", "ma", "sg", "nom", "def"), ("adj", "pst", "ma", "pl", "nom", "def")),
    "a": (("adj", "pst", "f", "sg", "nom", "def"), ("adj", "pst", "nt", "pl", "nom", "def")),
    "o": (("adj", "pst", "nt", "sg", "nom", "def"),),
    "e": (("adj", "pst", "f", "pl", "nom", "def"),),
}
#: What a relational adjective's stem ends in before its ending
RELATIONAL_SUFFIXES = ("sk", "čk", "šk", "ćk")
#: The dictionaries that list places' names in lower case with the flags that derive their
#: adjectives (sr_RS: реповац/.., србија/1206): a -ski form under a stem there may be a
#: place's adjective whatever common noun shares the stem's spelling (*limski* of the river
#: Lim, under *lim*, tin), so their -ski forms are not read as a noun's
PLACE_STEMS_IN_LOWER_CASE = frozenset({"hunspell-sr"})


def relational_spellings(noun: str) -> frozenset[str]:
    """The masculines of the relational adjective in -ski a noun makes: its stem (without
    a final vowel) + -ski (*brodski*, *imitacijski*), + -ki after č and š (*skretački*),
    k and c turned into č (*pobočnički*, *sladokusački* of *sladokusac*, *seljački* of
    *seljak*), g and h into š (*psihološki*). Not -anski,
    -janski, -ištanski: those are the adjectives of places and their inhabitants, which
    hunspell-sr files under a common noun of the same spelling (*crkvanski*,
    *ljubištanski*)."""
    stem = noun[:-1] if noun[-1:] in VOWELS else noun
    if len(stem) < 2:
        return frozenset()
    out = {f"{stem}ski"}
    last = stem[-1]
    if last in "čš":
        out.add(f"{stem}ki")
    if last in "kc":
        out.add(f"{stem[:-1]}čki")
    if last in "gh":
        out.add(f"{stem[:-1]}ški")
    return frozenset(out)


def relational_nouns(adjective: str) -> list[str]:
    """The nouns a relational adjective's masculine may be made of, the inverse of
    :func:`relational_spellings`: the stem before -ski, with the č, š before -ki kept or
    turned back into k, c, g, h (*svjedočki*: *svjedok*, *otkupljivački*: *otkupljivač*,
    *jahtaški*: *jahtaš*), with no final vowel or with -a, -o, -e (*rapsodijski*:
    *rapsodija*). Candidates only: the caller checks which of them is a noun."""
    if adjective.endswith(("čki", "ški")):
        stem = adjective[:-3]
        turned = "kc" if adjective[-3] == "č" else "gh"
        bases = [adjective[:-2], *(stem + c for c in turned)]
    elif adjective.endswith("ski"):
        bases = [adjective[:-3]]
    else:
        return []
    return [base + vowel for base in bases if len(base) >= 2 for vowel in ("", "a", "o", "e")]


#: The nominative endings of a possessive adjective (-in of a-stems, -ov/-ev of consonant
#: stems) and the tags of each; longest first. -ina/-ine/-ini also spell oblique cases of
#: the same adjective: the nominative reading is enough for the rule book.
POSSESSIVE_NOMINATIVES: dict[str, tuple[Tags, ...]] = {
    f"{family}{ending}": tuple(("adj", "pos", gender, number, "nom") for gender, number in slots)
    for ending, slots in (("a", (("f", "sg"), ("nt", "pl"))), ("o", (("nt", "sg"),)),
                          ("i", (("m", "pl"),)), ("e", (("f", "pl"),)))
    for family in ("in", "ov", "ev")
} | {family: (("adj", "pos", "m", "sg", "nom"),) for family in ("in", "ov", "ev")}
#: The doublets of a loan verb's suffix (koncentrisati, koncentrirati; manifestovati,
#: manifestirati): the same verb, the Serbian and the Croatian spelling
LOAN_VERB_SUFFIXES = ("isati", "irati", "ovati")
#: The shortest stem before such a suffix that makes a doublet (op-isati, nad-isati and
#: op-irati, nad-irati are other verbs)
MIN_LOAN_VERB_STEM = 4


def spelling_twins(verb: str) -> set[str]:
    """The other spellings of the same verb: the loan suffix's doublets
    (:data:`LOAN_VERB_SUFFIXES`: *koncentrisati*, *koncentrirati*) and the other yat
    reflex (*crveneti*, *crvenjeti*; *osmjeliti*, *osmeliti*). apertium tags each spelling
    as a lemma of its own, and its reflexive mark on one of them is no fact about the
    verb when another spelling of it is transitive or intransitive."""
    twins: set[str] = set()
    for suffix in LOAN_VERB_SUFFIXES:
        stem = verb[: -len(suffix)]
        if verb.endswith(suffix) and len(stem) >= MIN_LOAN_VERB_STEM:
            twins |= {stem + other for other in LOAN_VERB_SUFFIXES if other != suffix}
    for m in IJEKAVIAN_YAT.finditer(verb):
        twins.add(f"{verb[:m.start()]}e{verb[m.end():]}")
    for m in EKAVIAN_E.finditer(verb):
        twins |= {f"{verb[:m.start()]}{reflex}{verb[m.end():]}" for reflex in ("je", "ije")}
    return twins


#: The readings of an adjective's short form (*inkompresibilan*: the indefinite masculine
#: nominative singular, animate and inanimate, as apertium tags *sretan*)
SHORT_FORM_TAGS: tuple[Tags, ...] = tuple(("adj", "pst", gender, "sg", "nom", "ind")
                                          for gender in ("ma", "mi"))
#: The consonants a possessive's base may turn (majka: majčin, stric: stričev, snaha: snašin)
PALATAL = {"k": "č", "g": "ž", "h": "š", "c": "č"}
#: The palatal consonants after which a consonant stem's possessive takes -ev, not -ov
#: (kraljev, mužev, stričev, Đorđev); Latin lj, nj, dž end in j, ž
SOFT_FINALS = frozenset("jčćđžš")


def possessive_families(base: str) -> frozenset[str]:
    """The possessive suffixes of a consonant stem's base: -ev after a palatal consonant
    (the ending's o turns into e there: *kraljev*, *mužev*, *stričev*), both after r
    (*carev*, *pisarev* beside *pisarov*), -ov after any other (*bratov*, *brodov*); none
    after c, which turns into č first (*stric*: *stričev*, never *stricov*)."""
    if base.endswith("c"):
        return frozenset()
    if base.endswith("r"):
        return frozenset({"ov", "ev"})
    return frozenset({"ev"} if base[-1:] in SOFT_FINALS else {"ov"})


def wrong_possessive_suffix(admissible: Sequence[HbsAnalysis]) -> tuple[str, str] | None:
    """(possessive, its right spelling) when every reading in ``admissible`` is a
    possessive adjective (``adj pos``) spelled against the norm (:func:`right_possessive`).
    None when any reading is something else, or right."""
    if not admissible:
        return None
    wrong: tuple[str, str] | None = None
    for r in admissible:
        lemma = r.lemma.lower()
        right = right_possessive(lemma) if r.tags[:2] == ("adj", "pos") else None
        if right is None:
            return None
        wrong = (lemma, right)
    return wrong


def right_possessive(lemma: str) -> str | None:
    """The normative spelling of the possessive adjective ``lemma`` (its masculine
    nominative singular), or None when it is spelled right or not judged.

    * -ov whose base takes -ev (:func:`possessive_families`): apertium derives -ov from
      every masculine noun, after a palatal consonant too (*ježov*, *lakejov*,
      *ibermenšov* for *ježev*, *lakejev*, *ibermenšev*), and after a c that the
      possessive turns into č (*kepecov*: *kepečev*). An -ev after another consonant is
      not judged: some stems in -žd, -št take it (*duždev*).
    * -icin of a noun in -ica: the c turns into č before -in (*kraljica*: *kraljičin*,
      *korisnica*: *korisničin*), as the Serbian and the Croatian orthographies
      prescribe for the nouns in -ica, masculine and feminine; hunspell-sr's possessive
      flag does not turn it (*korisnicin*). Not after č, where the Serbian norm keeps c
      to avoid či-či (*devojčica*: *devojčicin*; the Croatian allows *devojčičin* too),
      nor after ć (*domaćica*), where usage is divided. Other stems in c (*ovca*, *braca*)
      and the -kin, -gin, -hin of an a-stem are not judged: some nouns keep their k, g, h
      (*bakin*, *kolegin*, *snahin*)."""
    base = lemma[:-2]
    if len(base) < 2:
        return None
    if lemma.endswith("ov"):
        if "ov" in possessive_families(base):
            return None
        return f"{base[:-1]}čev" if base.endswith("c") else f"{base}ev"
    if lemma.endswith("in") and base.endswith("ic") and base[-3:-2] not in ("č", "ć", ""):
        return f"{base[:-1]}čin"
    return None


#: The consonants a possessive's base turns before -in, -ev (majka: majčin, snaha: snašin,
#: stric: stričev, knez: kneževi), undone to find the noun it is made of
UNPALATAL = {"č": ("c", "k"), "ž": ("g", "z"), "š": ("h", "s")}
#: The motion suffixes that make a feminine of a person of a masculine noun (učitelj:
#: učiteljica, učenik: učenica, novinar: novinarka, Amerikanac: Amerikanka, student:
#: studentkinja, junak: junakinja), each with what the masculine adds to the stem left
#: once the suffix is taken off
MOTION_SUFFIXES = (("kinja", ("", "ac")), ("inja", ("",)), ("ica", ("", "ik")),
                   ("ka", ("", "ac", "in")))
#: The shortest stem a motion suffix is taken off (pas + ka is no feminine of pas)
MIN_MOTION_STEM = 4


def motion_feminines(masculine: str) -> list[str]:
    """The feminines a motion suffix may make of a masculine noun (:data:`MOTION_SUFFIXES`):
    the suffix after the stem, less what the masculine adds to it (*učitelj*:
    *učiteljica*, *učenik*: *učenica*, *kupac*: *kupkinja*, *građanin*: *građanka*)."""
    out: list[str] = []
    for suffix, adds in MOTION_SUFFIXES:
        for add in adds:
            if masculine.endswith(add) and len(masculine) - len(add) >= MIN_MOTION_STEM:
                out.append(masculine[: len(masculine) - len(add)] + suffix)
    return out


def possessive_bases(possessive: str) -> list[str]:
    """The nouns a masculine possessive may be made of, likeliest first: of an a-stem
    (-in: *majčin*, *sudijin*: *majka*, *sudija*), or of a consonant stem (-ov, -ev:
    *bratov*, *stričev*, with a fleeting a put back: *ijekavčev*: *ijekavac*); the
    consonant the suffix turned is undone (č: c, k; ž: g, z; š: h, s)."""
    stem = possessive[:-2]
    if len(stem) < 2 or possessive[-2:] not in ("in", "ov", "ev"):
        return []
    turned = [stem] + [stem[:-1] + c for c in UNPALATAL.get(stem[-1], ())]
    if possessive.endswith("in"):
        return [t + "a" for t in turned]
    return [b for t in turned for b in (t, f"{t[:-1]}a{t[-1]}")]


#: A passive participle's ending and its verb's infinitive ending (usporen: usporiti,
#: zamotan: zamotati, nadignut: nadignuti, zauzet: zauzeti, poslat: poslati); not -it,
#: -ast, -ovit (qualitative adjectives)
PARTICIPLE_INFINITIVES = (("nut", "nuti"), ("an", "ati"), ("at", "ati"), ("et", "eti"),
                          ("en", "iti"))
#: The endings of a passive participle and its verb's infinitive ending, with the iotation
#: of -iti verbs undone (prenaseljen: prenaseliti, prenošen: prenositi, preopterećen:
#: preopteretiti); longest first
PARTICIPLE_VERBS = tuple(sorted(
    (*PARTICIPLE_INFINITIVES,
        ("ljen", "liti"), ("njen", "niti"), ("pljen", "piti"), ("bljen", "biti"),
        ("vljen", "viti"), ("mljen", "miti"), ("šen", "siti"), ("žen", "ziti"),
        ("ćen", "titi"), ("đen", "diti"), ("ut", "uti")),
    key=lambda pair: -len(pair[0])))
#: The endings of an adjective made from a verb's present stem (prenosiv: prenosi,
#: prevarljiv: prevari); longest first
PRESENT_STEM_ENDINGS = ("ljiv", "jiv", "iv")
#: The endings of a relational adjective (predioničarski, preistorijski, preolimpijski):
#: it names what something belongs to and has no degrees, so a pre- in front of it means
#: "before" (pre-Christian), never "very"
RELATIONAL_LEMMA = ("ski", "čki", "ški", "ćki")


def present_plural(tags: Tags) -> bool:
    """Do ``tags`` read a verb's third person plural present (*lociraju*), the stem of
    its present participle (*locirajući*)?"""
    return bool(tags[:1]) and tags[0] in VERBAL and "pres" in tags and "p3" in tags \
        and "pl" in tags


def noun_nominative(tags: Tags) -> bool:
    """Tags of a noun's nominative singular."""
    return tags[:1] == ("n",) and "sg" in tags and "nom" in tags


def _citation_tags(tags: tuple[str, ...]) -> bool:
    """A dictionary's headword slot: a noun's nominative singular; an adjective's, pronoun's
    or number's masculine nominative singular in the positive degree."""
    if not tags:
        return False
    if tags[0] == "n":
        return "sg" in tags and "nom" in tags
    return tags[0] in ("adj", "prn", "num") and "sg" in tags and "nom" in tags and \
        bool({"m", "ma", "mi"} & set(tags)) and not {"comp", "sup", "ssup"} & set(tags)


def _detect_cyrillic(dic: Path) -> bool:
    with open(dic, encoding="utf-8", errors="replace") as fh:
        for _, line in zip(range(200), fh, strict=False):
            if any("\u0400" <= ch <= "\u04ff" for ch in line):
                return True
    return False


def hunspell_source(dic: Path, aff: Path) -> HunspellSource:
    """Describe a .dic/.aff pair: source id from the file name, script from the content."""
    name = Path(dic).name.lower()
    source_id = HUNSPELL_SR if name.startswith("sr") else (
        HUNSPELL_HR if name.startswith("hr") else "hunspell")
    return HunspellSource(source_id, Path(dic), Path(aff), _detect_cyrillic(Path(dic)))


@dataclass
class _Readings:
    """One key's analyses from every source, as :meth:`SerboCroatianSources.candidate`
    collects them."""

    analyses: list[HbsAnalysis] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    tagged_by: list[tuple[str, str]] = field(default_factory=list)
    capitalised_by: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class _SlotFacts:
    """The facts the vetoes on one dictionary's slots read (see the fields of the same
    names on :class:`FormCandidate`)."""

    adverb: tuple[str, str, str] | None = None
    twin: str | None = None
    infinitive_stem: tuple[str, str] | None = None
    intransitive: tuple[str, str, str] | None = None
    fleeting: tuple[str, str, str] | None = None
    hyper: str | None = None


class SerboCroatianSources:
    """The evidence of one build: apertium's forms, the learned slots, every key."""

    def __init__(self, generators: Sequence[Path], hunspell: Sequence[HunspellSource],
                 lists: ReviewedLists, rank: Callable[[str, str, Tags], int],
                 log: Callable[[str], None] = lambda _m: None) -> None:
        """``rank`` orders apertium's analyses while the generators are walked, so only the
        best of each (form, lemma) is kept (:func:`.analysis.walk_rank`)."""
        self.generators = list(generators)
        self.hunspell = list(hunspell)
        self.lists = lists
        self.rank = rank
        self.log = log
        self.stats: dict[str, Any] = {}
        #: verbs that exist only with *se*: apertium's, adjusted by the reviewed lists;
        #: known once :meth:`load` has walked every infinitive
        self.reflexive_only: frozenset[str] = frozenset()
        self._empty()

    def _empty(self) -> None:
        """The evidence tables, empty: before :meth:`load`, and again once every key is
        judged (:meth:`release`)."""
        self.ap = ApertiumForms()
        self.tiler = LatinToCyrillic()
        self.keys: dict[str, KeyEvidence] = {}
        self._lemmas: dict[str, bool] = {}
        self._citation_index: dict[str, list[str]] | None = None
        self._stems: set[str] = set()       # every dictionary's lower-case stems
        self._parts: Counter[str] | None = None
        self._participles: dict[str, bool] = {}
        self._comparatives: dict[str, str | None] = {}
        self._adverbs: dict[str, str | None] = {}
        self._plain: dict[str, list[str]] | None = None
        self._variety_notes: dict[int, str] = {}   # generator bits -> "ekavian, ijekavian"

    def release(self) -> None:
        """Drop the evidence once the last key is judged (the stats stay: the manifest
        reads them).

        It is most of a build's memory (apertium's forms, every key's witnesses, the
        learned tiles), and nothing after the judging reads it: freed here, its pages are
        what the release writer, the diff and the meanings scan reuse, instead of adding
        their own on top (a full Kvizovka build's peak came from that sum).
        """
        self._empty()

    # -- reading the sources -------------------------------------------------------------
    def load(self) -> None:
        """Walk apertium, learn hunspell's slots, collect every key."""
        started = time.monotonic()
        self.log(f"kvizovka: walking {len(self.generators)} apertium generator(s)")
        ap = self.ap = apertium.load(self.generators, self.rank)
        apertium_ref = ap.reflexive_only()
        twinned = {lemma for lemma in apertium_ref if any(
            ap.inf_valency.get(twin, set()) & {"tv", "iv"} for twin in spelling_twins(lemma))}
        reflexive = (apertium_ref - twinned - set(self.lists.not_reflexive_only)) | set(
            self.lists.reflexive_only)
        self.reflexive_only = frozenset(reflexive)
        self.stats["apertium"] = {
            "pairs": ap.pairs, "forms": len(ap.forms), "varieties": ap.varieties,
            "reflexive_only_lemmas": len(apertium_ref),
            "reflexive_only_but_a_twin_is_not": len(twinned),
            "reflexive_only_after_lists": len(reflexive),
            "walk_seconds": round(time.monotonic() - started, 1),
        }

        self.log("kvizovka: learning hunspell paradigm slots from apertium's tags")
        learners = [SlotLearner() for _ in self.hunspell]
        spools = [FormSpool() for _ in self.hunspell]   # expanded once, read twice
        seen: dict[int, tuple[int, frozenset[Tags]] | None] = {}
        learn, learn_word, observe = self.tiler.learn, self.tiler.learn_word, self._observe
        with self._entries_bar("kvizovka: learning hunspell paradigm slots") as bar:
            for i, src in enumerate(self.hunspell):
                learner = learners[i]
                for hf in spools[i].record(src, on_entries=bar.advance):
                    if hf.cyrillic is not None:
                        learn(hf.cyrillic)
                    learn_word(hf.latin)
                    if not hf.stem[:1].isupper():     # not hf.proper, without the call
                        observe(learner, hf, seen)
        del seen
        for form in track(ap.forms, "kvizovka: learning tile splits from apertium's forms",
                          every=10_000):
            self.tiler.learn_word(form)

        self.log("kvizovka: judging hunspell forms")
        with self._entries_bar("kvizovka: judging hunspell forms") as bar:
            for i, src in enumerate(self.hunspell):
                self._collect_hunspell(i, src, learners[i], spools[i].replay(bar.advance))
        tiled: Counter[str] = Counter()
        for form in track(ap.forms, "kvizovka: tiling apertium's forms", every=10_000):
            key, how = self.tiler.key_and_how(form)
            tiled[how] += 1
            entry = self.keys.get(key)
            if entry is None:
                entry = self.keys[key] = KeyEvidence()
            entry.sources |= APERTIUM_BIT
        self.stats["tiling_of_latin_apertium_forms"] = dict(sorted(tiled.items()))
        self.stats["split_spellings_learned"] = len(self.tiler.split)
        self.stats["keys"] = len(self.keys)

    def _observe(self, learner: SlotLearner, hf: HForm,
                 seen: dict[int, tuple[int, frozenset[Tags]] | None]) -> None:
        """Teach ``learner`` what apertium says about one hunspell form (see SlotLearner).

        ``seen`` keeps, per apertium entry (by ``id``: the walked forms stay alive while
        the slots are learned), the rank and normalised tags it teaches: the same entry
        is asked by every dictionary form of its spelling and stem."""
        ap = self.ap
        by_lemma = ap.forms.get(hf.latin)
        if not by_lemma:
            if not hf.bare and hf.stem in ap.lemmas:
                learner.observe_absent(slot_keys(hf))   # apertium knows the stem, not this
            return
        entry = by_lemma.get(hf.stem)
        if entry is not None:
            taught = seen.get(id(entry))
            if taught is None:
                taught = seen[id(entry)] = (
                    entry.rank, frozenset(normalise(t) for t in entry.tags))
            learner.observe(slot_keys(hf), taught[0], taught[1], same_lemma=True,
                            form=hf.latin)
            return
        # another lemma's analyses: a weaker vote; proper nouns cannot teach a lower-case stem
        key = id(by_lemma)
        if key in seen:
            taught = seen[key]
        else:
            common = [e for lemma, e in by_lemma.items() if not lemma[:1].isupper()]
            taught = None
            if common:
                best = min(e.rank for e in common)
                taught = (best, frozenset(normalise(t) for e in common if e.rank == best
                                          for t in e.tags))
            seen[key] = taught
        if taught is None:
            return
        learner.observe(slot_keys(hf), taught[0], taught[1], same_lemma=False,
                        stem_known=hf.stem in ap.lemmas, form=hf.latin)

    def _entries_bar(self, description: str) -> Progress:
        """A bar over the .dic entries of every hunspell dictionary (their declared count)."""
        total = sum(declared_entries(src.dic) or 0 for src in self.hunspell)
        return Progress(description, total=total or None, unit="entries")

    def _collect_hunspell(self, i: int, src: HunspellSource, learner: SlotLearner,
                          forms: Iterable[HForm]) -> None:
        """Add every form of one dictionary (``forms``: its :class:`FormSpool`'s replay)
        to ``self.keys`` as a :class:`Witness`."""
        bit = 2 << i
        slots: dict[Slot, SlotVerdict | None] = {}
        own_slots: dict[Slot, SlotVerdict | None] = {}
        stems: dict[str, str] = {}
        kinds: Counter[str] = Counter()
        readings: Counter[str] = Counter()   # own_lemma, a_nominative: beside their kind
        respelled = 0
        for hf, a_nominative in _with_a_nominatives(iter(forms)):
            key = self.tiler.key(hf.latin)
            if hf.cyrillic is not None and key != hf.cyrillic:
                respelled += 1   # sr_RS's digraph duplicate of a split spelling
            stem = stems.get(hf.stem)
            if stem is None:
                stem = stems[hf.stem] = hf.stem
                if stem.islower():
                    self._stems.add(stem)
            verdict: SlotVerdict | None = None
            own_lemma = False
            if hf.proper:
                kind = Kind.ACRONYM if len(stem) > 1 and stem.isupper() else Kind.PROPER
            elif self.apertium_knows(hf.latin) and not self.participle_stem(stem):
                kind = Kind.TAGGED
                own_lemma = (stem not in self.ap.lemmas and not self.comparative_stem(stem)
                             and (self.only_nominal(hf.latin) or self.noun_spelling(stem)))
            else:
                kind = Kind.SLOT
            if kind == Kind.SLOT or own_lemma:
                keys = slot_keys(hf)
                # a prefixed bare stem (ne+stem) falls back on the stem's own flags
                slot = (*keys, hf.stem_flags) if hf.prefix and len(hf.slot) == 3 else tuple(keys)
                # own-lemma verdicts are cached apart: a slot's fallback verdict depends on
                # the first form asking (by_ending), and the slot forms must get the same
                # verdicts as without this reading
                cache = own_slots if own_lemma else slots
                if slot not in cache:
                    cache[slot] = learner.verdict(keys, hf)
                verdict = cache[slot]
            attested = kind not in (Kind.PROPER, Kind.ACRONYM)
            kinds[kind.name.lower() if kind != Kind.SLOT else "slot_learned"
                  if verdict is not None else "slot_unknown"] += 1
            witnesses = [Witness(i, stem, kind, None if own_lemma else verdict)]
            if own_lemma and verdict is not None:
                readings["own_lemma"] += 1
                witnesses.append(Witness(i, stem, Kind.OWN_LEMMA, verdict))
            if a_nominative:
                readings["a_nominative"] += 1
                witnesses.append(Witness(i, stem, Kind.A_NOMINATIVE))
            entry = self.keys.get(key)
            if entry is None:
                entry = self.keys[key] = KeyEvidence()
            entry.sources |= bit
            if attested:
                entry.attested = True
                if not entry.as_word and not self._derivation_base(hf, learner):
                    entry.as_word = True
            for witness in witnesses:
                if witness not in entry.witnesses:
                    entry.witnesses += (witness,)
        self.stats.setdefault("hunspell", {})[src.source_id] = {
            "forms": sum(kinds.values()), "analyses": dict(sorted(kinds.items())),
            "other_lemma_readings": dict(sorted(readings.items())),
            "slots_learned": sum(1 for v in slots.values() if v is not None),
            "slots_unknown": sum(1 for v in slots.values() if v is None),
            "respelled_to_split": respelled,
        }

    @staticmethod
    def _derivation_base(hf: HForm, learner: SlotLearner) -> bool:
        """Is this form a bare stem listed only to derive other words from it?

        hunspell-sr lists place names in lower case with flags that only derive
        adjectives (србија/1206: српски, српског, ...): the bare stem is then no word of
        its own, and a dictionary that has it so still writes the name with a capital.
        """
        return hf.bare and bool(hf.stem_flags) and not any(
            learner.inflectional(f) for f in hf.stem_flags)

    # -- facts about forms and lemmas ----------------------------------------------------
    def apertium_knows(self, form: str) -> bool:
        """Does apertium tag this form as a form of some common (lower-case) lemma?

        Where it does, its analyses are the grammar of the form and hunspell only attests
        it: a slot guess must not admit *ljepša*, which apertium knows as a comparative.
        """
        by_lemma = self.ap.forms.get(form)
        if by_lemma:
            for lemma in by_lemma:      # asked for every hunspell form: a plain loop
                if not lemma[:1].isupper():
                    return True
        return False

    def only_nominal(self, form: str) -> bool:
        """Are all apertium's readings of the form nominal (nouns, adjectives, pronouns,
        numbers)? Only then can the dictionary's own lemma add a nominative: where
        apertium reads a verb form (*ždere*, *srdiš*), hunspell's noun stems of the same
        spelling are mostly its own inventions (*ždera*)."""
        return all(tags[:1] and tags[0] not in VERBAL
                   for entry in self.ap.forms.get(form, {}).values() for tags in entry.tags)

    def noun_spelling(self, stem: str) -> bool:
        """Does apertium read the stem's own spelling as a noun, and only nominally?

        A dictionary's noun lemma that apertium lacks keeps its noun slots (:class:`Kind`'s
        ``OWN_LEMMA``) on a form apertium also reads as a verb when the lemma's citation
        form is such a spelling: hunspell-sr's *planeta*, which apertium knows as the
        genitive of the masculine doublet *planet*, has its nominative plural *planete*,
        though apertium reads that spelling as *planet*'s accusative and *planuti*'s present
        too. A stem apertium does not read so (*ždera*, beside the verb form *ždere*) shows
        no noun of its own."""
        low = stem.lower()
        return self.only_nominal(low) and any(
            tags[:1] == ("n",) for entry in self.ap.forms.get(low, {}).values()
            for tags in entry.tags)

    def participle_stem(self, stem: str) -> bool:
        """Is a hunspell stem something apertium knows only as a verb's participle?

        hunspell lists many participles as adjectives of their own (*sakriven*,
        *impresioniran*, *odlučujući*), apertium only as forms of the verb. A dictionary
        entry is the better witness of adjectival use, so for such stems the hunspell slot
        decides even where apertium tags the form (as a participle).
        """
        got = self._participles.get(stem)
        if got is None:
            by_lemma = self.ap.forms.get(stem.lower(), {})
            got = bool(by_lemma) and stem not in by_lemma and all(
                tags[0] in VERBAL and ("pp" in tags or "pprs" in tags)
                for entry in by_lemma.values() for tags in entry.tags)
            self._participles[stem] = got
        return got

    def comparative_stem(self, stem: str) -> bool:
        """Is a hunspell stem a comparative (or superlative) entry? See
        :meth:`comparative_of`."""
        return self.comparative_of(stem) is not None

    def comparative_of(self, stem: str) -> str | None:
        """The lemma a comparative entry's analyses name, or None for a stem that is no
        comparative.

        hunspell-hr lists comparatives as entries of their own (*dramatičniji/UB,UM*) and
        inflects them with the flags of positive adjectives; the slot then says "positive",
        but every form of such a stem (*dramatičnija*, and the non-word *dramatičnijo*) is
        a comparative. Where apertium knows the stem only as a comparative or superlative,
        the lemma is the stem itself.

        The same entries apertium does not know at all (hunspell-hr's *uzbuđeniji*,
        *izvodljiviji*, *kabastiji*: some 1,400 admitted forms in the 2026 build) are
        comparatives by their shape: the positive's stem + -iji, where that stem is a
        positive adjective (or a passive participle, which the dictionaries list as
        adjectives) of some source, or its feminine in -a is (*podliji*: *podla*, of
        *podao*); the lemma is that positive. A possessive in -iji is no comparative: its
        base is a noun (*kokošiji*: *kokoš*) or no word (*dečiji*).
        """
        if stem in self._comparatives:
            return self._comparatives[stem]
        got: str | None = None
        by_lemma = self.ap.forms.get(stem.lower(), {})
        if by_lemma:
            if stem not in by_lemma and all("comp" in tags or "sup" in tags
                                            for entry in by_lemma.values()
                                            for tags in entry.tags):
                got = stem
        elif stem.endswith("iji") and len(stem) > 6:
            base = stem[:-3].lower()
            got = next((p for p in (base, base + "a") if self.positive_adjective(p)), None)
        self._comparatives[stem] = got
        return got

    def read_as(self, form: str, test: Callable[[Tags], bool],
                apertium_also: Callable[[Tags], bool] | None = None) -> bool:
        """Does a source read ``form`` with tags that pass ``test``: one of apertium's
        analyses (or one passing ``apertium_also``), or a dictionary's learned slot?"""
        if any(test(tags) or (apertium_also is not None and apertium_also(tags))
               for entry in self.ap.forms.get(form, {}).values() for tags in entry.tags):
            return True
        ev = self.keys.get(self.tiler.key(form))
        return ev is not None and any(
            w.slot is not None and any(map(test, w.slot.tag_sets))
            for w in ev.witnesses if w.kind == Kind.SLOT)

    def positive_adjective(self, form: str) -> bool:
        """Does a source read ``form`` as a positive adjective: apertium (or as a passive
        participle), or a dictionary's learned slot?"""
        return self.read_as(form, lambda t: t[:1] == ("adj",) and "pst" in t,
                            lambda t: bool(t[:1]) and t[0] in VERBAL and "pp" in t)

    def verbal_adverb_of(self, stem: str) -> str | None:
        """The verb whose present participle (glagolski prilog sadašnji) an -ći stem is.

        The participle is the third person plural of the present + -ći (*lociraju* ->
        *locirajući*); the verb is the lemma apertium gives that present form, or, for a
        verb only a dictionary has, the stem of the dictionary's verb slot that reads it
        (*eksternalizuju* of *eksternalizovati*). hunspell-sr gives hundreds of such
        participles adjective flags (*locirajući*, *sumirajući*); the rule book admits
        verbs only in the infinitive, so one dictionary's slot is not evidence of an
        adjective (see :mod:`.rules`). A compound no verb makes (*brzovezujući*: no
        *brzovezuju*) is an adjective of its own.
        """
        if not stem.endswith("ći") or len(stem) < 5:
            return None
        if stem not in self._adverbs:
            present = stem[:-2]
            verbs = sorted({lemma for lemma, e in self.ap.forms.get(present, {}).items()
                            for tags in e.tags if present_plural(tags)})
            if not verbs:
                ev = self.keys.get(self.tiler.key(present))
                verbs = sorted({w.stem for w in (ev.witnesses if ev is not None else ())
                                if w.kind == Kind.SLOT and w.slot is not None
                                and any(map(present_plural, w.slot.tag_sets))})
            self._adverbs[stem] = verbs[0] if verbs else None
        return self._adverbs[stem]

    def noun_word(self, noun: str) -> bool:
        """Is ``noun`` a word a dictionary has (not a bare stem listed only to derive from)
        that a source reads as a noun's nominative singular?"""
        entry = self.keys.get(self.tiler.key(noun))
        return entry is not None and entry.as_word and self.read_as(noun, noun_nominative)

    def passive_verb(self, verb: str) -> bool:
        """Does a source have ``verb`` as an infinitive of a verb with a passive participle:
        not one apertium has only as intransitive (``iv``), which makes none?"""
        return self.infinitive(verb) and self.ap.inf_valency.get(verb) != {"iv"}

    def infinitive(self, form: str) -> bool:
        """Does a source read ``form`` as a verb's infinitive: apertium, or a dictionary's
        learned slot (``vblex.inf``)?"""
        return self.read_as(form, lambda t: bool(t[:1]) and t[0] in VERBAL and "inf" in t)

    def intransitive_verb(self, stem: str) -> str | None:
        """The verb ``stem`` would be the passive participle of, when apertium has that
        verb's infinitive only as intransitive (``iv``; never ``tv`` nor ``ref``).

        An intransitive verb has no passive participle: *dejstvovati*, *reketariti*,
        *bljesnuti* give no *dejstvovan*, *reketaren*, *bljesnut*, yet hunspell-sr and
        hunspell-hr put adjective flags on such stems. The participle's ending names the
        infinitive (-nut: -nuti; -an, -at: -ati; -et: -eti; -en: -iti, with the iotation
        undone: *beseđen*: *besediti*, *faljen*: *faliti*; :data:`PARTICIPLE_VERBS`). A
        qualitative adjective in -an whose a is fleeting (*stasan*: *stasna*) is no
        participle.
        """
        low = stem.lower()
        if len(low) < 5:
            return None
        if low.endswith("an") and self.keys.get(self.tiler.key(low[:-2] + "na")) is not None:
            return None
        for ending, infinitive in PARTICIPLE_VERBS:
            if not low.endswith(ending):
                continue
            verb = low[: -len(ending)] + infinitive
            if self.ap.inf_valency.get(verb) == {"iv"}:
                return verb
        return None

    def reflexive_verb(self, lemma: str) -> bool:
        """Does the verb ``lemma`` exist only with *se*: it is one of
        :attr:`reflexive_only`, or apertium does not know it and its ekavian spelling (one
        ijekavian yat reflex written e: *osmijehnuti*, *podsmijevati*) is one.

        apertium's verbs carry the reflexive mark; hunspell-sr lists some of them only in
        their ijekavian spelling, without it."""
        if lemma in self.reflexive_only:
            return True
        if lemma in self.ap.inf_valency:
            return False
        return any(f"{lemma[:m.start()]}e{lemma[m.end():]}" in self.reflexive_only
                   for m in IJEKAVIAN_YAT.finditer(lemma))

    def pre_derivation(self, lemma: str, bases: Iterable[str] = ()) -> str | None:
        """What the sources make the pre- adjective ``lemma`` of, when it is no elative
        ("very X") of its base adjective; None when they make it of nothing else.

        apertium generates a pre- elative (<ssup>) of thousands of adjectives, and some of
        those spellings are words of their own with another meaning:

        * the adjective of a pre- verb's present stem: *prenosiv* "transferable" of
          *prenositi* (a source has *prenosi* as its present), *prevarljiv* of *prevariti*;
        * the passive participle of a pre- verb that is not only intransitive (a source
          has the infinitive the ending names, :data:`PARTICIPLE_VERBS`): *preuzet* of
          *preuzeti*, *prenaseljen* of *prenaseliti*, *prepredan* of *prepredati*; not an
          -an adjective whose a is fleeting (*prekasan*: *prekasna*, "too late", though
          *prekasati* is a verb);
        * the adjective of a pre- noun, the lemma less its -an, -en (*premoćan* of
          *premoć*), read by a source as a noun's nominative singular;
        * the pre- form of relational adjectives (``bases``, the adjectives apertium makes it
          the elative of, all :data:`RELATIONAL_LEMMA`: *preistorijski* of *istorijski*),
          which have no degrees: that pre- means "before" (*preniski* of *nizak* is an
          elative).

        An elative has none of these: *prelep*, *preskup* name no pre- verb or noun."""
        low = lemma.lower()
        if not low.startswith("pre") or len(low) < 6:
            return None
        bases = sorted(bases)
        if bases and all(b.lower().endswith(RELATIONAL_LEMMA) for b in bases):
            return f"pre- ('before') + the relational adjective {bases[0]}, which has no degrees"
        for ending in PRESENT_STEM_ENDINGS:
            if low.endswith(ending) and len(low) - len(ending) > 3:
                present = low[: -len(ending)] + "i"
                verbs = sorted({lemma for lemma, e in self.ap.forms.get(present, {}).items()
                                for tags in e.tags if tags[:1] and tags[0] in VERBAL
                                and "pres" in tags and "p3" in tags and "sg" in tags})
                if verbs:
                    return f"the verb {verbs[0]} (present {present})"
                break
        # an -an adjective whose a is fleeting (prekasan: prekasna) is no participle
        fleeting = low.endswith("an") and self.keys.get(
            self.tiler.key(low[:-2] + "na")) is not None
        for ending, infinitive in PARTICIPLE_VERBS:
            if low.endswith(ending) and len(low) - len(ending) > 3 and not (
                    fleeting and ending == "an"):
                verb = low[: -len(ending)] + infinitive
                if self.passive_verb(verb):
                    return f"the verb {verb}, as its passive participle"
        if low.endswith(("an", "en")) and len(low) > 6:
            noun = low[:-2]
            if self.read_as(noun, noun_nominative):
                return f"the noun {noun}"
        return None

    def fleeting_a(self, stem: str, latin: str) -> str | None:
        """The short form (*sumarna*) of an -an adjective ``stem`` (*sumaran*) whose a is
        fleeting, when ``latin`` is the stem + one vowel, keeping that a (*sumarana*).

        The a is fleeting when a dictionary has the stem's -na form as a word that a
        source reads as a positive adjective; the stem is no passive participle (whose a
        stays: *pisan*, *pisana*) when no source has the verb in -ati it would be the
        participle of (*obavezan* is *obavezati*'s as well as the adjective *obavezan*),
        or apertium has that verb only as intransitive, which makes none (*drijeman*,
        *drijemna* "drowsy": *drijemati* gives no *drijemano*)."""
        low = stem.lower()
        if len(low) < 5 or not low.endswith("an") or len(latin) != len(low) + 1 \
                or not latin.startswith(low) or latin[-1] not in "aeio":
            return None
        short = low[:-2] + "na"
        ev = self.keys.get(self.tiler.key(short))
        if ev is None or not ev.attested or not self.positive_adjective(short) \
                or self.passive_verb(low[:-2] + "ati"):
            return None
        return short

    def diacritic_twin(self, latin: str, stems: set[str]) -> str | None:
        """A spelling two sources have that is ``latin`` with diacritics where it has none,
        as a form of a lemma spelled like one of ``stems`` (the form's own) with them.

        hunspell-sr has typos without the diacritics (*uvrstavanje* beside its own
        *uvrštavanje*); a form only one dictionary has whose č/ć/š/ž/đ spelling two
        sources have, in the same lemma's paradigm, is that spelling's typo. The lemma
        must correspond: *mucice* (of *mucica*) is no typo of *mučiće* (of *mučić*).
        """
        plain_stems = {s.lower().translate(STRIP_DIACRITICS) for s in stems}
        for twin in self._plain_spellings().get(latin, ()):
            if len(twin) == len(latin) and all(
                    a == b or (b in PLAIN_LETTERS and a in DIACRITICS)
                    for a, b in zip(twin, latin, strict=True)) and any(
                    lemma.lower() not in stems and lemma.lower().translate(STRIP_DIACRITICS)
                    in plain_stems for lemma in self._lemmas_of(twin)):
                return twin
        return None

    def _plain_spellings(self) -> dict[str, list[str]]:
        """The spellings two sources have with č, ć, š, ž or đ, by their spelling without
        (built once, on first use)."""
        if self._plain is None:
            plain: dict[str, list[str]] = {}
            for key, ev in self.keys.items():
                if ev.attested and (ev.sources & (ev.sources - 1)):   # two or more bits
                    word = to_latin(key)
                    stripped = word.translate(STRIP_DIACRITICS)
                    if stripped != word:
                        plain.setdefault(stripped, []).append(word)
            self._plain = plain
        return self._plain

    def ekavian_twin(self, latin: str) -> str | None:
        """``latin`` with one ijekavian yat reflex spelled ekavian (-je-, -ije- as -e-),
        when apertium has that spelling as a word.

        hunspell-sr spells a few adjectives ijekavian and puts its ne- prefix flag on them
        (*vjerovatni*: *nevjerovatno*); the ekavian twin apertium has (*neverovatno*) shows
        the ne- word is one of the lexical fund, not a made-up negation."""
        for m in IJEKAVIAN_YAT.finditer(latin):
            twin = f"{latin[:m.start()]}e{latin[m.end():]}"
            ev = self.keys.get(self.tiler.key(twin))
            if ev is not None and ev.sources & APERTIUM_BIT:
                return twin
        return None

    def ijekavian_with_e(self, latin: str, stems: set[str]) -> str | None:
        """The spelling of ``latin`` with one je or ije written e, when the ijekavian
        sources write the word so: apertium's ijekavian generator makes it, and hunspell-hr
        (an ijekavian dictionary) has it, as a form of the word the same change makes of
        one of ``stems`` (the form's own). Then ``latin``'s je is no yat reflex, and
        ``latin`` is a hyper-ijekavian misspelling (*zavjesti*: *zavesti*,
        *podrijeđen*: *podređen*, *međuvrijemena*: *međuvremena*).

        The lemma must correspond: *razmjerje* is a word, though *razmjere* is a form
        of *razmjera*. apertium's ijekavian generator alone is no witness: it keeps e
        where its ekavian lemma has no yat mark (*potcenjivati*)."""
        hr_bits = sum(2 << i for i, src in enumerate(self.hunspell)
                      if src.source_id == HUNSPELL_HR)
        ijekavian = sum(1 << i for i, v in enumerate(self.ap.varieties)
                        if v.startswith("ijekavian"))
        for m in IJEKAVIAN_YAT.finditer(latin):
            twin = f"{latin[:m.start()]}e{latin[m.end():]}"
            ev = self.keys.get(self.tiler.key(twin))
            if ev is None or not ev.sources & hr_bits:
                continue
            lemmas = {lemma.lower() for lemma, entry in self.ap.forms.get(twin, {}).items()
                      if any(bits & ijekavian for bits in entry.tags.values())}
            if not lemmas:
                continue
            lemmas |= {w.stem.lower() for w in ev.witnesses
                       if self.hunspell[w.source].source_id == HUNSPELL_HR}
            if any(s[:m.end()] == latin[:m.end()]
                   and f"{s[:m.start()]}e{s[m.end():]}" in lemmas for s in stems):
                return twin
        return None

    def _lemmas_of(self, form: str) -> set[str]:
        """Every lemma or stem a source gives the form (apertium's, hunspell's witnesses)."""
        ev = self.keys.get(self.tiler.key(form))
        return set(self.ap.forms.get(form, {})) | {w.stem for w in ev.witnesses} if ev \
            else set(self.ap.forms.get(form, {}))

    def lemma_attested(self, lemma: str) -> bool:
        """Is the lemma itself a lower-case word of some dictionary?"""
        got = self._lemmas.get(lemma)
        if got is None:
            entry = self.keys.get(self.tiler.key(lemma.lower()))
            got = self._lemmas[lemma] = bool(entry and entry.attested)
        return got

    def named_by_citation(self, lemma: str, form: str, stems: Iterable[str]) -> bool:
        """Do the dictionaries list ``form`` under the word apertium calls ``lemma``?

        apertium names some lemmas by a stem no dictionary lists (*mozg* for *mozak*,
        *glazben* for the definite-only *glazbeni*, *tolik* for *toliki*). A dictionary
        has the same word when it lists the form under the stem apertium tags as the
        lemma's citation form (nominative singular; masculine, for adjectives, pronouns,
        numbers), or lists it as an entry of its own (hunspell-hr's bare *mozgovi*) while
        it has that citation form as a word too. A form a dictionary lists under another
        stem is another word: *grdi* (of *grditi*), *supernovi* (of *supernova*) and
        *rijeci* (of *rijeka*) stay unsupported as apertium's *grd*, *supernov*, *rijek*."""
        cited = self._citations().get(lemma)
        if not cited:
            return False
        low = [s.lower() for s in stems]
        if any(s in cited for s in low):
            return True
        own_entry = bool(low) and all(s == form for s in low)
        return own_entry and any(self.lemma_attested(c) for c in cited)

    def _citations(self) -> dict[str, list[str]]:
        """lemma -> the forms apertium tags as its citation form, where they differ from
        the lemma's own spelling (built once, on first use)."""
        if self._citation_index is None:
            index: dict[str, list[str]] = defaultdict(list)
            for form, by_lemma in self.ap.forms.items():
                for lemma, entry in by_lemma.items():
                    if form != lemma.lower() and any(map(_citation_tags, entry.tags)):
                        index[lemma].append(form)
            self._citation_index = index
        return self._citation_index

    def compound_parts(self) -> Counter[str]:
        """How many of the dictionaries' stems each first part of a compound makes of
        another of their stems (*makro*: *makroekonomija* of *ekonomija*, ...): the first
        parts the dictionaries themselves build words with (built once, on first use)."""
        if self._parts is None:
            parts: Counter[str] = Counter()
            stems = self._stems
            for stem in stems:
                for cut in range(MIN_COMPOUND_PART, len(stem) - MIN_COMPOUND_HEAD + 1):
                    if stem[cut:] in stems:
                        parts[stem[:cut]] += 1
            self._parts = parts
        return self._parts

    def index(self) -> None:
        """Build the lookups the judging builds on first use (the diacritic-free spellings,
        the citation forms, the compounds' first parts), so that judging workers forked
        after this call share them instead of each building its own (build.shards)."""
        self._plain_spellings()
        self._citations()
        self.compound_parts()

    # -- one key -------------------------------------------------------------------------
    def candidate(self, key: str, judge: AnalysisJudge) -> FormCandidate:
        """All analyses of one key, which of them pass ``judge`` (the analysis rules, made
        once the sources are read), and the explanation if none does.

        An apertium analysis that passes the rules still needs a dictionary behind it: a
        dictionary must have the form as a lower-case word (not only as a form of a
        capitalised name) and have its lemma as a word too, or list the form under the
        lemma's citation form (:meth:`named_by_citation`). Otherwise it is *unsupported*:
        *gradova* is not admitted as the possessive adjective *gradov* that apertium
        derives from every masculine noun, it is explained as the genitive plural of *grad*.
        """
        ev = self.keys[key]
        latin = to_latin(key)
        read = self._readings(ev, latin)
        admissible: list[HbsAnalysis] = []
        unsupported: list[HbsAnalysis] = []
        rest: list[HbsAnalysis] = []
        tagged_stems = [stem for _, stem in read.tagged_by]
        for r in read.analyses:
            if judge.rank(r) != 0:
                rest.append(r)
            elif r.source != APERTIUM or (ev.attested and (
                    self.lemma_attested(r.lemma)
                    or self.named_by_citation(r.lemma, latin, tagged_stems))):
                admissible.append(r)
            elif not ev.attested and (head := self.compound_head(r)) is not None:
                admissible.append(replace(r, note=f"{r.note}; {head}",
                                          evidence="compound_head"))
            elif (owner := self.animate_possessor(r)) is not None:
                admissible.append(replace(r, note=f"{r.note}; {owner}",
                                          evidence="possessive_animate"))
            elif (noun := self.relational_noun(r)) is not None:
                admissible.append(replace(r, note=f"{r.note}; {noun}",
                                          evidence="relational_noun"))
            else:
                unsupported.append(r)
        explained = None if admissible or not rest else Explanation(*judge.explain(rest))
        one = self._one_slot_facts(latin, admissible, read.sources)
        ekavian = self.ekavian_twin(latin) if (
            admissible and len(read.sources) == 1 and latin.startswith("ne")
            and "je" in latin) else None
        return FormCandidate(key, latin, read.analyses, admissible, unsupported,
                             sorted(read.sources), explained, read.tagged_by,
                             read.capitalised_by, one.adverb, one.twin, one.infinitive_stem,
                             one.intransitive, ekavian, one.fleeting,
                             self._pre_word(latin, read.analyses), one.hyper,
                             wrong_possessive_suffix(admissible),
                             self.compound_elative(unsupported)
                             if not ev.attested and latin.startswith("pre") else None)

    def noun_class(self, noun: str) -> str | None:
        """apertium's class of a common noun (``ma``, ``mi``, ``f``, ``nt``), read from the
        tags of its nominative singular; None when it has none or more than one."""
        entry = self.ap.forms.get(noun, {}).get(noun)
        if entry is None:
            return None
        classes = {tags[1] for tags in entry.tags if tags[:1] == ("n",) and len(tags) > 1
                   and tags[1] in POSSESSOR and "sg" in tags and "nom" in tags}
        return classes.pop() if len(classes) == 1 else None

    def possessive_base(self, possessive: str, cls: str) -> str | None:
        """The noun of class ``cls`` a masculine possessive is made of
        (:func:`possessive_bases`), when apertium has one."""
        return next((b for b in possessive_bases(possessive) if self.noun_class(b) == cls),
                    None)

    def motion_masculine(self, feminine: str) -> str | None:
        """The animate masculine noun a feminine is made of by a motion suffix
        (:data:`MOTION_SUFFIXES`: *učiteljica* of *učitelj*, *novinarka* of *novinar*),
        when apertium has it as animate (``<n><ma>``)."""
        for suffix, adds in MOTION_SUFFIXES:
            stem = feminine[: -len(suffix)]
            if feminine.endswith(suffix) and len(stem) >= MIN_MOTION_STEM:
                found = next((stem + a for a in adds if self.noun_class(stem + a) == "ma"),
                             None)
                if found is not None:
                    return found
        return None

    def animate_possessor(self, r: HbsAnalysis) -> str | None:
        """Who an apertium possessive no dictionary has belongs to, when that is a person or
        an animal: seed 000 admits adjectives, and a possessive adjective (*bratov*,
        *učiteljičin*) names what belongs to a living being. apertium derives one from
        every noun; the possessive counts when its base is a common noun apertium has as
        animate (``<n><ma>``: *brat*, *suscenarist*), or a feminine made of one by a motion
        suffix (:meth:`motion_masculine`: *učiteljica* of *učitelj*). The noun need not be
        in a dictionary: apertium's class of it, and a possessive that spells its base, are
        the evidence (a typo in a lemma has no noun of that class to derive from).
        Possessives of things (*milimetrov*, *kišin*) and of names (*Omerbašićev*) get
        none."""
        if r.source != APERTIUM or r.tags[:2] != ("adj", "pos") or not r.lemma.islower():
            return None
        if POSSESSOR["ma"] in r.tags:
            noun = self.possessive_base(r.lemma, "ma")
            if noun is not None:
                return f"{ANIMATE_POSSESSIVE_LABEL}{noun}, an animate noun"
        elif POSSESSOR["f"] in r.tags:
            noun = self.possessive_base(r.lemma, "f")
            masculine = None if noun is None else self.motion_masculine(noun)
            if masculine is not None:
                return (f"{ANIMATE_POSSESSIVE_LABEL}{noun}, the feminine of the animate "
                        f"{masculine}")
        return None

    def relational_noun(self, r: HbsAnalysis) -> str | None:
        """Which noun apertium's relational adjective ``r.lemma`` (-ski, -čki, -ški) is
        made of, when no dictionary has the adjective (asked only of an apertium reading
        no dictionary supports) but one has the noun: seed 000
        admits adjectives, and one made of a common noun by the grammar's suffix
        (:func:`relational_spellings`: *rapsodijski* of *rapsodija*, *svjedočki* of
        *svjedok*) is a word of the lexical fund wherever its noun is. The noun must be
        a lower-case word a dictionary has, read by a source as a noun's nominative
        singular: a place's or a people's name is written with a capital, and its
        adjective (*labinjanski*, *arumunjski*) gets no noun here."""
        lemma = r.lemma
        if r.source != APERTIUM or r.pos != "adj" or "pst" not in r.tags \
                or not lemma.islower():
            return None
        for noun in relational_nouns(lemma):
            if lemma in relational_spellings(noun) and self.noun_word(noun):
                return f"{RELATIONAL_NOUN_LABEL}{noun}, which a dictionary has"
        return None

    def compound_head(self, r: HbsAnalysis) -> str | None:
        """How a dictionary vouches for apertium's compound headword ``r.lemma``, when no
        dictionary has the form itself: the form is a first part + a head form that apertium
        reads with the same tags, as the lemma that is ``r.lemma`` less that part, and a
        dictionary has that head form and its lemma as words (*makrojezik*: makro- +
        *jezik*; *sjevernofrizijsko*: sjeverno- + *frizijsko*; *neplemić*: ne- +
        *plemić*). The headword is apertium's; the head, which a dictionary lists,
        shows the form is a slot of a paradigm the language has, so a typo in a lemma
        (*greehovi*) or a truncated form (*krajnj*) gets no head. The first part must be
        one the dictionaries build words with (:meth:`compound_parts`, at least
        :data:`MIN_PART_USES` of their stems): a chance split (*prevent-* + *ivino*) is
        no compound. A possessive apertium derives from a noun is none either, nor a pre-
        elative (:meth:`compound_elative`). Asked only of a form no dictionary has: one a
        dictionary lists under another stem is that stem's (*supernovi* of *supernova*,
        not super- + *novi*). The longest head is named; None when there is none."""
        split = self._compound_split(r)
        if split is None or self._elative_split(r, split):
            return None
        part, head, head_lemma = split
        return f"{part}- + {head}, which a dictionary has (of {head_lemma})"

    def compound_elative(self, analyses: Iterable[HbsAnalysis]) -> str | None:
        """The adjective an apertium headword no dictionary has is the pre- elative of,
        when its compound head (:meth:`compound_head`) is pre- + a gradable adjective
        (one apertium makes a comparative of) and the sources make it of no pre- verb or
        noun (:meth:`pre_derivation`): *prerigidan* "very rigid", listed by apertium as a
        lemma of its own, is the elative of *rigidan*, which seed 000's "samo u
        pozitivu" leaves out, as it leaves out the elatives apertium tags (<ssup>)."""
        for r in analyses:
            split = self._compound_split(r)
            if split is not None and self._elative_split(r, split):
                return split[2]
        return None

    def _elative_split(self, r: HbsAnalysis, split: tuple[str, str, str]) -> bool:
        part, _, head_lemma = split
        return (part == "pre" and r.pos == "adj" and head_lemma in self.ap.comparable
                and self.pre_derivation(r.lemma, (head_lemma,)) is None)

    def _compound_split(self, r: HbsAnalysis) -> tuple[str, str, str] | None:
        """(first part, head form, head lemma) of :meth:`compound_head`, or None."""
        latin, lemma = r.form, r.lemma
        if r.source != APERTIUM or not lemma.islower() or r.tags[:2] == ("adj", "pos"):
            return None
        parts = self.compound_parts()
        for cut in range(MIN_COMPOUND_PART, len(latin) - MIN_COMPOUND_HEAD + 1):
            if latin[:cut] != lemma[:cut]:
                return None
            if parts[latin[:cut]] < MIN_PART_USES:
                continue
            head, head_lemma = latin[cut:], lemma[cut:]
            entry = self.ap.forms.get(head, {}).get(head_lemma)
            if entry is None or r.tags not in entry.tags:
                continue
            ev = self.keys.get(self.tiler.key(head))
            if ev is not None and ev.as_word and self.lemma_attested(head_lemma):
                return latin[:cut], head, head_lemma
        return None

    def _readings(self, ev: KeyEvidence, latin: str) -> _Readings:
        """Every analysis the sources give one key: apertium's tags, then each hunspell
        witness's (a learned slot, an own lemma's noun slots, an a-declension nominative, a
        capitalised stem), with the sources that have the key."""
        read = _Readings()
        if ev.sources & APERTIUM_BIT:
            read.sources.append(APERTIUM)
            notes = self._variety_notes
            for lemma, entry in self.ap.forms.get(latin, {}).items():
                for tags, vbits in entry.tags.items():
                    note = notes.get(vbits)
                    if note is None:
                        note = notes[vbits] = ", ".join(self.ap.varieties_of(vbits))
                    read.analyses.append(HbsAnalysis(latin, lemma, tags, APERTIUM, note))
        for i, src in enumerate(self.hunspell):
            if ev.sources & (2 << i) and src.source_id not in read.sources:
                read.sources.append(src.source_id)
        for w in ev.witnesses:
            sid = self.hunspell[w.source].source_id
            if w.kind == Kind.TAGGED:
                read.tagged_by.append((sid, w.stem))
            elif w.kind == Kind.A_NOMINATIVE:
                read.analyses.append(HbsAnalysis(
                    latin, latin, ("n", "sg", "nom"), sid,
                    f"a-declension: {w.stem} takes -a, -e, -i, -u, -o, -om in {sid}",
                    "a_declension"))
            elif w.kind == Kind.OWN_LEMMA:
                read.analyses.extend(r for r in self._slot_analyses(latin, sid, w,
                                                                    own_lemma=True)
                                     if r.pos == "n")
            elif w.kind in (Kind.PROPER, Kind.ACRONYM):
                tags = ("np",) if w.kind == Kind.PROPER else ("abbr",)
                read.analyses.append(HbsAnalysis(latin, w.stem, tags, sid, "capitalised stem"))
                if w.kind == Kind.PROPER and not ev.as_word and (sid, w.stem) not in \
                        read.capitalised_by:
                    read.capitalised_by.append((sid, w.stem))
            else:
                read.analyses.extend(self._slot_analyses(latin, sid, w))
        return read

    def _one_slot_facts(self, latin: str, admissible: list[HbsAnalysis],
                        sources: list[str]) -> _SlotFacts:
        """What the vetoes on one dictionary's slots ask, when hunspell slots alone admit
        the form: its diacritic twin and its spelling with e (one source only), and when
        one dictionary's adjective slots of one stem are all that admit it, whether that
        stem is a verbal adverb, an infinitive, an intransitive verb's participle or an -an
        adjective keeping a fleeting a."""
        facts = _SlotFacts()
        by_slot = [r for r in admissible if r.source != APERTIUM and not r.evidence]
        if not admissible or len(by_slot) != len(admissible):
            return facts
        stems = {r.lemma for r in by_slot}
        if len(sources) == 1:
            facts.twin = self.diacritic_twin(latin, {stem.lower() for stem in stems})
            facts.hyper = self.ijekavian_with_e(latin, {stem.lower() for stem in stems})
        if len({r.source for r in by_slot}) != 1 or len(stems) != 1 or not all(
                r.pos == "adj" for r in by_slot):
            return facts
        stem, sid = by_slot[0].lemma, by_slot[0].source
        verb = self.verbal_adverb_of(stem)
        if verb is not None:
            facts.adverb = (stem, sid, verb)
        if stem.endswith(("ti", "ći")) and stem != latin and self.infinitive(stem):
            facts.infinitive_stem = (stem, sid)
        verb = self.intransitive_verb(stem)
        if verb is not None:
            facts.intransitive = (stem, sid, verb)
        short = self.fleeting_a(stem, latin)
        if short is not None:
            facts.fleeting = (stem, sid, short)
        return facts

    def _pre_word(self, latin: str, analyses: list[HbsAnalysis]) -> str | None:
        """For a pre- form apertium also reads as an elative: what the sources derive
        another of its adjective lemmas from (:meth:`pre_derivation`), if anything."""
        bases = {r.lemma for r in analyses if ELATIVE in r.tags}
        if not latin.startswith("pre") or not bases:
            return None
        own = {r.lemma for r in analyses if r.pos == "adj" and ELATIVE not in r.tags}
        return next((d for lemma in sorted(own - bases)
                     if (d := self.pre_derivation(lemma, bases)) is not None), None)

    def possessive_nominative(self, latin: str, w: Witness
                              ) -> tuple[str, str, tuple[Tags, ...]] | None:
        """(masculine form, noun, tags) when an unclassified form of ``w``'s stem is a
        nominative of the possessive adjective of that stem, a common noun.

        The dictionaries derive possessives from a noun stem with flags apertium has no
        example of (*korisnica*: *korisnicin*, *korisnicina*, ...; *mamuzar*: *mamuzarov*),
        so their slots are never learned. The form is one when it is the noun's base (an
        a-stem without its -a, a consonant stem as it is; k, g, h, c may turn into č, ž, š,
        č, and a fleeting a drop: *majčin*, *inostrančev*) + a nominative ending of the
        possessive (:data:`POSSESSIVE_NOMINATIVES`: -in for a-stems, -ov/-ev for consonant
        stems), the same dictionary makes the masculine singular of the same stem too (a
        noun's own -ovi, -ove are plurals: *gradove* has no *gradov* beside it there), and a
        source reads the stem as a noun's nominative singular that a dictionary has as a
        word. Oblique endings (-inog, -ovom, -inu) are not among the endings.
        """
        stem = w.stem
        if len(stem) < 3 or not stem.islower():
            return None
        ending = next((e for e in POSSESSIVE_NOMINATIVES if latin.endswith(e)), None)
        if ending is None:
            return None
        base, family = latin[: -len(ending)], ending[:2]
        if family == "in":      # an a-stem; or a feminine the stem's motion suffix makes
            nouns = [stem] if stem.endswith("a") else motion_feminines(stem)
            roots = {n[:-1]: n for n in nouns}
        elif stem[-1] in VOWELS:
            return None
        else:
            roots = {r: stem for r in ({stem, stem[:-2] + stem[-1]} if stem[-2] == "a"
                                       else {stem})}
        roots |= {r[:-1] + PALATAL[r[-1]]: n for r, n in roots.items() if r[-1:] in PALATAL}
        noun_of = roots.get(base)
        if noun_of is None or (family != "in" and family not in possessive_families(base)):
            return None
        masculine = base + family
        if not self._listed_with_noun(masculine, w, noun_of):
            return None
        return masculine, noun_of, POSSESSIVE_NOMINATIVES[ending]

    def _listed_with_noun(self, masculine: str, w: Witness, noun: str) -> bool:
        """Does ``w``'s dictionary list ``masculine`` under ``w``'s stem too, and does a
        source read ``noun`` as a noun's nominative singular that a dictionary has as a
        word (not a bare stem listed only to derive from)?"""
        ev = self.keys.get(self.tiler.key(masculine))
        if ev is None or not any(x.source == w.source and x.stem == w.stem
                                 for x in ev.witnesses):
            return False
        return self.noun_word(noun)

    def relational_adjective(self, latin: str, w: Witness, sid: str
                             ) -> tuple[str, tuple[Tags, ...]] | None:
        """(masculine, tags) when an unclassified form of ``w``'s stem is a nominative of
        the relational adjective in -ski, -čki, -ški, -ćki the dictionary derives from
        that stem, a common noun (*pobočničke* of *pobočnik*, *trilionske* of *trilion*,
        *imitacijsko* of *imitacija*).

        The dictionaries list such adjectives under their noun with a flag apertium has no
        example of, so their slots are never learned. The form is one when it ends in a
        nominative ending of the adjective (:data:`RELATIONAL_NOMINATIVES`) after -sk,
        -čk, -šk or -ćk, the same dictionary has the masculine (-ski) under the same stem,
        and a source reads the stem as a noun's nominative singular that a dictionary has
        as a word (so not a bare stem listed only to derive an adjective from, such as a
        village's name, *repovac* of *repovački*, nor a capitalised name). Not in a
        dictionary that lists places' names in lower case
        (:data:`PLACE_STEMS_IN_LOWER_CASE`; ``sid``, the id of ``w``'s)."""
        stem = w.stem
        tags = RELATIONAL_NOMINATIVES.get(latin[-1:])
        if tags is None or len(stem) < 3 or not stem.islower() \
                or sid in PLACE_STEMS_IN_LOWER_CASE \
                or latin[-3:-1] not in RELATIONAL_SUFFIXES:
            return None
        masculine = f"{latin[:-1]}i"
        if masculine not in relational_spellings(stem) \
                or not self._listed_with_noun(masculine, w, stem):
            return None
        return masculine, tags

    def short_form(self, latin: str, w: Witness) -> str | None:
        """Why an unclassified -an form of ``w``'s stem is the indefinite masculine
        nominative singular (the short form) of the -ni adjective a source reads, or None.

        The rule book admits adjectives "u određenom i neodređenom obliku"; the short form
        of a qualitative adjective drops the a the long one has not (*inkompresibilan*:
        *inkompresibilni*, *sretan*: *sretni*). hunspell-sr's flag for -ni adjectives makes
        the -an form of every one of them, relational ones too, which have none
        (*avansan*, *abecedan* of *avansni*, *abecedni*), so the flag is no evidence. The
        form is the short form when, beside a source reading the stem + -ni as a positive
        adjective, one of these says the adjective is qualitative:

        * a second dictionary has the -an form (*inkompresibilan* in hunspell-hr); one
          dictionary's own entry is not enough, for hunspell-sr lists bare stems only to
          derive other words from them (*sudan*, of which *sudanski*);
        * apertium has the abstract noun in -nost (*kontraktilnost*: *kontraktilan*);
        * a source reads the stem + -niji as a comparative (relational adjectives have no
          degrees).

        The a is fleeting between consonants: after a vowel (*žlezdaan* of *žlezdani*)
        there is none. Not when apertium declines the -ni adjective without a short form (its
        relational adjectives, *modni*), nor when the dictionaries have the short form
        with the t of an -st noun (*strastan*: *strasan* is no spelling of it)."""
        stem = w.stem.lower()
        base = latin[:-2]
        if not latin.endswith("an") or len(base) < 3 or base[-1] in VOWELS \
                or stem not in (latin, f"{base}ni") \
                or f"{base}ni" in self.ap.lemmas \
                or not self.positive_adjective(f"{base}ni"):
            return None
        if base.endswith("s") and (ev := self.keys.get(self.tiler.key(f"{base}tan"))) \
                is not None and ev.as_word:
            return None
        listed = self.keys.get(self.tiler.key(latin))
        if listed is not None and any(x.source != w.source and not x.stem[:1].isupper()
                                      for x in listed.witnesses):
            why = "two dictionaries have it"
        elif any(tags[:1] == ("n",) for entry in self.ap.forms.get(f"{base}nost", {}).values()
                 for tags in entry.tags):
            why = f"the noun {base}nost"
        elif self.read_as(f"{base}niji", lambda t: "comp" in t):
            why = f"the comparative {base}niji"
        else:
            return None
        return f"short form of the adjective {base}ni ({why})"

    def _slot_analyses(self, latin: str, sid: str, w: Witness, *,
                       own_lemma: bool = False) -> list[HbsAnalysis]:
        """The analyses of a hunspell form's slot; ``own_lemma``: of a form apertium tags
        only as other lemmas' (only its noun readings are used, see :class:`Kind`)."""
        v = w.slot
        if v is None or not v.tag_sets:
            possessive = self.possessive_nominative(latin, w)
            if possessive is not None:
                masculine, noun, tags = possessive
                cls = self.noun_class(noun)
                owner = (POSSESSOR[cls],) if cls is not None else ()
                listed = "" if noun == w.stem else f"{FEMININE_OF_LABEL}{w.stem}"
                return [HbsAnalysis(latin, masculine, (*t, *owner), sid,
                                    f"{POSSESSIVE_LABEL}{noun}{listed}, read from its ending",
                                    "possessive_nominative") for t in tags]
            relational = self.relational_adjective(latin, w, sid)
            if relational is not None:
                masculine, tags = relational
                return [HbsAnalysis(latin, masculine, t, sid,
                                    f"{RELATIONAL_LABEL}{w.stem}, read from its ending",
                                    "relational_adjective") for t in tags]
            short = self.short_form(latin, w)
            if short is not None:
                return [HbsAnalysis(latin, latin, t, sid, short, "short_form")
                        for t in SHORT_FORM_TAGS]
            return [HbsAnalysis(latin, w.stem, (UNCLASSIFIED,), sid, "paradigm slot not learned")]
        note = (f"slot learned from {v.examples} apertium forms" if v.examples
                else "slot read from its ending")
        if own_lemma:
            lemmas = ", ".join(sorted(self.ap.forms.get(latin, {})))
            note = (f"{note}; a form of {w.stem}, a lemma apertium lacks (it has the "
                    f"spelling only as {lemmas})")
        sets = v.tag_sets
        lemma = w.stem
        if (comparative := self.comparative_of(w.stem)) is not None:
            sets = tuple(tuple("comp" if t == "pst" else t for t in ts) for ts in sets)
            note += "; the stem is a comparative"
            if comparative != w.stem:                    # by its shape: name the positive
                lemma = comparative
                note += f" ({w.stem})"
        evidence = "own_lemma" if own_lemma else ""
        return [HbsAnalysis(latin, lemma, t, sid, note, evidence) for t in sets]


def _with_a_nominatives(forms: Iterator[HForm]) -> Iterator[tuple[HForm, bool]]:
    """Each form with whether it is the nominative of an a-declension entry.

    The forms of one .dic entry come one after another (same stem and flags); an entry
    whose consonant stem takes every ending of :data:`A_DECLENSION` (unprefixed) and none of
    :data:`ADJECTIVE_ENDINGS` declines like *žena*, and its stem + a is the lemma's
    nominative singular.
    """
    group: list[HForm] = []
    first: HForm | None = None
    for hf in forms:
        if first is not None and (hf.stem != first.stem or hf.stem_flags != first.stem_flags):
            yield from _judge_entry(group)
            group = []
        if not group:
            first = hf
        group.append(hf)
    yield from _judge_entry(group)


def _judge_entry(group: list[HForm]) -> Iterator[tuple[HForm, bool]]:
    if not group:
        return
    stem = group[0].stem
    nominative = ""
    if stem[-1:] not in VOWELS and not stem[:1].isupper():
        low = stem.lower()
        endings = {hf.latin[len(low):] for hf in group
                   if not hf.prefix and hf.latin.startswith(low)}
        if endings >= A_DECLENSION and not endings & ADJECTIVE_ENDINGS:
            nominative = low + "a"
    for hf in group:
        yield hf, bool(nominative) and hf.latin == nominative and not hf.prefix
