"""Capacity figures for sizing a fleet: requests/s of each endpoint at 1 and 2 workers,
beside bare Starlette at the same worker count in the same run, and RSS per worker.

    python -m tools.capacity --home DIR [--seconds 5] [--workers 1 2]

Each server is ``lexicon serve --workers N`` exactly as an operator runs it (access log on,
to /dev/null; metrics on), loaded by ``wrk`` on 127.0.0.1 (``-t1 -c8`` a worker); the bare
Starlette reference (same worker count, both servers up at once) is measured just before
and just after each endpoint, and the mean of the two is the figure beside it. The
machine's cores are shared with ``wrk`` itself, so a figure per core is the rate divided by
the workers, and every row carries the load average when it was measured. The servers only
read the home: the judge's rulings go to a scratch ``LEXICON_RULINGS`` removed afterwards.
Prints one JSON object per figure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from lexicon.service.launch import free_port

from lexicon.catalog import Catalog
from lexicon.game.tiles import speller
from tools import figures
from tools.bench import _mix, _sample_keys
from tools.bench import get_paths_lua as get_lua
from tools.bench import wrk_script as wrk


@contextmanager
def server(argv: list[str], home: Path, port: int) -> Iterator[str]:
    """A server process on ``port`` until the block ends; its base URL once it answers."""
    rulings = tempfile.mkdtemp(prefix="lexicon-capacity-rulings-")
    env = {**os.environ, "LEXICON_HOME": str(home), "LEXICON_RULINGS": rulings}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                httpx.get(base + "/healthz", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(30)
        shutil.rmtree(rulings, ignore_errors=True)


def lexicon_server(home: Path, workers: int) -> tuple[list[str], int]:
    port = free_port()
    return [sys.executable, "-m", "lexicon.cli.main", "serve", "--port", str(port), "--workers",
            str(workers)], port


def bare_server(workers: int) -> tuple[list[str], int]:
    """Bare Starlette under the same launcher as ``lexicon serve`` (TCP_NODELAY included:
    plain ``uvicorn --workers 2`` waits ~40 ms per kept-alive answer)."""
    port = free_port()
    code = ("from lexicon.service.launch import run; run('tools.bench:bare_app', host='127.0.0.1', "
            f"port={port}, workers={workers}, log_level='warning', access_log=False)")
    return [sys.executable, "-c", code], port


def post_lua(path: str, body: dict[str, Any]) -> str:
    return (f"wrk.method = 'POST'\nwrk.path = {json.dumps(path)}\n"
            "wrk.headers['Content-Type'] = 'application/json'\n"
            f"wrk.body = [==[{json.dumps(body, ensure_ascii=False)}]==]\n")


def endpoints(cat: Catalog, game: str) -> list[tuple[str, str, int]]:
    """(figure name, wrk script, words per request) for ``game``."""
    spell = speller(cat.profile(game))
    words = [spell.to_latin(k) for k in _mix(_sample_keys(cat, game, 1000))]
    paths = [f"/v1/games/{game}/words/{urllib.parse.quote(w)}" for w in words[:1000]]
    return [
        ("single word GET /words/{w}", get_lua(paths), 1),
        ("POST /valid, 1,000 words", post_lua(f"/v1/games/{game}/valid",
                                              {"words": words[:1000]}), 1000),
        ("POST /check, 100 words", post_lua(f"/v1/games/{game}/check",
                                            {"words": words[:100]}), 100),
        ("POST /judge, 6-word play", post_lua(f"/v1/games/{game}/judge",
                                              {"words": words[:6]}), 6),
        ("GET /pattern ?A??K", get_lua([f"/v1/games/{game}/pattern?pattern=%3FA%3F%3FK"]), 1),
    ]


def rss(port: int) -> list[dict[str, float]]:
    """RSS of each process serving ``port`` (the workers; the manager holds no release)."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        if str(port).encode() not in cmd and not _is_worker_of(pid, port):
            continue
        fields = dict(re.findall(r"^(\w+):\s+(\d+) kB", status, re.M))
        out.append({"pid": int(pid), "rss_mb": round(int(fields.get("VmRSS", 0)) / 1024, 1),
                    "anon_mb": round(int(fields.get("RssAnon", 0)) / 1024, 1),
                    "file_mb": round(int(fields.get("RssFile", 0)) / 1024, 1)})
    return out


