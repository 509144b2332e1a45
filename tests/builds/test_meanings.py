"""What a word means: tiny dictd and MyThes files in the real formats, built into a tiny
release, answered on every face with their source and licence; never made up."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from lexicon.build import amend
from lexicon.build.pipeline import BuildContext, build_game
from lexicon.service.app import create_app
from lexicon.sources import fetch as fetching
from lexicon.sources import freedict

from lexicon.catalog import Catalog
from lexicon.errors import ReleaseDamaged
from lexicon.store import integrity, published
from lexicon.store.meanings import MEANINGS_FILE
from lexicon.store.records import Analysis, Record
from lexicon.store.release import Release
from tests.conftest import POLISH_RECORDS, StaticBuilder, lexicon, publish, rec
from tests.sources.test_source_readers import write_dictd, write_thesaurus

# entries as the real packages write them (see sources/freedict.py)
POL_ENG = [
    ("kot", "kot /kɔt/ <n>\n1. cat\n(zoologia, zoologiczny) Felis catus Linnaeus, zwierzę "
            "domowe;\n2. dust bunny\n(potocznie, potoczny) kłąb kurzu\n"),
    ("dom", "dom /dɔ̃m/ /ˈdɔmɨ/ <n>\n1. house, home 2.\n(architektura) oddzielny budynek\n"
            " 3.\n(heraldyka) ród, rodzina\n2. home, house\npomieszczenie\n"),
    ("gęśl", "gęśl /ɡɛ̃ɕl/ <n>\ngittern\n(muzyka) dawny instrument strunowy\n"),
    ("zażółcić", "zażółcić /zaˈʒuwʨ̑iʨ̑/ <v>\nto yellow\nuczynić żółtym\n"),
    ("sytuacja", "sytuacja /ˌsɨtuˈ<sup>w</sup>aʦ̑ʲja/ <n>\nsituation\nzespół okoliczności\n"),
]
SLV_ENG = [
    ("hiša", "hiša /xˈiːʃa/ <n, f, sg>\nhouse, home\n"
             '      "Hiša je velika."  - The house is big.\n'),
    ("abolicija", "abolicija /abɔlitsˈiːja/ <n, f, sg>\n [law] abolition\n"),
    ("drugič", "drugič /drˈuːɡitʃ/ <adv>\n1. another time\n2. second time\n"),
]
POL = "dict-freedict-pol-eng"


def _fetched(tmp: Path, ids_roots: dict[str, Path]) -> dict[str, fetching.Fetched]:
    specs = fetching.load_manifest()
    return {sid: fetching.Fetched(specs[sid], tmp / f"{sid}.deb", "0" * 64, root)
            for sid, root in ids_roots.items()}


def _build(home: Path, game: str, records: list, roots: dict[str, Path]) -> Path:
    ctx = BuildContext(root=home, log=lambda _m: None,
                       fetched=_fetched(home, roots))
    return build_game(game, ctx, builder=StaticBuilder(game, records))


@pytest.fixture()
def polish(home: Path, tmp_path: Path) -> Path:
    root = write_dictd(tmp_path / "pol", "freedict-pol-eng", POL_ENG)
    return _build(home, "osps", POLISH_RECORDS, {POL: root})


def test_reader_keeps_the_translations_of_each_sense_only(tmp_path: Path) -> None:
    pol = freedict.by_headword(write_dictd(tmp_path / "p", "freedict-pol-eng", POL_ENG))
    assert pol["kot"][0].translations == ("cat", "dust bunny")   # not the Polish definitions
    assert pol["dom"][0].translations == ("house, home", "home, house")  # two IPA, markers
    assert pol["sytuacja"][0].translations == ("situation",)     # a "</sup>" in the IPA
    slv = freedict.by_headword(write_dictd(tmp_path / "s", "freedict-slv-eng", SLV_ENG))
    assert slv["hiša"][0].translations == ("house, home",)       # the example is not one
    assert slv["abolicija"][0].translations == ("[law] abolition",)
    assert slv["drugič"][0].translations == ("another time", "second time")
    hrv = freedict.by_headword(write_dictd(tmp_path / "h", "freedict-hrv-eng",
                                           [("mačka", "mačka /mˈatʃkæ/\ncat\n")]),
                               unlabelled=True)
    assert hrv["mačka"][0].translations == ("cat",)


def test_a_meaning_comes_with_its_source_and_licence(home: Path, polish: Path) -> None:
    cat = Catalog(home)
    kot = cat.lexicon("osps").check("kot")
    assert kot["meanings"] == [{
        "lemma": "kot", "source": POL,
        "name": "FreeDict Polish-English dictionary",
        "license": "CC-BY-SA-3.0 (FreeDict + WikDict, from Wiktionary)",
        "translations": ["cat", "dust bunny"]}]
    # by lemma: an inflected form shows its lemma's meaning
    assert [m["lemma"] for m in cat.lexicon("osps").check("gęślą")["meanings"]] == ["gęśl"]
    # a word no source lists shows none; a rejected word shows none
    assert cat.lexicon("osps").check("jaźń")["meanings"] == []
    assert cat.lexicon("osps").check("np")["meanings"] == []
    m = json.loads((polish / "manifest.json").read_text())["meanings"]
    assert m["file"] == MEANINGS_FILE and m["admitted_lemmas"] == 5   # zażółcić gęśl jaźń kot ul
    assert m["lemmas"] == 3 and m["by_source"] == {POL: 3}
    cat.close()


def test_the_same_meanings_on_every_face(home: Path, polish: Path) -> None:
    with TestClient(create_app(home)) as client:
        body = client.get("/v1/games/osps/words/kot").json()
        assert body["meanings"][0]["translations"] == ["cat", "dust bunny"]
        batch = client.post("/v1/games/osps/check", json={"words": ["kot", "ul"]}).json()
        assert [r["meanings"] for r in batch["results"]][1] == []
    out = lexicon(home, "check", "osps", "kot", "ul", "--meaning")
    assert "meaning of kot (FreeDict Polish-English dictionary, CC-BY-SA-3.0" in out.stdout
    assert "1. cat" in out.stdout and "2. dust bunny" in out.stdout
    assert "meaning: none in this release's sources" in out.stdout        # ul
    js = json.loads(lexicon(home, "check", "osps", "kot", "--json").stdout)
    assert js["meanings"] == body["meanings"]
    # remik plays the osps vocabulary: its release links the same meanings
    remik = build_game("remik", BuildContext(root=home, log=lambda _m: None))
    assert (remik / MEANINGS_FILE).stat().st_ino == (polish / MEANINGS_FILE).stat().st_ino
    cat = Catalog(home)
    assert cat.lexicon("remik").check("kot")["meanings"] == body["meanings"]
    cat.close()


def test_synonyms_from_the_thesaurus_beside_the_translations(home: Path,
                                                             tmp_path: Path) -> None:
    roots = {"dict-freedict-slv-eng": write_dictd(tmp_path / "slv", "freedict-slv-eng", SLV_ENG),
             "mythes-sl": write_thesaurus(tmp_path / "th", [
                 ("hiša", ["(sam.)|dom|domovanje", "(sam.)|rodbina|rod"])])}
    _build(home, "krizemkrazem", [rec("hiša", category="noun"), rec("miza", category="noun")],
           roots)
    cat = Catalog(home)
    hisa = cat.lexicon("krizemkrazem").check("hiša")["meanings"]
    assert [(m["source"], m.get("translations"), m.get("synonyms")) for m in hisa] == [
        ("dict-freedict-slv-eng", ["house, home"], None),
        ("mythes-sl", None, [["dom", "domovanje"], ["rodbina", "rod"]])]
    assert hisa[1]["license"].startswith("GPL or LGPL")
    assert cat.lexicon("krizemkrazem").check("miza")["meanings"] == []
    cat.close()


def test_an_older_release_without_the_file_still_answers(home: Path) -> None:
    path = publish(home, "osps", POLISH_RECORDS)      # no dictionary fetched: no file
    assert json.loads((path / "manifest.json").read_text())["meanings"]["file"] is None
    assert integrity.verify_release(path)
    # a release written before meanings existed: no "meanings" key at all
    manifest = json.loads((path / "manifest.json").read_text())
    del manifest["meanings"]
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert integrity.layout_problems(manifest) == []
    cat = Catalog(home)
    kot = cat.lexicon("osps").check("kot")
    assert kot["valid"] and kot["meanings"] == []
    cat.close()


def test_the_integrity_check_covers_the_meanings_file(home: Path, polish: Path) -> None:
    manifest = json.loads((polish / "manifest.json").read_text())
    assert MEANINGS_FILE in integrity.layout_files(manifest)
    unlisted = {**manifest, "files": {k: v for k, v in manifest["files"].items()
                                      if k != MEANINGS_FILE}}
    assert any(MEANINGS_FILE in p for p in integrity.layout_problems(unlisted))
    # a meanings file of the wrong size is never mapped: the release is damaged
    target = polish / MEANINGS_FILE
    data = target.read_bytes()
    os.unlink(target)                    # a new inode: never edit a published file in place
    target.write_bytes(data[:-8])
    with pytest.raises(ReleaseDamaged):
        Release(polish)
    with pytest.raises(ReleaseDamaged) as caught:
        integrity.verify_release(polish)
    assert any(MEANINGS_FILE in p for p in caught.value.detail["problems"])


def test_amend_keeps_the_meanings(home: Path, polish: Path, tmp_path: Path) -> None:
    fix = tmp_path / "fix.tsv"
    fix.write_text("kot\tremove\truling 7\n", encoding="utf-8")
    new = amend.derive("osps", overrides=amend.read_overrides(fix), root=home)
    assert published.current_id("osps", home) == new.name
    m = json.loads((new / "manifest.json").read_text())["meanings"]
    assert m["file"] == MEANINGS_FILE and m["carried_from"] == polish.name  # no cache here
    cat = Catalog(home)
    assert cat.lexicon("osps").check("kot")["meanings"] == []       # now rejected
    assert cat.lexicon("osps").check("zażółć")["meanings"][0]["translations"] == [
        "to yellow"]
    cat.close()


def _record(key: str, word: str, *analyses: tuple[str, str]) -> Record:
    return Record(key=key, word=word, valid=True, sources=["test"], category="noun",
                  evidence=["test list"],
                  analyses=[Analysis(lemma, tags, "test") for lemma, tags in analyses])


def test_a_word_rejected_for_its_length_alone_has_no_meanings(home: Path,
                                                              tmp_path: Path) -> None:
    """The record admits it, the move does not (Remik's 3 letters, Križemkražem's 4,
    Kvizovka's 3 off the edge): the verdict rejects it, so `meanings: []` on every face."""
    pol = write_dictd(tmp_path / "pol", "freedict-pol-eng", [*POL_ENG, (
        "ul", "ul /ul/ <n>\nbeehive\nul pszczeli\n")])
    _build(home, "osps", POLISH_RECORDS, {POL: pol})
    build_game("remik", BuildContext(root=home, log=lambda _m: None))
    slv = write_dictd(tmp_path / "slv", "freedict-slv-eng", [
        ("pot", "pot /pˈɔːt/ <n, f, sg>\npath, way\n")])
    _build(home, "krizemkrazem", [rec("pot", tags="n.f.sg.nom", category="noun"),
                                  rec("hiša", category="noun")],
           {"dict-freedict-slv-eng": slv})
    hrv = write_dictd(tmp_path / "hrv", "freedict-hrv-eng", [("dan", "dan /dˈan/\nday\n")])
    _build(home, "kvizovka", [_record("дан", "dan", ("dan", "n.m.sg.nom"))],
           {"dict-freedict-hrv-eng": hrv})
    cat = Catalog(home)
    try:
        assert cat.lexicon("osps").check("ul")["meanings"][0]["translations"] == [
            "beehive"]                                            # admitted here: meant
        for game, word, edge in (("remik", "ul", False), ("krizemkrazem", "pot", False),
                                 ("kvizovka", "dan", False)):
            got = cat.lexicon(game).check(word, edge=edge)
            assert not got["valid"] and got["reason"]["code"] == "too_short", (game, got)
            assert got["meanings"] == [], game
        dan = cat.lexicon("kvizovka").check("dan", edge=True)   # at the edge: a word
        assert dan["valid"] and dan["meanings"][0]["translations"] == ["day"]
    finally:
        cat.close()
    with TestClient(create_app(home)) as client:
        body = client.get("/v1/games/remik/words/ul").json()
        assert body["valid"] is False and body["meanings"] == []
        batch = client.post("/v1/games/kvizovka/check", json={"words": ["dan"]}).json()
        assert batch["results"][0]["meanings"] == []
    out = lexicon(home, "check", "krizemkrazem", "pot", "--meaning")
    assert out.returncode == 1 and "meaning: none" in out.stdout


def test_meanings_only_of_the_admitted_readings(home: Path, tmp_path: Path) -> None:
    """Križemkražem `roka` is the nominative of *roka*, also the genitive and dual of *rok*
    (apertium's analyses, all stored): only *roka* is shown. Kvizovka `more` is the
    headword *more*, also the nominative plural of *mora*: the word's own entry. A plural
    that is no headword (Škoti) shows the lemma of its admitted reading."""
    slv = write_dictd(tmp_path / "slv", "freedict-slv-eng", [
        ("roka", "roka /rˈɔːka/ <n, f, sg>\nhand, arm\n"),
        ("rok", "rok /rˈɔːk/ <n, m, sg>\ndeadline, term\n"),
        ("reka", "reka /rˈɛːka/ <n, f, sg>\nriver\n"),
        ("rek", "rek /rˈɛːk/ <n, m, sg>\nproverb\n"),
        ("Škot", "Škot /ʃkˈɔːt/ <n, m, sg>\nScot\n")])
    _build(home, "krizemkrazem", [
        _record("roka", "roka", ("roka", "n.f.sg.nom"), ("rok", "n.mi.sg.gen"),
                ("rok", "n.mi.du.nom"), ("rok", "n.mi.du.acc")),
        _record("reka", "reka", ("reka", "n.f.sg.nom"), ("rek", "n.mi.sg.gen"),
                ("rek", "n.mi.du.nom")),
        _record("rokah", "rokah", ("rok", "n.mi.du.loc"), ("roka", "n.f.du.loc")),
        _record("škoti", "Škoti", ("Škot", "np.ant.m.pl.nom")),
        rec("hiša", category="noun")], {"dict-freedict-slv-eng": slv})
    hrv = write_dictd(tmp_path / "hrv", "freedict-hrv-eng", [
        ("more", "more /mˈore/\nsea\n"), ("mora", "mora /mˈora/\nnightmare\n")])
    _build(home, "kvizovka", [
        _record("море", "more", ("more", "n.nt.sg.nom"), ("mora", "n.f.pl.nom")),
        _record("мора", "mora", ("mora", "n.f.sg.nom"))], {"dict-freedict-hrv-eng": hrv})
    cat = Catalog(home)
    try:
        def lemmas(game: str, word: str) -> list[str]:
            return [m["lemma"] for m in cat.lexicon(game).check(word)["meanings"]]

        assert lemmas("krizemkrazem", "roka") == ["roka"]
        assert lemmas("krizemkrazem", "reka") == ["reka"]
        assert lemmas("krizemkrazem", "Škoti") == ["Škot"]
        assert lemmas("krizemkrazem", "rokah") == []      # no admitted reading: itself
        assert lemmas("kvizovka", "more") == ["more"]
        assert lemmas("kvizovka", "mora") == ["mora"]
        roka = cat.lexicon("krizemkrazem").check("roka")
        assert [a["lemma"] for a in roka["analyses"]] == ["roka", "rok", "rok", "rok"]
    finally:
        cat.close()
