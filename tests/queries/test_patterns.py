"""The pattern language: parsing, faults with positions, and a matcher that cannot run away."""

from __future__ import annotations

import time

import pytest

from lexicon.errors import InputError
from lexicon.game import profile as profiles
from lexicon.queries.patterns import parse

OSPS = profiles.load("osps")
KVIZ = profiles.load("kvizovka")


@pytest.mark.parametrize(("text", "position", "what"), [
    ("k[ot", 2, "unclosed '['"),
    ("ko]t", 3, "']' without '['"),
    ("k[]t", 2, "empty set"),
    ("k[a[b]]", 4, "'[' inside a set"),
    ("kot1", 4, "'1' is not a tile"),
    ("qwe?", 1, "'q' is not a tile"),
    ("ka[xq]", 4, "'x' is not a tile"),
    ("a*b*c*d*e*f*g*h*i*j", 18, "more than 8"),
])
def test_faults_name_their_position(text: str, position: int, what: str) -> None:
    with pytest.raises(InputError) as caught:
        parse(OSPS, text)
    assert caught.value.code == "bad_pattern"
    assert caught.value.detail["position"] == position
    assert what in caught.value.message


def test_empty_and_overlong_patterns() -> None:
    with pytest.raises(InputError, match="empty"):
        parse(OSPS, "  ")
    with pytest.raises(InputError) as caught:
        parse(OSPS, "?" * 65)
    assert caught.value.code == "pattern_too_long"


def test_blanks_words_refuse_stars_and_sets() -> None:
    with pytest.raises(InputError, match="'\\*' is not allowed"):
        parse(OSPS, "ka*", stars=False, sets=False)
    with pytest.raises(InputError, match="may hold one tile"):
        parse(OSPS, "k[ab]t", stars=False, sets=False)


def test_matching_semantics() -> None:
    one = parse(OSPS, "KA?IN").readings[0]
    assert one.matches("kacin") and not one.matches("kain") and not one.matches("kaciny")
    star = parse(OSPS, "*owy").readings[0]
    assert star.matches("owy") and star.matches("domowy") and not star.matches("domowa")
    mid = parse(OSPS, "k*t*k").readings[0]
    assert mid.matches("kotek") and mid.matches("ktk") and not mid.matches("kotka")
    sets = parse(OSPS, "[kl]a[^r]*").readings[0]
    assert sets.matches("lato") and not sets.matches("rato") and not sets.matches("karo")


def test_pathological_pattern_finishes_fast() -> None:
    compiled = parse(OSPS, "*a*a*a*a*a*a*a*b").readings[0]
    started = time.perf_counter()
    for n in range(1, 65):
        assert not compiled.matches("a" * n)
    assert compiled.matches("a" * 7 + "b")
    assert time.perf_counter() - started < 0.05


def test_kvizovka_reads_latin_digraphs_every_way() -> None:
    keys = {r.elements and "".join(next(iter(s.tiles)) if s.tiles else "?"
                                   for s in r.slots) for r in parse(KVIZ, "konj*").readings}
    assert keys == {"коњ", "конј"}
    assert [len(r.slots) for r in parse(KVIZ, "kon|j*").readings] == [4]
    (only,) = parse(KVIZ, "[dž]ep").readings
    assert only.slots[0].tiles == frozenset("џ")
    (split,) = parse(KVIZ, "[d,ž]ep").readings
    assert split.slots[0].tiles == frozenset("дж")
    assert parse(KVIZ, "љ?").readings[0].slots[0].tiles == frozenset("љ")


def test_a_leading_run_keeps_only_the_tilings_a_key_starts_with() -> None:
    keys = {"коњ", "кућа"}
    known = {k[:i] for k in keys for i in range(len(k) + 1)}.__contains__
    (only,) = parse(KVIZ, "konj*", known=known).readings
    assert [next(iter(s.tiles)) for s in only.slots] == list("коњ")
    # 2^32 tilings, one pattern: the preferred reading alone survives a lexicon
    assert len(parse(KVIZ, "lj" * 32, known=known).readings) == 1
    assert len(parse(KVIZ, "*" + "lj" * 31).readings) == 64     # no offset known: capped
