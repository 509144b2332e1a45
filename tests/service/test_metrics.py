"""``/metrics`` and the JSON access line: counters that move with traffic (the fast lane
included), bounded labels, no word in any log line, and one sum over ``--workers 2``."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from lexicon.service.app import create_app
from lexicon.service.launch import free_port
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import SmallHomes

WORDS = "/v1/games/{game}/words/{word}"


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    """{(sample name, labels): value} of an exposition."""
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(text: str, name: str, **labels: str) -> float:
    return samples(text).get((name, frozenset(labels.items())), 0.0)


@pytest.fixture(scope="module")
def four_games(small_homes: SmallHomes) -> Path:
    return small_homes("queries+remik")


@pytest.fixture()
def client(four_games: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("LEXICON_ACCESS_LOG", "1")
    with TestClient(create_app(four_games), raise_server_exceptions=False) as c:
        yield c


def test_counters_move_with_traffic(client: TestClient) -> None:
    before = client.get("/metrics").text
    for word in ("kot", "kota", "ok"):                  # the fast lane answers these
        assert client.get(f"/v1/games/osps/words/{word}").status_code == 200
    assert client.get("/v1/games/osps/words/%20").status_code == 400   # the route does
    assert client.post("/v1/games/osps/check", json={"words": ["kot", "ok"]}).status_code == 200
    assert client.post("/v1/games/osps/valid", json={"words": ["kot", "xx"]}).status_code == 200
    assert client.post("/v1/games/osps/judge", json={"words": ["kot", "ok"]}).json()[
        "verdict"] == "falls"
    after = client.get("/metrics").text

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("lexicon_http_requests_total", method="GET", route=WORDS, status="200") == 3
    assert moved("lexicon_http_requests_total", method="GET", route=WORDS, status="400") == 1
    assert moved("lexicon_http_requests_total", method="GET", route="/metrics",
                 status="200") == 1
    assert moved("lexicon_http_request_duration_seconds_count", route=WORDS) == 4
    assert moved("lexicon_verdicts_total", game="osps", valid="true", reason="") == 4
    assert moved("lexicon_verdicts_total", game="osps", valid="false",
                 reason="abbreviation") == 2
    assert moved("lexicon_verdicts_total", game="osps", valid="false",
                 reason="unexplained") == 1
    assert moved("lexicon_rulings_total", game="osps", verdict="falls") == 1
    release = client.get("/healthz").json()["releases"]["osps"]
    assert value(after, "lexicon_release_info", game="osps", release=release) == 1
    assert value(after, "lexicon_game_state", game="remik", state="serving") == 1
    assert value(after, "lexicon_games_not_serving") == 0


def test_labels_stay_bounded(client: TestClient) -> None:
    client.get("/v1/games/chess/words/kot")
    client.get("/no/such/path/kot")
    client.head("/v1/games/osps/pattern?pattern=K?T")
    text = client.get("/metrics").text
    assert value(text, "lexicon_http_requests_total", method="GET", route=WORDS,
                 status="404") >= 1
    assert value(text, "lexicon_http_requests_total", method="GET", route="unmatched",
                 status="404") >= 1
    assert value(text, "lexicon_http_requests_total", method="HEAD",
                 route="/v1/games/{game}/pattern", status="200") >= 1
    assert "chess" not in text and "kot" not in text


def test_one_json_access_line_a_request_without_words(client: TestClient,
                                                      capfd: pytest.CaptureFixture) -> None:
    capfd.readouterr()
    client.get("/v1/games/osps/words/zażółć")
    client.post("/v1/games/osps/judge", json={"words": ["kotka", "jaźń"]})
    lines = [json.loads(line) for line in capfd.readouterr().out.splitlines()]
    assert [(x["method"], x["route"], x["status"], x["game"]) for x in lines] == [
        ("GET", WORDS, 200, "osps"), ("POST", "/v1/games/{game}/judge", 200, "osps")]
    release = client.get("/healthz").json()["releases"]["osps"]
    assert all(x["release"] == release and x["ms"] > 0 and x["pid"] == os.getpid()
               for x in lines)
    assert set(lines[0]) == {"time", "method", "route", "status", "game", "ms", "release",
                             "pid"}
    text = json.dumps(lines, ensure_ascii=False)
    assert "kotka" not in text and "jaźń" not in text and "zażółć" not in text


def _pids(access_log: Path) -> set[int]:
    """The worker pids of the access lines written so far."""
    out = set()
    for line in access_log.read_text().splitlines():
        try:
            out.add(json.loads(line)["pid"])
        except (ValueError, KeyError, TypeError):
            continue                     # a line still being written
    return out


def test_two_workers_sum_their_counters(four_games: Path, tmp_path: Path) -> None:
    """``lexicon serve --workers 2``: every answer is counted once, whichever worker answers
    the request and whichever answers the scrape."""
    port = free_port()
    env = {**os.environ, "LEXICON_HOME": str(four_games),
           "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "prom")}
    (tmp_path / "prom").mkdir()
    (tmp_path / "prom" / "counter_999.db").write_bytes(b"stale")   # emptied at start
    out = (tmp_path / "out").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "lexicon.cli.main", "serve", "--port", str(port),
                             "--workers", "2"], env=env, stdout=out, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(base + "/readyz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        # /readyz answers once one worker is up; under load the second may still be
        # loading its releases: new connections until both have answered (the access
        # lines carry each worker's pid, written unbuffered)
        while time.monotonic() < deadline and len(_pids(tmp_path / "out")) < 2:
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            probe.request("GET", "/healthz")
            probe.getresponse().read()
            probe.close()
        n = 40
        for i in range(n):   # a new connection each: the kernel spreads them over workers
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", f"/v1/games/osps/words/{('kot', 'ok')[i % 2]}")
            assert conn.getresponse().status == 200
            conn.close()
        # one kept-alive connection: answers must not wait for a delayed ACK (~40 ms each
        # when the workers' socket lacked TCP_NODELAY)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        took = []
        for _ in range(20):
            t0 = time.perf_counter()
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            took.append(time.perf_counter() - t0)
        conn.close()
        took.sort()        # a delayed ACK holds every answer; a busy machine only some
        assert took[len(took) // 2] < 0.03, f"kept-alive answers took {took}"
        scrapes = [httpx.get(base + "/metrics").text for _ in range(4)]
        for text in scrapes:
            assert value(text, "lexicon_http_requests_total", method="GET", route=WORDS,
                         status="200") == n
            assert value(text, "lexicon_verdicts_total", game="osps", valid="false",
                         reason="abbreviation") == n // 2
    finally:
        proc.terminate()
        proc.wait(20)
        out.close()
    pids = _pids(tmp_path / "out")
    assert len(pids) == 2, proc.stderr.read().decode()[-2000:] if proc.stderr else ""
