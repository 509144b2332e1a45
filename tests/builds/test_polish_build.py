"""The Polish builder on a tiny word list and .dic/.aff, with the real Morfeusz 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lexicon.build.games.osps import (
    COMPLETED,
    GENERATED,
    HUNSPELL,
    SOURCE_BITS,
    WPOLISH,
    Candidate,
    PolishBuilder,
    grade,
    make_rules,
)
from lexicon.build.games.osps.evidence import generated_slot, left_out_slot, negation_base
from lexicon.build.pipeline import BuildContext, build_game
from lexicon.sources import morfeusz

from lexicon.catalog import Catalog
from tests.conftest import SmallHomes

DATA = Path(__file__).parents[1] / "data" / "polish"


def builder(game: str) -> PolishBuilder:
    return PolishBuilder(game, wordlists=[(WPOLISH, DATA / "words.txt")],
                         hunspell=[(HUNSPELL, DATA / "tiny.dic", DATA / "tiny.aff")],
                         abbreviations=DATA / "abbreviations.txt",
                         prefixes=DATA / "prefixes.txt", short_words=DATA / "short_words.txt")


@pytest.fixture()
def polish(home: Path, small_homes: SmallHomes) -> Catalog:
    """osps built from the tiny inputs with the real Morfeusz, and remik linking it: built
    once, a copy in each test's home."""
    return Catalog(small_homes("polish-build", home, make=_build))


def _build(home: Path) -> None:
    ctx = BuildContext(root=home, log=lambda _m: None)
    build_game("osps", ctx, builder=builder("osps"))
    build_game("remik", ctx)       # links osps's release (build.linked)


def test_valid_words_with_scores_and_analyses(polish: Catalog) -> None:
    rows = [polish.lexicon("osps").check(w) for w in ("zażółć", "gęślą", "jaźń")]
    assert [r["valid"] for r in rows] == [True, True, True]
    assert [r["score"] for r in rows] == [21, 20, 20]
    assert any(a["lemma"] == "zażółcić" for a in rows[0]["analyses"])
    assert rows[0]["sources"] == ["wpolish"] and rows[0]["category"] == "verb"


@pytest.mark.parametrize(("word", "code", "text"), [
    ("np", "abbreviation", "reviewed list"),
    ("kg", "abbreviation", "kilogram"),
    ("tzw", "abbreviation", "tak zwany"),
    ("e-mail", "hyphen_or_apostrophe", "hyphen"),
    ("rock'n'roll", "hyphen_or_apostrophe", "apostrophe"),
    ("kraków", "capitalised", "capital"),
    ("vat", "foreign_letters", "'v'"),
    ("arcy", "prefix_or_suffix", "prefix"),
    ("żłobyrka", "unattested", "hunspell-pl"),
    ("zzzzz", "unknown", "none of"),
    ("zz", "unattested", "short-word list"),      # 2 letters, only `ign`, not reviewed
    ("am", "abbreviation", "Księga_Amosa"),       # every reading brev, no reviewed reading
    ("owę", "unknown", "none of"),      # a form of "ów" (adj): adjectives are not generated
    ("nieolibanowy", "unsupported_listing", "the negation of olibanowy"),
])
def test_rejections_carry_reasons(polish: Catalog, word: str, code: str, text: str) -> None:
    r = polish.lexicon("osps").check(word)
    assert not r["valid"]
    assert r["reason"]["code"] == code
    assert text in r["reason"]["detail"]


def test_hunspell_second_path_and_merging(polish: Catalog) -> None:
    kota = polish.lexicon("osps").check("kota")
    assert kota["valid"] and kota["sources"] == ["hunspell-pl", "wpolish"]
    domem = polish.lexicon("osps").check("domem")  # only hunspell-pl, but Morfeusz knows it
    assert domem["valid"] and domem["sources"] == ["hunspell-pl"]
    bog = polish.lexicon("osps").check("Bóg")  # "Bóg" and "bóg" share a key: valid wins
    assert bog["valid"] and bog["word"] == "bóg"


