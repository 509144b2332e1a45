"""The single-word fast lane answers exactly what the declared FastAPI route answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from lexicon.service import hotpath
from lexicon.service.app import create_app

from lexicon.catalog import Catalog


@pytest.fixture()
def client(small_releases: Path) -> TestClient:
    return TestClient(create_app(small_releases))


def test_lane_answers_plain_lookups_like_the_library(client: TestClient,
                                                     small_releases: Path) -> None:
    cat: Catalog = client.app.state.catalog  # type: ignore[attr-defined]
    for url, edge, lang in (("/v1/games/osps/words/zażółć", False, None),
                            ("/v1/games/osps/words/np?lang=en", False, "en"),
                            ("/v1/games/kvizovka/words/džep?edge=yes", True, None),
                            ("/v1/games/kvizovka/words/d%C5%BEep?edge=0&x=1", False, None)):
        r = client.get(url)
        word = url.split("/")[-1].split("?")[0].replace("%C5%BE", "ž")
        game = url.split("/")[3]
        assert r.status_code == 200 and r.headers["content-type"] == "application/json"
        assert r.json() == cat.lexicon(game).check(word, edge=edge, lang=lang)
    head = client.head("/v1/games/osps/words/zażółć")
    assert head.status_code == 200 and head.content == b""
    assert int(head.headers["content-length"]) == len(client.get(
        "/v1/games/osps/words/zażółć").content)


def test_everything_else_gets_the_error_contract(client: TestClient) -> None:
    bad = client.get("/v1/games/osps/words/kot?edge=maybe")
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_request"
    assert bad.json()["detail"][0]["loc"] == ["query", "edge"]
    assert client.get("/v1/games/chess/words/kot").json()["code"] == "unknown_game"
    assert client.get("/v1/games/osps/words/kot?lang=xx").json()["code"] == "bad_lang"
    mixed = client.get("/v1/games/kvizovka/words/ljубав")
    assert mixed.status_code == 400 and mixed.json()["code"] == "mixed_scripts"
    assert client.get("/v1/games/remik/words/kot").status_code == 503
    assert client.post("/v1/games/osps/words/kot").status_code == 405


def test_query_reading_follows_fastapi() -> None:
    assert hotpath._query(b"") == (False, None, None)
    assert hotpath._query(b"edge=true&lang=sl") == (True, "sl", None)
    assert hotpath._query(b"edge=off&release=osps-1") == (False, None, "osps-1")
    assert hotpath._query(b"edge=2") is None                # the app refuses it


def test_the_lane_is_a_dispatcher_before_the_app_and_metrics_only_measure(
        client: TestClient) -> None:
    """The lane in front answers a plain lookup before the app is asked and reports it to
    the metrics; switched off, the app's declared route answers it; the metrics count both
    alike, and the metrics middleware answers nothing itself."""
    from lexicon.service import metrics
    from prometheus_client.parser import text_string_to_metric_families

    def lookups_counted(c: TestClient) -> float:
        return sum(s.value for family in text_string_to_metric_families(c.get("/metrics").text)
                   for s in family.samples if s.name == "lexicon_http_requests_total"
                   and s.labels == {"method": "GET", "route": metrics.WORD_ROUTE,
                                    "status": "200"})

    app = create_app(catalog=client.app.state.catalog)  # type: ignore[attr-defined]
    assert app.front is app.lane and isinstance(app.lane.app, metrics.Observability)
    assert app.lane.measured == app.lane.app.record
    asked: list[str] = []
    measuring = app.lane.app
    behind = measuring.app

    async def the_app(scope, receive, send):  # type: ignore[no-untyped-def]
        if "/words/" in scope["path"]:
            asked.append(scope["path"])
        await behind(scope, receive, send)

    measuring.app = the_app
    route = TestClient(app)
    start = lookups_counted(route)
    lane = route.get("/v1/games/osps/words/kot")
    assert lane.status_code == 200 and asked == []
    app.lane.enabled = False
    declared = route.get("/v1/games/osps/words/kot")
    assert asked == ["/v1/games/osps/words/kot"]
    assert (lane.status_code, lane.content) == (declared.status_code, declared.content)
    assert lookups_counted(route) - start == 2


@pytest.mark.parametrize("url", [
    "/v1/games/osps/words/zażółć", "/v1/games/osps/words/%20kot%09",
    "/v1/games/osps/words/%C2%85kot", "/v1/games/osps/words/kot%0B",
    "/v1/games/osps/words/%1Ckot%1F", "/v1/games/osps/words/%FFkot",
    "/v1/games/osps/words/%EF%BF%BDkot", "/v1/games/osps/words/kot?release=osps-%FF",
    "/v1/games/osps/words/kot?release=" + "x" * 300,
    "/v1/games/osps/words/kot?release=osps-" + "%C5%BC" * 130,
    "/v1/games/osps/words/kot?release=osps-1%00"])
def test_the_lane_and_the_route_answer_alike(client: TestClient, url: str) -> None:
    """Issue 16, findings 4 and 8: the same answer whether the lane or the route gives it."""
    app = create_app(catalog=client.app.state.catalog)  # type: ignore[attr-defined]
    app.lane.enabled = False                  # the lane off: the route answers everything
    route = TestClient(app, raise_server_exceptions=False)
    lane, declared = client.get(url), route.get(url)
    assert (lane.status_code, lane.json()) == (declared.status_code, declared.json())
    assert lane.status_code in (200, 400, 404), lane.text


def test_undecodable_names_the_part() -> None:
    scope = {"path": "/v1/games/osps/words/\ufffdkot", "raw_path": b"/v1/games/osps/words/%FFkot",
             "query_string": b""}
    assert hotpath.undecodable(scope) == "path"
    assert hotpath.undecodable({**scope, "raw_path": b"/v1/games/osps/words/%EF%BF%BDkot"}) is None
    assert hotpath.undecodable({"path": "/", "query_string": b"word=k%FF"}) == "query"
    assert hotpath.undecodable({"path": "/", "query_string": b"word=k%C5%BC+x"}) is None


def _stdlib(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def test_the_lane_writes_json_dumps_bytes(small_releases: Path) -> None:
    """orjson writes the lane's answers: the bytes json.dumps wrote, on every verdict of the
    small releases in every language, and on the characters JSON must escape."""
    cat = Catalog(small_releases)
    typed = {"osps": ["zażółć", "gęślą", "jaźń", "np", "e-mail", "kot", "ul", "kotx", "k",
                      "ZAŻÓŁĆ", "a" * 40, "qwé"],
             "kvizovka": ["ljubav", "љубав", "nadživeti", "nad|živeti", "[dž]ep", "kuća",
                          "kući", "džep", "kuc", "abc", "ljubavw"]}
    seen = 0
    for game, words in typed.items():
        lex = cat.lexicon(game)
        for word in words:
            for lang in ("pl", "sr", "sr-Cyrl", "sl", "en"):
                for edge in (False, True):
                    verdict = lex.check(word, edge=edge, lang=lang)
                    assert hotpath.compact_json(verdict) == _stdlib(verdict), (word, lang)
                    seen += 1
    assert seen == 230
    odd = {"q": 'a"b\\c\n\t\r\b\f\x00\x1f\x7f\u2028\u00e9\U0001f600', "n": [0, -1, 2**63 - 1],
           "t": (True, False, None), "nested": {"": [{}], "ž": []}}
    assert hotpath.compact_json(odd) == _stdlib(odd)
    big = {"n": 2**70}                        # beyond orjson: json.dumps writes it
    assert hotpath.compact_json(big) == _stdlib(big) == b'{"n":1180591620717411303424}'
