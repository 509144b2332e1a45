"""Remik moves ruled by the rule book (seed 004): the library, the CLI and the HTTP route.

Every case of the rule book runs through all three faces on a small real release (remik
links the osps release the fixture publishes) and must give the same ruling.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from lexicon.service.app import create_app
from lexicon.service.querypool import QueryPool

from lexicon.catalog import Catalog
from lexicon.errors import InputError
from lexicon.game import profile as profiles
from lexicon.verdicts import remik, rulings
from tests.conftest import SmallHomes, lexicon, publish, rec
from tools.remik_flood import heavy_move

WORDS = ["kot", "koty", "kotek", "tok", "dom", "domy", "domek", "lis", "ara", "kotara",
         "las", "lasy", "zażółć", "kotka", "kota", "kotlet", "kotlety", "pasta", "pasy", "do"]


@pytest.fixture()
def table(home: Path, small_homes: SmallHomes) -> Path:
    """The test words as osps's release, remik linking it: a copy in each test's home (the
    moves are logged there)."""
    return small_homes("remik-table", home, make=lambda root: publish(
        root, "remik", [rec(w) for w in WORDS] + [
            rec("kotu", valid=False, code="unknown", message="not in the test list")]))


# (case, before, after, rack, options, legal, reason codes, points, penalty, to_shelf)
CASES: list[tuple[str, list[str], list[str], str, dict[str, Any], bool, list[str], int, int,
                  list[str]]] = [
    ("opening with Ż scores double", [], ["zażółć"], "zażółćab", {"opening": True},
     True, [], 12, 0, []),
    ("opening without Ż, Ź, Ó", ["dom"], ["dom", "kotek"], "kotek", {"opening": True},
     True, [], 5, 0, []),
    ("opening of 3 letters", [], ["kot"], "kot", {"opening": True},
     False, ["opening_too_short"], 0, 0, []),
    ("opening rebuilding a table word", ["kot"], ["kotek"], "ek", {"opening": True},
     False, ["opening_not_own_tiles"], 0, 0, []),
    ("re-opening of 3 letters refused", [], ["kot"], "kot", {"reopening": True},
     False, ["opening_too_short"], 0, 0, []),
    ("re-opening of 4 letters", ["las"], ["las", "koty"], "koty", {"reopening": True},
     True, [], 4, 0, []),
    ("a rebuild adding no own letter", ["kot"], ["tok"], "a", {},
     False, ["no_own_letter_added", "nothing_laid"], 0, 0, []),
    ("a table tile left out", ["kot", "las"], ["koty"], "y", {},
     False, ["table_tile_not_relaid"], 0, 0, []),
    ("variant I leftovers and their penalty", ["kotek"], ["koty"], "y", {"variant": 1},
     True, [], 4, 4, ["E", "K"]),
    ("variant II refuses leftovers", ["kotek"], ["koty"], "y", {"variant": 2},
     False, ["leftover_letters"], 0, 0, []),
    ("a remnant that is a word stays, even in variant II", ["kotara"], ["koty", "ara"], "y",
     {"variant": 2}, True, [], 4, 0, []),
    ("a repeated arrangement", ["kotek"], ["koty"], "y", {"history": [["las"], ["koty"]]},
     False, ["repeated_arrangement"], 0, 0, []),
    ("no assignment exists", ["kot"], ["koty"], "a", {},
     False, ["tiles_not_conserved"], 0, 0, []),
    ("a new word and a rebuild", ["kot", "las"], ["koty", "las", "dom"], "ydomz", {},
     True, [], 7, 0, []),
    # a length rule is a rule of form: taken back without points, like a short opening
    ("a new word of 2 letters: taken back, no penalty", ["kot"],
     ["kot", "do"], "do", {}, False, ["too_short"], 0, 0, []),
    ("an opening of 4 letters: taken back, no penalty", [], ["kota"], "kota",
     {"opening": True}, False, ["opening_too_short"], 0, 0, []),
    ("a short opening that is no word either: the wrong word's 3 points", [], ["kotu"],
     "kotu", {"opening": True}, False, ["opening_too_short", "wrong_word"], 0, 3, []),
    # leftovers typed as they lie: a group of table tiles only that is no word
    ("leftovers typed as they lie, variant I", ["kotek"], ["koty", "ek"], "y", {},
     True, [], 4, 4, ["E", "K"]),
    ("leftovers typed as they lie, variant II", ["kotek"], ["koty", "ek"], "y",
     {"variant": 2}, False, ["leftover_letters"], 0, 0, []),
    ("a 3-letter leftover typed as it lies", ["kotlet"], ["koty", "let"], "y", {},
     True, [], 4, 6, ["E", "L", "T"]),
    ("pasta: pasy and the leftover ta", ["pasta"], ["pasy", "ta"], "y", {},
     True, [], 4, 4, ["A", "T"]),
    ("a leftover typed in another order", ["kotek"], ["koty", "ke"], "y", {},
     True, [], 4, 4, ["E", "K"]),
    ("a leftover the shelf could have laid is still table tiles", ["kotek"],
     ["koty", "ek"], "yek", {}, True, [], 4, 4, ["E", "K"]),
    ("a laid word of own letters that is no word is a wrong word", ["kotlet"],
     ["kotlety", "kel"], "ykel", {}, True, ["wrong_word"], 0, 3, []),
    ("a wrong word: restored, one tile drawn, 3 points lost", ["kot"], ["kotu"], "u", {},
     True, ["wrong_word"], 0, 3, []),
    # one physical table, one ruling: E and K broken off domek and not relaid lie on the
    # table as a leftover whether the referee types them or not
    ("letters broken off and left out of the table after", ["domek"], ["dom", "lis"], "lis",
     {}, True, [], 3, 4, ["E", "K"]),
    ("letters broken off and typed as they lie", ["domek"], ["dom", "lis", "ek"], "lis", {},
     True, [], 3, 4, ["E", "K"]),
    ("a whole table word gone is taken, not broken", ["dom", "las"], ["dom"], "lis", {},
     False, ["table_tile_not_relaid", "nothing_laid"], 0, 0, []),
    # where a tile came from, said by the referee or read as the fewest own letters
    ("kot's K read as broken off domek", ["domek"], ["dom", "kot"], "kot", {},
     True, [], 3, 2, ["E"]),
    ("kot's K said to come from the shelf", ["domek"], ["dom", "kot"], "kot",
     {"own": {"kot": "kot"}}, True, [], 3, 4, ["E", "K"]),
    ("a reading the table cannot give", ["domek"], ["dom", "kot"], "kot",
     {"own": {"kot": "t", "dom": ""}}, False, ["tiles_not_conserved"], 0, 0, []),
]
IDS = [c[0] for c in CASES]


def _expect(r: dict[str, Any], legal: bool, codes: list[str], points: int, penalty: int,
            to_shelf: list[str]) -> None:
    assert r["form_legal"] is legal
    assert [x["code"] for x in r["reasons"]] == codes
    assert (r["points"], r["penalty"], r["total"]) == (points, penalty, points - penalty)
    assert r["to_shelf"] == to_shelf
    assert r["valid"] is (legal and not codes)
    assert r["verdict"] == ("stands" if r["valid"] else "falls")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_library(table: Path, case: tuple) -> None:
    _, before, after, rack, options, *expected = case
    _expect(Catalog(table).lexicon("remik").move(before, after, rack, **options), *expected)


def _cli_args(before: list[str], after: list[str], rack: str, options: dict[str, Any],
              tmp: Path) -> list[str]:
    args = ["judge", "remik", "--before", " ".join(before), "--after", ",".join(after),
            "--rack", rack, "--json"]
    if options.get("opening"):
        args.append("--opening")
    if options.get("reopening"):
        args.append("--reopening")
    if "variant" in options:
        args += ["--variant", str(options["variant"])]
    for word, letters in options.get("own", {}).items():
        args += ["--own", f"{word}={letters}"]
    if "history" in options:
        path = tmp / "history.txt"
        path.write_text("# earlier tables\n" + "\n".join(" ".join(t) for t in
                                                         options["history"]) + "\n")
        args += ["--history", str(path)]
    return args


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_cli(table: Path, tmp_path: Path, case: tuple) -> None:
    _, before, after, rack, options, *expected = case
    p = lexicon(table, *_cli_args(before, after, rack, options, tmp_path))
    r = json.loads(p.stdout)
    _expect(r, *expected)
    assert p.returncode == (0 if r["valid"] else 1)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_http(table: Path, case: tuple) -> None:
    _, before, after, rack, options, *expected = case
    client = TestClient(create_app(table))
    body = {"before": before, "after": after, "rack": rack, **options}
    r = client.post("/v1/games/remik/move", json=body)
    assert r.status_code == 200
    _expect(r.json(), *expected)


def test_the_assignment_is_reported(table: Path) -> None:
    r = Catalog(table).lexicon("remik").move(["kotara", "las"], ["koty", "ara", "lasy"], "yy",
                        variant=2, lang="en")
    assert r["valid"] and r["points"] == 8
    assert r["words"] == [
        {"word": "koty", "kind": "rebuilt", "from": [{"word": "kotara",
                                                      "letters": ["K", "O", "T"]}],
         "own": ["Y"], "points": 4},
        {"word": "ara", "kind": "remnant", "from": [{"word": "kotara",
                                                     "letters": ["A", "A", "R"]}]},
        {"word": "lasy", "kind": "rebuilt", "from": [{"word": "las",
                                                      "letters": ["A", "L", "S"]}],
         "own": ["Y"], "points": 4}]
    assert r["outcome"]["code"] == "move_stands" and r["judge"]["count"] == 3
    # nothing changed, nothing checked: no word to judge, nothing laid
    same = Catalog(table).lexicon("remik").move(["kot"], ["kot"], "a")
    assert [x["code"] for x in same["reasons"]] == ["nothing_laid"]
    assert same["words_valid"] is None and same["words"][0]["kind"] == "kept"


def test_the_reading_of_the_tiles_is_said(table: Path) -> None:
    """The answer says whether the shelf's letters were the referee's word or the ruling's
    reading, and the reading assumed is the one with the fewest own letters."""
    lex = Catalog(table).lexicon("remik")
    assumed = lex.move(["domek"], ["dom", "kot"], "kot", lang="en")
    assert assumed["reading"]["code"] == "own_assumed"
    assert "fewest" in assumed["reading"]["message"]
    kot = next(w for w in assumed["words"] if w["word"] == "kot")
    assert kot["kind"] == "rebuilt" and kot["own"] == ["O", "T"]
    said = lex.move(["domek"], ["dom", "kot"], "kot", own={"kot": "kot"})
    assert said["reading"]["code"] == "own_said"
    kot = next(w for w in said["words"] if w["word"] == "kot")
    assert kot["kind"] == "new" and kot["own"] == ["K", "O", "T"]
    nothing = lex.move(["kot"], ["kot"], "a")
    assert nothing["reading"] is None


@pytest.mark.parametrize("own", [{"las": "l"}, {"kot": "y"}, {"kot": "kk"}, {"kot": 5},
                                 ["kot"]])
def test_a_reading_that_cannot_be_is_refused(table: Path, own: object) -> None:
    with pytest.raises(InputError) as err:
        Catalog(table).lexicon("remik").move(["domek"], ["dom", "kot"], "kot", own=own)
    assert err.value.code == "bad_move"


def test_a_wrong_word_is_named_only_with_reveal(table: Path) -> None:
    cat = Catalog(table)
    hidden = cat.lexicon("remik").move(["kot", "las"], ["kotu", "lasy"], "uy")
    assert hidden["words_valid"] is False and "results" not in hidden["judge"]
    assert hidden["outcome"]["code"] == "move_wrong_word" and hidden["penalty"] == 3
    assert "kotu" not in json.dumps(hidden["reasons"] + [hidden["judge"]])
    shown = cat.lexicon("remik").move(["kot", "las"], ["kotu", "lasy"], "uy", reveal=True)
    assert [x["valid"] for x in shown["judge"]["results"]] == [False, True]
    assert hidden["outcome"]["message"].startswith("niewłaściwy wyraz")
    logged = rulings.read(rulings.parse_date(None), table)
    assert [row["words"] for row in logged] == [["kotu", "lasy"], ["kotu", "lasy"]]


@pytest.mark.parametrize("args, code", [
    ({"before": 5, "after": ["kot"]}, "bad_move"),
    ({"before": ["kot"], "after": ["kot", 5]}, "bad_move"),
    ({"after": ["kot"] * 33}, "move_too_large"),
    ({"after": ["kot"], "rack": "k" * 61}, "move_too_large"),
    ({"after": ["kot"], "rack": "kq"}, "bad_rack"),
    ({"after": ["kot"], "rack": "k?"}, "bad_rack"),
    ({"after": ["kot"], "variant": 3}, "bad_move"),
    ({"after": ["kot"], "opening": True, "reopening": True}, "bad_move"),
    ({"after": ["kot"], "history": "kot"}, "bad_move"),
    ({"after": ["kot"], "history": [["las"], None]}, "bad_move"),     # never an empty table
    ({"after": [""]}, "empty_word"),
    ({"after": ["kot"], "lang": "de"}, "bad_lang"),
])
def test_an_unreadable_move_is_refused(table: Path, args: dict[str, Any], code: str) -> None:
    kwargs = {"before": [], "rack": "kot", **args}
    with pytest.raises(InputError) as got:
        Catalog(table).lexicon("remik").move(kwargs.pop("before"), kwargs.pop("after"),
                        kwargs.pop("rack"), **kwargs)
    assert got.value.code == code
    assert rulings.read(rulings.parse_date(None), table) == []       # nothing ruled


def test_the_search_is_bounded(table: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = ["kotara", "kotek", "kotka", "kot", "tok"]
    after = ["kotary", "kotki", "kotek", "koty", "tako"]
    r = Catalog(table).lexicon("remik").move(before, after, "yiakoy", log=False)
    assert r["words"] and r["reasons"] != []
    monkeypatch.setattr(remik, "MAX_MOVE_STEPS", 20)
    with pytest.raises(remik.MoveTooComplex) as got:
        Catalog(table).lexicon("remik").move(before, after, "yiakoy", log=False)
    assert got.value.code == "move_too_complex" and got.value.status == 422


@pytest.mark.parametrize("kind", [remik.OPENING, remik.MOVE])
def test_the_bound_counts_what_each_step_costs(kind: str, monkeypatch: pytest.MonkeyPatch
                                               ) -> None:
    """The work of the largest move is counted by the letters each step handles: laying
    out one choice of 32 words of 64 letters is charged for its letters, so the refused
    search did at most MAX_MOVE_STEPS units of real work (not 40,000 layings of ~3 ms)."""
    profile = profiles.load("remik")
    before, after, rack = heavy_move().values()
    lays: list[int] = []
    real_lay = remik._lay

    def counted(s: remik._Search, *args: Any) -> bool:
        lays.append(sum(len(s.letters[j]) for j in args[5]))      # the formed words' letters
        return real_lay(s, *args)

    monkeypatch.setattr(remik, "_lay", counted)
    s = remik._Search(remik._words(profile, before, "before"),
                      remik._words(profile, after, "after"), remik._rack(profile, rack), kind,
                      1, 3, 5)
    with pytest.raises(remik.MoveTooComplex):
        remik._search(s)
    assert lays and min(lays) > 500                  # each laying handles ~900 letter counts
    assert sum(lays) <= remik.MAX_MOVE_STEPS < s.steps <= remik.MAX_MOVE_STEPS + 10 * max(lays)


def test_many_remnant_readings_are_bounded_too(table: Path) -> None:
    """32 copies of ``kot`` read out of 32 words ``kotkot…``: millions of ways to choose
    remnants, produced one at a time and each paid for."""
    with pytest.raises(remik.MoveTooComplex):
        Catalog(table).lexicon("remik").move(["kot" * 21] * 32, ["kot"] * 32, "y" * 60, log=False)


def test_the_largest_move_is_refused_over_http_on_the_query_pool(
        table: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 5.5 KB move answers 422 ``move_too_complex`` (the bound is lowered here to keep
    the test short: the real bound is measured by tools.remik_flood), and a move waits
    for the queries' workers like a pattern: with every worker taken it is 503 ``busy``."""
    before, after, rack = heavy_move().values()
    monkeypatch.setattr(remik, "MAX_MOVE_STEPS", 100_000)
    with TestClient(create_app(table), raise_server_exceptions=False) as client:
        body = {"before": before, "after": after, "rack": rack, "opening": True}
        assert len(json.dumps(body, ensure_ascii=False).encode()) > 5000
        r = client.post("/v1/games/remik/move", json=body)
        assert r.status_code == 422 and r.json()["code"] == "move_too_complex"
        pool = QueryPool(workers=1, queued=0)
        client.app.state.query_pool = pool                 # type: ignore[attr-defined]
        release = threading.Event()
        holder = threading.Thread(target=lambda: asyncio.run(pool.run(
            lambda: release.wait(10))))
        holder.start()
        try:
            for _ in range(500):
                if pool.admitted:
                    break
                time.sleep(0.01)
            move = {"before": ["kotek"], "after": ["koty", "ek"], "rack": "y"}
            r = client.post("/v1/games/remik/move", json=move)
            assert r.status_code == 503 and r.json()["code"] == "busy"
            assert r.headers["retry-after"] == "1"
            assert client.get("/healthz").status_code == 200
        finally:
            release.set()
            holder.join()
        r = client.post("/v1/games/remik/move", json=move)
        assert r.status_code == 200 and r.json()["total"] == 0
        pool.close()


