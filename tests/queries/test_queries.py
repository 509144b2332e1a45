"""Engine and referee queries through the library, on small releases built for real."""

from __future__ import annotations

import itertools
import json
import weakref
from pathlib import Path

import pytest

from lexicon.catalog import Catalog
from lexicon.errors import LexiconError
from lexicon.queries import queries, search
from lexicon.queries.patterns import parse
from lexicon.queries.search import Budget
from lexicon.store.indexes import NoIndex
from lexicon.verdicts import fastcheck
from tests.conftest import SmallHomes
from tests.query_data import POLISH, publish_all


@pytest.fixture(scope="module")
def cat(small_homes: SmallHomes) -> Catalog:
    """The small releases: the tests here only read them."""
    return Catalog(small_homes("queries"))


def words(result: dict) -> list[str]:
    return [r["word"] for r in result["results"]]


def test_blanks_krizemkrazem_example(cat: Catalog) -> None:
    r = cat.lexicon("krizemkrazem").blanks("KA?IN")
    assert words(r) == ["Kacin", "kalin", "Kanin", "Karin"]
    assert r["results"][0]["jokers"] == [{"position": 3, "letter": "C"}]
    assert r["results"][0]["score"] == 11      # as_letter: the joker is worth C (4)
    assert r["release"].startswith("krizemkrazem-")


def test_krizemkrazem_joker_may_be_w(cat: Catalog) -> None:
    r = cat.lexicon("krizemkrazem").blanks("KI?I")
    assert {(x["word"], x["jokers"][0]["letter"]) for x in r["results"]} == {
        ("kivi", "V"), ("kiwi", "W")}
    # typed W is a joker too: only a joker can play it
    r = cat.lexicon("krizemkrazem").blanks("kiwi")
    assert r["results"][0]["jokers"] == [{"position": 3, "letter": "W"}]


def test_kvizovka_joker_is_one_tile_even_lj(cat: Catalog) -> None:
    r = cat.lexicon("kvizovka").blanks("?ubav")
    got = {x["word"]: x["jokers"][0]["letter"] for x in r["results"]}
    assert got == {"ljubav": "LJ", "lubav": "L"}
    assert cat.lexicon("kvizovka").blanks("?UBAV")["count"] == 2
    assert cat.lexicon("kvizovka").blanks("?убав")["count"] == 2


def test_polish_joker_scores_zero_and_joker_count_is_enforced(cat: Catalog) -> None:
    r = cat.lexicon("osps").blanks("ko?")
    assert words(r) == ["kot"] and r["results"][0]["score"] == 3   # k2 + o1 + blank 0
    with pytest.raises(LexiconError) as caught:
        cat.lexicon("osps").blanks("???")
    assert caught.value.code == "too_many_jokers"


def test_pattern_search_counts_pages_and_sorts(cat: Catalog) -> None:
    r = cat.lexicon("osps").pattern("kot*", limit=2)
    assert r["count"] == 5 and words(r) == ["kot", "kota"]
    r = cat.lexicon("osps").pattern("kot*", limit=2, offset=2)
    assert words(r) == ["kotek", "kotka"]       # kot kota kotek kotka koty
    r = cat.lexicon("osps").pattern("kot*", sort="score")
    assert [x["score"] for x in r["results"]] == sorted(
        [x["score"] for x in r["results"]], reverse=True)
    assert words(cat.lexicon("osps").pattern("*owy")) == ["domowy", "nowy"]
    assert words(cat.lexicon("osps").pattern("?o?a")) == ["kota"]
    assert words(cat.lexicon("osps").pattern("kot*", min_length=5, max_length=5)) == [
        "kotek", "kotka"]
    assert words(cat.lexicon("osps").pattern("[kt]o?")) == ["kot", "tok"]
    assert "ok" not in words(cat.lexicon("osps").pattern("?k"))   # rejected words never


def test_polish_alphabet_order(cat: Catalog) -> None:
    r = cat.lexicon("osps").pattern("*", max_length=4)
    listed = words(r)
    assert listed.index("jaźń") < listed.index("kot")      # not code-point order