def test_remik_shares_the_vocabulary_with_its_own_limits(polish: Catalog) -> None:
    kot = polish.lexicon("remik").check("kot")
    assert kot["valid"] and kot["score"] == 3 and kot["opening_score"] == 3
    jazn = polish.lexicon("remik").check("jaźń")
    assert jazn["score"] == 4 and jazn["opening_score"] == 8
    assert polish.lexicon("osps").check("np")["reason"]["code"] == "abbreviation"
    rel, osps = polish.release("remik"), polish.release("osps")
    assert rel.manifest["vocabulary"] == {
        "game": "osps", "release": osps.id, "content_sha256": osps.manifest["content_sha256"],
        "linked_files": rel.manifest["vocabulary"]["linked_files"],
        "how": "hard links to the files of that release"}
    assert rel.manifest["counts"]["valid"] == osps.manifest["counts"]["valid"]


def test_remik_has_no_maximum_length_osps_keeps_fifteen(polish: Catalog) -> None:
    """Remik's words lie on the table (seed 004); Scrabble's on a 15x15 board (seed 002)."""
    word = "pięćdziesięcioro"  # 16 letters
    remik = polish.lexicon("remik").check(word)
    assert remik["valid"] and remik["score"] == 16 and remik["reason"] is None
    osps = polish.lexicon("osps").check(word)
    assert not osps["valid"] and osps["reason"]["code"] == "too_long"
    assert polish.profile("remik").max_length >= 64 > polish.profile("osps").max_length


def test_manifest_records_policy_and_morfeusz(polish: Catalog) -> None:
    m = json.loads((polish.release("osps").path / "manifest.json").read_text())
    assert m["policy"]["morfeusz"]["dictionary"].startswith("pl.sgjp")
    assert m["policy"]["rejected_by_rule"]["abbreviation"] >= 3
    assert m["counts"]["by_reason"]["unattested"] >= 4  # żłobyrk, -a, -u; zz
    assert m["policy"]["listing_only_policy"]["name"] == "supported"
    assert m["policy"]["stats"]["admitted_grade_generated"] > 30


def test_smoke_limit_samples_across_the_alphabet(home: Path) -> None:
    """`--limit 3` used to judge the first three forms in code-point order: capitalised
    words here (as in wpolish), so the smoke build admitted nothing and failed."""
    ctx = BuildContext(root=home, log=lambda _m: None, limit=3)
    path = build_game("osps", ctx, builder=builder("osps"))
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["counts"]["records"] == 3 and manifest["counts"]["valid"] >= 1


def test_generation_admits_the_paradigm_of_a_listed_lemma(polish: Catalog) -> None:
    """The list has only "pachnąć"; SGJP's paradigm gives the forms sjp.pl leaves out."""
    for word in ("pachnęłoś", "pachnęłom", "pachnęłobyś", "niepachnięć"):
        r = polish.lexicon("osps").check(word)
        assert r["valid"], word
        assert r["sources"] == [GENERATED]
        assert r["evidence"][0] == "grade:generated"
        assert all(a["lemma"] == "pachnąć" for a in r["analyses"])
    assert not polish.lexicon("osps").check("pachnąco")["valid"]   # pacta: not generated


def test_a_verb_sgjp_lacks_gets_its_neuter_person_forms_from_the_lists(polish: Catalog) -> None:
    """The list has zgonowało, zgonowałoby, zgonowałaś (slang, unknown to Morfeusz)."""
    for word in ("zgonowałoś", "zgonowałom", "zgonowałobyś", "zgonowałobym"):
        r = polish.lexicon("osps").check(word)
        assert r["valid"] and r["sources"] == [COMPLETED], word
        assert r["evidence"][0] == "grade:completed"
    assert polish.lexicon("osps").check("kotałoś")["reason"]["code"] == "unknown"


def test_names_get_no_generated_paradigm(polish: Catalog) -> None:
    """The list has "Kraków" (only capitalised): no paradigm slot of it is generated."""
    assert polish.lexicon("osps").check("krakowie")["reason"]["code"] == "unknown"


