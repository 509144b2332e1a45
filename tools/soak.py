"""Soak figure: a worker's own memory over a long run of mixed traffic on ``lexicon serve
--workers 2``. Part of ``make bench`` (``make soak`` alone).

    python -m tools.soak --home /work/data [--minutes 30] [--sample-every 5]
                         [--publish-game osps] [--samples FILE]

The server is the real ``lexicon serve --workers 2`` on 127.0.0.1, over a scratch home
whose release directories link the releases of ``--home`` (which is only read, never
written: the amend, the offline packs, the rulings log and the metrics files stay in the
scratch directory). For ``--minutes`` a few client threads send, each bounded in time and
paced:

* look-ups: single words of every game (valid keys and near misses), one after another;
* batches: ``POST /valid`` of up to the limit (100,000 words) and ``POST /check`` of up to
  its limit (10,000), in every game with a release;
* queries and rulings: pattern, blanks, anagrams, hooks, prefix, ``extend`` in every game,
  ``POST /judge`` 6-word plays, Remik moves (a small one and, now and then, one of the
  heaviest a request may carry);
* the offline packs: ``/offline`` and each game's rules and words, the first download
  making the pack in the server (as a phone saving a game does), again every few minutes;
* one publish (``lexicon amend`` of ``--publish-game``, two words removed) at
  ``--publish-at`` minutes, after which the packs of the new release are downloaded too.

Meanwhile every ``--sample-every`` seconds each worker's anonymous resident memory is read
from ``/proc/PID/status`` (``RssAnon``) and ``/proc/PID/smaps_rollup`` (``Anonymous``):
the memory that is the worker's own, as opposed to the pages of the memory-mapped releases
it shares with the page cache. Prints one JSON object (``soak``): per worker its
``RssAnon`` at the start (after every game was opened and the first requests answered),
its peak and its end, and the least-squares slope (MB/min) over the last ``--window``
minutes (10, or a third of a shorter run), beside the target; the answers by kind and
status. ``--samples FILE`` writes every sample as a JSON line too.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from lexicon.service.launch import free_port

from lexicon.catalog import Catalog
from lexicon.game.tiles import speller
from lexicon.verdicts import remik
from tools import figures
from tools.bench import _mix, _rack, _sample_keys
from tools.remik_flood import SMALL_MOVE, heavy_move

GAMES = ("osps", "kvizovka", "krizemkrazem", "remik")
TARGET = "per worker: RssAnon slope over the last 10 minutes within +-1 MB/min (bounded)"
SLOPE_BOUND = 1.0              # MB/min
BATCH_WORDS = 100_000          # POST /valid's limit (fastcheck.MAX_WORDS)
CHECK_WORDS = 10_000           # POST /check's limit (checker.MAX_BATCH)
REQUEST_TIMEOUT = 120.0
PACK_TIMEOUT = 600.0           # the first download of a big game's pack makes it
PACK_ASKS = 3                  # a pack file answered 503 is asked for again this often
PATTERNS = ("?A??K", "KA?IN", "*OWY", "*OST", "K?T*")


def _log(msg: str) -> None:
    print(f"[soak {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# -- memory ----------------------------------------------------------------------------------

def _kb_field(text: str, field: str) -> int | None:
    found = re.search(rf"^{field}:\s+(\d+) kB", text, re.M)
    return int(found.group(1)) if found else None


def anon_mb(pid: int) -> dict[str, float | None]:
    """A process's own memory, MiB: ``RssAnon`` (status) and ``Anonymous`` (smaps_rollup),
    with ``VmRSS`` beside them."""
    status = Path(f"/proc/{pid}/status").read_text()
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        rollup = ""

    def mb(kb: int | None) -> float | None:
        return None if kb is None else round(kb / 1024, 1)

    return {"rss_anon": mb(_kb_field(status, "RssAnon")),
            "anonymous": mb(_kb_field(rollup, "Anonymous")),
            "rss": mb(_kb_field(status, "VmRSS"))}


def workers_of(manager: int) -> list[int]:
    """The uvicorn worker processes of a ``lexicon serve --workers N`` manager: its
    spawned children, multiprocessing's resource tracker left out."""
    out = []
    for task in Path(f"/proc/{manager}/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            try:
                cmd = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if b"spawn_main" in cmd and b"resource_tracker" not in cmd:
                out.append(child)
    return sorted(out)


def slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of (minutes, MB): MB per minute (None under two points)."""
    if len(points) < 2:
        return None
    n = len(points)
    mx = sum(t for t, _ in points) / n
    my = sum(v for _, v in points) / n
    sxx = sum((t - mx) ** 2 for t, _ in points)
    if sxx == 0:
        return None
    return sum((t - mx) * (v - my) for t, v in points) / sxx


class Sampler:
    """Reads every worker's memory every ``every`` seconds, in a thread of its own."""

    def __init__(self, manager: int, every: float, out: Path | None) -> None:
        self.manager, self.every = manager, every
        self.samples: dict[int, list[tuple[float, dict[str, float | None]]]] = {}
        self.started = time.monotonic()
        self.marks: list[tuple[float, str]] = []
        self._out = out.open("w", encoding="utf-8") if out else None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sampler", daemon=True)

    def minutes(self) -> float:
        return (time.monotonic() - self.started) / 60

    def mark(self, what: str) -> None:
        """Note an event (a publish) on the time line."""
        self.marks.append((round(self.minutes(), 2), what))
        if self._out:
            self._out.write(json.dumps({"minute": round(self.minutes(), 2), "event": what})
                            + "\n")

    def sample(self) -> None:
        t = self.minutes()
        for pid in workers_of(self.manager):
            try:
                mem = anon_mb(pid)
            except OSError:
                continue
            self.samples.setdefault(pid, []).append((t, mem))
            if self._out:
                self._out.write(json.dumps({"minute": round(t, 3), "pid": pid, **mem}) + "\n")
                self._out.flush()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.sample()

    def start(self) -> None:
        self.started = time.monotonic()
        self.sample()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()
        if self._out:
            self._out.close()

    def figures(self, window: float, alive: list[int]) -> list[dict[str, Any]]:
        """Per worker process sampled (a worker uvicorn restarted is a new one; ``alive``:
        those running at the end): start, peak, end and the slope over the last
        ``window`` minutes of its samples."""
        out = []
        for pid, rows in sorted(self.samples.items()):
            anon = [(t, m["rss_anon"]) for t, m in rows if m["rss_anon"] is not None]
            if not anon:
                continue
            end_t = anon[-1][0]
            last = [(t, v) for t, v in anon if t >= end_t - window]
            peak_t, peak = max(anon, key=lambda p: p[1])
            s = slope(last)
            out.append({
                "pid": pid, "samples": len(anon),
                "start_mb": anon[0][1], "peak_mb": peak, "peak_at_min": round(peak_t, 1),
                "end_mb": anon[-1][1],
                "smaps_anonymous_end_mb": rows[-1][1]["anonymous"],
                "rss_end_mb": rows[-1][1]["rss"],
                "window_min": round(end_t - last[0][0], 1),
                "slope_mb_per_min": None if s is None else round(s, 3),
                "bounded": s is not None and abs(s) <= SLOPE_BOUND,
                "alive_at_end": pid in alive,
            })
        return out


# -- the server ------------------------------------------------------------------------------

def scratch_home(src: Path, dst: Path) -> Path:
    """A home in ``dst`` whose releases are ``src``'s, linked (each release directory a
    symbolic link, ``CURRENT`` a copy): a publish writes a new release and ``CURRENT`` in
    ``dst`` only, and the packs, rulings and metrics go there too."""
    for game_dir in sorted((src / "releases").iterdir()):
        if not game_dir.is_dir():
            continue
        mine = dst / "releases" / game_dir.name
        mine.mkdir(parents=True)
        for entry in game_dir.iterdir():
            if entry.is_dir() and not entry.name.startswith("."):
                (mine / entry.name).symlink_to(entry.resolve(), target_is_directory=True)
            elif entry.name == "CURRENT":
                shutil.copyfile(entry, mine / "CURRENT")
    return dst


@contextmanager
def serve(home: Path, scratch: Path, workers: int) -> Iterator[tuple[str, int]]:
    """``lexicon serve --workers N`` on a free loopback port: (base URL, manager pid)."""
    port = free_port()
    env = {**os.environ, "LEXICON_HOME": str(home),
           "LEXICON_RULINGS": str(scratch / "rulings"),
           "PROMETHEUS_MULTIPROC_DIR": str(scratch / "metrics")}
    log = (scratch / "serve.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "lexicon.cli.main", "serve",
                             "--host", "127.0.0.1", "--port", str(port),
                             "--workers", str(workers)],
                            env=env, stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                httpx.get(base + "/healthz", timeout=2)
                if len(workers_of(proc.pid)) >= workers:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        if proc.poll() is not None:
            raise RuntimeError("server did not start: " +
                               (scratch / "serve.log").read_text(errors="replace")[-2000:])
        yield base, proc.pid
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


# -- the traffic -----------------------------------------------------------------------------

class Words:
    """What the clients send, drawn once from the releases (in this process)."""

    def __init__(self, home: Path, games: list[str], seed: int = 5) -> None:
        cat = Catalog(home)
        rng = random.Random(seed)
        self.games = games
        self.typed: dict[str, list[str]] = {}      # valid keys and near misses, typed
        self.valid: dict[str, list[str]] = {}      # valid keys only, typed
        self.racks: dict[str, list[str]] = {}
        try:
            for game in games:
                sp = speller(cat.profile(game))
                keys = _sample_keys(cat, game, 6_000, seed=seed)
                self.valid[game] = [sp.to_latin(k) for k in keys]
                self.typed[game] = [sp.to_latin(k) for k in _mix(keys)]
                profile = cat.profile(game)
                self.racks[game] = [_rack(profile, rng, 7, j % 2) for j in range(50)]
        finally:
            cat.close()

    def batch(self, game: str, n: int, rng: random.Random) -> list[str]:
        words = self.typed[game]
        return [words[rng.randrange(len(words))] for _ in range(n)]


class Tally:
    """Answers by kind and status (or transport error), from every client thread."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()

    def add(self, kind: str, outcome: str) -> None:
        with self._lock:
            self.counts[kind, outcome] += 1

    def send(self, kind: str, call: Callable[..., httpx.Response], *args: Any,
             **kwargs: Any) -> httpx.Response | None:
        """``call(*args, **kwargs)``, its outcome counted under ``kind``."""
        try:
            r = call(*args, **kwargs)
        except httpx.TimeoutException:
            self.add(kind, "timeout")
            return None
        except httpx.TransportError as exc:
            self.add(kind, type(exc).__name__)
            return None
        self.add(kind, str(r.status_code))
        if r.status_code == 503:             # busy / not ready: wait as told
            time.sleep(min(float(r.headers.get("retry-after", 1) or 1), 5))
        return r

    def table(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for (kind, outcome), n in sorted(self.counts.items()):
            out.setdefault(kind, {})[outcome] = n
        return out


def client(base: str, timeout: float) -> httpx.Client:
    """A client that opens a connection per request: a kept-alive connection stays with the
    worker that accepted it, and every request of the thread would go to that one."""
    return httpx.Client(base_url=base, timeout=timeout,
                        limits=httpx.Limits(max_keepalive_connections=0))


def _loop(until: float, pause: float, stop: threading.Event, step: Callable[[int], None]
          ) -> None:
    i = 0
    while time.monotonic() < until and not stop.is_set():
        step(i)
        i += 1
        stop.wait(pause)


def lookups(base: str, words: Words, tally: Tally, until: float, stop: threading.Event
            ) -> None:
    with client(base, REQUEST_TIMEOUT) as http:
        def step(i: int) -> None:
            game = words.games[i % len(words.games)]
            w = words.typed[game][(i // len(words.games)) % len(words.typed[game])]
            tally.send("lookup", http.get,
                f"/v1/games/{game}/words/" + urllib.parse.quote(w))
        _loop(until, 0.01, stop, step)


def batches(base: str, words: Words, tally: Tally, until: float, stop: threading.Event
            ) -> None:
    rng = random.Random(11)
    with client(base, REQUEST_TIMEOUT) as http:
        def step(i: int) -> None:
            game = words.games[i % len(words.games)]
            if i % 3 == 2:
                body = {"words": words.batch(game, CHECK_WORDS, rng)}
                tally.send("check_batch", http.post, f"/v1/games/{game}/check",
                                                            json=body)
            else:
                n = BATCH_WORDS if i % 3 == 0 else rng.randrange(4_096, BATCH_WORDS)
                body = {"words": words.batch(game, n, rng)}
                tally.send("valid_batch", http.post, f"/v1/games/{game}/valid",
                                                            json=body)
        _loop(until, 1.0, stop, step)


def queries(base: str, words: Words, tally: Tally, until: float, stop: threading.Event
            ) -> None:
    rng = random.Random(13)
    heavy = [heavy_move(1), heavy_move(2)]
    with client(base, REQUEST_TIMEOUT) as http:
        def step(i: int) -> None:
            game = words.games[i % len(words.games)]
            w = words.typed[game][rng.randrange(len(words.typed[game]))]
            rack = words.racks[game][rng.randrange(len(words.racks[game]))]
            kind = i // len(words.games) % 8
            g = f"/v1/games/{game}"
            if kind == 0:
                tally.send("pattern", http.get,
                    g + "/pattern", params={"pattern": PATTERNS[i % len(PATTERNS)]})
            elif kind == 1:
                tally.send("anagrams", http.get, g + "/anagrams", params={"rack": rack})
            elif kind == 2:
                tally.send("hooks", http.get, g + "/hooks", params={"word": w})
                tally.send("prefix", http.get, g + "/prefix", params={"prefix": w[:3]})
            elif kind == 3:
                tally.send("blanks", http.get,
                    g + "/blanks", params={"word": w[:-1] + "?" if len(w) > 2 else "k?t"})
            elif kind == 4:
                tally.send("extend", http.get,
                    g + "/extend", params={"word": w[:4], "rack": rack[:3]})
            elif kind in (5, 6):
                play = [words.typed[game][rng.randrange(len(words.typed[game]))]
                        for _ in range(6)]
                tally.send("judge", http.post, g + "/judge", json={"words": play})
            else:
                body: dict[str, Any] = dict(SMALL_MOVE)
                if i % 5 == 0:                 # now and then one of the heaviest moves
                    body = heavy[i % 2]
                tally.send("remik_move", http.post, "/v1/games/remik/move", json=body)
        _loop(until, 0.05, stop, step)


def packs(base: str, games: list[str], tally: Tally, until: float, stop: threading.Event,
          every: float) -> None:
    """Each game's offline pack, as a phone saving the game downloads it; again every
    ``every`` seconds (a publish meanwhile: the new release's pack)."""
    with client(base, PACK_TIMEOUT) as http:
        def step(_i: int) -> None:
            for game in games:
                if stop.is_set() or time.monotonic() >= until:
                    return
                r = tally.send("offline", http.get, f"/v1/games/{game}/offline")
                if r is None or r.status_code != 200:
                    continue
                info = r.json()
                # the other worker may still be reading or making the pack: a 503 is asked
                # again after its Retry-After (Tally.send waits it), a few times
                for kind, extra in (("pack_rules", {}),
                                    ("pack_words", {"accept-encoding": "gzip"})):
                    for _ in range(PACK_ASKS):
                        got = tally.send(kind, http.get, info[kind[5:]], headers=extra)
                        if got is None or got.status_code != 503 or stop.is_set():
                            break
        _loop(until, every, stop, step)


def publish(home: Path, scratch: Path, game: str, words: Words) -> dict[str, Any]:
    """``lexicon amend GAME`` removing two words: a new release, published under the
    running server."""
    ov = scratch / "soak-overrides.tsv"
    chosen = words.valid[game][:2]
    ov.write_text("".join(f"{w}\tremove\tsoak\n" for w in chosen), encoding="utf-8")
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "lexicon.cli.main", "amend", game,
                        "--overrides", str(ov)], capture_output=True, text=True, check=False,
                       env={**os.environ, "LEXICON_HOME": str(home),
                            "LEXICON_PROGRESS": "off"})
    return {"game": game, "exit": p.returncode, "release": p.stdout.strip() or None,
            "seconds": round(time.monotonic() - t0, 1),
            "error": p.stderr.strip()[-300:] if p.returncode else None}


