"""Running the service for a fleet: readiness (``/readyz``) and the SIGTERM drain.

Readiness is tested in process over small real releases; the drain on a real ``lexicon
serve`` process, with a request held open in the middle of its body when SIGTERM arrives.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from lexicon.service.app import create_app
from lexicon.service.launch import free_port

from lexicon.store import published
from tests.conftest import POLISH_RECORDS, SmallHomes, publish
from tests.query_data import running_server

DATA = "records.lmdb/data.mdb"


@pytest.fixture()
def client_for() -> Iterator:
    clients: list[TestClient] = []

    def make(home: Path) -> TestClient:
        client = TestClient(create_app(home), raise_server_exceptions=False)
        clients.append(client)
        return client

    yield make
    for c in clients:
        c.close()


def test_readyz_is_200_only_when_every_game_serves(home: Path, client_for,
                                                  small_homes: SmallHomes) -> None:
    small_homes("queries", home)                        # osps, kvizovka, krizemkrazem
    client = client_for(home)
    r = client.get("/readyz")
    assert r.status_code == 503
    body = r.json()
    assert body["code"] == "not_ready" and body["detail"]["not_ready"] == ["remik"]
    assert body["detail"]["games"]["remik"]["reason"] == "no_release"
    assert body["detail"]["games"]["osps"]["ready"] is True
    assert client.get("/healthz").status_code == 200   # liveness is not readiness

    publish(home, "remik", POLISH_RECORDS)
    r = client.get("/readyz")
    assert r.status_code == 200, r.text
    assert r.json()["ready"] is True and r.json()["not_ready"] == []
    assert r.json()["games"]["remik"]["release"].startswith("remik-")


def test_readyz_is_503_for_a_release_whose_hash_differs(home: Path, client_for,
                                                       small_homes: SmallHomes) -> None:
    small_homes("queries+remik", home)                  # remik links the osps release
    path = home / "releases" / "kvizovka"
    rel = path / (path / "CURRENT").read_text().strip()
    words = rel / "indexes" / "words.marisa"
    raw = bytearray(words.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    words.write_bytes(bytes(raw))                  # same size: only the sha256 tells
    client = client_for(home)
    r = client.get("/readyz")
    assert r.status_code == 503
    assert r.json()["detail"]["not_ready"] == ["kvizovka"]
    assert r.json()["detail"]["games"]["kvizovka"]["reason"] == "release_damaged"
    # once its hash has failed the release answers nowhere (tests/service/test_damaged_release.py)
    assert client.get("/healthz").json()["games"]["kvizovka"]["state"] == "damaged"
    assert client.get("/healthz").json()["games"]["osps"]["state"] == "serving"


def test_readyz_turns_503_when_a_served_release_is_truncated(home: Path, client_for,
                                                            small_homes: SmallHomes) -> None:
    small_homes("queries+remik", home)
    client = client_for(home)
    assert client.get("/readyz").status_code == 200
    path = home / "releases" / "krizemkrazem"
    rel = path / (path / "CURRENT").read_text().strip()
    os.truncate(rel / DATA, 4096)
    time.sleep(0.06)                                # past the catalog's full size check
    r = client.get("/readyz")
    assert r.status_code == 503
    assert r.json()["detail"]["games"]["krizemkrazem"] == {
        "state": "damaged", "release": None, "reason": "release_damaged", "ready": False}


def test_readyz_checks_only_the_configured_games(small_releases: Path, client_for,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    client = client_for(small_releases)                 # osps and kvizovka only
    assert client.get("/readyz").status_code == 503
    monkeypatch.setenv("LEXICON_GAMES", "osps, kvizovka")
    r = client.get("/readyz")
    assert r.status_code == 200 and set(r.json()["games"]) == {"osps", "kvizovka"}
    monkeypatch.setenv("LEXICON_GAMES", "osps,chess")
    assert client.get("/readyz").json()["code"] == "unknown_game"


def _serve(home: Path, *args: str) -> tuple[subprocess.Popen, str]:
    """A real ``lexicon serve`` on a free loopback port, up once /healthz answers."""
    port = free_port()
    env = {**os.environ, "LEXICON_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "lexicon.cli.main", "serve", "--port", str(port),
                             *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            httpx.get(base + "/healthz", timeout=1)
            return proc, base
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start: " + proc.communicate()[1].decode()[-2000:])


@pytest.mark.parametrize("workers", ["1", "2"])
def test_sigterm_drains_the_request_in_flight_then_exits(small_releases: Path,
                                                         workers: str) -> None:
    """With one process or several: new connections are refused as the drain starts (the
    process manager of ``--workers 2`` closes its copy of the listening socket too)."""
    proc, base = _serve(small_releases, "--drain-seconds", "15", "--workers", workers)
    port = int(base.rsplit(":", 1)[1])
    try:
        body = json.dumps({"words": ["kot", "np", "zażółć"]}).encode()
        head = (f"POST /v1/games/osps/valid HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
        conn = socket.create_connection(("127.0.0.1", port), timeout=10)
        conn.sendall(head.encode() + body[:10])         # the request is in the app now
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 10                # new connections are refused ...
        refused = False
        while time.monotonic() < deadline and not refused:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                time.sleep(0.05)
            except OSError:
                refused = True
        assert refused
        assert proc.poll() is None                      # ... while the old one is served
        conn.sendall(body[10:])
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
        conn.close()
        status, _, rest = answer.partition(b"\r\n")
        assert status == b"HTTP/1.1 200 OK", answer[:200]
        assert json.loads(rest.split(b"\r\n\r\n", 1)[1])["results"] == [True, False, True]
        # uvicorn re-raises the signal once drained: the status a supervisor expects
        assert proc.wait(15) in (0, -signal.SIGTERM)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def _workers(manager: int) -> list[int]:
    """The worker processes of the uvicorn manager ``manager`` (its spawned children)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == manager and b"spawn" in cmdline:
            found.append(int(stat.parent.name))
    return found


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


