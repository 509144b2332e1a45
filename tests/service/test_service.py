"""The HTTP API on a real uvicorn server on loopback: the one real process of this face
(the other HTTP tests drive the same app in process)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import SmallHomes, lexicon
from tests.query_data import running_server


@pytest.fixture(scope="module")
def server_home(small_homes: SmallHomes) -> Iterator[tuple[str, Path]]:
    home = small_homes("small")               # osps and kvizovka
    with running_server(home) as base:
        yield base, home


@pytest.fixture(scope="module")
def server(server_home: tuple[str, Path]) -> str:
    return server_home[0]


def test_healthz_names_releases(server: str) -> None:
    body = httpx.get(server + "/healthz").json()
    assert body["status"] == "ok"
    assert body["releases"]["osps"].startswith("osps-") and body["releases"]["remik"] is None


def test_games_lists_all_four_profiles(server: str) -> None:
    games = {g["id"]: g for g in httpx.get(server + "/v1/games").json()}
    assert set(games) == {"osps", "remik", "kvizovka", "krizemkrazem"}
    assert games["krizemkrazem"]["values_provisional"] is True
    assert games["osps"]["release"].startswith("osps-")


def test_single_word_shape_matches_cli(server_home: tuple[str, Path]) -> None:
    """The HTTP answer for one word is the CLI's ``--json`` answer, field for field."""
    server, home = server_home
    for game, word in (("osps", "zażółć"), ("osps", "np"), ("kvizovka", "nadživeti")):
        r = httpx.get(f"{server}/v1/games/{game}/words/{word}")
        assert r.status_code == 200
        p = lexicon(home, "check", game, word, "--json")
        assert p.returncode in (0, 1), p.stderr
        assert r.json() == json.loads(p.stdout)
    body = r.json()
    for field in ("input", "valid", "tiles", "score", "reason", "analyses", "release"):
        assert field in body


def test_cyrillic_and_latin_agree(server: str) -> None:
    lat = httpx.get(server + "/v1/games/kvizovka/words/ljubav").json()
    cyr = httpx.get(server + "/v1/games/kvizovka/words/љубав").json()
    assert lat["valid"] and cyr["valid"] and lat["tiles"] == cyr["tiles"] == ["LJ", "U", "B",
                                                                             "A", "V"]


def test_batch_check_with_a_bad_item(server: str) -> None:
    r = httpx.post(server + "/v1/games/osps/check", json={"words": ["jaźń", "np", "", "kot"]})
    assert r.status_code == 200
    body = r.json()
    assert body["count"] == 4 and body["valid"] == 2
    assert body["results"][1]["reason"]["code"] == "abbreviation"
    assert body["results"][2]["error"]["code"] == "empty_word"


@pytest.mark.parametrize(("method", "path", "payload", "status", "code"), [
    ("GET", "/v1/games/chess/words/kot", None, 404, "unknown_game"),
    ("GET", "/v1/games/remik/words/kot", None, 503, "no_release"),
    ("GET", "/v1/games/osps/words/" + "a" * 100, None, 400, "word_too_long"),
    ("GET", "/v1/games/kvizovka/words/lјubav", None, 400, "mixed_scripts"),
    ("GET", "/v1/games/osps/words/ko%01t", None, 400, "control_character"),
    ("POST", "/v1/games/osps/check", {"words": "kot"}, 422, "invalid_request"),
    ("POST", "/v1/games/osps/check", {"words": ["a"] * 10_001}, 413, "batch_too_large"),
    ("GET", "/v1/nothing", None, 404, "not_found"),
])
def test_errors_are_json_with_stable_codes(server: str, method: str, path: str,
                                           payload: object, status: int, code: str) -> None:
    r = httpx.request(method, server + path, json=payload)
    assert r.status_code == status
    assert r.json()["code"] == code


def test_releases_endpoint_and_openapi(server: str) -> None:
    rows = httpx.get(server + "/v1/releases").json()
    assert {r["game"] for r in rows} == {"osps", "kvizovka"}
    spec = httpx.get(server + "/openapi.json").json()
    assert "/v1/games/{game}/check" in spec["paths"]


@pytest.mark.parametrize("target", [b"/v1/games/osps/words/k\xc3\xb3t",
                                    b"/v1/games/osps/words/kot?lang=\xc5\xbc",
                                    b"/v1/games/osps/pattern?pattern=k\xc3\xb3?"])
def test_raw_utf8_in_the_request_line_gets_the_json_error(server: str, target: bytes) -> None:
    """HTTP allows only printable ASCII in the request line, so the parser refuses a word
    sent as raw UTF-8 (curl sends it so); the answer is the API's JSON error with a stable
    code and how to send the word, not uvicorn's plain text."""
    import socket
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), answer
    assert b"content-type: application/json" in head.lower()
    error = json.loads(body)
    assert error["code"] == "bad_request" and "percent-encoded" in error["message"]
