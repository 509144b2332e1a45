"""Metrics that can never take the service down: a full metrics filesystem is reported and
served through (never a SIGBUS), label values come from fixed sets, and ``serve`` empties
only a directory of metrics files, refusing anything else with ``metrics_dir_unusable``.

The full filesystem is a real one: a tmpfs of a few pages mounted for the test (root only;
elsewhere these tests are skipped), under a real ``lexicon serve --workers 2``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from lexicon.service import metrics
from lexicon.service.app import create_app
from lexicon.service.launch import free_port

from lexicon import LexiconError
from tests.conftest import SmallHomes, lexicon_process, lexicon_serve
from tests.service.test_metrics import _pids, samples, value


@pytest.fixture(scope="module")
def osps_home(small_homes: SmallHomes) -> Path:
    return small_homes("osps")


def tmpfs(path: Path, size: str, *options: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted on ``path`` for the test (skipped where it cannot be)."""
    path.mkdir(exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join((f"size={size}", *options)),
                           "tmpfs", str(path)], capture_output=True, check=False)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


@pytest.fixture()
def small_fs(tmp_path: Path) -> Iterator[Path]:
    yield from tmpfs(tmp_path / "prom", "256k")


def fill(directory: Path) -> Path:
    """Write a file until the filesystem is full; the file (delete it to free the space)."""
    filler = directory / "filler"
    with filler.open("wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == 28   # ENOSPC
    return filler


def test_a_counter_file_that_cannot_grow_is_an_error_not_a_sigbus(small_fs: Path) -> None:
    """The layer guarded: prometheus-client's file growth (a sparse ``truncate``, then a
    write through the mapping) on a filesystem with room for the first 64 KiB only. A child
    process, so that a SIGBUS would fail this test rather than kill the test run."""
    fill_to = small_fs / "filler"
    script = f"""
import errno, os, sys
from lexicon.service.metrics import ReservedMmapedDict
d = ReservedMmapedDict({str(small_fs / "counter_1.db")!r})
with open({str(fill_to)!r}, "wb", buffering=0) as f:   # the rest of the filesystem
    try:
        while True:
            f.write(b"\\0" * 4096)
    except OSError:
        pass
try:
    for i in range(100000):
        d.write_value("key-%06d" % i + "x" * 100, float(i), 0.0)
except OSError as exc:
    print("refused", errno.errorcode[exc.errno], i)
    assert d.read_value("key-%06d" % 0 + "x" * 100)[0] == 0.0   # what was written stays
    sys.exit(0)
sys.exit(5)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False, cwd=Path(__file__).parents[2])
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.startswith("refused ENOSPC")


def _serve(home: Path, prom: Path, out: Path, workers: int = 2) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = lexicon_serve(home, port, "--workers", str(workers), "--drain-seconds", "2",
                         env={metrics.MULTIPROC_ENV: str(prom),
                              "LEXICON_GAMES": "osps"},   # the only game published here
                         stdout=out.open("wb"))
    return proc, f"http://127.0.0.1:{port}"


def test_a_full_metrics_filesystem_is_reported_and_served_through(
        osps_home: Path, small_fs: Path, tmp_path: Path) -> None:
    """Both workers count into a filesystem with no room left: every lookup is answered,
    no worker dies, ``/healthz``, ``/readyz`` and the gauge say the metrics are unwritable;
    once room is made, counting resumes."""
    (small_fs / "prom").mkdir()
    filler = fill(small_fs)            # beside the metrics directory, on its filesystem
    proc, base = _serve(osps_home, small_fs / "prom", tmp_path / "out")
    try:
        for i in range(60):      # a new connection each: both workers answer some
            r = httpx.get(f"{base}/v1/games/osps/words/{('kot', 'np')[i % 2]}",
                          headers={"Connection": "close"}, timeout=10)
            assert r.status_code == 200, r.text
        assert len(_pids(tmp_path / "out")) <= 2     # no worker died and was replaced
        health = httpx.get(base + "/healthz", timeout=10).json()
        assert health["metrics"]["state"] == "unwritable"
        assert "No space left" in health["metrics"]["error"]
        ready = httpx.get(base + "/readyz", timeout=10)
        assert ready.status_code == 200 and ready.json()["metrics"]["state"] == "unwritable"
        scrape = httpx.get(base + "/metrics", timeout=10)
        assert scrape.status_code == 200
        assert value(scrape.text, "lexicon_metrics_writable") == 0
        filler.unlink()                              # room again: counting resumes
        time.sleep(metrics.RETRY_SECONDS + 0.2)
        for _ in range(20):
            assert httpx.get(base + "/v1/games/osps/words/kot", headers={
                "Connection": "close"}, timeout=10).status_code == 200
        states = {httpx.get(base + "/healthz", headers={"Connection": "close"},
                            timeout=10).json()["metrics"]["state"] for _ in range(10)}
        assert states == {"ok"}
        assert value(httpx.get(base + "/metrics").text, "lexicon_http_requests_total",
                     method="GET", route="/v1/games/{game}/words/{word}", status="200") > 0
        assert len(_pids(tmp_path / "out")) <= 2
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    assert proc.returncode in (0, -signal.SIGTERM)


def test_a_made_up_method_is_one_label_value(osps_home: Path,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capfd: pytest.CaptureFixture[str]) -> None:
    """Methods outside HTTP's standard ones are all ``other``, in the counter and in the
    access line: a flood of invented methods adds one series, not one per method."""
    monkeypatch.setenv("LEXICON_ACCESS_LOG", "1")
    with TestClient(create_app(osps_home), raise_server_exceptions=False) as client:
        before = len(samples(client.get("/metrics").text))
        for i in range(50):
            r = client.request(f"X{i:03d}" + "M" * 2000, "/v1/games/osps/words/kot")
            assert r.status_code == 405
            r = client.request(f"Y{i:03d}", f"/nowhere/{i}")
            assert r.status_code in (404, 405)
        text = client.get("/metrics").text
    counted = samples(text)
    methods = {dict(labels).get("method") for (_, labels) in counted} - {None}
    assert methods <= set(metrics.METHODS) | {"other"}
    assert value(text, "lexicon_http_requests_total", method="other",
                 route="/v1/games/{game}/words/{word}", status="405") == 50
    assert len(counted) - before < 100    # two routes' series, not one per method
    lines = [json.loads(line) for line in capfd.readouterr().out.splitlines()
             if line.startswith("{")]
    assert {line["method"] for line in lines} <= set(metrics.METHODS) | {"other"}
    assert sum(line["method"] == "other" for line in lines) == 100


# -- what serve does to PROMETHEUS_MULTIPROC_DIR --------------------------------------------

def _prepare(path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in (metrics.MANAGER_ENV, metrics.OWNED_ENV):   # restored after the test
        monkeypatch.setenv(name, "")
    monkeypatch.setenv(metrics.MULTIPROC_ENV, str(path))
    return metrics.prepare_multiprocess()


def test_only_metrics_files_are_removed(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    prom = tmp_path / "prom"
    prom.mkdir()
    for name in ("counter_12.db", "histogram_12.db", "gauge_livesum_7.db"):
        (prom / name).write_bytes(b"stale")
    assert _prepare(prom, monkeypatch) == prom
    assert [p.name for p in prom.iterdir()] == [metrics.DIR_LOCK]     # held by this process


@pytest.mark.parametrize("other", ["notes.txt", "counter_12.db.bak", "releases/",
                                   "counter_13.db/"])
def test_a_directory_holding_anything_else_is_refused_untouched(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, other: str) -> None:
    prom = tmp_path / "prom"
    prom.mkdir()
    (prom / "counter_12.db").write_bytes(b"stale")
    if other.endswith("/"):
        (prom / other).mkdir()
        (prom / other / "keep").write_text("data")
    else:
        (prom / other).write_text("data")
    with pytest.raises(LexiconError) as refused:
        _prepare(prom, monkeypatch)
    assert refused.value.code == "metrics_dir_unusable"
    assert other.rstrip("/") in refused.value.message
    assert sorted(p.name for p in prom.iterdir()) == sorted(["counter_12.db",
                                                             other.rstrip("/")])


def test_serve_refuses_a_home_as_its_metrics_directory(
        small_releases: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real command, pointed at ``LEXICON_HOME`` itself: a clear error, exit 3, and
    every release still there."""
    before = sorted(p.relative_to(small_releases) for p in small_releases.rglob("*"))
    monkeypatch.setenv(metrics.MULTIPROC_ENV, str(small_releases))
    done = lexicon_process(small_releases, "serve", "--port", str(free_port()),
                           "--workers", "2")
    assert done.returncode == 3, done.stderr[-2000:]
    assert "error [metrics_dir_unusable]" in done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(p.relative_to(small_releases) for p in small_releases.rglob("*")) == before


def test_serve_refuses_a_file_as_its_metrics_directory(
        tmp_path: Path, small_releases: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "a-file"
    target.write_text("mine")
    monkeypatch.setenv(metrics.MULTIPROC_ENV, str(target))
    done = lexicon_process(small_releases, "serve", "--port", str(free_port()))
    assert done.returncode == 3, done.stderr[-2000:]
    assert "error [metrics_dir_unusable]" in done.stderr and "not a directory" in done.stderr
    assert "Traceback" not in done.stderr
    assert target.read_text() == "mine"


def test_serve_refuses_a_read_only_metrics_directory(
        tmp_path: Path, small_releases: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for prom in tmpfs(tmp_path / "ro", "64k", "ro"):
        monkeypatch.setenv(metrics.MULTIPROC_ENV, str(prom))
        done = lexicon_process(small_releases, "serve", "--port", str(free_port()))
        assert done.returncode == 3, done.stderr[-2000:]
        assert "error [metrics_dir_unusable]" in done.stderr
        assert "cannot be written" in done.stderr and "Traceback" not in done.stderr


def _serving(home: Path, prom: Path, port: int, *args: str) -> subprocess.Popen:
    """A real ``lexicon serve`` on ``port`` counting into ``prom``, once it answers."""
    return lexicon_serve(home, port, "--no-access-log", *args,
                         env={metrics.MULTIPROC_ENV: str(prom)})


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_second_serve_leaves_a_running_servers_metrics_alone(
        osps_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: str) -> None:
    """Two real servers, one metrics directory: the second (its port taken, as when a unit
    is started twice) is refused with ``metrics_dir_in_use`` (exit 4) before it touches the
    directory, and the first's counts go on adding up."""
    prom, port = tmp_path / "prom", free_port()
    first = _serving(osps_home, prom, port, "--workers", workers)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(5):
            assert httpx.get(base + "/v1/games/osps/words/kot").status_code == 200
        files = sorted(p.name for p in prom.iterdir())
        assert any(metrics.METRICS_FILE.fullmatch(name) for name in files)
        counted = value(httpx.get(base + "/metrics").text, "lexicon_http_requests_total",
                        method="GET", route=metrics.WORD_ROUTE, status="200")
        assert counted == 5
        monkeypatch.setenv(metrics.MULTIPROC_ENV, str(prom))
        second = lexicon_process(osps_home, "serve", "--port", str(port), "--workers", workers)
        assert second.returncode == 4, second.stderr[-2000:]
        assert "error [metrics_dir_in_use]" in second.stderr
        assert f"pid {first.pid}" in second.stderr and "Traceback" not in second.stderr
        assert set(files) <= {p.name for p in prom.iterdir()}             # none removed
        for _ in range(3):
            assert httpx.get(base + "/v1/games/osps/words/kot").status_code == 200
        assert value(httpx.get(base + "/metrics").text, "lexicon_http_requests_total",
                     method="GET", route=metrics.WORD_ROUTE, status="200") == 8
    finally:
        first.terminate()
        first.communicate(timeout=30)
    # stopped, the directory is free again: the next serve empties and uses it
    again = _serving(osps_home, prom, free_port())
    again.terminate()
    again.communicate(timeout=30)
