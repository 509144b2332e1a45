"""Names of inhabitants that the 2026 spelling capitalises: the profile's named choice
(build.games.osps.inhabitants), on a tiny 2026-style word list with the real Morfeusz 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lexicon.build.games.osps import WPOLISH, PolishBuilder
from lexicon.build.games.osps.inhabitants import (
    DEFAULT,
    inhabitant_lemma,
    policy_of,
    readings,
)
from lexicon.build.pipeline import BuildContext, build_game
from lexicon.sources import morfeusz

from lexicon.catalog import Catalog
from lexicon.game.profile import load as load_profile

DATA = Path(__file__).parents[1] / "data" / "polish"
# as sjp.pl lists them in 2026: inhabitant names capitalised; Polak beside polak (another
# word, lowercase listed); Kowalski a surname
WORDS = ["Moskwianin", "Moskwianina", "Chojniczanka", "Polak", "polak", "Kowalski", "kot",
         "zażółć"]


def _build(home: Path, tmp_path: Path, policy: str | None,
           listed: list[str] = WORDS) -> Catalog:
    words = tmp_path / "polish"
    words.write_text("\n".join(listed) + "\n", encoding="utf-8")
    b = PolishBuilder("osps", wordlists=[(WPOLISH, words)],
                      abbreviations=DATA / "abbreviations.txt", prefixes=DATA / "prefixes.txt",
                      short_words=DATA / "short_words.txt", inhabitants=policy)
    build_game("osps", BuildContext(root=home, log=lambda _m: None), builder=b)
    return Catalog(home)


def _manifest(cat: Catalog) -> dict:
    return json.loads((cat.release("osps").path / "manifest.json").read_text())


def test_the_profiles_name_the_choice_and_default_to_the_rule_books_text() -> None:
    assert policy_of(load_profile("osps").options) == DEFAULT == "follow_sources"
    assert policy_of(load_profile("remik").options) == DEFAULT
    with pytest.raises(ValueError, match="keep_lowercase"):
        policy_of({"inhabitants": "keep"})


def test_only_a_moved_spelling_of_a_common_personal_noun_is_an_inhabitant_name() -> None:
    a = morfeusz.Annotator()
    listed = frozenset(WORDS)
    assert [r.lemma for r in readings("Moskwianin", a.analyse("Moskwianin"), listed)] == [
        "moskwianin"]
    assert readings("Chojniczanka", a.analyse("Chojniczanka"), listed)
    assert not readings("Polak", a.analyse("Polak"), listed)        # polak is listed
    assert not readings("Kowalski", a.analyse("Kowalski"), listed)  # a surname
    assert not readings("moskwianin", a.analyse("moskwianin"), listed)  # not capitalised
    # an unrelated lowercase noun a surname inflects like is not one (wacha: -a, not -anin)
    assert not readings("Wacho", a.analyse("Wacho"), listed)


def test_follow_sources_rejects_them_under_their_own_reason(home: Path, tmp_path: Path) -> None:
    cat = _build(home, tmp_path, None)
    row = cat.lexicon("osps").check("moskwianin")
    assert not row["valid"] and row["reason"]["code"] == "inhabitant_capitalised"
    assert "2026" in row["reason"]["message"]
    assert cat.lexicon("osps").check("Polak".lower())["valid"]
    assert cat.lexicon("osps").check("kowalski")["reason"]["code"] == "capitalised"
    assert not cat.lexicon("osps").check("moskwianinowi")["valid"]   # no paradigm generated
    m = _manifest(cat)
    policy = m["policy"]
    assert policy["inhabitants"]["name"] == "follow_sources"
    assert policy["inhabitants"]["capitalised_forms"] == 3
    assert policy["stats"]["inhabitant_capitalised_forms"] == 3
    assert policy["stats"]["inhabitant_lowercase_admitted"] == 0
    assert m["counts"]["by_reason"]["inhabitant_capitalised"] == 3


def test_keep_lowercase_admits_the_lowercase_form_with_evidence(home: Path,
                                                                 tmp_path: Path) -> None:
    cat = _build(home, tmp_path, "keep_lowercase")
    row = cat.lexicon("osps").check("moskwianin")
    assert row["valid"], row
    assert "inhabitant-lowercased" in row["sources"]
    assert any("keep_lowercase" in e for e in row["evidence"])
    assert cat.lexicon("osps").check("chojniczanka")["valid"]
    # each listed capitalised form is lowercased on its own evidence (moskwianina); the
    # rest of the paradigm is not generated: Morfeusz generates only the slots the lists
    # leave out (neuter past, conditional, negated gerunds), never a noun's cases
    assert cat.lexicon("osps").check("moskwianina")["valid"]
    assert cat.lexicon("osps").check("moskwianinowi")["reason"]["code"] != "inhabitant_capitalised"
    assert not cat.lexicon("osps").check("moskwianinowi")["valid"]
    assert not cat.lexicon("osps").check("kowalski")["valid"]
    m = _manifest(cat)
    assert m["policy"]["inhabitants"]["lowercase_admitted"] == 3
    assert m["policy"]["admitted_by_evidence"]["inhabitant_lowercase"] == 3


# as sjp.pl lists them in 2026: names of inhabitants in -anin, -anka, -iak with their plurals,
# capitalised; warszawianka also in lower case (a word of its own beside the name); a
# surname in -iak (Gwardiak, plural Gwardiakowie) that Morfeusz also reads as the common
# noun gwardiak; the feminine Andorka beside its masculine Andorczyk; beemka's -ka
WORDS_2026 = ["Warszawiak", "Warszawiacy", "Poznaniak", "Poznaniacy", "Krakowianin",
              "Krakowianie", "Łodzianka", "Moskwianin", "Warszawianka", "warszawianka",
              "Gwardiak", "Gwardiakowie", "Andorka", "Andorczyk", "Beemka", "kot"]


def test_every_name_of_inhabitants_has_one_reason(home: Path, tmp_path: Path) -> None:
    """Rule book (seed 002, 5. Dozwolone słowa): every word of the Polish dictionaries "z
    wyjątkiem tych, które zaczynają się od wielkiej litery" (Remik, seed 004: "Nie wolno
    używać ... słów rozpoczynających się z dużej litery"). The 2026 spelling writes every
    name of inhabitants of a town with a capital, so each is out for the same reason,
    whatever its suffix; a word the dictionaries also list in lower case is in."""
    lex = _build(home, tmp_path, None, WORDS_2026).lexicon("osps")
    for word in ("warszawiak", "warszawiacy", "poznaniak", "poznaniacy", "krakowianin",
                 "krakowianie", "łodzianka", "moskwianin", "andorka", "andorczyk"):
        row = lex.check(word)
        assert not row["valid"] and row["reason"]["code"] == "inhabitant_capitalised", (
            word, row["reason"])
    assert lex.check("warszawianka")["valid"]        # listed in lower case too
    # a surname in -iak, a noun in -ka without a masculine in -czyk: capitalised words
    for word in ("gwardiak", "gwardiakowie", "beemka"):
        assert lex.check(word)["reason"]["code"] == "capitalised", word


def test_inhabitant_endings_that_other_nouns_share_need_the_lists_word() -> None:
    listed = frozenset(WORDS_2026)
    assert inhabitant_lemma("moskwianin", listed)
    assert inhabitant_lemma("poznaniak", listed) and not inhabitant_lemma("gwardiak", listed)
    assert inhabitant_lemma("andorka", listed) and not inhabitant_lemma("beemka", listed)
    assert inhabitant_lemma("barcelonka", frozenset({"Barcelończyk"}))   # n: -ńczyk
