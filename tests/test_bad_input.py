"""Hostile input through both faces, in process: a clear 4xx and a stable code, never a 500.

(Issue 9, item 4 and the digraph letters of item 8.) The faces are driven in process, the
ASGI app through Starlette's test client and the CLI through Typer's runner: what is tested
is the library's answer and the faces' mapping of it, which a real process would not change.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cli.main import app as cli_app
from service.app import create_app
from tests.conftest import publish
from tests.query_data import POLISH, publish_all


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return publish_all(tmp_path_factory.mktemp("bad-input-home"))


@pytest.fixture(scope="module")
def client(home: Path) -> Iterator[TestClient]:
    with TestClient(create_app(home), raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize(("path", "code"), [
    ("/v1/games/osps/words/%7C", "empty_word"),
    ("/v1/games/kvizovka/words/%7C%7C", "empty_word"),
    ("/v1/games/krizemkrazem/words/%7C%20%7C", "empty_word"),
    ("/v1/games/osps/hooks?word=%7C", "empty_word"),
    ("/v1/games/osps/prefix?prefix=%7C", "empty_word"),
    ("/v1/games/osps/blanks?word=%7C", "bad_pattern"),
    ("/v1/games/osps/pattern?pattern=%7C%7C", "bad_pattern"),
    ("/v1/games/osps/anagrams?rack=" + "a" * 1000, "rack_too_long"),
    ("/v1/games/kvizovka/anagrams?rack=" + "lj" * 500, "rack_too_long"),
    ("/v1/games/osps/anagrams?rack=kot&board=" + "a" * 1000, "rack_too_long"),
])
def test_bad_input_is_a_clear_400(client: TestClient, path: str, code: str) -> None:
    r = client.get(path)
    assert r.status_code == 400, r.text
    assert r.json()["code"] == code


@pytest.mark.parametrize(("words", "code"), [
    (["|"], "empty_word"), (["kot", "| |"], "empty_word"), (["[q]"], "bad_tile_notation"),
    (["ko[t", "kot"], "bad_tile_notation"), (["kot]"], "bad_tile_notation")])
def test_a_play_with_an_unreadable_word_is_refused(client: TestClient, words: list[str],
                                                   code: str) -> None:
    r = client.post("/v1/games/osps/judge", json={"words": words})
    assert r.status_code == 400 and r.json()["code"] == code
    assert all(w not in r.json()["message"] for w in words)     # names no word


def test_a_bad_item_gets_an_error_not_a_failed_batch(client: TestClient) -> None:
    # a lone surrogate is valid JSON ("\ud800") but no text: the item is refused, and
    # echoed back escaped, so the answer can still be encoded
    body = '{"words": ["\\ud800", "|", "kot"]}'
    r = client.post("/v1/games/osps/check", content=body,
                    headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    first, second, third = r.json()["results"]
    assert first["error"]["code"] == "control_character" and first["input"] == "\\ud800"
    assert second["error"]["code"] == "empty_word"
    assert third["valid"]
    r = client.post("/v1/games/osps/valid", content=body,
                    headers={"content-type": "application/json"})
    assert r.status_code == 200 and r.json()["results"] == [False, False, True]


def test_digraph_letters_are_read_as_two_letters(client: TestClient) -> None:
    one = client.get("/v1/games/kvizovka/words/ǉubav").json()
    assert one["valid"] and one["tiles"] == ["LJ", "U", "B", "A", "V"]
    assert client.get("/v1/games/kvizovka/words/ǋiva").json()["valid"]
    r = client.post("/v1/games/kvizovka/valid", json={"words": ["ǅep", "Ǌiva", "ǈubav"]})
    assert r.json()["results"] == [False, True, True]     # džep is 3 tiles: too short
    assert client.get("/v1/games/kvizovka/pattern?pattern=ǉ*").json()["count"] == 1


def test_the_cli_says_usage_error_for_a_word_of_breaks(tmp_path: Path) -> None:
    # its own home: LMDB lets one process open an environment once, and the app has it
    publish(tmp_path, "osps", POLISH[:2])
    got = CliRunner().invoke(cli_app, ["check", "osps", "|"],
                             env={"LEXICON_HOME": str(tmp_path)})
    assert got.exit_code == 2 and "empty_word" in got.output
    assert got.exception is None or isinstance(got.exception, SystemExit)


def test_a_library_caller_s_non_text_item_is_an_item_error(home: Path) -> None:
    # HTTP types its items, but the library is a face too (engines embed it): a number in a
    # word list is that item's error, not an AttributeError out of the whole batch
    from lexicon.catalog import Catalog
    from lexicon.checker import check_many

    results = check_many(Catalog(home), "osps", [42, None, "kot"])   # type: ignore[list-item]
    assert [r.get("error", {}).get("code") for r in results] == [
        "invalid_request", "empty_word", None]
    assert results[2]["valid"]
