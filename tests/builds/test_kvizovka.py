"""Kvizovka builder on tiny real inputs, checked through the real checker.

``tests/data/kvizovka`` holds two small apertium dictionaries (ekavian ``hbs_SR.dix`` and
ijekavian ``hbs_HR.dix``, compiled here with ``lt-comp rl`` into generators like the
package's ``*.autogen.bin``), a Cyrillic hunspell pair shaped like ``sr_RS`` and a Latin one
shaped like ``hr_HR``, and reviewed lists in the production format. The release is built
through the pipeline into the ``home`` fixture and every answer is read back with
:func:`lexicon.verdicts.checker.check_word`, Latin and Cyrillic input alike.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lexicon.build.games.hbs_script import LatinToCyrillic, digraph_key, to_latin
from lexicon.build.games.kvizovka import KvizovkaBuilder
from lexicon.build.games.kvizovka.paradigms import HForm, SlotLearner
from lexicon.build.pipeline import BuildContext, build_game
from lexicon.build.release_writer import as_record

from lexicon.audit.classes import evidence_class
from lexicon.catalog import Catalog
from lexicon.store.published import current_path

DATA = Path(__file__).parents[1] / "data" / "kvizovka"
HAVE_LT = shutil.which("lt-comp") is not None and shutil.which("lt-print") is not None
needs_lttoolbox = pytest.mark.skipif(not HAVE_LT, reason="lttoolbox-dev (lt-comp, lt-print) "
                                     "is not installed")


def make_builder(tmp: Path, **options: Any) -> KvizovkaBuilder:
    generators = []
    for variety in ("SR", "HR"):
        out = tmp / f"hbs_{variety}.autogen.bin"
        subprocess.run(["lt-comp", "rl", str(DATA / f"hbs_{variety}.dix"), str(out)],
                       check=True, capture_output=True)
        generators.append(out)
    return KvizovkaBuilder(
        generators=generators,
        hunspell=[(DATA / "sr_test.dic", DATA / "sr_test.aff"),
                  (DATA / "hr_test.dic", DATA / "hr_test.aff")],
        lists_dir=DATA / "lists", **options)


@pytest.fixture(scope="module")
def built_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One build for the module: its tests only read the release (lt-comp and the build
    run once, not once per case)."""
    home = tmp_path_factory.mktemp("kvizovka-home")
    build_game("kvizovka", BuildContext(root=home, log=lambda _m: None),
               builder=make_builder(tmp_path_factory.mktemp("kvizovka-bins")))
    return home


@pytest.fixture(scope="module")
def catalog(built_home: Path) -> Catalog:
    return Catalog(built_home)


def check(catalog: Catalog, word: str) -> dict[str, Any]:
    return catalog.lexicon("kvizovka").check(word)


