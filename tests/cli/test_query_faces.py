"""The queries through their faces, in process: the `lexicon` command (Typer's runner) and
the ASGI app (Starlette's test client). The real process of each face is tested once, in
``tests/cli/test_cli.py`` and ``tests/service/test_service.py``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from lexicon.service.app import create_app

from tests.conftest import SmallHomes
from tests.conftest import lexicon as run


@pytest.fixture(scope="module")
def qhome(small_homes: SmallHomes) -> Path:
    return small_homes("queries")


# -- CLI -----------------------------------------------------------------------------------

def test_cli_blanks_json_and_text(qhome: Path) -> None:
    p = run(qhome, "blanks", "krizemkrazem", "KA?IN", "--json")
    assert p.returncode == 0, p.stderr
    body = json.loads(p.stdout)
    assert [r["word"] for r in body["results"]] == ["Kacin", "kalin", "Kanin", "Karin"]
    p = run(qhome, "blanks", "kvizovka", "?ubav")
    assert p.returncode == 0 and "LJ@1" in p.stdout and "2 words" in p.stdout


def test_cli_pattern_paging_and_exit_codes(qhome: Path) -> None:
    p = run(qhome, "pattern", "osps", "kot*", "--limit", "2", "--sort", "score")
    assert p.returncode == 0 and "5 words (showing 1-2)" in p.stdout
    p = run(qhome, "pattern", "osps", "zzz*")
    assert p.returncode == 1 and p.stdout.startswith("0 words")
    p = run(qhome, "pattern", "osps", "k[ot")
    assert p.returncode == 2 and "position 2" in p.stderr and "Traceback" not in p.stderr
    p = run(qhome, "pattern", "remik", "k*")
    assert p.returncode == 3 and "no release" in p.stderr


def test_cli_anagram_with_board_and_jokers(qhome: Path) -> None:
    p = run(qhome, "anagram", "osps", "tka", "--board", "o", "--json")
    assert p.returncode == 0
    assert {r["word"] for r in json.loads(p.stdout)["results"]} == {"kot", "kto", "tok",
                                                                    "kota"}
    p = run(qhome, "anagram", "osps", "otk?", "--exact")
    assert p.returncode == 0 and "A@4" in p.stdout and "Y@4" in p.stdout
    p = run(qhome, "anagram", "osps", "ab???", "--json")
    assert p.returncode == 2 and json.loads(p.stdout)["error"]["code"] == "too_many_jokers"


def test_cli_hooks(qhome: Path) -> None:
    p = run(qhome, "hooks", "osps", "kot")
    assert p.returncode == 0
    assert "back hooks:  A (kota), Y (koty)" in p.stdout and "next: A E K Y" in p.stdout
    p = run(qhome, "hooks", "osps", "kto")
    assert p.returncode == 1


# -- HTTP ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def api(small_homes: SmallHomes) -> Iterator[TestClient]:
    # its own home: the app keeps its releases open, and LMDB opens each once per process
    with TestClient(create_app(small_homes("queries")), raise_server_exceptions=False
                    ) as client:
        yield client


def test_http_queries(api: TestClient) -> None:
    r = api.get("/v1/games/krizemkrazem/blanks", params={"word": "KA?IN"})
    assert r.status_code == 200
    assert [x["word"] for x in r.json()["results"]] == ["Kacin", "kalin", "Kanin", "Karin"]
    r = api.get("/v1/games/osps/pattern", params={"pattern": "*owy"}).json()
    assert r["count"] == 2 and r["release"].startswith("osps-")
    r = api.get("/v1/games/osps/anagrams",
                  params={"rack": "otk?", "exact": "true"}).json()
    assert {x["word"] for x in r["results"]} == {"kota", "koty"}
    r = api.get("/v1/games/osps/hooks", params={"word": "kot"}).json()
    assert [h["tile"] for h in r["back"]] == ["A", "Y"]
    r = api.get("/v1/games/osps/prefix", params={"prefix": "kote"}).json()
    assert r["is_prefix"] and r["next_tiles"] == ["K"]
    r = api.get("/v1/games/kvizovka/blanks", params={"word": "?ubav"}).json()
    assert {x["word"] for x in r["results"]} == {"ljubav", "lubav"}


@pytest.mark.parametrize(("path", "params", "status", "code"), [
    ("/v1/games/osps/pattern", {"pattern": "k[ot"}, 400, "bad_pattern"),
    ("/v1/games/osps/pattern", {"pattern": "k*", "limit": 501}, 400, "result_limit"),
    ("/v1/games/osps/pattern", {"pattern": "?" * 70}, 400, "pattern_too_long"),
    ("/v1/games/osps/anagrams", {"rack": "abcdefghijklmnop"}, 400, "rack_too_long"),
    ("/v1/games/osps/anagrams", {"rack": "ab???"}, 400, "too_many_jokers"),
    ("/v1/games/osps/blanks", {"word": "???"}, 400, "too_many_jokers"),
    ("/v1/games/chess/pattern", {"pattern": "k*"}, 404, "unknown_game"),
    ("/v1/games/remik/anagrams", {"rack": "kot"}, 503, "no_release"),
    ("/v1/games/osps/pattern", {}, 422, "invalid_request"),
])
def test_http_query_errors(api: TestClient, path: str, params: dict, status: int,
                           code: str) -> None:
    r = api.get(path, params=params)
    assert r.status_code == status and r.json()["code"] == code
    if code == "bad_pattern":
        assert r.json()["detail"]["position"] == 2


def test_http_broad_pattern_is_refused_with_query_too_broad(
        api: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from lexicon.queries import queries
    monkeypatch.setattr(queries, "MAX_PATTERN_WORK", 20)   # a tiny release
    for game, pattern in (("kvizovka", "*lj*nj*dž*lj*nj*dž*"), ("osps", "*ź*ż*")):
        r = api.get(f"/v1/games/{game}/pattern", params={"pattern": pattern})
        assert r.status_code == 422 and r.json()["code"] == "query_too_broad", r.text
        assert r.json()["detail"]["max_work"] == 20
    r = api.get("/v1/games/osps/pattern", params={"pattern": "kot"})    # a narrow one
    assert r.status_code == 200 and r.json()["count"] == 1


def test_http_batches(api: TestClient) -> None:
    words = ["kot", "ok", "kota", "", "qwerty"] * 2000
    lean = api.post("/v1/games/osps/valid", json={"words": words}).json()
    full = api.post("/v1/games/osps/check", json={"words": words}).json()
    assert lean["count"] == full["count"] == 10_000
    assert lean["results"] == [r["valid"] for r in full["results"]]
    r = api.post("/v1/games/osps/valid", json={"words": ["a"] * 100_001})
    assert r.status_code == 413 and r.json()["code"] == "batch_too_large"


def test_openapi_documents_queries_and_limits(api: TestClient) -> None:
    spec = api.get("/openapi.json").json()
    for path in ("blanks", "pattern", "anagrams", "hooks", "prefix", "valid"):
        assert f"/v1/games/{{game}}/{path}" in spec["paths"]
    pattern = spec["paths"]["/v1/games/{game}/pattern"]["get"]
    assert "too_many_matches" in pattern["description"] and "50,000" in pattern["description"]
    param = next(p for p in pattern["parameters"] if p["name"] == "pattern")
    assert param["examples"]["suffix"]["value"] == "*OWY"
    assert "400" in pattern["responses"]


def test_referee_page_is_served(api: TestClient) -> None:
    r = api.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert "/static/app.js" in r.text and "default-src 'self'" in r.headers[
        "content-security-policy"]
    assert api.get("/static/app.js").status_code == 200


def test_a_page_head_counts_words_in_english() -> None:
    """"1 word", "1,234 words (showing 1-2)": the head of a paged answer in the CLI."""
    from lexicon.cli import render

    one = {"count": 1, "results": [{}], "offset": 0, "release": "osps-1"}
    many = {"count": 1234, "results": [{}, {}], "offset": 0, "release": "osps-1"}
    assert render._page(one, ["kot"]).startswith("1 word   release osps-1")
    assert render._page(many, ["a", "b"]).startswith("1,234 words (showing 1-2)")


def test_the_sources_lines_name_the_pin_and_what_is_newer() -> None:
    """`lexicon sources` and `sources update` as printed (cli/render.py)."""
    from lexicon.cli import render

    row = {"id": "wpolish", "kind": "deb", "version": "20220301-1", "suite": "bookworm",
           "sha256": "78d94681b9838aeb", "suites": {"bookworm": "20220301-1", "sid": None},
           "newest": "20260301-1", "newer": True, "pinned_in": []}
    line = render.source_row(row)
    assert line.startswith("wpolish") and "(bookworm)" in line and "sha256 78d94681b983…" in line
    assert line.endswith("bookworm 20220301-1  sid -  [newer: 20260301-1; the pin is in no "
                         "configured suite (cache only)]")
    pypi = {**row, "kind": "pypi", "suite": None, "suites": None, "note": "PyPI: pinned"}
    assert render.source_row(pypi).endswith("(PyPI)      sha256 78d94681b983…  PyPI: pinned")
    same = {"old": {"version": "1", "suite": "sid"}, "new": {"version": "1", "suite": "sid",
                                                               "sha256": "ab"}, "changed": False}
    assert render.source_update("x", same).splitlines() == [
        "x: 1 (sid) -> 1 (sid), sha256 ab", "x: already pinned there; nothing changed"]
