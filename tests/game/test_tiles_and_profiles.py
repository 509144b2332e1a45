from __future__ import annotations

from pathlib import Path

import pytest

from lexicon.errors import InputError, UnknownGame
from lexicon.game import profile as profiles
from lexicon.game.inputs import clean_word
from lexicon.game.play import play_rules
from lexicon.game.tiles import speller


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


# -- every tile numbering is the profile's (lexicon.game.profile.Alphabet) --------------------

@pytest.mark.parametrize("game", ["osps", "remik", "kvizovka", "krizemkrazem"])
def test_every_numbering_comes_from_the_profile(game: str) -> None:
    from lexicon.export import kwg

    prof = profiles.load(game)
    alphabet = prof.alphabet
    assert alphabet is prof.alphabet                 # derived once
    letters = list(prof.engine.order) or [t.letter for t in prof.tiles]
    assert [t.letter for t in alphabet.engine] == letters
    assert sorted(alphabet.numbers.values()) == list(range(1, len(prof.tiles) + 1))
    assert alphabet.labels == tuple(sorted(prof.by_canonical))
    assert [alphabet.label[c] for c in alphabet.labels] == list(range(len(alphabet.labels)))
    key = "".join(alphabet.labels)
    assert kwg.encode_words(prof, [key]) == [bytes(alphabet.numbers[c] for c in key)]
    if game != "remik":                              # Remik publishes no distribution
        rows = kwg.alphabet_rows(prof)
        assert [r[0] for r in rows[1:]] == letters
        assert {r[0] for r in rows[1:] if r[4]} == set(prof.engine.vowels)
    # the alphabet order is the profile's tile list
    tiles = [t.canonical for t in prof.tiles]
    assert alphabet.order.first(list(reversed(tiles)), len(tiles)) == tiles


def test_the_vowels_and_the_engine_order_are_profile_data() -> None:
    """Change the data, and the numbers and the vowel column follow: nothing in kwg."""
    import tomllib

    from lexicon.export import kwg

    with open(profiles.PROFILE_DIR / "kvizovka.toml", "rb") as fh:
        data = tomllib.load(fh)
    data["engine"]["vowels"] = ["B", "DŽ"]
    data["engine"]["order"] = ["Ž", *[t["letter"] for t in data["tiles"] if t["letter"] != "Ž"]]
    prof = profiles._parse(data)
    rows = {r[0]: r for r in kwg.alphabet_rows(prof)}
    assert rows["B"][4] == rows["DŽ"][4] == 1 and rows["A"][4] == 0
    assert prof.alphabet.numbers["ж"] == 1 and kwg.encode_words(prof, ["жаба"])[0][0] == 1
    data["engine"]["vowels"] = ["Q"]
    with pytest.raises(ValueError, match="vowels"):
        profiles._parse(data)


def test_the_alphagram_labels_the_build_writes_are_the_ones_the_walk_reads(
        home: Path) -> None:
    """The build numbers the alphagram trie's edges by ``Alphabet.label``; reading the root's
    edges back through ``Alphabet.labels`` gives the first tile of every alphagram."""
    from conftest import KVIZOVKA_RECORDS, publish

    from lexicon.catalog import Catalog
    from lexicon.store.indexes import NODE_LABEL_SHIFT, NODE_LAST

    publish(home, "kvizovka", KVIZOVKA_RECORDS)
    cat = Catalog(home)
    index = cat.release("kvizovka").indexes
    prof = profiles.load("kvizovka")
    nodes = index.alphagram_nodes
    root = nodes[0]
    got, k = [], root
    while True:
        got.append(prof.alphabet.labels[nodes[k] >> NODE_LABEL_SHIFT])
        if nodes[k] & NODE_LAST:
            break
        k += 1
    playable = [k[1:] for k in index.forward.iterkeys()]     # length tag + key
    assert got == sorted({min(k) for k in playable})
    cat.close()