VALID = {  # word -> tiles
    "kuća": ["K", "U", "Ć", "A"],
    "kuće": ["K", "U", "Ć", "E"],                        # nominative plural
    "ljubav": ["LJ", "U", "B", "A", "V"],
    "njiva": ["NJ", "I", "V", "A"],
    "nadživeti": ["N", "A", "D", "Ž", "I", "V", "E", "T", "I"],
    "nadživjeti": ["N", "A", "D", "Ž", "I", "V", "J", "E", "T", "I"],  # prefix rule
    "konjugacija": ["K", "O", "N", "J", "U", "G", "A", "C", "I", "J", "A"],
    "čitati": ["Č", "I", "T", "A", "T", "I"],
    "voleti": ["V", "O", "L", "E", "T", "I"],              # also tagged reflexive: fine
    "voljeti": ["V", "O", "LJ", "E", "T", "I"],
    "stari": ["S", "T", "A", "R", "I"],
    "stara": ["S", "T", "A", "R", "A"],
    "staro": ["S", "T", "A", "R", "O"],
    "lepi": ["L", "E", "P", "I"],
    "ovaj": ["O", "V", "A", "J"],
    "četiri": ["Č", "E", "T", "I", "R", "I"],
    "gradovi": ["G", "R", "A", "D", "O", "V", "I"],
    "krajnji": ["K", "R", "A", "J", "NJ", "I"],
    "livada": ["L", "I", "V", "A", "D", "A"],              # hunspell only: learned slot
    "livade": ["L", "I", "V", "A", "D", "E"],
    "tiha": ["T", "I", "H", "A"],
    "tisuća": ["T", "I", "S", "U", "Ć", "A"],              # Croatian dictionary only
    "odžak": ["O", "DŽ", "A", "K"],                        # no word "žak": a digraph
    "pjevati": ["P", "J", "E", "V", "A", "T", "I"],        # hunspell-hr only: learned
    "netiha": ["N", "E", "T", "I", "H", "A"],              # ne- keeps tiha's slot
    "skrivena": ["S", "K", "R", "I", "V", "E", "N", "A"],  # participle listed as adjective
    "beogradski": ["B", "E", "O", "G", "R", "A", "D", "S", "K", "I"],  # derived: learned
    "bina": ["B", "I", "N", "A"],            # apertium: only bin's genitive (own_lemma)
    "bine": ["B", "I", "N", "E"],            # bina's nominative plural; bin's vocative
    "fašista": ["F", "A", "Š", "I", "S", "T", "A"],  # a-declension; fašist's genitive
    "mećava": ["M", "E", "Ć", "A", "V", "A"],
    "budući": ["B", "U", "D", "U", "Ć", "I"],       # a participle apertium has as adjective
    "mucice": ["M", "U", "C", "I", "C", "E"],       # mučiće is another lemma's: no typo
    "dečija": ["D", "E", "Č", "I", "J", "A"],       # -iji of no adjective: a possessive
    "topla": ["T", "O", "P", "L", "A"],
    "drukčija": ["D", "R", "U", "K", "Č", "I", "J", "A"],
    "prepoznati": ["P", "R", "E", "P", "O", "Z", "N", "A", "T", "I"],  # also an elative
    # pre- words apertium also generates as elatives, derived from a pre- verb or noun
    "prenosiv": ["P", "R", "E", "N", "O", "S", "I", "V"],          # prenositi: prenosi
    "preuzet": ["P", "R", "E", "U", "Z", "E", "T"],                # preuzeti's participle
    "premoćan": ["P", "R", "E", "M", "O", "Ć", "A", "N"],           # premoć
    # a relational adjective has no degrees: its pre- is "before" (prehistoric)
    "preistorijski": ["P", "R", "E", "I", "S", "T", "O", "R", "I", "J", "S", "K", "I"],
    "mozak": ["M", "O", "Z", "A", "K"],            # apertium's lemma is the stem mozg
    "mozgovi": ["M", "O", "Z", "G", "O", "V", "I"],  # ... which mozak stands for
    "rudarski": ["R", "U", "D", "A", "R", "S", "K", "I"],  # ne- forms below, not these
    "začinjena": ["Z", "A", "Č", "I", "NJ", "E", "N", "A"],
    "modna": ["M", "O", "D", "N", "A"],              # the -ni adjective nemodna negates
    # hunspell-sr's ijekavian -ni adjective negated, whose ekavian twin apertium has
    "nevjerovatna": ["N", "E", "V", "J", "E", "R", "O", "V", "A", "T", "N", "A"],
    "čitanje": ["Č", "I", "T", "A", "NJ", "E"],      # the verbal noun nečitanje negates
    "nepušenje": ["N", "E", "P", "U", "Š", "E", "NJ", "E"],  # apertium has the ne- word
    "prva": ["P", "R", "V", "A"],                    # the ordinal dvadesetprva ends in
    "sumarna": ["S", "U", "M", "A", "R", "N", "A"],  # the short form sumarana lacks
    "obavezana": ["O", "B", "A", "V", "E", "Z", "A", "N", "A"],  # obavezati's participle
    # possessive adjectives of nouns, from a flag no apertium form teaches: nominatives
    "devojčicin": ["D", "E", "V", "O", "J", "Č", "I", "C", "I", "N"],   # c kept after č
    "devojčicine": ["D", "E", "V", "O", "J", "Č", "I", "C", "I", "N", "E"],
    # hunspell-hr's possessive of a motion feminine, listed under the masculine slikar
    "slikaričin": ["S", "L", "I", "K", "A", "R", "I", "Č", "I", "N"],
    "slikaričina": ["S", "L", "I", "K", "A", "R", "I", "Č", "I", "N", "A"],
    "majkin": ["M", "A", "J", "K", "I", "N"],
    "majčina": ["M", "A", "J", "Č", "I", "N", "A"],   # k turned into č
    "kraljev": ["K", "R", "A", "LJ", "E", "V"],     # -ev after a palatal
    "kraljeva": ["K", "R", "A", "LJ", "E", "V", "A"],
    "pisarev": ["P", "I", "S", "A", "R", "E", "V"],  # after r both: pisarev, pisarov
    "pisarov": ["P", "I", "S", "A", "R", "O", "V"],
    # compounds only apertium lists, whose head a dictionary has (compound_head)
    "makrojezik": ["M", "A", "K", "R", "O", "J", "E", "Z", "I", "K"],
    "makrojezici": ["M", "A", "K", "R", "O", "J", "E", "Z", "I", "C", "I"],
    "staroirski": ["S", "T", "A", "R", "O", "I", "R", "S", "K", "I"],
    "staroirska": ["S", "T", "A", "R", "O", "I", "R", "S", "K", "A"],
    "planeta": ["P", "L", "A", "N", "E", "T", "A"],   # planet's genitive; own_lemma
    "planete": ["P", "L", "A", "N", "E", "T", "E"],   # ... also planuti's present
    "popov": ["P", "O", "P", "O", "V"],             # apertium's possessive, -ov after p
    "duždev": ["D", "U", "Ž", "D", "E", "V"],        # -ev after žd: not judged
    "podređena": ["P", "O", "D", "R", "E", "Đ", "E", "N", "A"],  # the ijekavian sources' e
    # razmjere is a form of razmjera: razmjerje's je is no hyper-ijekavian one
    "razmjerje": ["R", "A", "Z", "M", "J", "E", "R", "J", "E"],
    # possessives only apertium makes, of an animate noun or a feminine made of one by a
    # motion suffix, which a dictionary has (possessive_animate)
    "bratov": ["B", "R", "A", "T", "O", "V"],
    "bratova": ["B", "R", "A", "T", "O", "V", "A"],
    "bratovi": ["B", "R", "A", "T", "O", "V", "I"],
    "učiteljičin": ["U", "Č", "I", "T", "E", "LJ", "I", "Č", "I", "N"],
    "učiteljičina": ["U", "Č", "I", "T", "E", "LJ", "I", "Č", "I", "N", "A"],
    # apertium's possessive of vino, which hunspell-hr lists as a headword: a word of its own
    "vinova": ["V", "I", "N", "O", "V", "A"],
    "brodov": ["B", "R", "O", "D", "O", "V"],
    "brodovo": ["B", "R", "O", "D", "O", "V", "O"],
    # the relational adjective hunspell-hr lists under its noun brod (relational_adjective)
    "brodski": ["B", "R", "O", "D", "S", "K", "I"],
    "brodska": ["B", "R", "O", "D", "S", "K", "A"],
    "brodsko": ["B", "R", "O", "D", "S", "K", "O"],
    "brodske": ["B", "R", "O", "D", "S", "K", "E"],
    # pre- ("before") + a relational adjective, which has no comparative (compound_head)
    "prediplomski": ["P", "R", "E", "D", "I", "P", "L", "O", "M", "S", "K", "I"],
    "prediplomska": ["P", "R", "E", "D", "I", "P", "L", "O", "M", "S", "K", "A"],
    # an -ći compound adjective no verb's present makes (no brzovezuju): hunspell-hr's slot
    "brzovezujući": ["B", "R", "Z", "O", "V", "E", "Z", "U", "J", "U", "Ć", "I"],
}

