"""Glosses and localized reasons: the tag tables cover every tag the releases can carry.

The tag inventories come from what the project ships and installs: the full Morfeusz tagset
(the installed morfeusz2's own listing), the tags declared in the shipped apertium test
dictionaries, and the tags the builders write themselves. tools/gloss_coverage.py measures
the same against real releases.
"""

from __future__ import annotations

import re
from pathlib import Path

import morfeusz2
import pytest
from fastapi.testclient import TestClient
from lexicon.build.games.krizemkrazem.builder import GENDER_TAG
from lexicon.build.games.kvizovka import analysis as hbs_tags
from lexicon.service.app import create_app

from lexicon.catalog import Catalog
from lexicon.errors import InputError
from lexicon.game import gloss
from lexicon.game.reasons import REASONS
from tests.conftest import publish, rec
from tools.gloss_coverage import coverage

DATA = Path(__file__).parents[1] / "data"


def morfeusz_tagset() -> list[str]:
    resolver = morfeusz2.Morfeusz()._morfeusz_obj.getIdResolver()
    tags = [resolver.getTag(i) for i in range(resolver.getTagsCount())]
    return [t for t in tags if t]


def dix_tags(path: Path) -> set[str]:
    return set(re.findall(r'<sdef n="([^"]+)"', path.read_text(encoding="utf-8")))


def test_the_example_gloss() -> None:
    assert gloss.gloss("osps", "impt:sg:sec:perf", "pl") == (
        "czasownik, tryb rozkazujący, 2. osoba liczby pojedynczej, aspekt dokonany")
    assert gloss.gloss("remik", "impt:sg:sec:perf", "en") == (
        "verb, imperative, 2nd person singular, perfective aspect")
    assert gloss.gloss("osps", "subst:pl:nom.acc.voc:m2.m3", "pl") == (
        "rzeczownik, liczba mnoga, mianownik lub biernik lub wołacz, "
        "rodzaj męskozwierzęcy lub męskorzeczowy")
    assert gloss.gloss("osps", "prep:gen+ppron3:sg:gen:m1:ter:akc:praep", "en").startswith(
        "preposition, genitive + third-person personal pronoun, singular")
    assert gloss.gloss("kvizovka", "n.f.sg.nom", "sr") == "imenica, ženski rod, jednina, nominativ"
    assert gloss.gloss("krizemkrazem", "n.nt.sg.nom", "sl") == (
        "samostalnik, srednji spol, ednina, imenovalnik")
    # a language the tag set has no words for falls back to English
    assert gloss.gloss("osps", "subst:sg:nom:f", "sr") == (
        "noun, singular, nominative, feminine gender")


def test_every_morfeusz_tag_has_a_gloss() -> None:
    tags = morfeusz_tagset()
    assert len(tags) > 500            # the full SGJP tagset, not an empty listing
    ts = gloss.tagset_for("osps")
    missing = {v for t in tags for v in ts.missing(t)}
    assert not missing, sorted(missing)


def test_every_apertium_tag_the_builders_use_has_a_gloss() -> None:
    hbs = dix_tags(DATA / "kvizovka" / "hbs_SR.dix") | dix_tags(DATA / "kvizovka" / "hbs_HR.dix")
    hbs |= {*hbs_tags.NOMINAL, *hbs_tags.VERBAL, *hbs_tags.CASES, *hbs_tags.NUMBERS,
            *hbs_tags.POS_NAMES, *hbs_tags.VERB_FORMS, *hbs_tags.FUNCTION_WORDS,
            *hbs_tags.PROPER_KINDS, *hbs_tags.DEGREES, *hbs_tags.LEXICAL_TAGS,
            hbs_tags.UNCLASSIFIED}
    assert len(hbs) > 40
    assert not gloss.tagset_for("kvizovka").missing(".".join(sorted(hbs)))
    # Slovenian: the analyser's tags and the builder's own "n.<gender>.<number>.nom".
    slv = dix_tags(DATA / "krizemkrazem" / "slv_tiny.dix") | set(GENDER_TAG.values()) | {
        "n", "sg", "pl", "nom"}
    assert not gloss.tagset_for("krizemkrazem").missing(".".join(sorted(slv)))


