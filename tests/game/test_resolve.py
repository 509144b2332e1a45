"""The one tiling resolver (``Speller.resolve``) and the four callers that decide by it.

A Latin Kvizovka spelling may be several tilings (nadživeti: NA DŽ IVETI or NAD ŽIVETI);
the lexicon decides which one the word is. The checker, the batch hot path, the queries
(hooks, prefix) and amend must decide alike, or a referee, an engine and a maintainer would
each be talking about a different word. The cases below are the ambiguous ones: the
preferred tiling is no word (nadživeti, konjugacija), both are words (njiva), the
preferred one is a rejected form and the other a word (ljuba), only a rejected form exists
(nadžak), and nothing is known (njam).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import publish, rec
from lexicon.build import amend

from lexicon.catalog import Catalog
from lexicon.game.profile import load
from lexicon.game.tiles import Work, speller
from lexicon.verdicts import fastcheck

KV = speller(load("kvizovka"))

RECORDS = [
    rec("надживети", word="nadživeti", category="verb"),        # D+Ž only
    rec("конјугација", word="konjugacija", category="noun"),    # N+J only
    rec("њива", word="njiva", category="noun"),                 # NJ and N+J: both words
    rec("нјива", word="njiva", category="noun"),
    rec("љуба", word="ljuba", valid=False, code="inflected_form", message="a case form"),
    rec("лјуба", word="ljuba", category="noun"),                # the word is L+J
    rec("наджак", word="nadžak", valid=False, code="proper_noun", message="a name"),
    rec("кућа", word="kuća", category="noun"),
]
#: word -> (the key the checker and amend decide, the key the valid-word paths decide)
CASES = {
    "nadživeti": ("надживети", "надживети"),
    "konjugacija": ("конјугација", "конјугација"),
    "njiva": ("њива", "њива"),
    "ljuba": ("лјуба", "лјуба"),
    "nadžak": ("наджак", None),      # a rejected record decides the verdict; no word
    "njam": ("њам", None),           # unknown: the preferred tiling
    "kuća": ("кућа", "кућа"),
}


@pytest.fixture(scope="module")
def cat(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    root = tmp_path_factory.mktemp("resolve-home")
    publish(root, "kvizovka", RECORDS)
    return Catalog(root)


# -- the resolver itself ---------------------------------------------------------------

def test_the_first_reading_a_test_holds_decides() -> None:
    held = {"надживети", "конјугација"}
    r = KV.resolve("nadživeti", held.__contains__, every=True)
    assert (r.key, r.rank, r.keys) == ("надживети", 0, ("наџивети", "надживети"))
    assert KV.resolve("konjugacija", held.__contains__).key == "конјугација"
    # nothing held: the preferred reading, and no rank
    r = KV.resolve("njam", held.__contains__)
    assert (r.key, r.rank, r.held) == ("њам", None, False)
    # both held: the preferred reading wins
    assert KV.resolve("njiva", {"њива", "нјива"}.__contains__).key == "њива"


def test_an_earlier_test_beats_an_earlier_reading() -> None:
    """The checker's rule: a valid record anywhere beats a rejected one read first."""
    valid, known = {"лјуба"}, {"љуба", "лјуба"}
    r = KV.resolve("ljuba", valid.__contains__, known.__contains__)
    assert (r.key, r.rank) == ("лјуба", 0)
    r = KV.resolve("ljuba", set().__contains__, known.__contains__)
    assert (r.key, r.rank) == ("љуба", 1)


def test_a_held_preferred_reading_reads_no_other() -> None:
    """The hot path: when the preferred tiling is a word, one translation and one lookup."""
    asked: list[str] = []

    def known(prefix: str) -> bool:
        asked.append(prefix)
        return True

    r = KV.resolve("ljubav" * 3, {KV.preferred("ljubav" * 3)}.__contains__, known=known)
    assert r.keys == (KV.preferred("ljubav" * 3),) and asked == []
    # asked for every reading (a verdict's alternatives), it reads them all
    r = KV.resolve("ljubav", {"љубав"}.__contains__, known=known, every=True)
    assert r.keys == ("љубав", "лјубав") and asked


