"""The offline pack's routes on a real server over loopback: while a pack is being made
nothing waits for it on the event loop (``/offline`` answers at once, ``pack_not_ready``
with ``Retry-After``; ``/healthz`` and every game's look-ups go on), and a kept pack that
is damaged on disk is made again, never served (service/offline.py,
lexicon/export/offline.py)."""

from __future__ import annotations

import gzip
import os
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from lexicon.service.launch import serving

from lexicon.export import offline
from tests.conftest import SmallHomes

GATE = "LEXICON_TEST_PACK_GATE"     # while this file exists, the pack maker is held
PROMPT = 5.0                        # seconds: what "answers at once" may take on a busy box


def held_maker_app() -> FastAPI:
    """The service, its pack maker held at work while the file ``$LEXICON_TEST_PACK_GATE``
    exists (the slow first pack of a big game); ``GATE.started`` says the maker is at it."""
    from lexicon.service.app import create_app

    real = offline.make_pack
    gate = Path(os.environ[GATE])

    def held(*args: Any) -> offline.Pack:
        gate.with_suffix(".started").touch()
        while gate.exists():
            time.sleep(0.05)
        return real(*args)

    offline.make_pack = held
    return create_app()


def _raw(http: httpx.Client, url: str) -> tuple[int, bytes]:
    """(status, the body as sent, gzip and all: httpx would decode it)."""
    with http.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as r:
        return r.status_code, b"".join(r.iter_raw())


def _wait_for(what: Any, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


def test_a_pack_being_made_freezes_nothing(small_homes: SmallHomes, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    home = small_homes("small")
    gate = tmp_path / "gate"
    gate.touch()
    monkeypatch.setenv(GATE, str(gate))
    with serving("tests.service.test_offline_routes:held_maker_app", home) as (base, _pid), \
            httpx.Client(base_url=base, timeout=PROMPT) as http:
        release = http.get("/healthz").json()["releases"]["osps"]
        downloads: list[int] = []
        first = threading.Thread(target=lambda: downloads.append(httpx.get(
            f"{base}/v1/games/osps/offline/{release}/words", timeout=120).status_code))
        first.start()                                   # the first download starts the maker
        _wait_for(gate.with_suffix(".started").exists)
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
        gate.unlink()                      # the maker finishes
        answers: list[httpx.Response] = []
        _wait_for(lambda: answers.append(http.get("/v1/games/osps/offline"))
                  or answers[-1].status_code == 200)
        info = answers[-1].json()
        status, words = _raw(http, info["words"])
        assert status == 200 and len(words) == info["words_bytes"] > 0


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