def test_every_reason_code_speaks_every_language() -> None:
    for code in REASONS:
        for lang in gloss.LANGUAGES:
            text = gloss.reason_text(code, lang)
            assert text and (lang == "en" or text != REASONS[code]), (code, lang)


def test_polish_reasons_name_the_tile_as_each_games_rule_book() -> None:
    """Remik's rule book says "kostka", Scrabble's "płytka": a Remik-only reason says
    "kostka", and a reason both Polish games give names neither (it counts letters)."""
    for code in REASONS:
        text = gloss.reason_text(code, "pl")
        assert not re.search(r"płyt", text), (code, text)
    assert "kostek" in gloss.reason_text("tiles_not_conserved", "pl")
    assert gloss.reason_text("too_short", "pl") == "mniej liter niż minimum tej gry"


def test_check_glosses_and_localizes(small_releases: Path) -> None:
    cat = Catalog(small_releases)
    r = cat.lexicon("osps").check("zażółć")
    assert r["analyses"][0]["gloss"] == (
        "czasownik, tryb rozkazujący, 2. osoba liczby pojedynczej, aspekt dokonany")
    np = cat.lexicon("osps").check("np")
    assert np["reason"] == {"code": "abbreviation", "message": "skrót lub symbol",
                            "detail": "abbreviation (Morfeusz: brev:pun)"}
    assert cat.lexicon("osps").check("np", lang="en")["reason"]["message"] == (
        "an abbreviation or symbol")
    kuci = cat.lexicon("kvizovka").check("kući")
    assert kuci["reason"]["message"].startswith("oblik koji igra ne dozvoljava")
    assert cat.lexicon("kvizovka").check("ljubav")["analyses"][0]["gloss"].startswith("imenica")
    short = cat.lexicon("kvizovka").check("džep", lang="sl")
    assert short["reason"] == {"code": "too_short", "message": "manj črk, kot jih zahteva igra",
                               "detail": "3 tiles; 4 required (3 at the board's edge)"}
    with pytest.raises(InputError) as bad:
        cat.lexicon("osps").check("kot", lang="de")
    assert bad.value.code == "bad_lang"