# -- the run ---------------------------------------------------------------------------------

def run(src: Path, minutes: float, every: float, publish_game: str | None,
        publish_at: float | None, window: float, samples: Path | None,
        pack_every: float) -> dict[str, Any]:
    cat = Catalog(src)
    try:
        games = [g for g in GAMES if cat.state(g)["state"] == "serving"]
    finally:
        cat.close()
    if not games:
        raise SystemExit(f"no game has a release in {src}")
    _log(f"drawing words of {', '.join(games)}")
    words = Words(src, games)
    publish_at = minutes / 3 if publish_at is None else publish_at
    window = min(window, minutes / 3)
    with tempfile.TemporaryDirectory(prefix="lexicon-soak-") as tmp:
        scratch = Path(tmp)
        home = scratch_home(src, scratch / "home")
        with serve(home, scratch, 2) as (base, manager):
            with client(base, REQUEST_TIMEOUT) as http:
                for game in games:   # every worker opens every game before the start
                    for _ in range(4):
                        http.get(f"/v1/games/{game}/words/kot")
                        http.get(f"/v1/games/{game}/pattern", params={"pattern": "?A??K"})
            sampler = Sampler(manager, every, samples)
            tally = Tally()
            stop = threading.Event()
            sampler.start()
            until = time.monotonic() + minutes * 60
            _log(f"serving at {base}, workers {workers_of(manager)}; {minutes} min of "
                 f"traffic")
            clients = [
                threading.Thread(target=lookups, args=(base, words, tally, until, stop)),
                threading.Thread(target=batches, args=(base, words, tally, until, stop)),
                threading.Thread(target=queries, args=(base, words, tally, until, stop)),
                threading.Thread(target=packs,
                                 args=(base, games, tally, until, stop, pack_every)),
            ]
            for t in clients:
                t.start()
            published: dict[str, Any] | None = None
            try:
                if publish_game in games:
                    wait = until - minutes * 60 + publish_at * 60 - time.monotonic()
                    if not stop.wait(max(wait, 0)):
                        sampler.mark(f"publish {publish_game} starts")
                        published = publish(home, scratch, publish_game, words)
                        sampler.mark(f"publish {publish_game} done")
                        _log(f"published: {published}")
                while any(t.is_alive() for t in clients):
                    for t in clients:
                        t.join(timeout=5)
                    _log(f"minute {sampler.minutes():.1f}: " + ", ".join(
                        f"{pid} {rows[-1][1]['rss_anon']} MB"
                        for pid, rows in sampler.samples.items()))
            except KeyboardInterrupt:
                stop.set()
                for t in clients:
                    t.join()
            sampler.stop()
            workers_end = workers_of(manager)
    figures = sampler.figures(window, workers_end)
    ended = [f for f in figures if f["alive_at_end"]]
    return {
        "figure": "soak", "minutes": minutes, "workers": 2, "games": games,
        "sample_every_s": every, "slope_window_min": round(window, 1),
        "workers_mb": figures, "workers_alive_at_end": workers_end,
        "bounded": bool(ended) and all(f["bounded"] for f in ended),
        "workers_restarted": len(figures) - len(ended),
        "publish": published, "events": sampler.marks,
        "answers": tally.table(),
        "server_errors": sum(n for (_k, o), n in tally.counts.items() if o.startswith("5")
                             and o not in ("503",)),
        "target": TARGET,
        "reference": {"what": "each worker's own RssAnon at the start, after every game was "
                              "opened (start_mb)"},
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "max_move_words": remik.MAX_MOVE_WORDS,
    }