def test_only_the_slots_the_lists_leave_out_are_generated(polish: Catalog) -> None:
    """From listed "pachnąć": the neuter past, the conditional and the negated gerund, not
    the rest of the paradigm; from listed "kot": nothing (no noun slot is generated)."""
    for word in ("pachnęło", "pachnęłoś", "pachnąłbym", "pachnęłybyście", "niepachnięcie"):
        r = polish.lexicon("osps").check(word)
        assert r["valid"] and r["sources"] in ([GENERATED], ["wpolish"]), word
    for word in ("pachnęłam", "pachnę", "pachnij", "pachnięcie", "kotach", "kotom"):
        assert polish.lexicon("osps").check(word)["reason"]["code"] == "unknown", word
    stats = polish.release("osps").manifest["policy"]["stats"]
    assert stats["generated_slot_praet:sg:n"] >= 3 and stats["generated_slot_cond"] >= 20
    assert stats["generated_slot_ger:neg"] >= 1
    assert stats["generated_left_out_subst"] >= 10 and stats["generated_left_out_praet"] >= 5
    assert stats["generated_left_out_fin"] >= 5 and stats["generated_left_out_ger:aff"] >= 1
    kept = sum(v for k, v in stats.items() if k.startswith("generated_slot_"))
    assert kept == stats["admitted_grade_generated"] + sum(
        v for k, v in stats.items() if k.startswith("generated_rejected_"))


def test_generated_slot_reads_the_accepted_readings() -> None:
    def reading(tags: str, lemma: str = "pachnąć") -> morfeusz.Interpretation:
        return morfeusz.Interpretation(lemma, tags, "", ())
    assert generated_slot([reading("praet:sg:n:pri:perf")]) == "praet:sg:n"
    assert generated_slot([reading("cond:pl:m1:sec:perf")]) == "cond"
    assert generated_slot([reading("ger:sg:nom.acc:n:perf:neg")]) == "ger:neg"
    assert generated_slot([reading("ger:sg:nom.acc:n:perf:aff")]) is None
    assert generated_slot([reading("praet:sg:f:pri:perf"), reading("fin:sg:ter:perf")]) is None
    assert generated_slot([reading("subst:pl:inst:m2", "kot"),
                           reading("praet:sg:n:ter:perf")]) == "praet:sg:n"
    assert generated_slot([reading("brev:pun"), reading("ign")]) is None   # no accepted one
    assert left_out_slot([reading("ger:pl:gen:n:perf:aff")]) == "ger:aff"


def test_a_generated_short_form_needs_a_list() -> None:
    """SGJP's short archaic forms (ośm, żże) are no tournament words without a listing."""
    owe = Candidate("owę", SOURCE_BITS[GENERATED],
                    [morfeusz.Interpretation("ów", "adj:sg:acc:f:pos", "", ())])
    verdict = make_rules({}, {}).judge(owe)
    assert not verdict.valid and verdict.code == "unattested"
    assert "generated 3-letter" in (verdict.message or "")


def test_one_list_negation_needs_a_supported_base(polish: Catalog) -> None:
    """"olibanowy" and "nieolibanowy" are listed by wpolish only and unknown to Morfeusz: the
    base stays (its own listing), its negation does not; "niekotowy" (wpolish only) negates
    "kotowy", which both lists have, and stays."""
    base = polish.lexicon("osps").check("olibanowy")
    assert base["valid"] and base["evidence"][0] == "grade:one_list"
    neg = polish.lexicon("osps").check("niekotowy")
    assert neg["valid"] and neg["evidence"][0] == "grade:one_list"
    assert polish.lexicon("osps").check("kotowy")["evidence"][0] == "grade:one_list_two_packages"
    stats = polish.release("osps").manifest["policy"]["stats"]
    assert stats["one_list_negation_of_one_list_rejected"] == 1
    assert stats["one_list_negation_of_one_list_two_packages_admitted"] == 1


def test_abbreviation_only_when_every_reading_is_one(polish: Catalog) -> None:
    al = polish.lexicon("osps").check("al")          # on the abbreviation list AND a short word
    assert al["valid"] and al["evidence"][0] == "grade:one_list"
    assert any("short-word" in e for e in al["evidence"])
    ha = polish.lexicon("osps").check("ha")          # brev (hektar) but also an interjection
    assert ha["valid"] and ha["evidence"][0] == "grade:morfeusz"
    assert polish.lexicon("osps").check("np")["reason"]["code"] == "abbreviation"


