"""Prometheus metrics and one JSON access line per request, as one plain-ASGI middleware.

:class:`Observability` sits outside everything else, the single-word fast lane included
(:class:`service.hotpath.WordLane`), so every request is counted and logged whichever layer
answers it; it measures and never answers a request itself. It is plain ASGI on purpose:
the lookup it wraps costs tens of microseconds, and a per-request object or a framework
middleware would cost as much. Per request it reads the status from the response start,
keeps the first and last bytes of the body (the answer's ``release`` label is in one of
them), and afterwards increments one counter, observes one histogram and writes one line.

What ``GET /metrics`` shows (Prometheus text format):

* ``lexicon_http_requests_total{method, route, status}``: ``route`` is the route template
  (``/v1/games/{game}/words/{word}``), never the path: a path holds the word, and labels
  must stay a bounded set (an unknown path is ``unmatched``, a method outside HTTP's
  standard ones ``other``: each distinct label value is a series kept in memory and in the
  metrics files for the life of the process);
* ``lexicon_http_request_duration_seconds{route}``: latency histogram;
* ``lexicon_verdicts_total{game, valid, reason}``: word verdicts of ``/words``, ``/check``
  and ``/valid`` by reason code (the lean ``/valid`` gives none: ``unexplained``);
* ``lexicon_rulings_total{game, verdict}``: judge rulings written (each is a line in the
  rulings log);
* ``lexicon_release_info{game, release}`` and ``lexicon_game_state{game, state}`` (1 for the
  state the game is in: ``serving``, ``no_release``, ``damaged``), plus
  ``lexicon_games_not_serving``: read from the catalog at scrape time;
* ``lexicon_metrics_writable``: 0 while this process cannot write its counters (below).

Counting never takes a request down. In multi-process mode prometheus-client keeps each
worker's counters in a memory-mapped file that it grows by ``truncate``: a sparse file,
whose pages are given disk blocks only when first written through the mapping, and a
write through a mapping to a full filesystem is a SIGBUS, not an error (the shipped unit
puts the directory on the ``/run`` tmpfs). :class:`ReservedMmapedDict` reserves the blocks
with ``posix_fallocate`` before any page is mapped, so a full filesystem is an ``OSError``
at the growth instead; every write is done in :func:`counting`, which turns that error
into "metrics unwritable" (``/healthz``, ``/readyz``, the gauge above), skips counting for
:data:`RETRY_SECONDS` and tries again, while the request is answered as usual.

With several worker processes (``lexicon serve --workers N``) the counters live in
prometheus-client's multi-process files (``PROMETHEUS_MULTIPROC_DIR``, set and emptied by
``serve`` before the workers import this module), so any worker's ``/metrics`` shows the
sum over all workers. The access line (``LEXICON_ACCESS_LOG=1``, which ``serve`` sets) is
one JSON object on stdout: time, method, route template, status, game, duration, release,
worker pid; never a word, a query string or a body, so a hidden judge ruling stays hidden.
"""

from __future__ import annotations

import atexit
import errno
import fcntl
import functools
import json
import os
import re
import shutil
import struct
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import Response
from lexicon.service import inflight
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client import values as prometheus_values
from prometheus_client.core import GaugeMetricFamily, InfoMetricFamily
from prometheus_client.mmap_dict import MmapedDict
from prometheus_client.multiprocess import MultiProcessCollector
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lexicon import EXIT_BUSY, EXIT_FAILED, Catalog, LexiconError, game_ids

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
ACCESS_LOG_ENV = "LEXICON_ACCESS_LOG"
WORD_ROUTE = "/v1/games/{game}/words/{word}"
STATES = ("serving", "no_release", "damaged")
_SAFE = re.compile(r"[A-Za-z0-9_.:+-]+")   # release ids: no JSON escaping
_KEEP = 512          # bytes kept from each end of a body: the answer's release label
#: The ``method`` label's values; any other method string is counted as ``other``.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE",
                     "CONNECT"})
RETRY_SECONDS = 1.0   # after a failed write, counting is skipped this long, then retried
#: What a write to the metrics files raises when it cannot be done: a full or read-only
#: filesystem, a removed directory (OSError), a damaged file (RuntimeError, struct.error).
WRITE_ERRORS = (OSError, ValueError, RuntimeError, struct.error)