INVALID = {  # word -> reason code
    "kući": "inflected_form",
    "kućom": "inflected_form",
    "gradova": "inflected_form",
    "livadi": "inflected_form",                            # learned slot, rejected
    "tihog": "inflected_form",
    "njega": "inflected_form",
    "čitam": "verb_form",
    "čitao": "verb_form",
    "lepši": "comparative",
    "najlepši": "comparative",
    "prelep": "elative",                                   # elative, though also a lemma
    "preskup": "elative",             # pre- + skup; no pre- verb or noun it derives from
    "premiran": "elative",            # premirati is intransitive: no participle premiran
    "prekasan": "elative",            # prekasna: a fleeting a, no participle of prekasati
    "prerigidan": "elative",          # apertium's own lemma: pre- + gradable rigidan
    "prerigidna": "elative",
    "smejati": "reflexive_verb",
    "kajati": "reflexive_verb",                            # reviewed list
    "beograd": "proper_noun",         # the lower-case stem of beogradski is no noun
    "avaj": "interjection",
    "ispod": "function_word",
    "brzo": "part_of_speech",                              # adverbs are off by default
    "krajnj": "unattested",                                # only the generator has it
    "tisuće": "listed_exclusion",
    "ljepša": "comparative",          # apertium knows the form: no slot guess overrides it
    "čitat": "verb_form",             # truncated infinitive, outside apertium's paradigm
    "pjevat": "verb_form",
    "netihog": "inflected_form",
    "skrivenog": "inflected_form",
    "tiši": "comparative",            # a comparative entry only hunspell-hr has: exact class
    "najtiši": "comparative",         # naj- makes a superlative
    "ljepšo": "comparative",          # a positive slot on a stem apertium knows as comparative
    "bini": "inflected_form",         # bina's dative: the own lemma's slot, not nominative
    "fašistu": "inflected_form",      # fašist's dative, fašista's accusative
    "ždere": "verb_form",             # apertium reads a verb: hunspell's ždera adds nothing
    "zelena": "unclassified",         # an adjective's paradigm (-og, -oj): no a-declension
    "mecava": "missing_diacritics",   # only hunspell-sr; mećava is in two sources
    "mecave": "missing_diacritics",
    "locirajući": "verbal_adverb",    # lociraju + ći; only hunspell-hr's adjective flags
    "locirajuća": "verbal_adverb",
    "zumirajući": "verbal_adverb",    # zumiraju: hunspell-hr's verb slot, not apertium's
    "zumirajuća": "verbal_adverb",
    "skriveniji": "comparative",      # skriven + -iji: an entry only hunspell-hr has, which
    "skrivenija": "comparative",      # apertium does not know at all; skriven is a participle
    "skrivenijo": "comparative",
    "toplija": "comparative",         # topl + -iji: the positive's feminine topla is known
    "drukčijo": "soft_stem_neuter",   # hunspell-hr's -o neuter of a soft stem: drukčije
    "nerudarski": "negated_relational",   # only hunspell-sr's ne- prefix on a -ski adjective
    "nezačinjena": "negated_participle",  # only hunspell-sr's ne- prefix on a participle
    "nemodna": "negated_relational_ni",   # only hunspell-sr's ne- prefix on a -ni adjective
    "nečitanje": "negated_verbal_noun",   # only hunspell-sr's ne- prefix on a verbal noun
    "nečitanja": "negated_verbal_noun",
    "dvadesetprvi": "compound_ordinal",   # dvadeset prvi: two words
    "dvadesetprva": "compound_ordinal",
    "sumarana": "unfleeting_a",           # sumaran's a is fleeting: sumarna
    "dremana": "unfleeting_a",            # dremna; dremati is intransitive: no participle
    "sumarano": "unfleeting_a",
    "pjevata": "infinitive_as_adjective",  # hunspell-hr's pjevati/B: the verb declined as
                                           # an adjective
    "dejstvovana": "intransitive_participle",  # dejstvovati is intransitive: no participle
    "beseđena": "intransitive_participle",     # besediti: the iotation undone (đ: d)
    "osmijehnuti": "reflexive_verb",          # osmehnuti se: apertium's, spelled ekavian
    "ježov": "possessive_suffix",             # apertium's -ov after a palatal: ježev
    "korisnicin": "possessive_suffix",        # hunspell-sr's c kept before -in: korisničin
    "korisnicina": "possessive_suffix",
    "korisnicine": "possessive_suffix",
    "podrijeđen": "hyper_ijekavian",          # podređen in the ijekavian sources
    "podrijeđena": "hyper_ijekavian",
    "supernovi": "inflected_form",    # supernova's dative, not apertium's adjective supernov
    "brodskog": "unclassified",       # the relational adjective's genitive
    "tepenska": "unclassified",       # of tepen, a bare stem only listed to derive from
    "limska": "unclassified",         # hunspell-sr's: Lim's (a river) as well as lim's
    "korisnicinog": "unclassified",   # a possessive's oblique case: not read as one
    "korisnicinom": "unclassified",
    "brodovom": "unclassified",
    "bratovog": "inflected_form",       # an animate possessive's genitive
    "milimetrov": "unattested",         # apertium's possessive of a thing
    "kišin": "unattested",              # of a feminine no motion suffix makes of a person
    "omerbašićev": "unattested",        # of a surname
    "majčinog": "unclassified",
    "bubulejin": "unclassified",      # -in of bubuleja, which no source has as a noun
    "kraljov": "unclassified",        # -ov after a palatal: the possessive is kraljev
    "kraljova": "unclassified",
    "brodev": "unclassified",         # -ev after a hard consonant: the possessive is brodov
    "makrojezika": "inflected_form",  # the compound's genitive: its head vouches, no more
    "staroirskog": "inflected_form",
    "greehovi": "unattested",         # a typo in apertium's lemma: no head of it is a word
    "kojezik": "unattested",          # ko- + jezik: no first part the dictionaries use
    "planeti": "inflected_form",      # planeta's dative (planet's plural is planeti too,
                                      # but no dictionary has planet)
}


