"""The offline pack's routes on a real server over loopback: a pack is made by a child of
the server's process, and while it is being made nothing waits for it on the event loop
(``/offline`` answers at once, ``pack_not_ready`` with ``Retry-After``; ``/healthz`` and
every game's look-ups go on); a maker killed at work leaves the server serving and no pack
file behind; a kept pack that is damaged on disk is made again, never served
(service/offline.py, lexicon/export/offline.py, lexicon/export/packmaker.py)."""

from __future__ import annotations

import gzip
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from lexicon.service.launch import serving

from tests.conftest import PackGate, SmallHomes

PROMPT = 5.0                        # seconds: what "answers at once" may take on a busy box


def _raw(http: httpx.Client, url: str) -> tuple[int, bytes]:
    """(status, the body as sent, gzip and all: httpx would decode it)."""
    with http.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as r:
        return r.status_code, b"".join(r.iter_raw())


def _wait_for(what: Any, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


def test_a_pack_being_made_freezes_nothing(small_homes: SmallHomes, pack_gate: PackGate
                                           ) -> None:
    """The pack is made by a child of the server's process, held at its start by the test:
    meanwhile every pack route answers ``pack_not_ready`` at once, and ``/healthz`` and
    every game's look-ups answer."""
    home = small_homes("small")
    with serving("lexicon.service.app:create_app", home) as (base, pid), \
            httpx.Client(base_url=base, timeout=PROMPT) as http:
        release = http.get("/healthz").json()["releases"]["osps"]
        downloads: list[int] = []
        first = threading.Thread(target=lambda: downloads.append(httpx.get(
            f"{base}/v1/games/osps/offline/{release}/words", timeout=120).status_code))
        first.start()                                   # the first download starts the maker
        with pack_gate.maker() as maker:
            assert _parent_of(maker) == pid             # a child of the server, held
            r = http.get("/v1/games/osps/offline")
            assert r.status_code == 503 and r.json()["code"] == "pack_not_ready", r.text
            assert int(r.headers["Retry-After"]) > 0
            assert http.get("/healthz").status_code == 200
            assert http.get("/v1/games/osps/words/kot").json()["valid"] is True
            assert http.get("/v1/games/kvizovka/words/kuća").json()["valid"] is True
            r = http.get(f"/v1/games/osps/offline/{release}/rules")
            assert r.status_code == 503 and r.json()["code"] == "pack_not_ready", r.text
            first.join(120)
            assert downloads == [503]          # the first download was not held either
        answers: list[httpx.Response] = []     # the maker finishes
        _wait_for(lambda: answers.append(http.get("/v1/games/osps/offline"))
                  or answers[-1].status_code == 200)
        info = answers[-1].json()
        status, words = _raw(http, info["words"])
        assert status == 200 and len(words) == info["words_bytes"] > 0


def test_a_killed_maker_leaves_the_server_serving(small_homes: SmallHomes, pack_gate: PackGate
                                                  ) -> None:
    """The child making a pack killed at work: the server answers ``pack_failed`` (503,
    ``Retry-After``) for that pack, whether or not a request was waiting when it died,
    keeps no file of it, goes on answering everything else, and makes the pack whole when
    asked again after the Retry-After."""
    home = small_homes("small")
    with serving("lexicon.service.app:create_app", home) as (base, pid), \
            httpx.Client(base_url=base, timeout=PROMPT) as http:
        assert http.get("/v1/games/osps/offline").status_code == 503     # starts the maker
        with pack_gate.maker() as maker:
            os.kill(maker, signal.SIGKILL)
        answers: list[httpx.Response] = []
        _wait_for(lambda: answers.append(http.get("/v1/games/osps/offline"))
                  or answers[-1].json()["code"] != "pack_not_ready")
        r = answers[-1]
        assert r.status_code == 503 and r.json()["code"] == "pack_failed", r.text
        assert int(r.headers["Retry-After"]) > 0
        kept = home / "cache" / "offline" / "osps"
        assert not kept.exists() or not list(kept.iterdir())
        assert http.get("/healthz").status_code == 200 and Path(f"/proc/{pid}").exists()
        assert http.get("/v1/games/osps/words/kot").json()["valid"] is True
        answers.clear()                 # asked again after Retry-After: a new maker
        _wait_for(lambda: answers.append(http.get("/v1/games/osps/offline"))
                  or answers[-1].json()["code"] != "pack_failed")
        assert answers[-1].json()["code"] == "pack_not_ready", answers[-1].text
        with pack_gate.maker():
            pass
        _wait_for(lambda: http.get("/v1/games/osps/offline").status_code == 200)
        info = http.get("/v1/games/osps/offline").json()
        status, words = _raw(http, info["words"])
        assert status == 200 and len(words) == info["words_bytes"] > 0


def test_a_maker_ends_with_its_server(small_homes: SmallHomes, pack_gate: PackGate) -> None:
    """A server killed while its child makes a pack leaves no maker behind: the child ends
    when its parent does."""
    home = small_homes("small")
    with serving("lexicon.service.app:create_app", home) as (base, pid), \
            httpx.Client(base_url=base, timeout=PROMPT) as http:
        assert http.get("/v1/games/osps/offline").status_code == 503     # starts the maker
        with pack_gate.maker() as maker:
            os.kill(pid, signal.SIGKILL)
            _wait_for(lambda: not _alive(maker))
    kept = home / "cache" / "offline" / "osps"
    assert not kept.exists() or not list(kept.iterdir())


def _alive(pid: int) -> bool:
    """Is ``pid`` a process that runs (not gone, not a zombie waiting to be reaped)?"""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


@pytest.mark.parametrize("damage", ["truncated", "emptied"])
def test_a_damaged_kept_pack_is_never_served(small_homes: SmallHomes, damage: str) -> None:
    """A server that finds its kept pack cut short or emptied makes it again: the words it
    sends are whole (never a 500, never 0 bytes marked immutable)."""
    home = small_homes("osps")
    with serving("lexicon.service.app:create_app", home) as (base, _pid), \
            httpx.Client(base_url=base, timeout=60) as http:
        _wait_for(lambda: http.get("/v1/games/osps/offline").status_code == 200)
        info = http.get("/v1/games/osps/offline").json()
        whole = _raw(http, info["words"])[1]
    kept = home / "cache" / "offline" / "osps" / f"{info['release']}.bin.gz"
    assert kept.read_bytes() == whole
    kept.write_bytes(whole[:len(whole) // 2] if damage == "truncated" else b"")
    with serving("lexicon.service.app:create_app", home) as (base, _pid), \
            httpx.Client(base_url=base, timeout=60) as http:
        answers: list[tuple[int, bytes]] = []
        _wait_for(lambda: answers.append(_raw(http, info["words"])) or answers[-1][0] != 503)
        assert answers[-1][0] == 200, answers[-1]
        assert gzip.decompress(answers[-1][1]) == gzip.decompress(whole)
        assert http.get("/v1/games/osps/offline").json()["words_bytes"] == len(whole)
