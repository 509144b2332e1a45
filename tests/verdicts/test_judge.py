"""One ruling per play: the library, the CLI (real subprocess), the HTTP route, the log."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from lexicon.cli import main
from lexicon.service.app import create_app
from typer.testing import CliRunner, Result

from lexicon.catalog import Catalog
from lexicon.errors import InputError
from lexicon.verdicts import rulings


def cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    """The real command in a subprocess (used once: exit codes as a shell sees them)."""
    env = {**os.environ, "LEXICON_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "lexicon.cli.main", *args], capture_output=True,
                          text=True, env=env, check=False)


def run(home: Path, *args: str) -> Result:
    """The same command in-process (the ``home`` fixture has set LEXICON_HOME)."""
    assert os.environ["LEXICON_HOME"] == str(home)
    return CliRunner().invoke(main.app, list(args))


def test_a_play_stands_or_falls_as_one(small_releases: Path) -> None:
    cat = Catalog(small_releases)
    ok = cat.lexicon("osps").judge(["zażółć", "gęślą"])
    assert (ok["verdict"], ok["valid"], ok["count"]) == ("stands", True, 2)
    bad = cat.lexicon("osps").judge(["zażółć", "np", "jaźń"])
    assert (bad["verdict"], bad["valid"], bad["count"]) == ("falls", False, 3)
    assert bad["release"].startswith("osps-") and "results" not in bad
    # Nothing in the answer depends on which word failed or where it stood.
    swapped = cat.lexicon("osps").judge(["np", "jaźń", "zażółć"])
    assert {k: v for k, v in bad.items() if k != "time"} == \
           {k: v for k, v in swapped.items() if k != "time"}
    assert "np" not in json.dumps(bad)


def test_reveal_gives_every_verdict(small_releases: Path) -> None:
    r = Catalog(small_releases).lexicon("kvizovka").judge(["ljubav", "kući"], reveal=True)
    assert r["verdict"] == "falls"
    assert [x["valid"] for x in r["results"]] == [True, False]
    assert r["results"][1]["reason"]["code"] == "inflected_form"


@pytest.mark.parametrize("words, code", [
    (["kot", ""], "empty_word"), (["kot", "a\u0007b"], "control_character"),
    (["kot", 7], "bad_play"), ([], "empty_play"), ("kot", "bad_play"),
    (["kot"] * 33, "play_too_large"),
])
def test_an_unreadable_play_is_one_error_naming_no_word(small_releases: Path, words: object,
                                                        code: str) -> None:
    cat = Catalog(small_releases)
    with pytest.raises(InputError) as got:
        cat.lexicon("osps").judge(words)
    assert got.value.code == code
    if isinstance(words, list) and len(words) == 2:
        assert "position" not in json.dumps(got.value.to_json())
        with pytest.raises(InputError) as other_order:
            cat.lexicon("osps").judge(list(reversed(words)))
        assert other_order.value.to_json() == got.value.to_json()
    assert rulings.read(rulings.parse_date(None), small_releases) == []   # nothing ruled


def test_cli_exit_codes_and_the_log(small_releases: Path) -> None:
    h = small_releases
    assert cli(h, "judge", "osps", "zażółć", "gęślą").returncode == 0
    p = run(h, "judge", "osps", "zażółć", "np", "--json")
    assert p.exit_code == 1 and "np" not in p.stdout
    assert json.loads(p.stdout)["verdict"] == "falls"
    assert run(h, "judge", "kvizovka", "ljubav", "надживети").exit_code == 0
    assert run(h, "judge", "kvizovka", "ljubav", "kući").exit_code == 1
    assert run(h, "judge", "kvizovka", "džep").exit_code == 1
    assert run(h, "judge", "kvizovka", "džep", "--edge").exit_code == 0
    p = run(h, "judge", "osps", "np", "--reveal", "--json")
    assert json.loads(p.stdout)["results"][0]["reason"]["code"] == "abbreviation"
    rel = json.loads(run(h, "judge", "osps", "kot", "--json").stdout)["release"]
    p = run(h, "judge", "osps", "kot", "--release", rel, "--json")
    assert p.exit_code == 0 and json.loads(p.stdout)["release"] == rel
    assert run(h, "judge", "osps", "kot", "--release", "osps-19990101T000000Z-0").exit_code == 2
    assert run(h, "judge", "chess", "kot").exit_code == 2
    assert run(h, "judge", "osps", "kot", "").exit_code == 2
    assert run(h, "judge", "remik", "kot").exit_code == 3          # no release built

    p = run(h, "rulings", "--json")
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert [(r["game"], r["words"], r["verdict"]) for r in rows[:2]] == [
        ("osps", ["zażółć", "gęślą"], "stands"), ("osps", ["zażółć", "np"], "falls")]
    assert len(rows) == 9 and all(r["release"] and r["time"].endswith("Z") for r in rows)
    human = run(h, "rulings").stdout
    assert "FALLS" in human and "ljubav kući" in human
    assert run(h, "rulings", "--date", "1999-01-01").stdout.startswith("no rulings")
    assert run(h, "rulings", "--date", "yesterday").exit_code == 2


def test_http_judge(small_releases: Path) -> None:
    client = TestClient(create_app(small_releases))
    url = "/v1/games/osps/judge"
    r = client.post(url, json={"words": ["zażółć", "np"]})
    assert r.status_code == 200 and "np" not in r.text
    assert r.json()["verdict"] == "falls" and r.json()["count"] == 2
    r = client.post(url, json={"words": ["zażółć", "gęślą"], "reveal": True})
    assert r.json()["verdict"] == "stands" and len(r.json()["results"]) == 2
    r = client.post("/v1/games/kvizovka/judge", json={"words": ["džep"], "edge": True})
    assert r.json()["valid"] is True
    for words in (["zażółć", 5], [5, "zażółć"]):                 # no index in the error
        r = client.post(url, json={"words": words})
        assert r.status_code == 400 and r.json()["code"] == "bad_play"
        assert "loc" not in r.text and "1" not in r.json()["message"]
    r = client.post(url, json={"words": ["zażółć", "x" * 65]})
    assert r.status_code == 400 and r.json() == {
        "code": "word_too_long", "message": "a word of the play cannot be read "
        "(word_too_long); correct it and ask again: nothing was ruled"}
    assert client.post("/v1/games/chess/judge", json={"words": ["a"]}).status_code == 404
    assert client.post("/v1/games/remik/judge", json={"words": ["kot"]}).status_code == 503
    assert len(rulings.read(rulings.parse_date(None), small_releases)) == 3


def _append_many(root: str, worker: int) -> None:
    for i in range(100):
        rulings.append({"game": "osps", "release": "r", "words": [f"w{worker}-{i}" * 20],
                        "verdict": "stands"}, root=Path(root))


def test_concurrent_appends_keep_every_line_whole(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_append_many, args=(str(tmp_path), w)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    rows = rulings.read(rulings.parse_date(None), tmp_path)
    assert len(rows) == 400 and not any("unreadable" in r for r in rows)
    assert len({r["words"][0] for r in rows}) == 400


def test_the_edge_belongs_to_the_words_that_touch_it(small_releases: Path) -> None:
    """Kvizovka's edge rule lets a 3-tile word stand only where that word touches the edge:
    a play may mark which of its words do (library, CLI and HTTP alike)."""
    cat = Catalog(small_releases)
    play = ["ljubav", "džep"]                          # džep: 3 tiles (DŽ E P)
    assert cat.lexicon("kvizovka").judge(play, edge=True)["valid"] is True
    assert cat.lexicon("kvizovka").judge(play, edge=[True, False])["valid"] is False
    assert cat.lexicon("kvizovka").judge(play, edge=[False, True])["valid"] is True
    for bad in ([True], [True, False, True], ["yes", True], "yes"):
        with pytest.raises(InputError) as err:
            cat.lexicon("kvizovka").judge(play, edge=bad)   # type: ignore[arg-type]
        assert err.value.code == "bad_play"

    h = small_releases
    assert run(h, "judge", "kvizovka", *play, "--edge-word", "1").exit_code == 1
    assert run(h, "judge", "kvizovka", *play, "--edge-word", "2").exit_code == 0
    assert run(h, "judge", "kvizovka", *play, "--edge-word", "3").exit_code == 2
    assert run(h, "judge", "kvizovka", *play, "--edge", "--edge-word", "2").exit_code == 2
    assert "(edge: word 2)" in run(h, "rulings").stdout

    client = TestClient(create_app(small_releases))
    url = "/v1/games/kvizovka/judge"
    assert client.post(url, json={"words": play, "edge": [True, False]}).json()["valid"] is False
    assert client.post(url, json={"words": play, "edge": [False, True]}).json()["valid"] is True
    r = client.post(url, json={"words": play, "edge": [False]})
    assert r.status_code == 400 and r.json()["code"] == "bad_play"
    r = client.post(url, json={"words": play, "edge": [1, 0]})
    assert r.status_code == 400 and r.json()["code"] == "bad_play"
