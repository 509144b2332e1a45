"""Request bodies on a real server over loopback: refused over their size before they are
read (announced or streamed), cut off when they trickle, and big batches taken a few at a
time (service/bodies.py)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from lexicon.service import bodies
from lexicon.service.launch import serving

from lexicon.verdicts import checker, fastcheck
from tests.conftest import SmallHomes

IDLE, DEADLINE, WAIT = 1, 3, 1      # the test server's (short) limits, in seconds


def short_limits_app() -> FastAPI:
    """The service with short body timeouts and one big-batch permit (a test can wait)."""
    from lexicon.service.app import create_app

    bodies.MAX_BODY_IDLE_SECONDS, bodies.MAX_BODY_SECONDS = IDLE, DEADLINE
    bodies.MAX_BIG_BATCHES, bodies.MAX_BATCH_WAIT_SECONDS = 1, WAIT
    return create_app()


@pytest.fixture(scope="module")
def server(small_homes: SmallHomes) -> Iterator[tuple[str, int]]:
    home = small_homes("osps")
    with serving("tests.service.test_bodies:short_limits_app", home) as (base, _pid):
        host, port = base.removeprefix("http://").split(":")
        yield host, int(port)


def exchange(server: tuple[str, int], head: str, parts: list[bytes] = (),
             pause: float = 0.0, timeout: float = 15.0) -> tuple[int, dict, dict, float, bool]:
    """Send ``head`` then ``parts`` (``pause`` s apart) on a raw socket, read the answer
    until the server closes: (status, headers, JSON body, seconds to the answer, closed)."""
    sock = socket.create_connection(server, timeout=timeout)
    started = time.monotonic()
    stop = threading.Event()

    def trickle() -> None:
        for part in parts:
            if stop.wait(pause):
                return
            try:
                sock.sendall(part)
            except OSError:
                return

    with sock:
        sock.sendall(head.encode("latin-1"))
        sender = threading.Thread(target=trickle, daemon=True)
        sender.start()
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        answered = time.monotonic() - started
        head_raw, _, rest = data.partition(b"\r\n\r\n")
        lines = head_raw.decode("latin-1").split("\r\n")
        headers = {k.lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
        want = int(headers.get("content-length", 0))
        while len(rest) < want:
            chunk = sock.recv(65536)
            if not chunk:
                break
            rest += chunk
        try:
            closed = sock.recv(1) == b""
        except (ConnectionResetError, TimeoutError):
            closed = True
        stop.set()
    return int(lines[0].split()[1]), headers, json.loads(rest or b"{}"), answered, closed


def post_head(path: str, length: int | None, *extra: str) -> str:
    size = (f"Content-Length: {length}\r\n" if length is not None
            else "Transfer-Encoding: chunked\r\n")
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"{size}{''.join(h + chr(13) + chr(10) for h in extra)}\r\n")


def test_the_limits_hold_the_largest_legitimate_batches() -> None:
    # 100,000 words of 64 letters of two UTF-8 bytes each (the most /valid takes), as any
    # JSON library writes them; and /check's 10,000
    word = "ż" * 64
    for most, limit in ((fastcheck.MAX_WORDS, bodies.MAX_VALID_BODY_BYTES),
                        (checker.MAX_BATCH, bodies.MAX_CHECK_BODY_BYTES)):
        body = json.dumps({"words": [word] * most, "edge": False}, ensure_ascii=False)
        assert len(body.encode()) < limit, (most, len(body.encode()))
        assert len(body.encode()) > limit * 0.6        # headroom, not a blank cheque
    judged = json.dumps({"words": ["ż" * 64] * 32, "reveal": True})   # \u-escaped
    assert len(judged) < bodies.MAX_BODY_BYTES


def test_an_announced_body_over_the_limit_is_refused_before_it_is_read(server) -> None:
    status, headers, body, took, closed = exchange(
        server, post_head("/v1/games/osps/valid", 100_000_000, "Expect: 100-continue"))
    assert status == 413 and body["code"] == "body_too_large"
    assert body["detail"]["max_bytes"] == bodies.MAX_VALID_BODY_BYTES
    assert headers["connection"] == "close" and closed and took < 2
    status, _h, body, _t, _c = exchange(server, post_head("/v1/games/osps/judge", 70_000),
                                        [b"x" * 70_000])
    assert status == 413 and body["detail"]["max_bytes"] == bodies.MAX_BODY_BYTES


def test_a_chunked_body_is_counted_as_it_arrives(server) -> None:
    chunk = b"%x\r\n%s\r\n" % (20_000, b" " * 20_000)
    status, _h, body, _t, closed = exchange(server, post_head("/v1/games/osps/judge", None),
                                            [chunk] * 5 + [b"0\r\n\r\n"])
    assert status == 413 and body["code"] == "body_too_large" and closed
    ok = json.dumps({"words": ["kot", "ul"]}).encode()
    status, _h, body, _t, _c = exchange(server, post_head("/v1/games/osps/judge", None),
                                        [b"%x\r\n%s\r\n0\r\n\r\n" % (len(ok), ok)])
    assert status == 200 and body["verdict"] == "stands"


def test_a_body_that_stops_arriving_is_cut_off(server) -> None:
    # announces 1,000 bytes, sends 10, then nothing: answered after IDLE s, connection freed
    status, headers, body, took, closed = exchange(
        server, post_head("/v1/games/osps/check", 1_000), [b'{"words":['])
    assert status == 408 and body["code"] == "body_timeout"
    assert body["detail"]["received_bytes"] == 10
    assert IDLE * 0.8 < took < DEADLINE and closed and headers["connection"] == "close"


def test_a_body_that_trickles_is_cut_off_at_its_deadline(server) -> None:
    # a byte every 0.3 s is progress, but the whole body must arrive within DEADLINE s
    status, _h, body, took, closed = exchange(
        server, post_head("/v1/games/osps/check", 1_000), [b" "] * 100, pause=0.3)
    assert status == 408 and "within" in body["message"]
    assert DEADLINE * 0.9 < took < DEADLINE + 2 and closed


def test_big_batches_wait_their_turn_and_small_ones_do_not(server) -> None:
    base = f"http://{server[0]}:{server[1]}"
    holder: dict = {}
    # a big batch (over 256 KiB) that holds the only permit by trickling until DEADLINE
    big = threading.Thread(target=lambda: holder.update(answer=exchange(
        server, post_head("/v1/games/osps/valid", 300_000), [b" "] * 40, pause=0.2)))
    big.start()
    time.sleep(1.0)                             # its headers are in: it holds the permit
    words = {"words": ["kot"] * 50_000}          # 350 KB: big
    started = time.monotonic()
    busy = httpx.post(base + "/v1/games/osps/valid", json=words, timeout=10)   # no permit
    assert busy.status_code == 503 and busy.json()["code"] == "too_many_batches"
    assert busy.headers["retry-after"] == "2" and time.monotonic() - started > WAIT * 0.8
    small = httpx.post(base + "/v1/games/osps/valid", json={"words": ["kot", "np"]}, timeout=5)
    assert small.status_code == 200 and small.json()["results"] == [True, False]
    big.join()
    assert holder["answer"][0] == 408
    after = httpx.post(base + "/v1/games/osps/valid", json=words, timeout=10)   # permit back
    assert after.status_code == 200 and after.json()["valid"] == 50_000


def test_the_largest_batch_is_answered(server) -> None:
    base = f"http://{server[0]}:{server[1]}"
    got = httpx.post(base + "/v1/games/osps/valid",
                     json={"words": ["zażółć", "np"] * (fastcheck.MAX_WORDS // 2)}, timeout=30)
    assert got.status_code == 200 and got.json()["valid"] == fastcheck.MAX_WORDS // 2
    assert httpx.get(base + "/v1/games/osps/words/kot", timeout=5).json()["valid"]


def test_an_app_without_the_middleware_would_read_the_whole_body(tmp_path: Path) -> None:
    # the bound is the middleware's: without it FastAPI reads the body before any route code
    # (this test fails if BodyLimits is not installed)
    from lexicon.service.app import create_app

    app = create_app(tmp_path)
    assert any(m.cls is bodies.BodyLimits for m in app.user_middleware)


def test_the_memory_tool_measures_a_real_server(tmp_path: Path) -> None:
    from tests.conftest import POLISH_RECORDS, publish
    from tools import batch_memory

    publish(tmp_path, "osps", POLISH_RECORDS)
    out = batch_memory.run(tmp_path, "osps", clients=3, words=5_000, rounds=1, code=None)
    assert out["statuses"] == {200: 3} and out["words_per_batch"] == 5_000
    assert 0 < out["idle_rss_mb"] <= out["membership_build_peak_rss_mb"]
    assert out["peak_rss_mb"] > 0 and out["membership_arrays_mb"] == 0.0