def _is_worker_of(pid: str, port: int) -> bool:
    """A multiprocessing-spawned worker: its parent's command line names the port."""
    try:
        ppid = re.search(r"^PPid:\s+(\d+)", Path(f"/proc/{pid}/status").read_text(), re.M)
        parent = Path(f"/proc/{ppid.group(1)}/cmdline").read_bytes() if ppid else b""
    except OSError:
        return False
    return str(port).encode() in parent.split(b"\0")


def table(measured: list[dict[str, Any]], workers: list[int]
          ) -> tuple[list[str], list[list[str]]]:
    """The fleet page's table: a row per endpoint, a column per worker count (req/s and
    p99), bare Starlette at each count beside them, and the words a second of a batch."""
    def each(n: int) -> str:
        return f"{n} worker{'s' if n > 1 else ''}"

    game = measured[0]["game"] if measured else ""
    columns = [f"endpoint ({game})", *(f"{each(n)}: req/s (p99)" for n in workers),
               f"bare Starlette {' / '.join(map(str, workers))} workers", "per request"]
    rows = []
    for endpoint in dict.fromkeys(f["endpoint"] for f in measured):
        by = {f["workers"]: f for f in measured if f["endpoint"] == endpoint}
        cells = [f"{by[n]['requests_per_s'] or 0:,} ({by[n]['p99_ms']} ms)" if n in by else ""
                 for n in workers]
        bare = " / ".join(f"{by[n]['bare_starlette_requests_per_s']:,}" if n in by else "-"
                          for n in workers)
        words = " / ".join(f"{by[n]['words_per_s'] / 1000:.1f}k" for n in workers
                           if n in by and by[n]["words_per_s"])
        rows.append([f"`{endpoint}`", *cells, f"{bare} req/s", f"{words} words/s" if words
                     else ""])
    return columns, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--game", default="osps")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--figures", type=Path, default=None, metavar="DIR",
                        help="also write the fleet page's table there (docs/figures)")
    args = parser.parse_args(argv)
    measured: list[dict[str, Any]] = []
    cat = Catalog(args.home)
    cases = endpoints(cat, args.game)
    release = cat.release(args.game).id
    for workers in args.workers:
        connections = 8 * workers
        argv_b, port_b = bare_server(workers)
        argv_l, port_l = lexicon_server(args.home, workers)
        bare_lua = get_lua([f"/v1/games/{args.game}/words/x"])
        with server(argv_b, args.home, port_b) as bare_base, \
                server(argv_l, args.home, port_l) as base:
            for name, lua, per_request in cases:
                wrk(base, lua, 1, 4)                                  # warm-up
                wrk(bare_base, bare_lua, 1, 4)
                # the reference just before and just after: the load of the moment
                first = wrk(bare_base, bare_lua, args.seconds, connections)
                row = wrk(base, lua, args.seconds, connections)
                then = wrk(bare_base, bare_lua, args.seconds, connections)
                bare = {"requests_per_s": round(((first["requests_per_s"] or 0)
                                                 + (then["requests_per_s"] or 0)) / 2)}
                rate = row["requests_per_s"] or 0
                measured.append({
                    "figure": "capacity", "endpoint": name, "game": args.game,
                    "release": release, "workers": workers, **row,
                    "requests_per_s_per_worker": round(rate / workers),
                    "words_per_s": rate * per_request if per_request > 1 else None,
                    "bare_starlette_requests_per_s": bare["requests_per_s"],
                    "ratio_to_bare": round(rate / bare["requests_per_s"], 3)
                    if bare["requests_per_s"] else None,
                    "load_average": [round(x, 2) for x in os.getloadavg()],
                    "load": f"wrk -t1 -c{connections}, {args.seconds} s, 127.0.0.1"})
                print(json.dumps(measured[-1], ensure_ascii=False), flush=True)
            print(json.dumps({"figure": "rss_per_worker", "workers": workers,
                              "processes": rss(port_l),
                              "load_average": [round(x, 2) for x in os.getloadavg()]}),
                  flush=True)
    if args.figures and measured:
        columns, rows = table(measured, args.workers)
        figures.write(args.figures, "capacity", tool="tools.capacity", columns=columns,
                      rows=rows, figures=measured, argv=argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