COLUMNS = ["worker", "RssAnon at its start", "peak", "end", "slope, last 10 min", "restarted"]


def rows(figure: dict[str, Any]) -> list[list[str]]:
    """The docs' table: a row per worker process sampled (:meth:`Sampler.figures`)."""
    out = []
    for n, w in enumerate(figure["workers_mb"], 1):
        slope = w["slope_mb_per_min"]
        out.append([f"worker {n} (pid {w['pid']})", f"{w['start_mb']:,} MB",
                    f"{w['peak_mb']:,} MB (min {w['peak_at_min']})", f"{w['end_mb']:,} MB",
                    "-" if slope is None else f"{slope:+.2f} MB/min",
                    "no" if w["alive_at_end"] else "yes: it ended during the run"])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path,
                        default=Path(os.environ.get("LEXICON_HOME", "data")),
                        help="the releases to serve (only read)")
    parser.add_argument("--minutes", type=float, default=30.0, help="length of the traffic")
    parser.add_argument("--sample-every", type=float, default=5.0,
                        help="seconds between memory samples")
    parser.add_argument("--window", type=float, default=10.0,
                        help="minutes at the end over which the slope is fitted")
    parser.add_argument("--publish-game", default="osps",
                        help="the game amended once during the run ('' for none)")
    parser.add_argument("--publish-at", type=float, default=None,
                        help="minute of the publish (default: a third of the run)")
    parser.add_argument("--pack-every", type=float, default=300.0,
                        help="seconds between downloads of every game's offline pack")
    parser.add_argument("--samples", type=Path, default=None,
                        help="write every memory sample to this file (JSON lines)")
    parser.add_argument("--figures", type=Path, default=None, metavar="DIR",
                        help="also write the docs' table there (docs/figures: make bench)")
    args = parser.parse_args(argv)

    def interrupted(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt     # stop the clients, then the server: no process left

    signal.signal(signal.SIGTERM, interrupted)
    figure = run(args.home.resolve(), args.minutes, args.sample_every,
                 args.publish_game or None, args.publish_at, args.window, args.samples,
                 args.pack_every)
    print(json.dumps(figure, ensure_ascii=False), flush=True)
    if args.figures and figure["workers_mb"]:
        figures.write(args.figures, "soak", tool="tools.soak", columns=COLUMNS,
                      rows=rows(figure), figures=[figure], argv=argv)
    return 0 if figure["workers_mb"] else 1


if __name__ == "__main__":
    sys.exit(main())