@needs_lttoolbox
@pytest.mark.parametrize(("word", "tiles"), sorted(VALID.items()))
def test_valid_words_and_tiles(catalog: Catalog, word: str, tiles: list[str]) -> None:
    got = check(catalog, word)
    assert got["valid"], got["reason"]
    assert got["tiles"] == tiles
    assert got["word"] == word
    assert got["sources"] and got["evidence"]


@needs_lttoolbox
@pytest.mark.parametrize(("word", "code"), sorted(INVALID.items()))
def test_invalid_words_and_reasons(catalog: Catalog, word: str, code: str) -> None:
    got = check(catalog, word)
    assert not got["valid"]
    assert got["reason"]["code"] == code, got["reason"]


@needs_lttoolbox
def test_messages_explain(catalog: Catalog) -> None:
    assert check(catalog, "kući")["reason"]["detail"] == (
        "noun kuća in dative/locative singular; only nominative is admitted")
    assert check(catalog, "lepši")["reason"]["detail"].startswith("comparative of lep")
    # a comparative entry apertium lacks names its positive, not itself
    assert check(catalog, "skrivenija")["reason"]["detail"].startswith(
        "comparative of skriven;")
    assert check(catalog, "toplija")["reason"]["detail"].startswith("comparative of topla;")
    assert check(catalog, "čitam")["reason"]["detail"].startswith(
        "present tense of čitati; only the infinitive")
    assert check(catalog, "Beograd")["reason"]["detail"].startswith("proper noun")
    assert "livada" in check(catalog, "livadi")["reason"]["detail"]


@needs_lttoolbox
def test_a_compound_only_apertium_lists_stands_on_its_head(catalog: Catalog) -> None:
    """Seed 000: "Dozvoljeno je sastavljati sve opšte imenice, ali samo u nominativu jednine
    i množine" and "Pridevi se mogu sastavljati u sva tri roda u određenom i neodređenom
    obliku, ali samo u pozitivu". No dictionary has *makrojezik* or *staroirski*, but
    apertium lists them as headwords, and their heads *jezik*, *irski* are words a
    dictionary has, read by apertium with the same tags: the nominatives are admitted, with
    the head named; the oblique cases are not, a typo in a lemma (*greehovi*) has no head,
    and a first part the dictionaries build no words with (*ko-*) makes no compound."""
    got = check(catalog, "makrojezik")
    assert got["valid"], got["reason"]
    assert any("makro- + jezik, which a dictionary has" in line for line in got["evidence"])
    assert check(catalog, "staroirska")["valid"]
    assert check(catalog, "makrojezika")["reason"]["code"] == "inflected_form"
    assert check(catalog, "greehovi")["reason"]["code"] == "unattested"
    # a chance split: the dictionaries build no word with ko- as they do with makro-
    assert check(catalog, "kojezik")["reason"]["code"] == "unattested"


@needs_lttoolbox
def test_a_dictionary_lemma_wins_beside_apertiums_other_lemmas(catalog: Catalog) -> None:
    """Seed 000: "Dozvoljeno je sastavljati sve opšte imenice, ali samo u nominativu
    jednine i množine." hunspell-sr lists the feminine *planeta* (-a, -e, -i, -om), which
    apertium lacks: it knows *planeta* only as the genitive of the masculine doublet
    *planet*, and *planete* as *planet*'s accusative and *planuti*'s present. The
    nominative plural of the dictionary's lemma is admitted all the same (any admissible
    reading admits the spelling); its dative is not."""
    got = check(catalog, "planete")
    assert got["valid"], got["reason"]
    assert "a lemma apertium lacks" in " ".join(got["evidence"])
    assert check(catalog, "planeti")["reason"]["code"] == "inflected_form"
    assert check(catalog, "ždere")["reason"]["code"] == "verb_form"


@needs_lttoolbox
def test_elatives_say_what_they_are(catalog: Catalog) -> None:
    """Seed 000: "Pridevi se mogu sastavljati ... ali samo u pozitivu, dok su komparativi i
    superlativi zabranjeni." A pre- elative (*prelep*, "very beautiful") is left out by
    "samo u pozitivu", but it is neither a comparative nor a superlative: its reason says
    what it is. A pre- word the sources derive from a pre- verb or noun (*prenosiv* of
    *prenositi*) is no elative, with no reviewed list naming it (the test lists have none)."""
    got = check(catalog, "preskup")
    assert got["reason"]["code"] == "elative"
    assert got["reason"]["detail"].startswith("elative of skup: pre- + skup, 'very skup'")
    assert "komparativ" not in got["reason"].get("sr", "") + str(got["reason"])
    assert not (DATA / "lists" / "hbs_not_elative.txt").exists()
    assert check(catalog, "prenosiv")["valid"]


@needs_lttoolbox
def test_a_pre_headword_of_apertium_is_an_elative_of_a_gradable_adjective(
        catalog: Catalog) -> None:
    """Seed 000: "Pridevi ... samo u pozitivu, dok su komparativi i superlativi
    zabranjeni." apertium lists some elatives as lemmas of their own, not tagged <ssup>
    (*prerigidan*), and no dictionary has them; the compound head pre- + *rigidan* would
    vouch for them, but *rigidan* is gradable (apertium makes *rigidniji*), so the pre-
    form is "very rigid": an elative, with the reason that says so. pre- + a relational
    adjective, which has no degrees, means "before" (*prediplomski*) and stays."""
    got = check(catalog, "prerigidna")
    assert got["reason"]["code"] == "elative"
    assert got["reason"]["detail"].startswith("elative of rigidan: pre- + rigidan")
    assert "pre- + diplomski" in " ".join(check(catalog, "prediplomski")["evidence"])


