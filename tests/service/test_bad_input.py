"""Hostile input through both faces, in process: a clear 4xx and a stable code, never a 500.

(Issue 9, item 4 and the digraph letters of item 8.) The faces are driven in process, the
ASGI app through Starlette's test client and the CLI through Typer's runner: what is tested
is the library's answer and the faces' mapping of it, which a real process would not change.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from lexicon.cli.main import app as cli_app
from lexicon.service.app import create_app
from typer.testing import CliRunner

from tests.conftest import SmallHomes, publish
from tests.query_data import POLISH


@pytest.fixture(scope="module")
def home(small_homes: SmallHomes) -> Path:
    return small_homes("queries")


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

    results = Catalog(home).lexicon("osps").check_many([42, None, "kot"])   # type: ignore[list-item]
    assert [r.get("error", {}).get("code") for r in results] == [
        "invalid_request", "empty_word", None]
    assert results[2]["valid"]


# -- issue 16, finding 8: only real white space is stripped; the URL must be UTF-8 --------

#: what Python's str.strip() takes for white space but a word may not carry anywhere
NOT_SPACE = ["\x85", "\x1c", "\x1d", "\x1e", "\x1f", "\x0b", "\x0c", "\u2028", "\u2029"]


@pytest.mark.parametrize("ch", NOT_SPACE, ids=[f"U+{ord(c):04X}" for c in NOT_SPACE])
def test_control_characters_are_refused_at_either_end(client: TestClient, home: Path,
                                                      ch: str) -> None:
    from lexicon.catalog import Catalog
    from lexicon.errors import InputError
    from lexicon.game.inputs import clean_word

    words = [ch + "kot", "kot" + ch, "k" + ch + "ot", ch + " kot ", " kot" + ch + "\n"]
    for word in words:
        with pytest.raises(InputError) as got:
            clean_word(word)
        assert got.value.code == "control_character", repr(word)
        r = client.get("/v1/games/osps/words/" + quote(word, safe=""))
        assert r.status_code == 400 and r.json()["code"] == "control_character", repr(word)
        r = client.post("/v1/games/osps/judge", json={"words": ["kot", word]})
        assert r.status_code == 400 and r.json()["code"] == "control_character"
    r = client.post("/v1/games/osps/check", json={"words": words})
    assert [x["error"]["code"] for x in r.json()["results"]] == ["control_character"] * 5
    r = client.post("/v1/games/osps/valid", json={"words": [*words, "kot"]})
    assert r.json()["results"] == [False] * 5 + [True]         # /valid equals /check
    assert [bool(x.get("valid")) for x in Catalog(home).lexicon("osps").check_many(words)] == \
        [False] * 5
    # patterns, blanks, racks, board letters, hooks and prefixes alike
    for url in (f"/v1/games/osps/pattern?pattern={quote(ch)}k%3Ft",
                f"/v1/games/osps/pattern?pattern=k%3Ft{quote(ch)}",
                f"/v1/games/osps/blanks?word={quote(ch)}k%3Ft",
                f"/v1/games/osps/anagrams?rack=kot{quote(ch)}",
                f"/v1/games/osps/anagrams?rack=k{quote(ch)}ot",
                f"/v1/games/osps/anagrams?rack=kot&board={quote(ch)}a",
                f"/v1/games/osps/hooks?word={quote(ch)}kot",
                f"/v1/games/osps/prefix?prefix=ko{quote(ch)}"):
        r = client.get(url)
        assert r.status_code == 400 and r.json()["code"] == "control_character", url


def test_real_white_space_at_the_ends_is_still_stripped(client: TestClient) -> None:
    from lexicon.game.inputs import clean_word

    for word in (" kot", "kot ", "\tkot", "kot\n", "kot\r\n", "\u00a0kot\u3000", " kot\t"):
        assert clean_word(word) == "kot"
        r = client.get("/v1/games/osps/words/" + quote(word, safe=""))
        assert r.status_code == 200 and r.json()["valid"], repr(word)
    r = client.post("/v1/games/osps/valid", json={"words": ["kot ", "\tkot", "\u00a0kot"]})
    assert r.json()["results"] == [True, True, True]
    assert client.get("/v1/games/osps/pattern?pattern=%20k%3Ft%09").json()["count"] >= 1
    assert client.get("/v1/games/osps/anagrams?rack=%20kot%0A").status_code == 200


@pytest.mark.parametrize("url", [
    "/v1/games/osps/words/%FFkot", "/v1/games/osps/words/kot%C0%AF",
    "/v1/games/osps/words/%ED%A0%80", "/v1/games/osps/words/ko%E2%82",
    "/v1/games/osps/hooks?word=%FFkot", "/v1/games/osps/pattern?pattern=k%FF",
    "/v1/games/osps/anagrams?rack=kot%FF", "/v1/games/osps/words/kot?lang=%FF",
    "/v1/games/osps/words/kot?release=osps-%FF"])
def test_a_url_that_is_not_utf8_is_refused(client: TestClient, url: str) -> None:
    r = client.get(url)
    assert r.status_code == 400 and r.json()["code"] == "bad_encoding", r.text
    assert r.json()["detail"]["part"] == ("query" if "?" in url else "path")


def test_a_post_with_a_url_that_is_not_utf8_is_refused(client: TestClient) -> None:
    for url in ("/v1/games/osps/check?release=osps-%FF", "/v1/games/osps/judge?x=%FF"):
        r = client.post(url, json={"words": ["kot"]})
        assert r.status_code == 400 and r.json()["code"] == "bad_encoding", url


def test_a_real_replacement_character_is_a_word_like_any_other(client: TestClient) -> None:
    r = client.get("/v1/games/osps/words/%EF%BF%BDkot")      # U+FFFD sent as UTF-8
    assert r.status_code == 200 and r.json()["valid"] is False
    assert r.json()["reason"]["code"] == "not_in_alphabet"


def test_the_cli_refuses_control_characters_at_the_ends(tmp_path: Path) -> None:
    publish(tmp_path, "osps", POLISH[:2])
    for word in ("\x85kot", "kot\x0c", "\x1fkot"):
        got = CliRunner().invoke(cli_app, ["check", "osps", word],
                                 env={"LEXICON_HOME": str(tmp_path)})
        assert got.exit_code == 2 and "control_character" in got.output, repr(word)
    got = CliRunner().invoke(cli_app, ["check", "osps", " kot\n"],
                             env={"LEXICON_HOME": str(tmp_path)})
    assert got.exit_code == 0


def test_the_control_test_reads_every_code_point_as_its_category() -> None:
    """``first_control``'s one-pass shortcut (``str.isprintable``) refuses exactly the
    characters of the refused categories, over every code point."""
    import unicodedata

    from lexicon.game.inputs import _REFUSED, first_control
    for cp in range(0x110000):
        ch = chr(cp)
        want = 1 if unicodedata.category(ch) in _REFUSED else None
        assert first_control("k" + ch + "t") == want, hex(cp)
