"""Remik's rebuild query (`extend`): checked against a brute force over the word list, and
through the CLI and HTTP, on a small real release with its alphagram indexes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from lexicon.service.app import create_app

from lexicon.catalog import Catalog
from lexicon.errors import InputError
from tests.conftest import lexicon, publish, rec

WORDS = ["kot", "kota", "koty", "kotek", "kotka", "kotar", "kotara", "skot", "toki", "tok",
         "kto", "okno", "arkot", "straka", "kostka", "ok", "kotarski"]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("extend-home")
    publish(root, "remik", [rec(w) for w in WORDS] + [rec("kotas", valid=False,
                                                          code="unknown", message="test")])
    return root


def brute(word: str, rack: str) -> dict[str, list[str]]:
    """Every admitted word of 3+ letters holding all of ``word``'s letters and at least one
    of the rack's (and no letter beyond the rack), with the rack letters it uses."""
    out = {}
    for w in WORDS:
        added = Counter(w) - Counter(word)
        if (len(w) >= 3 and len(w) > len(word) and not Counter(word) - Counter(w)
                and not added - Counter(rack)):
            out[w] = sorted(c.upper() for c in added.elements())
    return out


@pytest.mark.parametrize("word, rack", [
    ("kot", "ars"), ("kot", "aeky"), ("kot", "akkrsi"), ("tok", "ia"), ("ok", "tnoa"),
    ("kota", "rsik"), ("kot", ""), ("kotarski", "a"), ("las", "kot"),
    ("o", "kt"), ("k", "o"),     # `ok` is an osps word, 2 letters: never a Remik rebuild
])
def test_extend_is_the_brute_force(home: Path, word: str, rack: str) -> None:
    cat = Catalog(home)
    expected = brute(word, rack)
    if not rack:
        with pytest.raises(InputError) as got:
            cat.lexicon("remik").extend(word, rack)
        assert got.value.code == "bad_rack"
        return
    r = cat.lexicon("remik").extend(word, rack, limit=500)
    assert r["count"] == len(expected)
    assert {x["word"]: sorted(x["rack_letters"]) for x in r["results"]} == expected
    assert all(x["length"] > len(word) for x in r["results"])


def test_extend_pages_and_sorts(home: Path) -> None:
    cat = Catalog(home)
    full = cat.lexicon("remik").extend("kot", "akkrsiey", limit=500)
    assert [x["word"] for x in full["results"]] == sorted(x["word"] for x in full["results"])
    assert full["count"] == len(full["results"]) >= 6
    paged = [x["word"] for off in range(0, full["count"], 2)
             for x in cat.lexicon("remik").extend("kot", "akkrsiey", limit=2,
                                     offset=off)["results"]]
    assert paged == [x["word"] for x in full["results"]]
    longest = cat.lexicon("remik").extend("kot", "akkrsiey", sort="length", limit=1)
    assert longest["results"][0]["word"] == "kotarski"
    with pytest.raises(InputError) as got:
        cat.lexicon("remik").extend("kot", "a" * 16)
    assert got.value.code == "rack_too_long"
    with pytest.raises(InputError) as got:
        cat.lexicon("remik").extend("kot", "a", limit=501)
    assert got.value.code == "result_limit"


def test_extend_faces(home: Path) -> None:
    p = lexicon(home, "extend", "remik", "KOT", "ARS", "--json")
    assert p.returncode == 0
    r = json.loads(p.stdout)
    assert {x["word"]: x["rack_letters"] for x in r["results"]} == {
        "arkot": ["A", "R"], "kota": ["A"], "kotar": ["A", "R"], "skot": ["S"]}
    p = lexicon(home, "extend", "remik", "KOT", "ARS")
    assert p.returncode == 0 and "kotar" in p.stdout and "+ A R" in p.stdout
    assert lexicon(home, "extend", "remik", "kot", "ww").returncode == 1     # nothing found
    assert lexicon(home, "extend", "remik", "kot", "a1").returncode == 2
    client = TestClient(create_app(home))
    r = client.get("/v1/games/remik/extend", params={"word": "KOT", "rack": "ARS"})
    assert r.status_code == 200 and r.json()["count"] == 4
    assert r.json()["results"][0]["rack_letters"] == ["A", "R"]
    r = client.get("/v1/games/remik/extend", params={"word": "KOT", "rack": "A1"})
    assert r.status_code == 400 and r.json()["code"] == "bad_rack"
    r = client.get("/v1/games/osps/extend", params={"word": "kot", "rack": "a"})  # any game
    assert r.status_code == 200 and [x["word"] for x in r.json()["results"]] == ["kota"]


def test_extend_offers_no_word_the_game_rejects_as_too_short(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Kvizovka admits 3 tiles only at the board's edge: `extend` offers them with `edge`
    (as `check` and `blanks` do), never by default; 4 tiles always."""
    root = tmp_path_factory.mktemp("extend-kvizovka")
    publish(root, "kvizovka", [rec("циљ", word="cilj"), rec("даљ", word="dalj"),
                               rec("даље", word="dalje"), rec("љубав", word="ljubav")])
    cat = Catalog(root)
    try:
        def words(**kw: bool) -> list[str]:
            return [x["word"] for x in cat.lexicon("kvizovka").extend("lj", "??", **kw)[
                "results"]]

        assert words() == []                                   # cilj, dalj: 3 tiles
        assert sorted(words(edge=True)) == ["cilj", "dalj"]
        assert [x["word"] for x in cat.lexicon("kvizovka").extend("lj", "dae")["results"]
                ] == ["dalje"]
        r = cat.lexicon("kvizovka").extend("lj", "??")
        assert r["query"]["min_length"] == 4 and r["query"]["edge"] is False
    finally:
        cat.close()
    client = TestClient(create_app(root))
    got = client.get("/v1/games/kvizovka/extend", params={"word": "lj", "rack": "??"}).json()
    assert got["count"] == 0
    got = client.get("/v1/games/kvizovka/extend",
                     params={"word": "lj", "rack": "??", "edge": "true"}).json()
    assert sorted(x["word"] for x in got["results"]) == ["cilj", "dalj"]
    p = lexicon(root, "extend", "kvizovka", "lj", "??", "--edge", "--json")
    assert sorted(x["word"] for x in json.loads(p.stdout)["results"]) == ["cilj", "dalj"]
    assert lexicon(root, "extend", "kvizovka", "lj", "??").returncode == 1