@pytest.mark.parametrize("word", ["nadživeti", "na[dž]ivot", "nad|živeti", "ljljljlj",
                                  "konj ugacija", "kuća", "љубав"])
def test_preferred_is_the_first_of_keys(word: str) -> None:
    assert KV.preferred(word) == KV.keys(word)[0]
    assert KV.resolve(word).key == KV.keys(word)[0]


def test_the_work_stays_linear_through_resolve() -> None:
    work = Work()
    KV.keys("lj" * 32, None, work=work)
    assert KV.resolve("lj" * 32, set().__contains__).key == KV.preferred("lj" * 32)
    assert work.steps <= 64 * 2 * 64


# -- the four callers agree -------------------------------------------------------------

def _key_of_tiles(tiles: list[str]) -> str:
    profile = load("kvizovka")
    return "".join(profile.by_spelling[t.lower()].canonical for t in tiles)


@pytest.mark.parametrize("word", sorted(CASES))
def test_the_checker_decides_by_the_resolver(cat: Catalog, word: str) -> None:
    verdict = cat.lexicon("kvizovka").check(word)
    decided, valid_key = CASES[word]
    assert _key_of_tiles(verdict["tiles"]) == decided
    assert verdict["valid"] == (valid_key is not None)
    others = {_key_of_tiles(a["tiles"]) for a in verdict["alternatives"]}
    assert others == set(KV.keys(word)) - {decided}


@pytest.mark.parametrize("word", sorted(CASES))
def test_the_hot_path_decides_alike(cat: Catalog, word: str) -> None:
    rel = cat.release("kvizovka")
    _decided, valid_key = CASES[word]
    words, has_prefix = rel.indexes.words, rel.indexes.has_prefix
    assert fastcheck.decided_key(KV, words, has_prefix, word) == valid_key
    assert cat.lexicon("kvizovka").valid([word]) == [valid_key is not None]


@pytest.mark.parametrize("word", sorted(CASES))
def test_the_queries_decide_alike(cat: Catalog, word: str) -> None:
    _decided, valid_key = CASES[word]
    shown = valid_key or KV.preferred(word)      # no word: the hooks of the typed tiling
    assert cat.lexicon("kvizovka").hooks(word)["key"] == shown
    assert cat.lexicon("kvizovka").prefix(word)["key"] == shown
    assert cat.lexicon("kvizovka").hooks(word)["valid"] == (valid_key is not None)


@pytest.mark.parametrize("word", sorted(CASES))
def test_amend_overrides_the_word_the_checker_shows(cat: Catalog, word: str) -> None:
    rel = cat.release("kvizovka")
    by_key = amend.resolve(load("kvizovka"), [amend.Override(word, "remove", "test")],
                           rel.get)
    assert list(by_key) == [CASES[word][0]]


def test_removing_ljuba_removes_the_word_the_checker_admits(home: Path, tmp_path: Path
                                                             ) -> None:
    """The preferred tiling ЉУБА is a rejected form, the word is Л-Ј-УБА: ``remove``
    must reject that word, not re-reject the form."""
    publish(home, "kvizovka", RECORDS)
    assert Catalog(home).lexicon("kvizovka").check("ljuba")["valid"]
    amend.derive("kvizovka", overrides=[amend.Override("ljuba", "remove", "ruling 3")],
                 root=home)
    cat = Catalog(home)
    assert not cat.lexicon("kvizovka").check("ljuba")["valid"]
    word = cat.lexicon("kvizovka").check("лјуба")
    assert not word["valid"] and word["reason"]["code"] == "override"
    assert cat.lexicon("kvizovka").check("љуба")["reason"]["code"] == "inflected_form"
    assert cat.lexicon("kvizovka").valid(["ljuba", "njiva"]) == [False, True]
    cat.close()