def test_workers_leave_with_a_killed_manager(small_releases: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGKILL of the ``--workers 2`` manager: the workers drain and exit (the port is free
    again) and the metrics directory ``serve`` made is removed."""
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))   # where serve makes its metrics directory
    proc, base = _serve(small_releases, "--workers", "2", "--drain-seconds", "2")
    port = int(base.rsplit(":", 1)[1])
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(_workers(proc.pid)) < 2:
            time.sleep(0.1)
        workers = _workers(proc.pid)
        assert len(workers) == 2
        assert len(list(temp.glob("lexicon-metrics-*"))) == 1   # (multiprocessing's pymp-*)
        httpx.get(base + "/v1/games/osps/words/kot", timeout=10)   # a counted request
        proc.kill()
        proc.wait(10)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not all(map(_gone, workers)):
            time.sleep(0.1)
        assert all(map(_gone, workers))
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1)
        assert list(temp.glob("lexicon-metrics-*")) == []
    finally:
        for pid in workers:
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def _fleet_drill() -> Any:
    """deploy/fleet_drill.py as a module (it is a script, not part of the package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "fleet_drill", Path(__file__).parents[2] / "deploy" / "fleet_drill.py")
    assert spec is not None and spec.loader is not None
    drill = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(drill)
    return drill


def _needs_nginx() -> None:
    import shutil

    if shutil.which("nginx") is None:
        pytest.skip("Debian nginx is not installed (make fleet-drill installs it)")


def test_the_nginx_site_config_is_valid(tmp_path: Path) -> None:
    """deploy/nginx-lexicon.conf, as the fleet drill renders it, passes ``nginx -t``."""
    _needs_nginx()
    drill = _fleet_drill()
    replica = drill.Replica("r1", tmp_path, tmp_path)
    nginx = drill.Nginx(tmp_path, [replica])
    nginx.write({f"127.0.0.1:{replica.port}": True, "127.0.0.1:9": False})
    assert nginx.upstreams.read_text().splitlines()[1] == (
        "server 127.0.0.1:9 max_fails=1 fail_timeout=2s down;")
    check = subprocess.run(nginx._cmd("-t"), capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stderr


def test_nginx_lets_through_every_body_the_service_takes(tmp_path: Path, small_homes: SmallHomes,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Through Debian nginx with deploy/nginx-lexicon.conf, a ``/valid`` body the service
    takes (over 8 MiB, under its limit) is answered by the service, and one over every
    limit gets the API's JSON ``body_too_large``, not nginx's HTML page."""
    from lexicon.service.bodies import MAX_VALID_BODY_BYTES, largest_body

    _needs_nginx()
    drill = _fleet_drill()
    home = small_homes("small", tmp_path / "home")
    monkeypatch.setenv("LEXICON_GAMES", "osps,kvizovka")   # what the home holds: ready
    with running_server(home) as base:
        port = int(base.rsplit(":", 1)[1])
        work = tmp_path / "nginx"
        work.mkdir()
        replica = drill.Replica("r1", home, work)   # the server above, as a replica
        replica.port = port
        nginx = drill.Nginx(work, [replica])
        try:
            nginx.start()
            url = f"http://127.0.0.1:{nginx.port}/v1/games/osps/valid"
            pad = b" " * (9 * 1024 * 1024)          # JSON allows the blanks; 9 MiB of body
            body = b'{"words": ["kot", "xyz"]' + pad + b"}"
            assert len(body) < MAX_VALID_BODY_BYTES
            r = httpx.post(url, content=body, timeout=60,
                           headers={"content-type": "application/json"})
            assert r.status_code == 200, r.text[:300]
            assert r.json()["count"] == 2
            over = b'{"words": ["kot"]' + b" " * largest_body() + b"}"
            r = httpx.post(url, content=over, timeout=60,
                           headers={"content-type": "application/json"})
            assert r.status_code == 413
            assert r.headers["content-type"].startswith("application/json")
            assert r.json()["code"] == "body_too_large"
            assert r.json()["detail"]["max_bytes"] == largest_body()
        finally:
            nginx.stop()


def _gate(tmp_path: Path, *args: str, path: str | None = None) -> subprocess.CompletedProcess:
    """``python deploy/fleet_drill.py gate ARGS`` as an operator runs it."""
    env = {**os.environ, **({"PATH": path} if path is not None else {})}
    return subprocess.run([sys.executable, str(Path(__file__).parents[2] / "deploy"
                                                / "fleet_drill.py"), "gate", *args],
                          capture_output=True, text=True, env=env, timeout=120, check=False,
                          cwd=tmp_path)


def test_the_gate_without_systemctl_says_so_and_tries_again(tmp_path: Path) -> None:
    """Without ``--reload`` the gate runs ``systemctl reload nginx``; on a machine where that
    fails it exits 3 with one line saying what failed and how to give the command (no
    traceback), and leaves the upstream list as it was, so the next pass reloads."""
    upstreams = tmp_path / "upstreams.conf"
    empty = tmp_path / "no-tools"
    empty.mkdir()                                     # a PATH with no systemctl on it
    p = _gate(tmp_path, "--upstreams", str(upstreams), "127.0.0.1:9", path=str(empty))
    assert p.returncode == 3, (p.stdout, p.stderr)
    assert "Traceback" not in p.stderr and "systemctl reload nginx" in p.stderr
    assert "--reload" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    assert not upstreams.exists()                     # never loaded: not left as if it were
    p = _gate(tmp_path, "--upstreams", str(upstreams), "--reload", "true", "127.0.0.1:9")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {"127.0.0.1:9": False}
    assert upstreams.read_text() == "server 127.0.0.1:9 max_fails=1 fail_timeout=2s down;\n"
    p = _gate(tmp_path, "--upstreams", str(upstreams), "--reload", "false", "127.0.0.1:9")
    assert p.returncode == 0                          # nothing changed: no reload asked
    upstreams.write_text("server 127.0.0.1:9 max_fails=1 fail_timeout=2s;\n")   # the old list
    p = _gate(tmp_path, "--upstreams", str(upstreams), "--reload", "false", "127.0.0.1:9")
    assert p.returncode == 3 and "'false' failed (exit 1" in p.stderr, p.stderr
    assert upstreams.read_text() == "server 127.0.0.1:9 max_fails=1 fail_timeout=2s;\n"


def _first_log_line(home: Path) -> str:
    """The first line ``lexicon serve`` writes to stderr with ``LEXICON_HOME=home``."""
    proc = subprocess.Popen([sys.executable, "-m", "lexicon.cli.main", "serve", "--port",
                             str(free_port())], stderr=subprocess.PIPE, text=True,
                            stdout=subprocess.DEVNULL,
                            env={**os.environ, "LEXICON_HOME": str(home)})
    try:
        assert proc.stderr is not None
        return proc.stderr.readline().strip()
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def test_serve_says_where_it_looks_and_what_it_found(tmp_path: Path,
                                                     small_homes: SmallHomes) -> None:
    home = small_homes("small", tmp_path / "home")                # osps and kvizovka
    line = _first_log_line(home)
    osps, kvizovka = (published.current_id(g, home) for g in ("osps", "kvizovka"))
    assert line.startswith(f"lexicon serve: data directory {home} (LEXICON_HOME); "), line
    assert f"serving: osps ({osps}), kvizovka ({kvizovka})" in line or \
        f"serving: kvizovka ({kvizovka}), osps ({osps})" in line, line
    assert "no release: " in line and "remik" in line and "krizemkrazem" in line
    empty = tmp_path / "empty"
    empty.mkdir()
    line = _first_log_line(empty)
    assert f"no release of any game in {empty} (LEXICON_HOME): nothing to serve" in line, line
    line = _first_log_line(tmp_path / "typo")
    assert f"the data directory {tmp_path / 'typo'} (LEXICON_HOME) does not exist" in line


def test_healthz_says_no_games_when_there_is_nothing_to_serve(tmp_path: Path,
                                                              client_for) -> None:
    body = client_for(tmp_path / "nowhere").get("/healthz").json()
    assert body["status"] == "no_games"
    assert set(s["state"] for s in body["games"].values()) == {"no_release"}
