"""Memory high-water mark of a real server under concurrent big ``/valid`` batches.

Starts the service (uvicorn, one worker, 127.0.0.1) on the releases in ``--home``, opens the
game with one word lookup and reads the server's idle RSS, then has ``--clients`` clients
each send ``--rounds`` batches of ``--words`` words (half valid keys sampled from the
release, half near misses, as ``make bench`` does) at once, while a sampler reads the
server's ``VmRSS`` every 20 ms. The first big batch makes the server build the release's
membership hash arrays (:mod:`lexicon.store.membership`: two 64-bit hashes per valid key, built
once per process in a background thread), so one batch is sent alone first and the
server's memory left to settle: that build's own peak (``membership_build_peak_rss_mb``)
and the settled RSS (``warm_rss_mb``) are printed apart from the load's. The load's peak
is the kernel's ``VmHWM`` of the server, reset after the build (``clear_refs``), with the
sampler's maximum beside it, and the arrays' size and share of that peak.

    python -m tools.batch_memory --home /work/data [--clients 8 --words 100000 --rounds 3]
    python -m tools.batch_memory --home /work/data --code DIR    # the same run on the code
                                                                 # checked out in DIR

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from lexicon.service.launch import serving

from lexicon.catalog import Catalog
from tools import figures
from tools.bench import _mix, _sample_keys


def _status_mb(pid: int, field: str) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(rf"^{field}:\s+(\d+) kB", status, re.M)
    return round(int(found.group(1)) / 1024, 1) if found else -1.0


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _settled(pid: int, most: float = 120.0) -> float:
    """The server's RSS once it is idle (the arrays' build thread is CPU-bound: under 5 %
    of a core and no RSS change for 3 s), at most ``most`` s."""
    deadline = time.monotonic() + most
    last, cpu, steady = _status_mb(pid, "VmRSS"), _cpu_seconds(pid), 0
    while time.monotonic() < deadline and steady < 6:
        time.sleep(0.5)
        now, used = _status_mb(pid, "VmRSS"), _cpu_seconds(pid)
        steady = steady + 1 if abs(now - last) < 1 and used - cpu < 0.025 else 0
        last, cpu = now, used
    return last


def _reset_peak(pid: int) -> bool:
    """Reset the process's VmHWM (``clear_refs`` 5), so the next peak is the load's own."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def batch_words(home: Path, game: str, n: int) -> tuple[list[str], int]:
    """``n`` words for one batch, and the release's number of valid keys."""
    cat = Catalog(home)
    try:
        mixed = _mix(_sample_keys(cat, game, n // 2 + 1))
        words = (mixed * (n // max(len(mixed), 1) + 1))[:n]   # a small release: repeated
        valid_keys = int(cat.release(game).manifest["counts"]["valid"])
    finally:
        cat.close()
    return words, valid_keys


def run(home: Path, game: str, clients: int, words: int, rounds: int,
        code: Path | None) -> dict[str, Any]:
    batch, valid_keys = batch_words(home, game, words)
    body = json.dumps({"words": batch}, ensure_ascii=False).encode()
    if code is not None:        # run the server from another checkout (its cwd comes first)
        os.chdir(code)
        os.environ["PYTHONPATH"] = str(code)
    statuses: Counter[int] = Counter()
    seconds: list[float] = []
    with serving("lexicon.service.app:create_app", home) as (base, pid):
        httpx.get(f"{base}/v1/games/{game}/words/kot", timeout=60).raise_for_status()
        time.sleep(1)
        idle = _status_mb(pid, "VmRSS")
        # one batch alone: the server builds the membership arrays (in a background
        # thread, seconds); wait until its memory settles
        httpx.post(f"{base}/v1/games/{game}/valid", content=body, timeout=120,
                   headers={"content-type": "application/json"}).raise_for_status()
        warm = _settled(pid)
        warm_anon, warm_file = _status_mb(pid, "RssAnon"), _status_mb(pid, "RssFile")
        build_peak = _status_mb(pid, "VmHWM")
        reset = _reset_peak(pid)
        peak_sampled = warm
        stop = threading.Event()

        def sample() -> None:
            nonlocal peak_sampled
            while not stop.wait(0.02):
                try:
                    peak_sampled = max(peak_sampled, _status_mb(pid, "VmRSS"))
                except OSError:
                    return

        def client() -> None:
            with httpx.Client(timeout=120) as http:
                for _ in range(rounds):
                    started = time.monotonic()
                    got = http.post(f"{base}/v1/games/{game}/valid", content=body,
                                    headers={"content-type": "application/json"})
                    statuses[got.status_code] += 1
                    seconds.append(time.monotonic() - started)
                    if got.status_code == 503:
                        time.sleep(float(got.headers.get("retry-after", 1)))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        started = time.monotonic()
        threads = [threading.Thread(target=client) for _ in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.monotonic() - started
        time.sleep(1)
        stop.set()
        after = _status_mb(pid, "VmRSS")
        hwm = _status_mb(pid, "VmHWM") if reset else peak_sampled
    arrays = round(2 * 8 * valid_keys / 2**20, 1)
    seconds.sort()
    return {
        "figure": "batch_memory", "game": game, "code": str(code or "this checkout"),
        "clients": clients, "words_per_batch": len(batch), "rounds": rounds,
        "body_bytes": len(body), "statuses": dict(statuses),
        "idle_rss_mb": idle, "membership_build_peak_rss_mb": build_peak,
        "warm_rss_mb": warm, "warm_rss_anon_mb": warm_anon, "warm_rss_file_mb": warm_file,
        "peak_rss_mb": hwm, "peak_rss_sampled_mb": peak_sampled,
        "rss_after_mb": after, "membership_arrays_mb": arrays,
        "membership_share_of_peak": round(arrays / hwm, 2) if hwm > 0 else None,
        "wall_seconds": round(wall, 1),
        "batch_seconds": {"median": round(seconds[len(seconds) // 2], 2),
                          "max": round(seconds[-1], 2)} if seconds else {},
        "load_average": os.getloadavg()[0],
    }




def row(out: dict[str, Any]) -> list[str]:
    """The docs' reliability row of one run."""
    median = out["batch_seconds"].get("median")
    return [f"memory under big batches: {out['clients']} clients × {out['rounds']} batches of "
            f"{out['words_per_batch']:,} words at once", "`python -m tools.batch_memory "
            "--home HOME`", f"peak RSS **{out['peak_rss_mb']} MB** (the hash arrays included); "
            f"building the arrays peaks at {out['membership_build_peak_rss_mb']} MB, warm "
            f"{out['warm_rss_mb']} MB" + (f"; median batch {median} s" if median else "")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=Path(os.environ.get("LEXICON_HOME",
                                                                         "data")))
    parser.add_argument("--game", default="osps")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--code", type=Path, default=None,
                        help="a checkout whose service to run instead (e.g. main's)")
    parser.add_argument("--figures", type=Path, default=None, metavar="DIR",
                        help="also write the docs' row there (docs/figures)")
    args = parser.parse_args(argv)
    out = run(args.home.resolve(), args.game, args.clients, args.words, args.rounds,
              args.code.resolve() if args.code else None)
    print(json.dumps(out), flush=True)
    if args.figures:
        figures.write(args.figures, "batch-memory", tool="tools.batch_memory",
                      columns=figures.RELIABILITY, rows=[row(out)], figures=[out], argv=argv)
    return 0 if set(out["statuses"]) <= {200, 503} else 1


if __name__ == "__main__":
    sys.exit(main())