@needs_lttoolbox
def test_slot_vetoes_name_the_word_a_player_meant(catalog: Catalog) -> None:
    """Seed 000, "pravila sastavljanja reči": words "iz leksičkog fonda srpskog, odnosno
    hrvatskog jezika" (a hyper-ijekavian spelling, a possessive with the wrong suffix or
    with the c that turns into č before -in kept are no spelling of either); "svi glagoli
    osim povratnih, i to isključivo u infinitivu" (a verb that exists only with se, in any
    spelling; no participle of an intransitive verb, which has none)."""
    detail = {w: check(catalog, w)["reason"]["detail"]
              for w in ("podrijeđena", "ježov", "beseđen", "osmijehnuti", "korisnicine")}
    assert "hyper-ijekavian spelling of podređena" in detail["podrijeđena"]
    assert "only hunspell-sr writes je" in detail["podrijeđena"]
    assert "ježov is spelled ježev" in detail["ježov"]
    assert "korisnicin is spelled korisničin: c turns into č" in detail["korisnicine"]
    assert "intransitive verb besediti" in detail["beseđen"]
    assert "only as a reflexive verb" in detail["osmijehnuti"]


@needs_lttoolbox
def test_typos_and_verbal_adverbs_say_what_they_are(catalog: Catalog) -> None:
    """Issue 17 item 2: a one-dictionary spelling without the diacritics two sources have
    is a typo; a present participle only one dictionary flags as an adjective is a verb
    form (seed 000 admits verbs only in the infinitive)."""
    assert "mećava" in check(catalog, "mecava")["reason"]["detail"]
    detail = check(catalog, "locirajući")["reason"]["detail"]
    assert "of locirati" in detail and "hunspell-hr" in detail
    # a verb only a dictionary has: its present is read by that dictionary's learned slot
    detail = check(catalog, "zumirajući")["reason"]["detail"]
    assert "of zumirati" in detail and "hunspell-hr" in detail
    assert check(catalog, "brzovezujući")["valid"]


@needs_lttoolbox
def test_another_lemmas_nominative_is_admitted_by_its_own_paradigm(catalog: Catalog) -> None:
    """Issue 17 item 4: apertium knows *bina*, *bine* only as forms of *bin* and *fašista*
    only as *fašist*'s genitive; hunspell-sr's entries бина/1 (a lemma apertium lacks) and
    фашист/11 (a consonant stem in the a-declension) say which nominatives they are."""
    bine = " ".join(check(catalog, "bine")["evidence"])
    assert "a form of bina, a lemma apertium lacks" in bine and "n.f.pl.nom" in bine
    assert "a-declension" in " ".join(check(catalog, "fašista")["evidence"])
    assert "fašist" in check(catalog, "fašistu")["reason"]["detail"]


@needs_lttoolbox
def test_a_possessive_nominative_names_its_noun(catalog: Catalog) -> None:
    """Seed 000 line 59 ("Pridevi se mogu sastavljati u sva tri roda"): the nominatives of
    a possessive adjective no apertium form teaches are admitted as possessives of the noun
    (the referee sees which), also where hunspell-hr lists them under the masculine the
    feminine is made of; the -in form of a stem no source reads as a noun stays
    unclassified."""
    got = check(catalog, "devojčicine")
    assert got["valid"], got["reason"]
    evidence = " ".join(got["evidence"])
    assert "possessive of the noun devojčica" in evidence and "adj.pos.f.pl.nom" in evidence
    assert "possessive of the noun brod" in " ".join(check(catalog, "brodov")["evidence"])
    assert "possessive of the noun majka" in " ".join(check(catalog, "majkin")["evidence"])
    # hunspell-hr lists the possessive of slikarica under the masculine slikar: a class
    # of its own for the audit
    assert "possessive of the noun slikarica, the feminine of slikar" in " ".join(
        check(catalog, "slikaričin")["evidence"])
    record = catalog.release("kvizovka").get(digraph_key("slikaričin"))
    assert evidence_class("kvizovka", record) == "admitted:possessive_feminine:hunspell-hr"
    # the feminine of a masculine in -ik drops the -ik (učenik: učenica, učeničin)
    assert "possessive of the noun učenica, the feminine of učenik" in " ".join(
        check(catalog, "učeničina")["evidence"])
    assert "bubuleja" in check(catalog, "bubulejin")["reason"]["detail"]


@needs_lttoolbox
def test_a_relational_adjective_names_its_noun(catalog: Catalog) -> None:
    """Seed 000 line 59 admits adjectives in three genders ("Pridevi se mogu sastavljati u
    sva tri roda"): the nominatives of a -ski adjective a dictionary lists under its noun
    are admitted as that noun's relational adjective, a class of their own for the audit;
    of a bare stem listed only to derive from (a village's name), or in hunspell-sr, which
    lists places' names in lower case (limska, of the river Lim or of lim), they stay
    unclassified."""
    got = check(catalog, "brodske")
    assert got["valid"], got["reason"]
    assert "relational adjective of the noun brod" in " ".join(got["evidence"])
    record = catalog.release("kvizovka").get(digraph_key("brodske"))
    assert evidence_class("kvizovka", record) == "admitted:relational:hunspell-hr"
    assert "tepen" in check(catalog, "tepenska")["reason"]["detail"]


def test_a_relational_adjective_is_spelled_from_its_noun() -> None:
    """The -ski adjective a noun makes, with the consonant changes of the grammars; the
    -anski, -ištanski adjectives of places hunspell-sr files under a common noun of the
    same spelling are none of them."""
    from lexicon.build.games.kvizovka.evidence import relational_spellings

    for noun, adjective in (("brod", "brodski"), ("imitacija", "imitacijski"),
                            ("pobočnik", "pobočnički"), ("sladokusac", "sladokusački"),
                            ("skretač", "skretački"), ("psiholog", "psihološki"),
                            ("seljak", "seljački")):
        assert adjective in relational_spellings(noun), noun
    assert "crkvanski" not in relational_spellings("crkva")
    assert "ljubištanski" not in relational_spellings("ljubište")


