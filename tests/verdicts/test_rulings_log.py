"""A broken rulings log never takes judging down, nor passes for "the play falls" (issue 16,
finding 3): the library, the CLI (Typer's runner), HTTP in process, and a real server for
the event loop (a lock held by another process must not stall ``/healthz``)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from lexicon.service.app import create_app
from lexicon.service.launch import serving

from lexicon.catalog import Catalog
from lexicon.errors import RulingsUnavailable
from lexicon.verdicts import rulings
from tests.conftest import lexicon

TODAY = rulings.parse_date(None)
ENTRY = {"game": "osps", "release": "r", "words": ["kot"], "verdict": "stands"}


def _file_in_the_way(home: Path) -> Path:
    """The rulings path is a regular file."""
    spot = home / "rulings-file"
    spot.write_text("not a directory\n")
    return spot


def _under_a_file(home: Path) -> Path:
    """The rulings path lies below a regular file (what a read-only mount is to root, who
    passes any permission bit: mkdir and open fail)."""
    return _file_in_the_way(home) / "rulings"


def _day_is_a_directory(home: Path) -> Path:
    spot = home / "rulings-dir"
    (spot / f"{TODAY.isoformat()}.jsonl").mkdir(parents=True)
    return spot


@pytest.mark.parametrize("broken", [_file_in_the_way, _under_a_file, _day_is_a_directory])
def test_an_unwritable_log_refuses_the_ruling_on_every_face(
        small_releases: Path, monkeypatch: pytest.MonkeyPatch,
        broken: Callable[[Path], Path]) -> None:
    monkeypatch.setenv("LEXICON_RULINGS", str(broken(small_releases)))
    with pytest.raises(RulingsUnavailable) as got:
        Catalog(small_releases).lexicon("osps").judge(["kot"])
    assert got.value.code == "rulings_unavailable" and got.value.status == 503
    # the CLI: exit 3 (never 1, which is "the play falls"), a message, no traceback
    for args in (["judge", "osps", "kot"], ["judge", "osps", "np", "--json"]):
        p = lexicon(small_releases, *args)
        assert p.returncode == 3, p.stdout + p.stderr
        assert "error [rulings_unavailable]" in p.stderr and "Traceback" not in p.stderr
        assert "STANDS" not in p.stdout and "FALLS" not in p.stdout
    assert json.loads(p.stdout)["error"]["code"] == "rulings_unavailable"
    # HTTP: 503 with the code, and no verdict in the answer
    client = TestClient(create_app(small_releases), raise_server_exceptions=False)
    r = client.post("/v1/games/osps/judge", json={"words": ["kot"]})
    assert r.status_code == 503 and r.json()["code"] == "rulings_unavailable"
    assert "verdict" not in r.json()
    # reading the log says so too, rather than "no rulings"
    p = lexicon(small_releases, "rulings")
    assert p.returncode == 3 and "rulings_unavailable" in p.stderr


@pytest.mark.parametrize("code", [errno.EROFS, errno.ENOSPC, errno.EACCES])
def test_an_open_that_fails_refuses_the_ruling(small_releases: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               code: int) -> None:
    real_open = os.open

    def failing_open(path: object, *args: object, **kw: object) -> int:
        if str(path).endswith(".jsonl"):
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, *args, **kw)   # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", failing_open)
    client = TestClient(create_app(small_releases), raise_server_exceptions=False)
    r = client.post("/v1/games/osps/judge", json={"words": ["kot"]})
    assert r.status_code == 503, r.text
    assert r.json()["code"] == "rulings_unavailable"
    assert r.json()["detail"]["errno"] == errno.errorcode[code]
    p = lexicon(small_releases, "judge", "osps", "kot")
    assert p.returncode == 3 and os.strerror(code) in p.stderr


def _is_log(fd: int) -> bool:
    return os.readlink(f"/proc/self/fd/{fd}").endswith(".jsonl")


def _disk_fills(keep: int) -> Callable[[int, bytes], int]:
    """os.write for the rulings log only: the first call takes ``keep`` bytes, the next
    fails with ENOSPC (what a disk filling up mid-line does)."""
    real_write = os.write

    def write(fd: int, data: bytes) -> int:
        if not _is_log(fd):
            return real_write(fd, data)
        if len(data) > keep:
            return real_write(fd, bytes(data[:keep]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    return write


def test_a_full_disk_leaves_no_half_line(small_releases: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    rulings.append(ENTRY, root=small_releases)
    path = rulings.log_path(TODAY, small_releases)
    before = path.read_bytes()
    monkeypatch.setattr(os, "write", _disk_fills(10))
    client = TestClient(create_app(small_releases), raise_server_exceptions=False)
    r = client.post("/v1/games/osps/judge", json={"words": ["kot"]})
    assert r.status_code == 503 and r.json()["detail"]["errno"] == "ENOSPC"
    p = lexicon(small_releases, "judge", "osps", "kot")
    assert p.returncode == 3 and "No space left" in p.stderr
    assert path.read_bytes() == before          # the partial lines were taken back
    monkeypatch.undo()
    assert Catalog(small_releases).lexicon("osps").judge(["kot"])["time"]
    assert rulings.scan(TODAY, small_releases) == (rulings.read(TODAY, small_releases), [])


def test_every_ruling_starts_on_a_fresh_line(small_releases: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = rulings.log_path(TODAY, small_releases)
    path.parent.mkdir(parents=True)
    # a writer killed mid-line, then one whose partial line could not be taken back
    path.write_bytes(b'{"time":"2026-12-01T00:00:00.000Z","game":"osps","rel')
    rulings.append(ENTRY, root=small_releases)

    def no_truncate(fd: int, size: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "write", _disk_fills(12))
    monkeypatch.setattr(os, "ftruncate", no_truncate)
    with pytest.raises(RulingsUnavailable):
        rulings.append(ENTRY, root=small_releases)
    monkeypatch.undo()
    Catalog(small_releases).lexicon("osps").judge(["zażółć", "np"])
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) == 5
    assert json.loads(lines[1])["words"] == ["kot"]
    assert json.loads(lines[3])["words"] == ["zażółć", "np"]
    log = rulings.scan(TODAY, small_releases)
    assert [r["words"] for r in log.rulings] == [["kot"], ["zażółć", "np"]]
    assert log.damaged == [1, 3]


def test_damaged_lines_are_skipped_and_counted(small_releases: Path) -> None:
    Catalog(small_releases).lexicon("osps").judge(["gęślą"])
    path = rulings.log_path(TODAY, small_releases)
    good = path.read_bytes()
    cut = good[:good.index("ę".encode()) + 1]        # cut inside the two bytes of 'ę'
    assert not cut.endswith(b"\n")
    path.write_bytes(good + cut + b"\n" + b"[1, 2]\n" + b'{"time": "x"}\n' + good
                     + b'{"time":"x","game":"osps","release":"r","verdict":"stands",'
                       b'"words":["\\ud800"]}\n')
    log = rulings.scan(TODAY, small_releases)
    assert len(log.rulings) == 2 and log.damaged == [2, 3, 4, 6]
    assert rulings.read(TODAY, small_releases) == log.rulings
    p = lexicon(small_releases, "rulings")
    assert p.returncode == 0 and p.stdout.count("gęślą") == 2
    assert "4 damaged lines skipped" in p.stdout
    p = lexicon(small_releases, "rulings", "--json")
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert [r["words"] for r in rows[:2]] == [["gęślą"], ["gęślą"]]
    assert rows[2] == {"damaged_lines": 4, "lines": [2, 3, 4, 6]}
    path.write_bytes(cut)
    p = lexicon(small_releases, "rulings")
    assert p.stdout.splitlines()[-2:] == [f"no rulings on {TODAY.isoformat()}",
                                          "1 damaged line skipped (line 1)"]


LOCKER = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
"""