def test_faces_refuse_and_keep_the_plain_judge(table: Path) -> None:
    client = TestClient(create_app(table))
    r = client.post("/v1/games/remik/move", json={"after": ["kot", 5], "rack": "kot"})
    assert r.status_code == 400 and r.json()["code"] == "bad_move"
    r = client.post("/v1/games/remik/move", json={"after": ["kot"], "variant": "x"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"
    r = client.post("/v1/games/remik/judge", json={"words": ["kot"]})
    assert r.status_code == 200 and r.json()["verdict"] == "stands"
    assert lexicon(table, "judge", "remik", "kot").returncode == 0      # the plain judge
    assert lexicon(table, "judge", "remik", "kotu").returncode == 1
    p = lexicon(table, "judge", "remik", "kot", "--after", "koty", "--rack", "y")
    assert p.returncode == 2 and "bad_move" in p.stderr
    p = lexicon(table, "judge", "osps", "--before", "kot", "--after", "koty", "--rack", "y")
    assert p.returncode == 2 and "bad_move" in p.stderr
    p = lexicon(table, "judge", "remik", "--before", "kot", "--rack", "y")
    assert p.returncode == 2 and "needs --after" in p.stderr
    p = lexicon(table, "judge", "remik", "--after", "koty", "--history", str(table / "no"))
    assert p.returncode == 2 and "bad_move" in p.stderr
    p = lexicon(table, "judge", "remik", "--before", "kotek", "--after", "koty", "--rack", "y")
    assert p.returncode == 0 and "back to the shelf: E K" in p.stdout
    assert "najmniejszą liczbą" in p.stdout     # the reading taken, in the players' language
    assert "points 4, penalty 4, total 0" in p.stdout
    p = lexicon(table, "judge", "remik", "--before", "kotek", "--after", "koty", "--rack", "y",
                "--own", "koty")
    assert p.returncode == 2 and "WORD=LETTERS" in p.stderr


def test_no_release(home: Path) -> None:
    p = lexicon(home, "judge", "remik", "--after", "koty", "--rack", "y")
    assert p.returncode == 3
    client = TestClient(create_app(home))
    assert client.post("/v1/games/remik/move", json={"after": ["kot"]}).status_code == 503


def _brute_cost(before: list[str], after: list[str], rack: str, variant: int
                ) -> tuple[int, int, int, int] | None:
    """The best cost over every tile-level assignment (each letter of each word after the
    move from the shelf or from one table word), scored by the rule book independently of
    lexicon.verdicts.remik: faults, leftovers, own letters, pieces. Every word is taken for
    a word of the language: a group of table tiles only is a leftover when it is too short
    to be one."""
    kept_b, rest_a = list(before), []
    for w in after:
        if w in kept_b:
            kept_b.remove(w)
        else:
            rest_a.append(w)
    slots = [(j, c) for j, w in enumerate(rest_a) for c in w]
    sources = [-1, *range(len(kept_b))]
    best = None
    for pick in itertools.product(sources, repeat=len(slots)):
        use = Counter((i, c) for (_, c), i in zip(slots, pick, strict=True))
        if any(n > (Counter(rack)[c] if i < 0 else Counter(kept_b[i])[c])
               for (i, c), n in use.items()):
            continue
        faults = groups = 0
        given = Counter(i for i in pick if i >= 0)
        for j, w in enumerate(rest_a):
            mine = [i for (jj, _), i in zip(slots, pick, strict=True) if jj == j]
            if all(i >= 0 for i in mine) and len(w) < 3:
                groups += len(w)     # table tiles only and no word: a leftover
                continue
            faults += len(w) < 3
            faults += bool(mine) and all(i >= 0 for i in mine)
        faults += sum(1 for i in range(len(kept_b)) if not given[i])
        left = groups + sum(len(kept_b[i]) - given[i] for i in range(len(kept_b)) if given[i])
        faults += variant == 2 and left > 0
        own = sum(1 for i in pick if i < 0)
        faults += own == 0
        pieces = len({(j, i) for (j, _), i in zip(slots, pick, strict=True) if i >= 0})
        cost = (faults, left, own, pieces)
        best = cost if best is None or cost < best else best
    return best


def test_the_search_finds_the_best_assignment_a_brute_force_finds() -> None:
    """For a move with a legal reading the search finds the best one; for one without, as
    few faults (which of two equally faulty readings it reports may differ)."""
    profile = profiles.load("remik")
    rng = random.Random(20)
    checked = 0
    while checked < 300:
        word = lambda: "".join(rng.choice("abko") for _ in range(rng.randint(2, 4)))  # noqa: E731
        before = [word() for _ in range(rng.randint(0, 2))]
        after = [word() for _ in range(rng.randint(1, 2))]
        rack = "".join(rng.choice("abko") for _ in range(rng.randint(0, 3)))
        if any(a != b and a in b for a in after for b in before):
            continue                                # remnants: not in the brute force
        variant = rng.choice((1, 2))
        expected = _brute_cost(before, after, rack, variant)
        s = remik._Search(remik._words(profile, before, "before"),
                          remik._words(profile, after, "after"), Counter(rack), remik.MOVE,
                          variant, 3, 5)
        found = remik._search(s)
        case = (before, after, rack, variant)
        if expected is None or found is None:
            assert found is expected is None, case
        elif expected[0] == 0:      # a legal reading: the best one (pieces only a preference)
            assert found.cost[:3] == expected[:3], case
        else:                                       # an illegal move: as few faults
            assert found.cost[0] == expected[0], case
        checked += 1


def test_the_rulings_log_records_the_move(table: Path) -> None:
    """Each face logs the move itself: before, after, rack, variant, kind, the verdict of the
    move (a 4-letter opening falls though its word is correct), points, penalty, reasons."""
    lib = Catalog(table).lexicon("remik").move([], ["kota"], "kota", opening=True)
    assert lib["verdict"] == "falls" and lib["time"] == lib["judge"]["time"]
    p = lexicon(table, "judge", "remik", "--before", "kotek", "--after", "koty ek",
                "--rack", "y", "--variant", "1")
    assert p.returncode == 0
    client = TestClient(create_app(table))
    r = client.post("/v1/games/remik/move", json={"before": ["kot", "las"],
                                                  "after": ["kotu", "lasy"], "rack": "uy",
                                                  "variant": 2})
    assert r.status_code == 200 and r.json()["outcome"]["code"] == "move_wrong_word"
    opening, leftovers, wrong = rulings.read(rulings.parse_date(None), table)
    assert opening["verdict"] == "falls" and opening["words"] == ["kota"]
    assert opening["time"] == lib["time"]
    assert opening["move"] == {
        "kind": "opening", "variant": 1, "before": [], "after": ["kota"],
        "rack": ["A", "K", "O", "T"], "form_legal": False, "words_valid": True,
        "outcome": "move_taken_back", "points": 0, "penalty": 0, "total": 0, "to_shelf": [],
        "reasons": ["opening_too_short"]}
    assert leftovers["verdict"] == "stands" and leftovers["words"] == ["koty"]
    assert {k: leftovers["move"][k] for k in ("kind", "before", "after", "rack", "outcome",
                                              "points", "penalty", "to_shelf", "reasons")} \
        == {"kind": "move", "before": ["kotek"], "after": ["koty", "ek"], "rack": ["Y"],
            "outcome": "move_stands", "points": 4, "penalty": 4, "to_shelf": ["E", "K"],
            "reasons": []}
    assert wrong["verdict"] == "falls" and wrong["move"]["variant"] == 2
    assert (wrong["move"]["penalty"], wrong["move"]["reasons"]) == (3, ["wrong_word"])
    listing = lexicon(table, "rulings").stdout.splitlines()
    assert len(listing) == 3 and "opening" in listing[0] and "FALLS" in listing[0]
    assert "opening_too_short" in listing[0] and "koty ek" in listing[1]


@pytest.mark.parametrize("lang, bank", [("pl", "bierze z banku jedną kostkę"),
                                        ("sr", "vuče jednu pločicu iz banke"),
                                        ("sr-Cyrl", "вуче једну плочицу из банке"),
                                        ("sl", "vzame eno ploščico iz banke"),
                                        ("en", "draws one tile from the bank")])
def test_a_move_taken_back_says_the_player_draws_a_tile(table: Path, lang: str,
                                                        bank: str) -> None:
    """The rule book: lay the tiles back as they lay "i wziąć z banku jedną kostkę"."""
    r = Catalog(table).lexicon("remik").move([], ["kota"], "kota", opening=True, lang=lang,
                        log=False)
    assert r["outcome"]["code"] == "move_taken_back" and bank in r["outcome"]["message"]
    http = TestClient(create_app(table)).post("/v1/games/remik/move", json={
        "after": ["kota"], "rack": "kota", "opening": True, "lang": lang})
    assert bank in http.json()["outcome"]["message"]
    p = lexicon(table, "judge", "remik", "--after", "kota", "--rack", "kota", "--opening",
                "--lang", lang)
    assert p.returncode == 1 and bank in p.stdout


def test_a_null_history_item_is_refused_by_every_face(table: Path) -> None:
    client = TestClient(create_app(table))
    r = client.post("/v1/games/remik/move", json={"before": ["kotek"], "after": ["koty"],
                                                  "rack": "y", "history": [["las"], None]})
    assert r.status_code == 400 and r.json()["code"] == "bad_move"
    assert r.json()["detail"] == {"history_item": 2}
    r = client.post("/v1/games/remik/move", json={"before": ["kotek"], "after": ["koty"],
                                                  "rack": "y", "history": [[]]})
    assert r.status_code == 200 and r.json()["valid"]      # an empty table is []