def test_pathological_pattern_over_a_release(cat: Catalog) -> None:
    r = cat.lexicon("osps").pattern("*a*a*a*a*a*a*a*b")
    assert r["count"] == 0
    assert cat.lexicon("osps").pattern("*a*a*a*a*a*a*a*a")["count"] == 1


def test_too_many_matches_is_refused(cat: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(queries, "MAX_MATCHES", 3)
    with pytest.raises(LexiconError) as caught:
        cat.lexicon("osps").pattern("*")
    assert caught.value.code == "too_many_matches"


@pytest.mark.parametrize(("kwargs", "code"), [
    ({"limit": 0}, "result_limit"), ({"limit": 501}, "result_limit"),
    ({"offset": -1}, "result_limit"), ({"sort": "random"}, "bad_sort"),
    ({"min_length": 5, "max_length": 3}, "bad_length"),
])
def test_query_limits(cat: Catalog, kwargs: dict, code: str) -> None:
    with pytest.raises(LexiconError) as caught:
        cat.lexicon("osps").pattern("k*", **kwargs)
    assert caught.value.code == code


def test_anagrams_exact_sub_and_jokers(cat: Catalog) -> None:
    r = cat.lexicon("osps").anagrams("tko", sort="length")
    assert sorted(words(r)) == ["kot", "kto", "tok"]       # 'ok' is rejected, never offered
    assert all(x["uses_all_tiles"] for x in r["results"])
    r = cat.lexicon("osps").anagrams("tkoa")
    assert set(words(r)) == {"kot", "kto", "tok", "kota"}
    r = cat.lexicon("osps").anagrams("tkoa", exact=True)
    assert words(r) == ["kota"]
    r = cat.lexicon("osps").anagrams("otk?", exact=True)
    assert {x["word"]: x["jokers"] for x in r["results"]} == {
        "kota": [{"position": 4, "letter": "A"}], "koty": [{"position": 4, "letter": "Y"}]}
    assert all(x["score"] == 5 for x in r["results"])      # the blank is worth 0


def test_anagrams_with_board_letters(cat: Catalog) -> None:
    r = cat.lexicon("osps").anagrams("tka", board="o")
    assert set(words(r)) == {"kot", "kto", "tok", "kota"}
    assert all(x["board"] == ["O"] for x in r["results"])
    r = cat.lexicon("osps").anagrams("ktoe", board="k")   # kotek needs the board's K
    assert set(words(r)) == {"kotek", "kot", "kto", "tok"}
    assert words(cat.lexicon("osps").anagrams("toe", board="kk")) == ["kotek"]
    r = cat.lexicon("osps").anagrams("kot", board="ne")   # no word holds N and E
    assert r["count"] == 0


def test_anagrams_kvizovka_and_krizemkrazem(cat: Catalog) -> None:
    r = cat.lexicon("kvizovka").anagrams("v a b u lj")
    assert words(r) == ["ljubav"]
    r = cat.lexicon("kvizovka").anagrams("vabu?")
    assert {x["word"] for x in r["results"]} == {"ljubav", "lubav"}
    r = cat.lexicon("krizemkrazem").anagrams("iik?")
    assert {x["word"] for x in r["results"]} == {"kivi", "kiwi"}


@pytest.mark.parametrize(("game", "rack", "board", "code"), [
    ("osps", "abcdefghijklmnop", "", "rack_too_long"),
    ("osps", "ab???", "", "too_many_jokers"),
    ("remik", "ab?", "", "no_release"),
    ("osps", "kot1", "", "bad_rack"),
    ("osps", "kot", "?", "bad_rack"),
    ("krizemkrazem", "kiwi", "", "bad_rack"),       # W is a joker's letter, not a tile
])
def test_anagram_limits(cat: Catalog, game: str, rack: str, board: str, code: str) -> None:
    with pytest.raises(LexiconError) as caught:
        cat.lexicon(game).anagrams(rack, board=board)
    assert caught.value.code == code


def test_hooks_and_prefix(cat: Catalog) -> None:
    r = cat.lexicon("osps").hooks("kot")
    assert [h["tile"] for h in r["back"]] == ["A", "Y"] and r["front"] == []
    assert r["is_prefix"] and r["next_tiles"] == ["A", "E", "K", "Y"]
    r = cat.lexicon("osps").hooks("to")
    assert [h["word"] for h in r["back"]] == ["tok"]
    r = cat.lexicon("osps").hooks("kto")
    assert [h["tile"] for h in r["front"]] == [] and not r["is_prefix"]
    p = cat.lexicon("osps").prefix("kote")
    assert p["is_prefix"] and not p["is_word"] and p["next_tiles"] == ["K"]
    assert not cat.lexicon("osps").prefix("zz")["is_prefix"]
    r = cat.lexicon("krizemkrazem").hooks("kivi")
    assert r["valid"] and r["front"] == []


def test_fast_batch_agrees_with_check(cat: Catalog) -> None:
    typed = ["kot", "KOT", "ok", "", "ko\x01t", "zażółć", "zaz\u0307ółć", "qwerty", "kotek ",
             "a" * 100, "k", "aaaaaaaaaaaaaa"]
    expected = [cat.lexicon("osps").check_many([w])[0]["valid"] for w in typed]
    assert cat.lexicon("osps").valid(typed) == expected
    kv = ["ljubav", "љубав", "kuća", "kući", "konj", "nadživeti", "lјubav", "džep", "сунце",
          "nadživeti ", "njiva", "konjugacija", "kon|j", "lj" * 32, "nj" * 20 + "dž" * 10,
          "ljubavnjdž", "ddžž"]
    for edge in (False, True):
        expected = [cat.lexicon("kvizovka").check_many([w], edge=edge)[0]["valid"]
                    for w in kv]
        assert cat.lexicon("kvizovka").valid(kv, edge=edge) == expected
    kr = ["Karin", "kiwi", "KIWI", "kivi", "tone pavček"]
    expected = [cat.lexicon("krizemkrazem").check_many([w])[0]["valid"] for w in kr]
    assert cat.lexicon("krizemkrazem").valid(kr) == expected


@pytest.mark.parametrize(("game", "typed"), [
    ("osps", ["kot", "KOTA", "ok", "zażółć", "kotz", "k", "aaaaaaaaaaaaaa"]),
    ("kvizovka", ["кућа", "КУЋИ", "љубав", "коњ"]),          # Cyrillic: one tiling
    ("kvizovka", ["kuća", "kući", "sunce", "kuca"]),          # Latin without digraphs
    ("kvizovka", ["ljubav", "lubav", "konj", "njiva", "nadživeti", "džep", "kuća"]),
    ("krizemkrazem", ["Karin", "kiwi", "KIVI", "kajak"]),
])
def test_whole_batch_path_agrees_with_check(cat: Catalog, game: str, typed: list[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    expected = [r["valid"] for r in cat.lexicon(game).check_many(typed)]
    assert cat.lexicon(game).valid(typed) == expected
    monkeypatch.setattr(fastcheck.checker, "check_word", None)   # the batch path only
    assert cat.lexicon(game).valid(typed) == expected


def test_store_membership_uses_the_index(cat: Catalog) -> None:
    rel = cat.release("osps")
    keys = [r.key for r in POLISH] + ["psy", "kotx"]
    assert rel.valid_many(keys) == [r.valid for r in POLISH] + [False, False]


def test_indexes_listed_in_manifest_and_required(home: Path) -> None:
    cat = Catalog(publish_all(home))       # its own copy: this test damages the manifest
    rel = cat.release("osps")
    entry = rel.manifest["indexes"]
    assert entry["playable_keys"] == entry["keys"] == 14
    assert {"words.marisa", "forward.marisa", "alphagram-nodes.bin"} <= set(
        entry["files"])
    # a release whose manifest lost its indexes: queries say so (503), and name the cure
    manifest = json.loads((rel.path / "manifest.json").read_text())
    del manifest["indexes"]
    (rel.path / "manifest.json").write_text(json.dumps(manifest))
    cat.close()
    with pytest.raises(NoIndex) as err:
        Catalog(cat.root).lexicon("osps").pattern("kot")
    assert err.value.status == 503 and "lexicon build osps" in err.value.message


# -- the work bound of pattern and blanks queries (counted, never timed) -----------------

def work(cat: Catalog, game: str, text: str, *, limit: int = 10**9, low: int = 1,
         high: int = 64) -> tuple[Budget, set[str]]:
    """The budget a pattern spends (over all its readings) and the keys it finds."""
    index = cat.release(game).indexes
    compiled = parse(cat.profile(game), text, known=index.has_prefix)
    budget = Budget(limit, len(compiled.readings))
    return budget, queries.match_keys(index, cat.profile(game), compiled, low, high, budget)


def test_pattern_work_is_counted_and_refused_past_the_limit(
        cat: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    broad, found = work(cat, "osps", "*o*")          # fixes neither end: every key is read
    narrow, _ = work(cat, "osps", "kot")
    assert found == {"kot", "kota", "koty", "kotek", "kotka", "okno", "tok", "kto", "nowy",
                     "domowy"}                       # not zażółć: ó is a tile of its own
    assert narrow.spent * 3 < broad.spent
    # the limit is the whole budget: one unit less and the same query is refused
    monkeypatch.setattr(queries, "MAX_PATTERN_WORK", broad.spent)
    assert cat.lexicon("osps").pattern("*o*", min_length=1, max_length=64)["count"] == 10
    monkeypatch.setattr(queries, "MAX_PATTERN_WORK", broad.spent - 1)
    with pytest.raises(LexiconError) as caught:
        cat.lexicon("osps").pattern("*o*", min_length=1, max_length=64)
    assert caught.value.code == "query_too_broad" and caught.value.status == 422
    assert caught.value.detail == {"max_work": broad.spent - 1, "readings": 1}
    assert cat.lexicon("osps").pattern("kot")["count"] == 1     # a narrow one still answers
    # blanks queries are paid from the same budget
    monkeypatch.setattr(queries, "MAX_PATTERN_WORK", 10)
    with pytest.raises(LexiconError) as caught:
        cat.lexicon("osps").blanks("?o?")
    assert caught.value.code == "query_too_broad"


def test_a_refused_query_stops_as_soon_as_its_budget_is_spent(cat: Catalog) -> None:
    # the walk fixes a tile (one of a set): the work is not known up front, only as it goes
    full, _ = work(cat, "osps", "[^ź]*o*")
    for limit in (0, 5, 20, full.spent // 2, full.spent - 1):
        budget = Budget(limit)
        with pytest.raises(LexiconError, match="units of work"):
            queries.match_keys(cat.release("osps").indexes, cat.profile("osps"),
                               parse(cat.profile("osps"), "[^ź]*o*"), 1, 64, budget)
        # what was spent is the budget plus at most the one step that overdrew it
        assert limit < budget.spent <= limit + max(Budget.PROBE, Budget.KEY + Budget.MATCH)


def test_work_known_from_the_release_is_refused_before_the_search(cat: Catalog) -> None:
    index, profile = cat.release("osps").indexes, cat.profile("osps")
    alphabet = sorted(profile.by_canonical)
    # a pattern fixing no tile at either end, over every length the trie holds: every key
    # (a '?' alone fixes nothing either; it needs 2 tiles, so 63 lengths are probed; from
    # 3 tiles on, the one 2-tile key "ul" is counted and left out)
    for text, low, expected in (("*o*", 1, 14 * 2 + 64 * Budget.PROBE),
                                ("?*ź*", 1, 14 * 2 + 63 * Budget.PROBE),
                                ("*o*", 3, 13 * 2 + 62 * Budget.PROBE),
                                ("[^ź]*o*", 1, 0), ("kot*", 1, 0), ("*", 1, 0), ("*owy", 1, 0)):
        (reading,) = parse(profile, text).readings
        least = search.least_work(index, reading, alphabet, low, 64)
        assert least == expected, text
        assert least <= work(cat, "osps", text, low=low)[0].spent     # a lower bound
    full, _ = work(cat, "osps", "*o*")
    budget = Budget(full.spent - 1)
    with pytest.raises(LexiconError, match="units of work"):
        queries.match_keys(index, profile, parse(profile, "*o*"), 1, 64, budget)
    assert budget.spent == 0               # refused before a single probe
    # the 64 readings of the reproducer add up before any is searched
    kv, kv_profile = cat.release("kvizovka").indexes, cat.profile("kvizovka")
    compiled = parse(kv_profile, "*lj*nj*dž*lj*nj*dž*", known=kv.has_prefix)
    one = search.least_work(kv, compiled.readings[0], sorted(kv_profile.by_canonical), 1, 64)
    assert one > 0
    budget = Budget(one * 63, readings=64)
    with pytest.raises(LexiconError, match="64 readings"):
        queries.match_keys(kv, kv_profile, compiled, 1, 64, budget)
    assert budget.spent == 0


def test_every_reading_of_a_digraph_pattern_is_paid_for(cat: Catalog) -> None:
    one, keys = work(cat, "kvizovka", "*љ*њ*")          # Cyrillic: one reading
    many, latin_keys = work(cat, "kvizovka", "*lj*nj*")   # lj, l+j times nj, n+j
    assert (one.readings, many.readings) == (1, 4)
    each = [work(cat, "kvizovka", text)[0].spent
            for text in ("*љ*њ*", "*љ*нј*", "*лј*њ*", "*лј*нј*")]
    assert many.spent == sum(each) and many.spent > 3 * one.spent
    assert keys <= latin_keys
    # and the work grows with the readings: 2, 4, 8, ..., 64
    spent = [work(cat, "kvizovka", text)[0] for text in
             ("*lj*", "*lj*nj*", "*lj*nj*dž*", "*lj*nj*dž*lj*nj*dž*")]
    assert [b.readings for b in spent] == [2, 4, 8, 64]
    assert all(a.spent < b.spent for a, b in itertools.pairwise(spent))


def test_the_64_readings_reproducer_is_refused(cat: Catalog,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    first, _ = work(cat, "kvizovka", "*љ*њ*џ*љ*њ*џ*")
    monkeypatch.setattr(queries, "MAX_PATTERN_WORK", first.spent * 8)   # 8 of 64 readings
    with pytest.raises(LexiconError) as caught:
        cat.lexicon("kvizovka").pattern("*lj*nj*dž*lj*nj*dž*")
    assert caught.value.code == "query_too_broad"
    assert caught.value.detail["readings"] == 64 and "64 readings" in caught.value.message
    assert cat.lexicon("kvizovka").pattern("*[lj]*")["count"] == 1      # ljubav


def test_reading_in_chunks_changes_neither_the_answer_nor_the_work(
        cat: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = (work(cat, "kvizovka", "*lj*") + work(cat, "osps", "[^ź]*o*")
             + work(cat, "osps", "*"))
    monkeypatch.setattr(search, "CHUNK", 2)
    chunked = (work(cat, "kvizovka", "*lj*") + work(cat, "osps", "[^ź]*o*")
               + work(cat, "osps", "*"))
    assert [b.spent if isinstance(b, Budget) else b for b in whole] == [
        b.spent if isinstance(b, Budget) else b for b in chunked]
    full = work(cat, "osps", "[^ź]*o*")[0].spent
    budget = Budget(full - 5)
    with pytest.raises(LexiconError, match="units of work"):
        queries.match_keys(cat.release("osps").indexes, cat.profile("osps"),
                           parse(cat.profile("osps"), "[^ź]*o*"), 1, 64, budget)
    assert full - 5 < budget.spent <= full - 5 + Budget.KEY + Budget.MATCH


def test_lengths_too_full_to_count_leave_the_work_unknown(
        cat: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "_LENGTHS", weakref.WeakKeyDictionary())
    monkeypatch.setattr(search, "COUNT_AT_MOST", 0)      # no length is counted
    index, profile = cat.release("osps").indexes, cat.profile("osps")
    alphabet = sorted(profile.by_canonical)
    (reading,) = parse(profile, "*o*").readings
    assert search.least_work(index, reading, alphabet, 3, 64) == 0       # "ul" left out
    assert search.least_work(index, reading, alphabet, 1, 64) == 14 * 2 + 64 * Budget.PROBE