@needs_lttoolbox
def test_a_relational_adjective_only_apertium_has_counts_by_its_noun(catalog: Catalog
                                                                      ) -> None:
    """Seed 000 line 59 admits adjectives ("Pridevi se mogu sastavljati u sva tri roda"):
    apertium's relational adjective that no dictionary spells is admitted when a
    dictionary has the common noun the grammar's suffix makes it of (*rapsodijski* of
    *rapsodija*), and names that noun (a class of its own for the audit); one whose noun
    no dictionary has stays unattested (*kalcijski*)."""
    from lexicon.build.games.kvizovka.evidence import relational_nouns

    from lexicon.audit.classes import evidence_class

    got = check(catalog, "rapsodijska")
    assert got["valid"], got["reason"]
    assert "the adjective of the common noun rapsodija" in " ".join(got["evidence"])
    record = catalog.release("kvizovka").get(digraph_key("rapsodijski"))
    assert evidence_class("kvizovka", record) == "admitted:relational_noun:apertium-hbs-slv"
    assert check(catalog, "kalcijski")["reason"]["code"] == "unattested"
    assert relational_nouns("svjedočki")[:1] == ["svjedoč"] and "svjedok" in \
        relational_nouns("svjedočki") and "rapsodija" in relational_nouns("rapsodijski")


@needs_lttoolbox
def test_a_possessive_is_decided_by_what_it_belongs_to(catalog: Catalog) -> None:
    """Seed 000 line 59 admits adjectives ("Pridevi se mogu sastavljati u sva tri roda");
    a possessive adjective names what belongs to a person or an animal. apertium's
    possessive of an animate noun a dictionary has is admitted and names that noun (its
    own audit class); a feminine counts when a motion suffix makes it of an animate
    masculine; a dictionary's possessive of a noun apertium knows only as a thing is
    rejected, saying so; one of a thing or a name only apertium makes stays unattested."""
    from lexicon.audit.classes import evidence_class

    got = check(catalog, "bratova")
    assert got["valid"], got["reason"]
    evidence = " ".join(got["evidence"])
    assert "possessive_animate" in evidence or "possessive of a person or an animal: brat" \
        in evidence, evidence
    assert "possessive of a person or an animal: učiteljica, the feminine of the animate " \
        "učitelj" in " ".join(check(catalog, "učiteljičin")["evidence"])
    rel = catalog.release("kvizovka")
    classes = {evidence_class("kvizovka", r) for r in rel.records()
               if r.word in ("bratov", "učiteljičina")}
    assert classes == {"admitted:possessive_animate:apertium-hbs-slv"}
    assert "milimetrov" in check(catalog, "milimetrov")["reason"]["detail"]


@needs_lttoolbox
@pytest.mark.parametrize(("latin", "cyrillic"), [
    ("ljubav", "љубав"), ("nadživeti", "надживети"), ("kući", "кући"),
    ("konjugacija", "конјугација"), ("njiva", "њива"), ("odžak", "оџак")])
def test_cyrillic_input_gives_the_same_answer(catalog: Catalog, latin: str,
                                              cyrillic: str) -> None:
    a, b = check(catalog, latin), check(catalog, cyrillic)
    assert (a["valid"], a["tiles"], a["reason"]) == (b["valid"], b["tiles"], b["reason"])


@needs_lttoolbox
def test_short_words_are_judged_at_check_time(catalog: Catalog) -> None:
    got = check(catalog, "džep")
    assert got["reason"]["code"] == "too_short" and got["tiles"] == ["DŽ", "E", "P"]
    assert catalog.lexicon("kvizovka").check("džep", edge=True)["valid"]


@needs_lttoolbox
def test_other_tilings_are_alternatives(catalog: Catalog) -> None:
    got = check(catalog, "nadživeti")
    assert {"tiles": ["N", "A", "DŽ", "I", "V", "E", "T", "I"], "word": None, "known": False,
            "valid": False} in got["alternatives"]


@needs_lttoolbox
def test_manifest_policy_and_counts(built_home: Path) -> None:
    path = current_path("kvizovka", built_home)
    assert path is not None
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    policy = manifest["policy"]
    assert policy["admit_adverbs"] is False
    assert "unattested" in policy["single_source"]
    assert manifest["counts"]["by_reason"]["unattested"] >= 1
    assert manifest["counts"]["valid_by_category"]["noun"] >= 5
    assert policy["measured"]["hunspell"]["hunspell-sr"]["slots_learned"] >= 3
    assert {r["code"] for r in manifest["rules"]} >= {"comparative", "reflexive_verb",
                                                       "unattested", "phrase"}


@needs_lttoolbox
def test_admit_adverbs_switch(home: Path, tmp_path: Path) -> None:
    build_game("kvizovka", BuildContext(root=home, log=lambda _m: None),
               builder=make_builder(tmp_path, admit_adverbs=True))
    got = check(Catalog(home), "brzo")
    assert got["valid"] and got["category"] == "adv"


def test_latin_to_cyrillic_rules() -> None:
    tiler = LatinToCyrillic()
    tiler.learn("конјугација")
    tiler.learn("њива")
    tiler.learn_word("živjeti")
    assert tiler.key_and_how("konjugacija") == ("конјугација", "cyrillic-dictionary")
    assert tiler.key_and_how("nadživjeti") == ("надживјети", "prefix")
    assert tiler.key_and_how("odžak") == ("оџак", "digraph")      # "žak" is no word
    assert tiler.key_and_how("konjski") == ("коњски", "digraph")
    assert digraph_key("džep") == "џеп"
    assert to_latin("љубав") == "ljubav"


