from __future__ import annotations

import pytest

from lexicon import profile as profiles
from lexicon.errors import InputError, UnknownGame
from lexicon.inputs import clean_word
from lexicon.play import play_rules
from lexicon.tiles import speller


def test_every_game_has_a_profile_with_unique_tiles() -> None:
    assert profiles.game_ids() == ("krizemkrazem", "kvizovka", "osps", "remik")
    for g in profiles.game_ids():
        p = profiles.load(g)
        assert len({t.canonical for t in p.tiles}) == len(p.tiles)


def test_tile_sets_match_the_rule_books() -> None:
    osps = profiles.load("osps")
    assert sum(t.count for t in osps.tiles) + osps.jokers.count == 100
    kv = profiles.load("kvizovka")
    assert sum(t.count for t in kv.tiles) == 228 and kv.jokers.count == 10
    assert {t.letter for t in kv.multi_letter_tiles} == {"LJ", "NJ", "DŽ"}
    kk = profiles.load("krizemkrazem")
    assert kk.values_provisional and play_rules(kk).score("križemkražem") == 31
    assert play_rules(profiles.load("remik")).score("żaba") == 4


@pytest.mark.parametrize(("word", "score"), [("zażółć", 21), ("gęślą", 20), ("jaźń", 20)])
def test_polish_scores(word: str, score: int) -> None:
    assert play_rules(profiles.load("osps")).score(word) == score


@pytest.mark.parametrize(("key", "score"), [("љубав", 9), ("њива", 7), ("надживети", 13),
                                            ("кућа", 6)])
def test_kvizovka_scores(key: str, score: int) -> None:
    assert play_rules(profiles.load("kvizovka")).score(key) == score


def test_unknown_game() -> None:
    with pytest.raises(UnknownGame) as err:
        profiles.load("chess")
    assert err.value.code == "unknown_game"


def test_latin_kvizovka_has_every_tiling() -> None:
    kv = speller(profiles.load("kvizovka"))
    keys = [r.key for r in kv.readings("nadživeti")]
    assert keys == ["наџивети", "надживети"]
    assert [r.key for r in kv.readings("konjugacija")] == ["коњугација", "конјугација"]
    assert [r.tiles for r in kv.readings("љубав")] == [("LJ", "U", "B", "A", "V")]


def test_explicit_tile_notation() -> None:
    kv = speller(profiles.load("kvizovka"))
    assert [r.key for r in kv.readings("nad|živeti")] == ["надживети"]
    assert [r.key for r in kv.readings("na[dž]ivot")] == ["наџивот"]
    with pytest.raises(InputError) as err:
        kv.readings("na[dživot")
    assert err.value.code == "bad_tile_notation" and err.value.detail["position"] == 3


def test_foreign_characters_are_kept() -> None:
    r = speller(profiles.load("osps")).readings("e-mail")[0]
    assert r.foreign == ("-",)
    w = speller(profiles.load("krizemkrazem")).readings("wolf")[0]
    assert w.foreign == () and w.tiles[0] == "W"


@pytest.mark.parametrize(("text", "code"), [
    ("", "empty_word"), ("   ", "empty_word"), ("a" * 65, "word_too_long"),
    ("ko\x00t", "control_character"), ("ko\u200bt", "control_character"),
    ("lјubav", "mixed_scripts"),  # Latin l + Cyrillic ј
])
def test_bad_input_has_stable_codes(text: str, code: str) -> None:
    with pytest.raises(InputError) as err:
        clean_word(text)
    assert err.value.code == code


def test_clean_word_normalises() -> None:
    assert clean_word("  Zaz\u0307o\u0301łć ") == "zażółć"
    assert clean_word("Pustni   Ples") == "pustni ples"
