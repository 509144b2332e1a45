"""A release is trusted only while it verifies: once its sha256 check fails, or a read of
its store fails, it stops answering on every route (503 ``release_damaged`` for that game
alone), ``/healthz`` says so, and the verdict is remembered (no hashing on every probe)
until its files change. Small real releases, real LMDB, the real app."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from lexicon.service.app import create_app
from lexicon.service.launch import free_port, serving

from lexicon import filetable
from lexicon.catalog import CLOSING_BY_ID, OPEN_BY_ID
from lexicon.store import integrity, published
from lexicon.verdicts import rulings
from tests.door.test_open_releases import editions
from tests.verdicts.test_rulings_log import TODAY, _hold_lock, _opened_by

DATA = "records.lmdb/data.mdb"
PAGE = 4096


def _data(home: Path, game: str) -> Path:
    path = published.current_path(game, home)
    assert path is not None
    return path / DATA


@pytest.fixture()
def client(small_releases: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("LEXICON_GAMES", "osps,kvizovka")
    with TestClient(create_app(small_releases), raise_server_exceptions=False) as c:
        yield c


def _every_route_refuses(client: TestClient, game: str) -> None:
    answers = {
        "word": client.get(f"/v1/games/{game}/words/kot"),
        "word, a release by id": client.get(f"/v1/games/{game}/words/kot",
                                            params={"lang": "en"}),
        "check": client.post(f"/v1/games/{game}/check", json={"words": ["kot", "np"]}),
        "valid": client.post(f"/v1/games/{game}/valid", json={"words": ["kot", "np"]}),
        "judge": client.post(f"/v1/games/{game}/judge", json={"words": ["kot"]}),
        "pattern": client.get(f"/v1/games/{game}/pattern", params={"pattern": "k?t"}),
        "hooks": client.get(f"/v1/games/{game}/hooks", params={"word": "kot"}),
    }
    for route, r in answers.items():
        assert r.status_code == 503, (route, r.status_code, r.text)
        assert r.json()["code"] == "release_damaged", (route, r.text)
    health = client.get("/healthz").json()
    assert health["status"] == "degraded"
    assert health["games"][game]["state"] == "damaged"


def test_a_release_that_fails_its_hash_stops_answering_everywhere(
        client: TestClient, small_releases: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _data(small_releases, "osps")
    raw = bytearray(data.read_bytes())
    at = raw.index(b"kot") + 3                 # the first byte of kot's record
    raw[at] ^= 0x01                            # one bit; the size is unchanged
    with data.open("r+b") as f:
        f.write(raw)
    assert client.get("/v1/games/osps/words/kot").status_code in (200, 503)  # not yet known
    hashed: list[Path] = []
    real = filetable.sha256_file
    monkeypatch.setattr(filetable, "sha256_file", lambda p: hashed.append(p) or real(p))
    r = client.get("/readyz")
    assert r.status_code == 503
    assert r.json()["detail"]["games"]["osps"]["reason"] == "release_damaged"
    assert r.json()["detail"]["not_ready"] == ["osps"]
    _every_route_refuses(client, "osps")
    assert client.get("/v1/games/kvizovka/words/kuća").status_code == 200   # the others serve
    assert client.get("/healthz").json()["games"]["kvizovka"]["state"] == "serving"
    work = len(hashed)
    for _ in range(3):                         # the verdict is remembered, not hashed again
        assert client.get("/readyz").status_code == 503
    assert len(hashed) == work


def test_a_store_read_that_fails_is_release_damaged_not_500(client: TestClient,
                                                            small_releases: Path) -> None:
    """LMDB's own error (``lmdb.CorruptedError``: a page of the wrong type) on a read. The
    page is spoilt before the server opens the release: a write into a release it serves
    would be caught first, by its read lease (and that condemnation stays)."""
    data = _data(small_releases, "osps")
    raw = bytearray(data.read_bytes())
    page = raw.index(b"kot") // PAGE           # the leaf page holding kot
    raw[page * PAGE + 10] = 0                  # its flags: neither a branch nor a leaf
    with data.open("r+b") as f:
        f.write(raw)
    r = client.get("/v1/games/osps/words/kot")
    assert r.status_code == 503, r.text
    assert r.json()["code"] == "release_damaged"
    assert "CorruptedError" in r.json()["message"]
    _every_route_refuses(client, "osps")
    assert client.get("/v1/games/kvizovka/words/kuća").status_code == 200


def test_the_hash_verdict_is_kept_until_a_file_changes(small_releases: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    rel = published.current_path("kvizovka", small_releases)
    assert rel is not None
    hashed: list[Path] = []
    real = filetable.sha256_file
    monkeypatch.setattr(filetable, "sha256_file", lambda p: hashed.append(p) or real(p))
    assert integrity.hashed_problems(rel) == []
    once = len(hashed)
    assert once > 0
    assert integrity.hashed_problems(rel) == []
    assert len(hashed) == once                 # the same files: no reading
    data = rel / DATA
    raw = bytearray(data.read_bytes())
    raw[len(raw) // 2] ^= 0x80
    with data.open("r+b") as f:                # in place: same inode, same size
        f.write(raw)
    problems = integrity.hashed_problems(rel)
    assert len(hashed) == 2 * once             # changed: hashed again
    assert any("sha256" in p for p in problems)
    assert integrity.hashed_problems(rel) == problems and len(hashed) == 2 * once


@pytest.mark.parametrize(("route", "cut"), [("check", DATA),
                                            ("valid", "indexes/words.marisa")])
def test_a_store_truncated_during_batches_never_kills_the_server(
        small_releases: Path, route: str, cut: str) -> None:
    """A mapped file cut to nothing while 10,000-word batches read it (``/check`` reads
    ``data.mdb``, ``/valid`` the words trie), under a real server: the truncation waits for
    the batches under way (a read lease), the process lives, the game answers 503
    ``release_damaged`` and the other game goes on answering. (Without the lease the
    ``data.mdb`` case killed the server every time; the trie's batches are quick enough on
    this small release to fall between the size checks, so that case shows the lease of an
    index file at work rather than a crash it prevents.)"""
    env = {**os.environ, "LEXICON_HOME": str(small_releases),
           "LEXICON_GAMES": "osps,kvizovka"}
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "lexicon.cli.main", "serve", "--port", str(port),
                             "--no-access-log"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    statuses: list[int] = []
    failures: list[str] = []
    stop = threading.Event()

    def batches() -> None:
        words = ["kot", "np", "zażółć", "gęślą", "nic"] * 2000
        with httpx.Client(base_url=base, timeout=30) as http:
            while not stop.is_set():
                try:
                    r = http.post(f"/v1/games/osps/{route}", json={"words": words})
                except httpx.TransportError as exc:
                    failures.append(repr(exc))
                    return
                statuses.append(r.status_code)
                if r.status_code != 200:
                    assert r.json()["code"] == "release_damaged", r.text

    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                health = httpx.get(base + "/healthz", timeout=1).json()
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert health["guards"]["osps"] == "lease"
        clients = [threading.Thread(target=batches) for _ in range(3)]
        for t in clients:
            t.start()
        while len(statuses) < 3:
            time.sleep(0.01)
        time.sleep(0.05)                            # batches in the middle of their reads
        os.truncate(_data(small_releases, "osps").parent.parent / cut, 0)
        time.sleep(0.5)
        stop.set()
        for t in clients:
            t.join(60)
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:] if proc.stderr else ""
        assert failures == []
        assert 200 in statuses and set(statuses) <= {200, 503}
        r = httpx.get(base + "/v1/games/osps/words/kot", timeout=10)
        assert r.status_code == 503 and r.json()["code"] == "release_damaged"
        assert httpx.get(base + "/v1/games/kvizovka/words/kuća", timeout=10).status_code == 200
    finally:
        stop.set()
        proc.terminate()
        proc.wait(30)


def test_a_release_condemned_by_a_write_stays_condemned_until_it_verifies(
        small_releases: Path) -> None:
    """A release file opened for writing under a real server condemns its release (the
    read lease's break). The write moves the file's time, and a touch moves it again: the
    release is not served for all that (a rejected form never comes back valid), and
    ``/healthz`` says damaged, on every ask. Once the published bytes are back, ``/readyz``
    hashes it again and it serves."""
    env = {**os.environ, "LEXICON_HOME": str(small_releases), "LEXICON_GAMES": "osps,kvizovka"}
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "lexicon.cli.main", "serve", "--port",
                             str(port), "--no-access-log"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=10) as http:
            deadline = time.monotonic() + 60
            while True:
                try:
                    health = http.get("/healthz").json()
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline
                    time.sleep(0.1)
            assert http.get("/v1/games/osps/words/np").json()["valid"] is False
            assert health["guards"]["osps"] == "lease"
            data = _data(small_releases, "osps")
            original = data.read_bytes()
            raw = bytearray(original)
            raw[raw.index(b"np") + 2] ^= 0x01              # np's record; same size
            with data.open("r+b") as f:                    # waits for the lease's break
                f.write(raw)
            os.utime(data, ns=(time.time_ns(), time.time_ns() + 10**9))   # touched again
            for _ in range(3):
                r = http.get("/v1/games/osps/words/np")
                assert r.status_code == 503 and r.json()["code"] == "release_damaged", r.text
                health = http.get("/healthz").json()
                assert health["games"]["osps"]["state"] == "damaged"
                assert health["status"] == "degraded"
            assert http.get("/readyz").status_code == 503       # hashed: still not whole
            assert http.get("/v1/games/osps/words/np").status_code == 503
            assert http.get("/v1/games/kvizovka/words/kuća").status_code == 200
            with data.open("r+b") as f:                    # the published bytes back
                f.write(original)
            assert http.get("/v1/games/osps/words/np").status_code == 503   # not yet hashed
            r = http.get("/readyz")
            assert r.status_code == 200, r.text
            assert http.get("/v1/games/osps/words/np").json()["valid"] is False
            assert http.get("/healthz").json()["games"]["osps"]["state"] == "serving"
    finally:
        proc.terminate()
        proc.wait(30)


def test_many_release_ids_under_a_low_descriptor_limit(small_releases: Path) -> None:
    """A real server allowed 192 file descriptors, asked for 40 published releases by id
    in a row (each open one holds about ten): every one answers at the first ask, and so
    do the games' current releases, because only the most recently used few are kept open
    and an open waits for the ones pushed out before it to close rather than run out of
    descriptors."""
    ids = editions(small_releases, "osps", 40)
    env = {**os.environ, "LEXICON_HOME": str(small_releases), "LEXICON_GAMES": "osps,kvizovka"}
    port = free_port()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "lexicon.cli.main", "serve", "--port", str(port),
         "--no-access-log"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (192, hard)))
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            deadline = time.monotonic() + 60
            while True:
                try:
                    assert http.get("/healthz").json()["guards"]
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline
                    time.sleep(0.1)
            for rid in ids:         # asked once each: an open waits for the closings
                r = http.get("/v1/games/osps/words/kot", params={"release": rid})
                assert r.status_code == 200, (rid, r.text)
                assert r.json()["release"] == rid
                assert http.get("/v1/games/kvizovka/words/kuća").status_code == 200
            assert http.get("/v1/games/osps/words/kot").json()["valid"] is True
            health = http.get("/healthz").json()
            assert health["status"] == "ok"
            assert health["games"]["osps"]["state"] == health["games"]["kvizovka"][
                "state"] == "serving"
    finally:
        proc.terminate()
        proc.wait(30)


def patient_app() -> FastAPI:
    """The service, its judge waiting for the rulings log's lock and its opens by id
    waiting for closings for as long as it takes (an hour): what the server does
    meanwhile is then a matter of order, not of how long the waits last."""
    from lexicon.service import app

    from lexicon import catalog

    app.LOCK_TIMEOUT = 3600.0
    catalog.CLOSE_WAIT_SECONDS = 3600.0
    return app.create_app()


def test_an_open_by_id_waits_off_the_event_loop(small_releases: Path) -> None:
    """A release asked for by id that must wait for the releases pushed out before it to
    close (their closing waits for a judge that began before they were pushed out, held at
    the rulings log's lock by another process) waits on a thread: /healthz and look-ups
    answer meanwhile, and it answers, at the first ask, once the judge has ended."""
    ids = editions(small_releases, "osps", OPEN_BY_ID + CLOSING_BY_ID + 1)
    log = rulings.log_path(TODAY, small_releases)
    with serving("tests.service.test_damaged_release:patient_app", small_releases) as (
            base, pid), httpx.Client(base_url=base, timeout=120) as http:
        holder = _hold_lock(log, 3600)
        judged: list[int] = []
        answered: list[httpx.Response] = []
        judge = threading.Thread(target=lambda: judged.append(httpx.post(
            f"{base}/v1/games/osps/judge", json={"words": ["kot"]}, timeout=120).status_code))
        waiting = threading.Thread(target=lambda: answered.append(httpx.get(
            f"{base}/v1/games/osps/words/kot", params={"release": ids[-1]}, timeout=120)))
        try:
            judge.start()
            deadline = time.monotonic() + 60       # a bound on a judge that never comes
            while not _opened_by(pid, log):        # the judge is in flight, at the lock
                assert time.monotonic() < deadline, "the judge never reached the log"
                time.sleep(0.01)
            for rid in ids[:-1]:                   # pushes CLOSING_BY_ID out, not closed
                r = http.get("/v1/games/osps/words/kot", params={"release": rid})
                assert r.status_code == 200, (rid, r.text)
            waiting.start()
            for _ in range(4):
                assert http.get("/healthz").status_code == 200
                assert http.get("/v1/games/osps/words/kot").json()["valid"] is True
            assert judged == [] and answered == []   # both still wait
        finally:
            holder.kill()
            holder.wait()
        judge.join(120)
        waiting.join(120)
    assert judged == [200]
    assert answered and answered[0].status_code == 200, answered and answered[0].text
    assert answered[0].json()["release"] == ids[-1]