def test_unknown_slot_read_from_learned_endings() -> None:
    """A slot no example taught borrows the verdict of its ending within its part of speech."""
    learner = SlotLearner()
    pos_nom = ("adj", "pos", "nt", "sg", "nom", "def")
    pos_gen = ("adj", "pos", "f", "sg", "gen", "def")
    for i in range(60):   # flag P's possessives: -ino is nominative, -inoj is not
        learner.observe([("P", "<", "-a", "+ino")], 0, frozenset({pos_nom}), same_lemma=False,
                        form=f"sestr{i}ino")
        learner.observe([("P", "<", "-a", "+inoj")], 2, frozenset({pos_gen}), same_lemma=False,
                        form=f"sestr{i}inoj")
    unknown = HForm("kumičino", None, "kumica", ("Q", "<", "-ca", "+čino"))
    learner.observe([("Q", "<", "-ca", "+čina")], 0, frozenset({pos_nom}), same_lemma=False)
    assert learner.verdict([unknown.slot], unknown) is not None
    rejected = HForm("kumičinoj", None, "kumica", ("Q", "<", "-ca", "+činoj"))
    verdict = learner.verdict([rejected.slot], rejected)
    assert verdict is not None and all("gen" in t for t in verdict.tag_sets)
    stranger = HForm("kumičino", None, "kumica", ("R", "<", "-ca", "+čino"))  # no profile
    assert learner.verdict([stranger.slot], stranger) is None


@needs_lttoolbox
def test_a_name_every_dictionary_capitalises_is_a_proper_noun(catalog: Catalog) -> None:
    """apertium lists "srbija" as a common noun; sr_RS writes Србија (its lower-case
    србија/8 only derives српски-style adjectives), so the name is no Kvizovka word."""
    got = check(catalog, "srbija")
    assert not got["valid"] and got["reason"]["code"] == "proper_noun"
    assert "hunspell-sr: Srbija" in got["reason"]["detail"]
    assert check(catalog, "србија")["reason"] == got["reason"]
    assert check(catalog, "kuća")["valid"]      # a lower-case word stays a word


@needs_lttoolbox
def test_every_long_phase_shows_count_total_rate_and_eta(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The phases that take minutes on the real sources (issue 17: the apertium walk, the
    two hunspell passes, the records written) each end with a line that has a count
    against a total and a rate; the walk's estimate and the records' total end exact."""
    import io
    import re

    from lexicon.build import progress
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.0)    # a line at every update
    monkeypatch.delenv(progress.QUIET_ENV, raising=False)
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    build_game("kvizovka", BuildContext(root=tmp_path / "home", log=lambda _m: None),
               builder=make_builder(tmp_path))
    closing = {}
    for line in err.getvalue().splitlines():
        m = re.match(r"^(kvizovka: [^:]+): ([\d,]+)/([\d,]+) (\w+), [\d,]+ \w+/s, done in ",
                     line)
        if m:
            closing[m.group(1)] = (int(m.group(2).replace(",", "")),
                                   int(m.group(3).replace(",", "")), m.group(4))
    walk = closing["kvizovka: walking 2 apertium generator(s)"]
    assert walk[0] == walk[1] > 0 and walk[2] == "pairs"
    for phase in ("kvizovka: learning hunspell paradigm slots",
                  "kvizovka: judging hunspell forms"):
        done, total, unit = closing[phase]
        assert unit == "entries" and total == 138 + 53 and done > 0   # the .dic headers
    records = closing["kvizovka: records written"]
    assert records[0] == records[1] > 0
    assert any("ETA" in line for line in err.getvalue().splitlines())


def test_audit_classes_are_the_builders_admitted_by(catalog: Catalog) -> None:
    """The audit's class of an admitted form (lexicon.audit.classes: the deciding
    reading and the sources) is the builder's own ``valid_admitted_by`` count, renamed."""
    from collections import Counter

    from lexicon.audit.classes import ADMITTED, APERTIUM, evidence_class

    def builders_name(cls: str) -> str:
        decided, sources = cls.removeprefix(ADMITTED).split(":")
        if decided == "apertium":
            return "apertium tags, attested by " + "+".join(
                s for s in sources.split("+") if s != APERTIUM)
        if decided == "possessive":
            return "noun's possessive read from the ending, " + sources
        if decided == "relational":
            return "noun's relational adjective read from the ending, " + sources
        if decided == "possessive_feminine":
            return "feminine's possessive listed under the masculine, " + sources
        if decided == "possessive_animate":
            return "apertium's possessive of an animate noun, " + sources
        if decided == "relational_noun":
            return "apertium's relational adjective of a dictionary's noun, " + sources
        return "learned hunspell slot, " + sources

    rel = catalog.release("kvizovka")
    classes = Counter(builders_name(evidence_class("kvizovka", r))
                      for r in rel.records() if r.valid)
    assert dict(classes) == rel.manifest["policy"]["measured"]["valid_admitted_by"]
    assert len(classes) >= 3
    assert classes["noun's possessive read from the ending, hunspell-sr"] >= 6


@needs_lttoolbox
def test_the_rules_are_made_once_from_the_complete_evidence(tmp_path: Path) -> None:
    """No judge before the sources are read (the walk ranks with ``walk_rank`` only) and
    one after: it knows every reflexive-only verb the walk and the reviewed lists showed,
    and it is the judge the form rules explain with."""
    from lexicon.errors import BuildError

    b = make_builder(tmp_path)
    assert b.judge is None and b.book is None
    assert not hasattr(b.sources, "judge")
    with pytest.raises(BuildError, match="made from the evidence"):
        b.rules()
    records = [as_record(r) for r in b.records(BuildContext(root=tmp_path / "home",
                                                             log=lambda _m: None))]
    assert b.judge is not None and b.book is not None
    assert {"smejati", "kajati"} <= b.sources.reflexive_only
    assert all(b.judge.reflexive_only(v) for v in b.sources.reflexive_only)
    assert not b.judge.reflexive_only("voleti")
    by_word = {r.word: r for r in records}
    assert by_word["smejati"].reason_code == by_word["kajati"].reason_code == "reflexive_verb"
    assert [r["code"] for r in b.rules() if r["level"] == "analysis"] == b.judge.codes