def _hold_lock(path: Path, seconds: float) -> subprocess.Popen:
    """Another process holding the log's lock for ``seconds`` (started once it holds it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([sys.executable, "-c", LOCKER, str(path), str(seconds)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "locked\n"
    return proc


def test_a_lock_held_too_long_is_a_bounded_wait(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulings, "LOCK_TIMEOUT", 0.3)
    holder = _hold_lock(rulings.log_path(TODAY, tmp_path), 2)
    try:
        start = time.monotonic()
        with pytest.raises(RulingsUnavailable) as got:
            rulings.append(ENTRY, root=tmp_path)
        waited = time.monotonic() - start
        assert 0.25 < waited < 1.0 and "lock" in got.value.message
        assert got.value.detail == {"errno": "ETIMEDOUT"}
    finally:
        holder.kill()
        holder.wait()
    rulings.append(ENTRY, root=tmp_path)        # the lock is free again: logged
    assert len(rulings.read(TODAY, tmp_path)) == 1


def patient_app() -> FastAPI:
    """The service, its judge waiting for the rulings log's lock for as long as another
    process holds it (an hour): what the server does meanwhile is then a matter of order,
    not of how long the wait lasts."""
    from lexicon.service import app

    app.LOCK_TIMEOUT = 3600.0
    return app.create_app()


def _opened_by(pid: int, path: Path) -> int:
    """How many descriptors of process ``pid`` are open on ``path``."""
    fds = Path(f"/proc/{pid}/fd")
    return sum(1 for fd in fds.iterdir() if _link(fd) == os.fspath(path))


def _link(fd: Path) -> str:
    try:
        return os.readlink(fd)
    except OSError:        # closed meanwhile
        return ""


def test_a_held_lock_does_not_stall_the_server(small_releases: Path) -> None:
    """Another process holds the rulings log's lock: the server's judges wait for it off
    the event loop (their descriptors of the log open in the server, their answers
    pending), and meanwhile /healthz and look-ups answer; once the holder lets go, every
    judge is logged and answered."""
    log = rulings.log_path(TODAY, small_releases)
    with serving("tests.verdicts.test_rulings_log:patient_app", small_releases) as (
            base, pid):
        holder = _hold_lock(log, 3600)
        try:
            answers: list[tuple[int, str]] = []

            def rule() -> None:
                r = httpx.post(base + "/v1/games/osps/judge", json={"words": ["kot"]},
                               timeout=120)
                answers.append((r.status_code, r.json().get("verdict", "")))

            judges = [threading.Thread(target=rule) for _ in range(6)]
            for t in judges:
                t.start()
            deadline = time.monotonic() + 60       # a bound on a judge that never comes
            while not _opened_by(pid, log):        # a judge is at the lock now
                assert time.monotonic() < deadline, "no judge reached the log"
                time.sleep(0.01)
            for _ in range(8):
                for url in ("/healthz", "/v1/games/osps/words/kot"):
                    assert httpx.get(base + url, timeout=60).status_code == 200
            assert answers == []                   # every judge still waits for the lock
            assert _opened_by(pid, log)
        finally:
            holder.kill()
            holder.wait()
        for t in judges:
            t.join(120)
        assert answers == [(200, "stands")] * 6
    assert len(rulings.read(TODAY, small_releases)) == 6


def test_a_server_refuses_a_ruling_it_cannot_log_and_reads_urls_as_it_decodes_them(
        small_releases: Path) -> None:
    """A judge whose log's lock stays held is refused ``rulings_unavailable`` while the
    holder still holds it (a bounded wait, never a ruling unlogged); then a ruling is
    logged, and the URL checks of the input finding hold on a real server."""
    with serving("lexicon.service.app:create_app", small_releases) as (base, _pid):
        holder = _hold_lock(rulings.log_path(TODAY, small_releases), 3600)
        try:
            r = httpx.post(base + "/v1/games/osps/judge", json={"words": ["kot"]},
                           timeout=120)
            assert r.status_code == 503 and r.json()["code"] == "rulings_unavailable"
            assert holder.poll() is None           # refused while the lock was held
        finally:
            holder.kill()
            holder.wait()
        r = httpx.post(base + "/v1/games/osps/judge", json={"words": ["kot"]}, timeout=60)
        assert r.status_code == 200 and r.json()["verdict"] == "stands"
        # the URL checks of the input finding, as a real server decodes the path
        r = httpx.get(base + "/v1/games/osps/words/%FFkot", timeout=60)
        assert r.status_code == 400 and r.json()["code"] == "bad_encoding"
        r = httpx.get(base + "/v1/games/osps/words/%C2%85kot", timeout=60)
        assert r.status_code == 400 and r.json()["code"] == "control_character"
        r = httpx.get(base + "/v1/games/osps/words/kot?release=" + "x" * 300, timeout=60)
        assert r.status_code == 404 and r.json()["code"] == "unknown_release"
    assert len(rulings.read(TODAY, small_releases)) == 1