class ReservedMmapedDict(MmapedDict):
    """prometheus-client's counter file, with its disk blocks reserved before they are
    mapped (see the module doc): a full filesystem is an OSError here, never a SIGBUS."""

    def __init__(self, filename: str, read_mode: bool = False) -> None:
        if not read_mode:
            fd = os.open(filename, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                os.posix_fallocate(fd, 0, max(os.fstat(fd).st_size, _INITIAL_SIZE))
            finally:
                os.close(fd)
        super().__init__(filename, read_mode)

    def _init_value(self, key: str) -> None:
        encoded = len(key.encode("utf-8"))
        need = 4 + encoded + (8 - (encoded + 4) % 8) + 16   # the parent's record size
        capacity = self._capacity
        while self._used + need > capacity:
            capacity *= 2                                 # as the parent grows it
        if capacity != self._capacity:
            os.posix_fallocate(self._f.fileno(), 0, capacity)
        super()._init_value(key)


_INITIAL_SIZE = 1 << 16   # prometheus-client's first size of a counter file
# prometheus-client opens its files through this module global when a value is first made
prometheus_values.MmapedDict = ReservedMmapedDict   # type: ignore[attr-defined]

_unwritable: dict[str, Any] = {}   # {"error", "since"} while this process cannot count
_retry_at = 0.0


def write_state() -> dict[str, Any]:
    """``{"state": "ok"}``, or ``"unwritable"`` with the error and since when (UTC), for
    ``/healthz`` and ``/readyz``: requests are served either way, uncounted meanwhile."""
    return {"state": "unwritable", **_unwritable} if _unwritable else {"state": "ok"}


def _write_failed(exc: BaseException) -> None:
    global _retry_at
    if not _unwritable:
        _unwritable["since"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        print(json.dumps({"metrics": "unwritable", "error": f"{type(exc).__name__}: {exc}",
                          "pid": os.getpid()}), file=sys.stderr, flush=True)
    _unwritable["error"] = f"{type(exc).__name__}: {exc}"
    _retry_at = time.monotonic() + RETRY_SECONDS


def counting(write: Callable[..., None]) -> Callable[..., None]:
    """``write`` (a function that counts) made harmless: a failure to write the metrics
    files is reported (:func:`write_state`), never raised into the request."""

    @functools.wraps(write)
    def guarded(*args: Any) -> None:
        if _unwritable and time.monotonic() < _retry_at:
            return
        try:
            write(*args)
        except WRITE_ERRORS as exc:
            _write_failed(exc)
            return
        if _unwritable:
            _unwritable.clear()     # written again (space freed): counting resumes
    return guarded


def method_label(method: str) -> str:
    """The ``method`` label: the method itself when it is a standard one, else ``other``."""
    return method if method in METHODS else "other"

disable_created_metrics()          # no ``*_created`` series: half the exposition, no use here
_REGISTRY = CollectorRegistry()   # this process's own metrics (one-process mode)
REQUESTS = Counter("lexicon_http_requests", "HTTP requests by method, route template and "
                   "status", ["method", "route", "status"], registry=_REGISTRY)
LATENCY = Histogram("lexicon_http_request_duration_seconds", "HTTP request latency by route "
                    "template", ["route"], registry=_REGISTRY,
                    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                             1.0, 2.5, 5.0, 10.0))
VERDICTS = Counter("lexicon_verdicts", "word verdicts by game, validity and reason code",
                   ["game", "valid", "reason"], registry=_REGISTRY)
RULINGS = Counter("lexicon_rulings", "judge rulings written, by game and verdict",
                  ["game", "verdict"], registry=_REGISTRY)
_OWN = (REQUESTS, LATENCY, VERDICTS, RULINGS)

# children by label values: ``labels()`` takes a lock and builds a key on every call
_children: dict[tuple[Any, ...], Any] = {}


def _child(metric: Any, *values: str) -> Any:
    key = (metric, *values)
    child = _children.get(key)
    if child is None:
        child = _children[key] = metric.labels(*values)
    return child


@counting
def count_verdict(game: str, result: dict[str, Any]) -> None:
    """One word verdict (a :func:`lexicon.verdicts.checker.check_word` answer)."""
    reason = result.get("reason")
    _child(VERDICTS, game, "true" if result.get("valid") else "false",
           reason["code"] if reason else "").inc()


@counting
def count_verdicts(game: str, results: Iterable[dict[str, Any]]) -> None:
    """A batch's verdicts, counted per (validity, reason) first: one increment per kind."""
    kinds: dict[tuple[str, str], int] = {}
    for r in results:
        if "error" in r:
            key = ("error", r["error"].get("code", ""))
        else:
            reason = r.get("reason")
            key = ("true" if r.get("valid") else "false", reason["code"] if reason else "")
        kinds[key] = kinds.get(key, 0) + 1
    for (valid, reason), n in kinds.items():
        _child(VERDICTS, game, valid, reason).inc(n)


@counting
def count_flags(game: str, flags: list[bool]) -> None:
    """The lean ``/valid`` batch: booleans, no reasons."""
    valid = sum(flags)
    if valid:
        _child(VERDICTS, game, "true", "").inc(valid)
    if len(flags) - valid:
        _child(VERDICTS, game, "false", "unexplained").inc(len(flags) - valid)


class CatalogState:
    """Collector read at scrape time: the release each game serves and its state."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def collect(self) -> Iterable[Any]:
        info = InfoMetricFamily("lexicon_release", "the release each game serves",
                                labels=["game"])
        state = GaugeMetricFamily("lexicon_game_state", "1 for the state each game is in "
                                  "(serving, no_release, damaged)", labels=["game", "state"])
        down = 0
        for game in self.catalog.games():
            s = self.catalog.state(game)
            if s["release"]:
                info.add_metric([game], {"release": s["release"]})
            for name in STATES:
                state.add_metric([game, name], 1.0 if s["state"] == name else 0.0)
            down += s["state"] != "serving"
        yield info
        yield state
        yield GaugeMetricFamily("lexicon_games_not_serving", "games damaged or without a "
                                "release", value=down)
        yield GaugeMetricFamily("lexicon_metrics_writable", "0 while this process cannot "
                                "write its counters (a full or read-only metrics directory): "
                                "requests are served, not counted", value=0 if _unwritable
                                else 1)


def exposition(catalog: Catalog) -> bytes:
    """The ``/metrics`` body: every worker's counters (multi-process mode) or this
    process's, and the catalog's state."""
    registry = CollectorRegistry()
    if os.environ.get(MULTIPROC_ENV):
        MultiProcessCollector(registry)
    else:
        for metric in _OWN:
            registry.register(metric)
    registry.register(CatalogState(catalog))
    try:
        return generate_latest(registry)
    except WRITE_ERRORS:    # a counter file cut short (its disk filled): the states still
        registry = CollectorRegistry()
        registry.register(CatalogState(catalog))
        return generate_latest(registry)


#: The files prometheus-client writes in ``PROMETHEUS_MULTIPROC_DIR`` (type, writer pid).
METRICS_FILE = re.compile(r"(?:counter|histogram|summary|gauge_[a-z]+)_\d+\.db")
OWNED_ENV = "LEXICON_METRICS_DIR_OWNED"   # "1": the directory is serve's own (a temp dir)
MANAGER_ENV = "LEXICON_SERVE_PID"         # the process that spawned the workers


#: The lock a serving process holds (shared) on its metrics directory for its whole life.
DIR_LOCK = ".lexicon-serve.lock"
_dir_locks: dict[str, int] = {}     # directory -> this process's descriptor of its lock


def _unusable(path: Path, why: str) -> LexiconError:
    return LexiconError(f"the metrics directory {path} ({MULTIPROC_ENV}) {why}",
                        code="metrics_dir_unusable", status=500, exit_code=EXIT_FAILED,
                        detail={"path": str(path)})


def _claim(path: Path) -> int | None:
    """The metrics directory's lock, taken exclusively: no live server (manager or worker)
    uses the directory. Refused with ``metrics_dir_in_use`` (exit 4) when one does; None
    when the lock file cannot be made on a full filesystem (serving goes on uncounted)."""
    try:
        fd = os.open(path / DIR_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            return None
        raise _unusable(path, f"cannot be written ({exc.strerror})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise LexiconError(
            f"the metrics directory {path} ({MULTIPROC_ENV}) is in use by a running server "
            f"(pid {holder}); its files are left alone: give each server a directory of its "
            "own", code="metrics_dir_in_use", status=409, exit_code=EXIT_BUSY,
            detail={"path": str(path), "pid": holder}) from None
    try:    # who holds it, for the message of a refused second server
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError:
        pass    # a full filesystem: the lock holds all the same
    return fd


def share_dir_lock() -> None:
    """In a serving process: hold the metrics directory's lock, shared, for the process's
    life (the kernel drops it at its death), so that no other ``serve`` empties the
    directory while this process writes there. Once per process; where it cannot be
    taken (no directory, a full filesystem) serving goes on as before."""
    given = os.environ.get(MULTIPROC_ENV)
    if not given or given in _dir_locks:
        return
    try:
        fd = os.open(Path(given) / DIR_LOCK, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return
    _dir_locks[given] = fd


def prepare_multiprocess() -> Path:
    """Before the workers start: the shared metrics directory, emptied of the metrics files
    of an earlier run (they would add their counts). ``PROMETHEUS_MULTIPROC_DIR`` if set,
    else a new one removed when ``serve`` exits. A directory is only ever emptied of
    metrics files: one holding anything else is refused (``metrics_dir_unusable``: it is
    then not a metrics directory but a wrong path, say ``LEXICON_HOME``), and so is a path
    that is no directory or cannot be written. A directory a live server uses (it holds
    the directory's lock: :func:`share_dir_lock`) is refused untouched
    (``metrics_dir_in_use``): emptying it would zero that server's counts for good. This
    process then holds the lock, shared, for its life, as its workers do."""
    given = os.environ.get(MULTIPROC_ENV)
    if not given:
        path = Path(tempfile.mkdtemp(prefix="lexicon-metrics-"))
        atexit.register(shutil.rmtree, path, True)
        os.environ[OWNED_ENV] = "1"
        fd = _claim(path)
    else:
        path = Path(given)
        _check_metrics_dir(path)
        fd = _claim(path)
        _empty_metrics_dir(path)
        os.environ.pop(OWNED_ENV, None)
    if fd is not None:
        fcntl.flock(fd, fcntl.LOCK_SH)      # the workers share it from now on
        _dir_locks[str(path)] = fd
    try:   # can it be written? (a full filesystem is not refused: serving goes on uncounted)
        probe = path / f".lexicon-probe-{os.getpid()}"
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        probe.unlink()
    except OSError as exc:
        if exc.errno != errno.ENOSPC:
            raise _unusable(path, f"cannot be written ({exc.strerror})") from None
    os.environ[MULTIPROC_ENV] = str(path)
    os.environ[MANAGER_ENV] = str(os.getpid())
    return path


def remove_orphaned_dir() -> None:
    """At a worker's shutdown, once its requests are done: when its manager has died
    (``service.launch.follow_parent``: a SIGKILLed manager removes nothing), the metrics
    directory ``serve`` made for itself is removed, files and all; the last worker to shut
    down removes what the others wrote meanwhile. A directory the operator gave is left."""
    given = os.environ.get(MULTIPROC_ENV)
    manager = os.environ.get(MANAGER_ENV, "")
    if (not given or os.environ.get(OWNED_ENV) != "1" or not manager.isdigit()
            or os.getppid() == int(manager)):
        return
    try:
        for entry in os.scandir(given):
            if METRICS_FILE.fullmatch(entry.name) or entry.name == DIR_LOCK:
                os.unlink(entry.path)
        os.rmdir(given)
    except OSError:
        pass   # a sibling still serving wrote again: it removes the directory at its end


def _metrics_entries(path: Path) -> list[os.DirEntry[str]]:
    """The directory's metrics files (its lock left out)."""
    try:
        return [e for e in os.scandir(path) if e.name != DIR_LOCK]
    except OSError as exc:
        raise _unusable(path, f"cannot be read ({exc.strerror})") from None


def _check_metrics_dir(path: Path) -> None:
    """The directory exists (made if need be) and holds metrics files only."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise _unusable(path, "is not a directory") from None
    except OSError as exc:
        raise _unusable(path, f"cannot be made ({exc.strerror})") from None
    others = sorted(e.name for e in _metrics_entries(path)
                    if not (METRICS_FILE.fullmatch(e.name) and e.is_file(follow_symlinks=False)))
    if others:
        raise _unusable(path, f"holds {len(others)} entries that are not metrics files "
                        f"({', '.join(others[:5])}); not emptying it: point "
                        f"{MULTIPROC_ENV} at a directory of its own")


def _empty_metrics_dir(path: Path) -> None:
    """Remove the metrics files of an earlier run (checked, under the exclusive lock)."""
    for entry in _metrics_entries(path):
        try:
            os.unlink(entry.path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise _unusable(path, f"cannot be emptied ({exc.strerror})") from None


def _field(name: bytes, *parts: bytes) -> str | None:
    """The string value of JSON field ``name`` in the first part that has it."""
    for part in parts:
        at = part.find(name)
        if at >= 0:
            end = part.find(b'"', at + len(name))
            if end > 0:
                return part[at + len(name):end].decode("utf-8", "replace")
    return None


@counting
def _count_request(method: str, route: str, status: int, seconds: float, game: str,
                   head: bytes) -> None:
    _child(REQUESTS, method, route, str(status)).inc()
    _child(LATENCY, route).observe(seconds)
    if status == 200 and route == "/v1/games/{game}/judge":
        verdict = _field(b'"verdict":"', head)
        _child(RULINGS, game, verdict if verdict in ("stands", "falls") else "unknown").inc()


class Observability:
    """Counts, times and logs every request (see the module doc) that ``app`` answers."""

    def __init__(self, app: ASGIApp, routes: list[Any], access_log: bool) -> None:
        self.app = app
        self.routes = routes
        self.games = frozenset(game_ids())
        self.access_log = access_log
        self.pid = os.getpid()
        self._second, self._stamp = 0, ""

    def _route(self, scope: Scope, root_path: str) -> tuple[str, str]:
        """(route template, game) of a request that has been answered."""
        parts = scope["path"].split("/")
        if (len(parts) == 6 and parts[1] == "v1" and parts[2] == "games"
                and parts[4] == "words"):
            return WORD_ROUTE, parts[3]
        route = scope.get("route")
        params = scope.get("path_params") or {}
        if route is None:   # HEAD (answered as a copy of the scope), a mount, a 404
            probe = {"type": "http", "path": scope["path"], "method": "GET",
                     "root_path": root_path}   # as it came in: a mount rewrites it
            for candidate in self.routes:
                match, child = candidate.matches(probe)
                if match is not Match.NONE:
                    route, params = candidate, child.get("path_params", {})
                    break
        if route is None:
            return "unmatched", ""
        return getattr(route, "path", "unmatched"), params.get("game", "")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        serial = inflight.enter()     # a read lease waits for it (service.inflight)
        start = time.perf_counter()
        root_path = scope.get("root_path", "")
        status = 500
        head = tail = b""
        try:
            async def observed(message: Message) -> None:
                nonlocal status, head, tail
                if message["type"] == "http.response.start":
                    status = message["status"]
                elif message["type"] == "http.response.body":
                    body = message.get("body", b"")
                    if len(head) < _KEEP:
                        head += body[:_KEEP]
                    tail = (tail + body)[-_KEEP:] if len(body) < _KEEP else body[-_KEEP:]
                await send(message)

            await self.app(scope, receive, observed)
        finally:
            inflight.leave(serial)
            self.record(scope, root_path, status, time.perf_counter() - start, head, tail)

    def record(self, scope: Scope, root_path: str, status: int, seconds: float,
               head: bytes, tail: bytes) -> None:
        """Count, time and log one answered request: the ones :meth:`__call__` passes on,
        and the ones a dispatcher in front answers itself (``service.hotpath``), which
        report here what they sent (``head``/``tail``: the body's first and last bytes)."""
        route, game = self._route(scope, root_path)
        if game not in self.games:
            game = ""    # a label only for known games: labels stay a bounded set
        method = method_label(scope["method"])
        _count_request(method, route, status, seconds, game, head)
        if self.access_log:
            self._log(method, route, status, game, seconds,
                      _field(b'"release":"', head, tail) if game else None)

    def _log(self, method: str, route: str, status: int, game: str, seconds: float,
             release: str | None) -> None:
        """One JSON line, written by hand: ``json.dumps`` cost more than the counters and
        the histogram together. Every field is ours (a method label, a route template, a
        known game id, a release id) or checked here; anything else goes through
        ``json.dumps``."""
        now = time.time()
        second = int(now)
        if second != self._second:
            self._second = second
            self._stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        if release is None or not _SAFE.fullmatch(release):
            release_json = json.dumps(release)
        else:
            release_json = f'"{release}"'
        game_json = f'"{game}"' if game else "null"
        line = (f'{{"time":"{self._stamp}.{int(now * 1000) % 1000:03d}Z","method":"{method}",'
                f'"route":"{route}","status":{status},'
                f'"game":{game_json},'
                f'"ms":{seconds * 1000:.3f},"release":{release_json},"pid":{self.pid}}}\n')
        os.write(1, line.encode())   # one write a line: the lines of workers never mix


def install(app: FastAPI, catalog: Catalog, inner: ASGIApp) -> Observability:
    """``GET /metrics``, and the middleware that measures ``inner`` (the app, FastAPI's own
    error layers included) (:class:`Observability`): the caller sends it every request the
    single-word lane in front does not answer (``service.app.Service``), and the lane
    reports its own answers to :meth:`Observability.record`."""
    share_dir_lock()

    @app.get("/metrics", tags=["service"], response_class=Response,
             responses={200: {"content": {CONTENT_TYPE_LATEST: {}}}})
    def metrics() -> Response:
        """Prometheus metrics: requests, latency, verdicts, rulings, releases, game states
        (summed over every worker process)."""
        return Response(exposition(catalog), media_type=CONTENT_TYPE_LATEST)

    app.router.on_shutdown.append(remove_orphaned_dir)   # a worker, its requests done
    return Observability(inner, app.router.routes,
                         access_log=os.environ.get(ACCESS_LOG_ENV, "") == "1")