@needs_lttoolbox
def test_each_dictionary_is_expanded_once_and_the_evidence_freed_after_judging(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The builder reads each hunspell dictionary twice (to learn the slots, then to judge
    every form), but expands its affix rules once: the second reading replays the first
    (``paradigms.FormSpool``). Once the last key is judged the evidence is dropped, so the
    release writer reuses its memory; the manifest's figures stay."""
    from lexicon.build.games.kvizovka import paradigms

    expanded: Counter[str] = Counter()
    expand = paradigms.expand

    def counted(dic: Path, aff: Path, on_entries: Any = None) -> Iterator[Any]:
        expanded[Path(dic).name] += 1
        yield from expand(dic, aff, on_entries)

    monkeypatch.setattr(paradigms, "expand", counted)
    b = make_builder(tmp_path)
    records = b.records(BuildContext(root=tmp_path / "home", log=lambda _m: None))
    first = next(records)
    assert expanded == {"sr_test.dic": 1, "hr_test.dic": 1}
    assert len(b.sources.keys) == b.stats["keys"] > 1 and b.sources.ap.forms
    rest = list(records)
    assert 1 + len(rest) == b.stats["keys"] and first.key < rest[0].key
    assert b.sources.keys == {} and not b.sources.ap.forms
    assert b.stats["hunspell"]["hunspell-sr"]["forms"] > 0 and b.policy()["measured"]
    assert expanded == {"sr_test.dic": 1, "hr_test.dic": 1}


def test_a_spool_replays_the_forms_it_recorded() -> None:
    """The replay is the expansion again, form for form (stem runs cut across batches
    included), and tells the progress bar the same entries."""
    from lexicon.build.games.kvizovka import paradigms
    from lexicon.build.games.kvizovka.evidence import hunspell_source

    for name in ("sr_test", "hr_test"):
        src = hunspell_source(DATA / f"{name}.dic", DATA / f"{name}.aff")
        spool = paradigms.FormSpool()
        spool.BATCH = 7          # many batches on a tiny dictionary
        told: list[int] = []
        with pytest.raises(RuntimeError, match="before the recording ended"):
            next(spool.replay())
        recorded = list(spool.record(src, on_entries=told.append))
        entries = sum(told)
        replayed = list(spool.replay(told.append))
        assert recorded == list(paradigms.iter_forms(src)) == replayed
        assert len(recorded) > 3 * spool.BATCH and entries > 1
        assert sum(told) == 2 * entries


@needs_lttoolbox
def test_the_same_release_with_1_2_and_3_workers(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The keys judged in forked workers (build.shards) give the bytes one process writes,
    and the same counts: the records come back in key order whatever the number, and
    whether a worker lives for the whole pool or is replaced after each shard."""
    import sys
    kvizovka_builder = sys.modules[KvizovkaBuilder.__module__]   # (the package's
    # ``builder`` is the production factory, not the module)
    found = {}
    for workers in (1, 2, 3):
        # three workers, each replaced by a fresh fork after one shard
        monkeypatch.setattr(kvizovka_builder, "KEY_RECYCLE", 1 if workers == 3 else None)
        root = tmp_path / f"workers-{workers}"
        bins = tmp_path / f"bins-{workers}"
        bins.mkdir()
        b = make_builder(bins)
        build_game("kvizovka", BuildContext(root=root, log=lambda _m: None, workers=workers),
                   builder=b)
        path = current_path("kvizovka", root)
        assert path is not None
        m = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
        measured = {k: v for k, v in m["policy"]["measured"].items()
                    if "seconds" not in k}                      # wall times differ
        measured["apertium"] = {k: v for k, v in measured["apertium"].items()
                                if "seconds" not in k}
        found[workers] = (m["content_sha256"], m["content_hash"], m["counts"], measured)
    counts, measured = found[1][2:]
    assert counts["valid"] > 10 and counts["rejected"] > 10
    assert sum(measured["valid_admitted_by"].values()) == counts["valid"]
    assert found[2] == found[1] and found[3] == found[1]


@needs_lttoolbox
def test_the_short_form_of_a_qualitative_ni_adjective(catalog: Catalog) -> None:
    """Seed 000 (line 59): "Pridevi se mogu sastavljati u sva tri roda u određenom i
    neodređenom obliku". hunspell-sr's flag for -ni adjectives makes an -an form of each;
    it is the indefinite masculine nominative singular where a source says the adjective
    is qualitative: another dictionary lists the -an form (*inkompresibilan*), or apertium
    has its -nost noun (*kontraktilan*: *kontraktilnost*). A relational one has no short
    form (*avansan*; *ratan* of apertium's definite-only *ratni*, though a dictionary
    lists it), nor is an -sni adjective's short form spelled without the t of its -stan
    form (*strasan* beside *strastan*), and no a is fleeting after a vowel (*žlezdaan*).
    One dictionary's bare entry of the -an spelling is no second witness: hunspell-sr lists
    *судан* only to derive *sudanski* from it."""
    got = check(catalog, "inkompresibilan")
    assert got["valid"], got["reason"]
    assert "short form of the adjective inkompresibilni" in " ".join(got["evidence"])
    assert "kontraktilnost" in " ".join(check(catalog, "kontraktilan")["evidence"])
    for word in ("avansan", "ratan", "strasan", "žlezdaan", "sudan"):
        assert check(catalog, word)["reason"]["code"] == "unclassified", word


@needs_lttoolbox
def test_a_verb_is_reflexive_only_in_every_spelling(catalog: Catalog) -> None:
    """Seed 000 (line 59): "svi glagoli osim povratnih, i to isključivo u infinitivu".
    apertium tags *koncentrisati* only reflexive, and its Croatian doublet *koncentrirati*
    transitive ("koncentrisati snage"): one verb, so it is no reflexive-only verb, with no
    reviewed list naming it; *smejati* (se), with no such doublet, stays one."""
    got = check(catalog, "koncentrisati")
    assert got["valid"], got["reason"]
    assert not (DATA / "lists" / "hbs_not_reflexive_only.txt").exists()
    assert check(catalog, "smejati")["reason"]["code"] == "reflexive_verb"