def test_http_lang(small_releases: Path) -> None:
    client = TestClient(create_app(small_releases))
    r = client.get("/v1/games/osps/words/zażółć", params={"lang": "en"}).json()
    assert r["analyses"][0]["gloss"].startswith("verb, imperative")
    r = client.post("/v1/games/osps/check", json={"words": ["np"], "lang": "sl"}).json()
    assert r["results"][0]["reason"]["message"] == "okrajšava ali simbol"
    r = client.post("/v1/games/osps/judge", json={"words": ["np"], "reveal": True,
                                                   "lang": "en"}).json()
    assert r["results"][0]["reason"]["message"] == "an abbreviation or symbol"
    bad = client.get("/v1/games/osps/words/kot", params={"lang": "xx"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_lang"


def test_coverage_tool_finds_an_unglossed_tag(home: Path) -> None:
    publish(home, "osps", [rec("kot", tags="subst:sg:nom:m2"), rec("kota", tags="subst:sg:zzz")])
    cat = Catalog(home)
    got = coverage("osps", cat.release("osps"))
    assert got["missing"] == {"zzz": 1} and got["analyses"] == 2
    assert got["analyses_glossed_pct"] == 50.0


def test_serbian_in_cyrillic_is_the_serbian_texts_transliterated(small_releases: Path) -> None:
    assert gloss.to_cyrillic("Kvizovka: latinica ili ćirilica, džoker, LJ, Nj") == (
        "Квизовка: латиница или ћирилица, џокер, Љ, Њ")
    cat = Catalog(small_releases)
    kuci = cat.lexicon("kvizovka").check("kući", lang="sr-Cyrl")
    assert kuci["reason"]["message"] == gloss.to_cyrillic(
        cat.lexicon("kvizovka").check("kući")["reason"]["message"])
    assert kuci["reason"]["message"].startswith("облик који игра не дозвољава")
    assert kuci["reason"]["detail"].startswith("noun kuća")          # the detail stays as is
    ljubav = cat.lexicon("kvizovka").check("ljubav", lang="sr-Cyrl")
    assert ljubav["analyses"][0]["gloss"] == "именица, женски род, једнина, номинатив"
    # a tag set without Serbian falls back to English, never to transliterated English
    assert gloss.gloss("osps", "subst:sg:nom:f", "sr-Cyrl") == (
        "noun, singular, nominative, feminine gender")
    assert gloss.gloss("kvizovka", "n.xyz", "sr-Cyrl") == "именица, xyz"   # raw stays raw
    client = TestClient(create_app(small_releases))
    r = client.get("/v1/games/kvizovka/words/kući", params={"lang": "sr-Cyrl"}).json()
    assert r["reason"]["message"] == kuci["reason"]["message"]
    r = client.post("/v1/games/osps/judge", json={"words": ["np"], "reveal": True,
                                                   "lang": "sr-Cyrl"}).json()
    assert r["results"][0]["reason"]["message"] == "скраћеница или симбол"


def test_cyrillic_readers_get_the_word_tiles_and_lemmas_in_cyrillic(home: Path) -> None:
    """sr-Cyrl: a Kvizovka answer spells the word, its tiles and its lemmas in Cyrillic; a
    lemma that is a word of the release by its key (the digraph question settled there:
    nadživeti is надживети, not наџивети), any other letter by letter."""
    publish(home, "kvizovka", [
        rec("љубави", word="ljubavi", lemma="ljubav", tags="n.f.pl.nom", category="noun"),
        rec("љубав", word="ljubav", tags="n.f.sg.nom", category="noun"),
        rec("лубав", word="lubav", tags="test"),      # a word under L: L+J is read too
        rec("надживети", word="nadživeti", lemma="nadživeti", tags="vblex.inf"),
        rec("коњи", word="konji", lemma="konj", tags="n.m.pl.nom", category="noun")])
    cat = Catalog(home)
    r = cat.lexicon("kvizovka").check("ljubavi", lang="sr-Cyrl")
    assert r["script"] == {"word": "љубави", "tiles": ["Љ", "У", "Б", "А", "В", "И"],
                           "lemmas": {"ljubav": "љубав"},
                           "alternatives": [["Л", "Ј", "У", "Б", "А", "В", "И"]]}
    other = cat.lexicon("kvizovka").check("ljubav", lang="sr-Cyrl")   # lj read as L+J too
    assert [a["tiles"] for a in other["alternatives"]] == [["L", "J", "U", "B", "A", "V"]]
    assert other["script"]["alternatives"] == [["Л", "Ј", "У", "Б", "А", "В"]]
    assert r["word"] == "ljubavi" and r["analyses"][0]["lemma"] == "ljubav"   # unchanged
    assert cat.lexicon("kvizovka").check("nadživeti", lang="sr-Cyrl")["script"]["lemmas"] == {
        "nadživeti": "надживети"}
    assert cat.lexicon("kvizovka").check("konji", lang="sr-Cyrl")["script"]["lemmas"] == {
        "konj": "коњ"}                                  # not a word here: letter by letter
    for lang in ("sr", "en", "pl"):
        assert "script" not in cat.lexicon("kvizovka").check("ljubavi", lang=lang)


def test_game_names_in_the_readers_language(small_releases: Path) -> None:
    client = TestClient(create_app(small_releases))
    titles = {lang: {g["id"]: g["title"] for g in client.get(
        "/v1/games", params={"lang": lang}).json()} for lang in ("pl", "sr-Cyrl", "en")}
    assert titles["pl"]["osps"] == "Scrabble (OSPS)"
    assert titles["sr-Cyrl"]["kvizovka"] == "Квизовка"
    assert titles["en"]["osps"] == "Polish Scrabble (OSPS)"
    assert {g["id"]: g["title"] for g in client.get("/v1/games").json()}["kvizovka"] == \
        "Kvizovka"                                      # the players' language: sr
    assert client.get("/v1/games/osps", params={"lang": "sl"}).json()["title"] == \
        "Scrabble v poljščini (OSPS)"
    r = client.get("/v1/games", params={"lang": "xx"})
    assert r.status_code == 400 and r.json()["code"] == "bad_lang"