def test_grades_and_the_named_listing_only_policy() -> None:
    ign = [morfeusz.Interpretation("xyz", morfeusz.UNKNOWN_TAG, "", ())]
    one = Candidate("ksyzm", 1, ign)
    both = Candidate("ksyzm", 3, ign)
    assert (grade(one), grade(both)) == ("one_list", "one_list_two_packages")
    assert make_rules({}, {}, "wpolish").judge(one).valid
    strict = make_rules({}, {}, "two_lists")
    assert strict.judge(both).valid
    verdict = strict.judge(one)
    assert not verdict.valid and verdict.code == "unattested"
    # "supported" (the default): a one-list negation of a one-list base is rejected ...
    neg = Candidate("nieksyzm", 1, ign, negated_base="one_list")
    verdict = make_rules({}, {}).judge(neg)
    assert not verdict.valid and verdict.code == "unsupported_listing"
    assert make_rules({}, {}, "wpolish").judge(neg).valid
    # ... not when the base has more support, nor when the negation is in both lists
    for support in ("one_list_two_packages", "two_lists", "morfeusz", None):
        assert make_rules({}, {}).judge(Candidate("nieksyzm", 1, ign, negated_base=support)).valid
    assert make_rules({}, {}).judge(Candidate("nieksyzm", 3, ign, negated_base="one_list")).valid
    assert make_rules({}, {}).judge(one).valid


def test_negation_base() -> None:
    assert negation_base("niebiały") == "biały"
    assert negation_base("niebo") is None and negation_base("nic") is None
    with pytest.raises(ValueError):
        make_rules({}, {}, "no such policy")


def test_audit_classes_are_the_builders_grades(polish: Catalog) -> None:
    """The audit's class of an admitted Polish word is the grade the builder counts
    (``admitted_grade_*``), a generated one split by its slot."""
    from collections import Counter

    from lexicon.audit.classes import evidence_class

    rel = polish.release("osps")
    classes = Counter(evidence_class("osps", r).removeprefix("admitted:grade:").split(":")[0]
                      for r in rel.records() if r.valid)
    stats = rel.manifest["policy"]["stats"]
    assert dict(classes) == {k.removeprefix("admitted_grade_"): n for k, n in stats.items()
                             if k.startswith("admitted_grade_")}
    assert len(classes) >= 2


def test_one_word_list_in_two_packages_is_one_witness(polish: Catalog) -> None:
    """Rule book (seed 002, 5. Dozwolone słowa): "wszystkich słów znajdujących się w
    słownikach języka polskiego": the evidence is a dictionary's listing, and wpolish and
    hunspell-pl package one dictionary, sjp.pl (sources/manifest.toml's ``word_list``). A
    form both have is listed once, by that list, and graded so; the verdict is the same."""
    from lexicon.build.games.osps.evidence import GRADES, WORD_LISTS, listing_text
    from lexicon.sources.fetch import load_manifest

    specs = load_manifest()
    assert specs["wpolish"].word_list == specs["hunspell-pl"].word_list == "sjp.pl"
    assert WORD_LISTS == {"wpolish": "sjp.pl", "hunspell-pl": "sjp.pl"}
    kotowy = polish.lexicon("osps").check("kotowy")       # no Morfeusz reading, both packages
    assert kotowy["valid"]
    assert kotowy["evidence"][:2] == [
        "grade:one_list_two_packages",
        "listed by the sjp.pl word list (packages hunspell-pl and wpolish); not in Morfeusz "
        "(admitted on the word list alone)"]
    assert "one witness" in GRADES["one_list_two_packages"]
    kot = polish.lexicon("osps").check("kot")
    assert kot["evidence"][1].startswith("listed by the sjp.pl word list (packages ")
    assert listing_text(["wpolish"]) == "the sjp.pl word list (package wpolish)"
    assert listing_text(["pl_extra"]) == "pl_extra"
