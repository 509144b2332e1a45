"""Request heads bounded in time on a real ``lexicon serve`` with nothing in front of it:
clients that send a head a line at a time, or nothing at all, are cut off by the server,
and a fresh ``/healthz`` answers meanwhile.

Raw sockets on loopback; the bound is shortened with ``--head-timeout`` so the test is
short, and every wait is a generous ceiling, never a measured duration.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import httpx
import pytest
from lexicon.service import heads
from lexicon.service.launch import free_port

from tests.conftest import SmallHomes, lexicon_serve

SLOW_CLIENTS = 40
BOUND = 2.0             # --head-timeout for the server under test
CEILING = 60.0          # seconds the test waits at most for the server to cut them all


@pytest.fixture(scope="module")
def server(small_homes: SmallHomes) -> Iterator[tuple[str, int]]:
    port = free_port()
    proc = lexicon_serve(small_homes("osps"), port, "--no-access-log", "--head-timeout",
                         str(BOUND), env={"LEXICON_GAMES": "osps"})
    base = f"http://127.0.0.1:{port}"
    try:
        yield base, port
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def _closed_by_peer(sock: socket.socket) -> bool:
    """Has the server closed this connection (end of stream or reset)?"""
    try:
        return sock.recv(4096, socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except ConnectionError:
        return True


def test_slow_heads_are_cut_off_and_the_server_stays_reachable(server: tuple[str, int]
                                                                ) -> None:
    base, port = server
    trickling = []
    for _ in range(SLOW_CLIENTS // 2):          # a head one header line at a time
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        trickling.append(s)
    silent = [socket.create_connection(("127.0.0.1", port))    # connected, nothing sent
              for _ in range(SLOW_CLIENTS // 2)]
    cut: set[socket.socket] = set()
    answered = 0
    deadline = time.monotonic() + CEILING
    try:
        while len(cut) < SLOW_CLIENTS and time.monotonic() < deadline:
            for i, s in enumerate(trickling):
                if s in cut:
                    continue
                try:
                    s.sendall(f"X-Slow-{i}: {time.monotonic()}\r\n".encode())
                except ConnectionError:
                    cut.add(s)
            cut.update(s for s in [*trickling, *silent] if s not in cut and _closed_by_peer(s))
            # a fresh client is answered while the slow ones wait for their end
            r = httpx.get(base + "/healthz", timeout=10)
            assert r.status_code == 200
            answered += 1
            time.sleep(0.25)
        assert len(cut) == SLOW_CLIENTS, f"{SLOW_CLIENTS - len(cut)} slow heads still open"
        assert answered >= 1
        # the server said nothing to them: a head never completed gets no answer
        for s in silent:
            assert s.recv(4096) == b""
    finally:
        for s in [*trickling, *silent]:
            s.close()


def test_a_kept_alive_connection_gets_the_same_bound_for_its_next_head(
        server: tuple[str, int]) -> None:
    """After an answer, the next head on the same connection is bounded too, and a whole
    head (however the bound is set) is answered as usual."""
    _base, port = server
    with socket.create_connection(("127.0.0.1", port), timeout=CEILING) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /healthz HTTP/1.1\r\n")      # a next head that never completes
        deadline = time.monotonic() + CEILING
        rest = b"x"
        while rest and time.monotonic() < deadline:
            try:
                rest = s.recv(65536)                 # the first answer's body, then the end
            except ConnectionError:
                rest = b""
        assert rest == b"", "the server kept the incomplete head's connection open"


def test_the_bound_comes_from_the_environment_or_the_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(heads.HEAD_TIMEOUT_ENV, "2.5")
    assert heads.head_seconds() == 2.5
    for bad in ("", "soon", "0", "-1"):
        monkeypatch.setenv(heads.HEAD_TIMEOUT_ENV, bad)
        assert heads.head_seconds() == heads.MAX_HEAD_SECONDS
    monkeypatch.delenv(heads.HEAD_TIMEOUT_ENV)
    assert heads.head_seconds() == heads.MAX_HEAD_SECONDS

