"""Publish-under-load figure: ``wrk`` on ``/check`` and ``/valid`` while new releases are
published every few seconds. Part of ``make bench``.

The releases are SYNTHETIC (``tools/synthetic.py``): each publish alternates between word
sets made from different seeds, so the same request batch has a different number of valid
words under each release. ``wrk``'s Lua script records, for every answer, its status and
the pair (``release`` label, ``valid`` count); afterwards every pair is checked against the
release it names, opened from disk. An answer labelled with one release but judged by
another shows up as a count that release does not give. The reference, measured in the
same run, is the same load with no publishing.

    python -m tools.publish_load [--seconds 20] [--every 3] [--words 5000]

Prints one JSON object per phase (``publish_load`` with ``publishing`` false / true).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from lexicon.service.launch import serving

from lexicon.catalog import Catalog
from lexicon.errors import LexiconError
from tools import figures
from tools.fuzz import rss_mb
from tools.synthetic import publish_synthetic, synthetic_keys

GAME = "osps"
SEEDS = (1, 2)            # alternate word sets: the batch's valid count tells them apart

LUA = r"""
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [==[%BODY%]==]
counts = {}
statuses = {}
local threads = {}
setup = function(thread) table.insert(threads, thread) end
response = function(status, headers, body)
  statuses[tostring(status)] = (statuses[tostring(status)] or 0) + 1
  local rel = string.match(body, '"release":"([^"]+)"') or "?"
  local valid = string.match(body, '"valid":(%d+)') or "?"
  local key = rel .. "|" .. valid
  counts[key] = (counts[key] or 0) + 1
end
done = function(summary, latency, requests)
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("counts")) do io.write("COUNT\t", k, "\t", v, "\n") end
    for k, v in pairs(t:get("statuses")) do io.write("STATUS\t", k, "\t", v, "\n") end
  end
  io.write(string.format("LATENCY\t%d\t%d\t%d\n", latency:percentile(50),
                         latency:percentile(99), latency.max))
end
"""


def _batch(n: int) -> list[str]:
    """Two thirds from the first seed's words, one third from the second's (and a few from
    neither), so the two kinds of release admit clearly different numbers of them."""
    first = list(synthetic_keys(GAME, 2 * n // 3, seed=SEEDS[0]))
    second = list(synthetic_keys(GAME, n - len(first), seed=SEEDS[1]))
    return [*first, *second, "qqqq", "xyz", "kot"]


def _wrk(base: str, path: str, body: str, seconds: int, connections: int) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False,
                                     encoding="utf-8") as fh:
        fh.write(LUA.replace("%BODY%", body))
        script = fh.name
    try:
        out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "-s", script,
                              base + path], capture_output=True, text=True,
                             timeout=seconds + 60, check=True).stdout
    finally:
        Path(script).unlink()
    labels: Counter[tuple[str, str]] = Counter()
    statuses: Counter[str] = Counter()
    latency = (0, 0, 0)
    for line in out.splitlines():
        parts = line.split("\t")
        if parts[0] == "COUNT":
            rel, _, valid = parts[1].rpartition("|")
            labels[(rel, valid)] += int(parts[2])
        elif parts[0] == "STATUS":
            statuses[parts[1]] += int(parts[2])
        elif parts[0] == "LATENCY":
            latency = (int(parts[1]), int(parts[2]), int(parts[3]))
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    return {"labels": labels, "statuses": statuses, "latency_us": latency,
            "requests_per_s": round(float(rps.group(1)), 1) if rps else None}


def _expected_valid(home: Path, release_id: str, words: list[str],
                    cache: dict[str, int | None]) -> int | None:
    """How many of ``words`` the release ``release_id`` admits (None: no such release,
    which makes any answer naming it mislabelled)."""
    if release_id not in cache:
        cat = Catalog(home)
        try:
            cache[release_id] = sum(cat.lexicon(GAME, release_id).valid(words))
        except LexiconError:
            cache[release_id] = None
        finally:
            cat.close()
    return cache[release_id]


def phase(home: Path, words: list[str], *, seconds: int, every: float | None,
          n_words: int, connections: int) -> dict[str, Any]:
    """One run of wrk on /check and /valid at once; with ``every``, a publisher thread
    publishes a new release every ``every`` seconds meanwhile."""
    valid_body = json.dumps({"words": words}, ensure_ascii=False)
    check_body = json.dumps({"words": words[:200]}, ensure_ascii=False)
    published: list[str] = []
    with serving("lexicon.service.app:create_app", home) as (base, pid):
        rss_before = rss_mb(pid)
        stop = threading.Event()

        def publisher() -> None:
            i = 0
            while not stop.wait(every):
                i += 1
                path = publish_synthetic(home, GAME, n_words, seed=SEEDS[i % 2])
                published.append(path.name)

        results: dict[str, dict[str, Any]] = {}

        def load(name: str, path: str, body: str) -> None:
            results[name] = _wrk(base, path, body, seconds, connections)

        threads = [threading.Thread(target=load, args=("check", f"/v1/games/{GAME}/check",
                                                       check_body)),
                   threading.Thread(target=load, args=("valid", f"/v1/games/{GAME}/valid",
                                                       valid_body))]
        if every:
            threads.append(threading.Thread(target=publisher, daemon=True))
        for t in threads:
            t.start()
        for t in threads[:2]:
            t.join()
        stop.set()
        if every:
            threads[2].join()
        rss_after = rss_mb(pid)
    out: dict[str, Any] = {"figure": "publish_load", "synthetic": True,
                           "publishing": bool(every), "seconds": seconds,
                           "publish_every_s": every, "releases_published": len(published),
                           "words_per_release": n_words,
                           "rss_mb_before": rss_before, "rss_mb_after": rss_after}
    for name, res in results.items():
        batch = words if name == "valid" else words[:200]
        cache: dict[str, int | None] = {}    # release id -> valid words of this batch
        total = sum(res["statuses"].values())
        non_2xx = sum(n for s, n in res["statuses"].items() if not s.startswith("2"))
        wrong = sum(n for (rel, valid), n in res["labels"].items()
                    if valid == "?" or _expected_valid(home, rel, batch, cache) != int(valid))
        out[name] = {"answers": total, "requests_per_s": res["requests_per_s"],
                     "non_2xx": non_2xx, "releases_named": len({r for r, _ in res["labels"]}),
                     "mislabelled": wrong,
                     "p50_ms": round(res["latency_us"][0] / 1000, 1),
                     "p99_ms": round(res["latency_us"][1] / 1000, 1),
                     "max_ms": round(res["latency_us"][2] / 1000, 1),
                     "batch_words": len(batch)}
    return out




def row(still: dict[str, Any], publishing: dict[str, Any], command: str) -> list[str]:
    """The docs' reliability row: the phase with publishes beside the one without."""
    def side(name: str) -> str:
        a, b = publishing[name], still[name]
        return (f"`/{name}` {a['requests_per_s']:,} req/s (p99 {a['p99_ms']} ms), without "
                f"publishing {b['requests_per_s']:,} req/s (p99 {b['p99_ms']} ms)")
    bad = sum(publishing[n]["non_2xx"] for n in ("check", "valid"))
    wrong = sum(publishing[n]["mislabelled"] for n in ("check", "valid"))
    named = max(publishing[n]["releases_named"] for n in ("check", "valid"))
    return [f"publish under load: `/check` ({publishing['check']['batch_words']} words) and "
            f"`/valid` ({publishing['valid']['batch_words']:,} words) with `wrk`, a new "
            f"release published every {publishing['publish_every_s']:g} s", f"`{command}`",
            f"{publishing['releases_published']} releases published, answers name {named}; "
            f"{side('check')}; {side('valid')}; **{bad} non-2xx, {wrong} mislabelled** "
            "answers (each answer's `valid` count checked against the release it names)"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=20, help="wrk duration per phase")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between publishes")
    parser.add_argument("--words", type=int, default=5000, help="words per synthetic release")
    parser.add_argument("--batch", type=int, default=2000, help="words per /valid request")
    parser.add_argument("--connections", type=int, default=4, help="wrk connections each")
    parser.add_argument("--figures", type=Path, default=None, metavar="DIR",
                        help="also write the docs' row there (docs/figures: make bench)")
    args = parser.parse_args(argv)
    phases = []
    os.environ["LEXICON_PROGRESS"] = "off"
    with tempfile.TemporaryDirectory(prefix="lexicon-publish-load-") as tmp:
        home = Path(tmp)
        publish_synthetic(home, GAME, args.words, seed=SEEDS[0])
        words = _batch(args.batch)
        for every in (None, args.every):
            figure = phase(home, words, seconds=args.seconds, every=every,
                           n_words=args.words, connections=args.connections)
            print(json.dumps(figure, ensure_ascii=False), flush=True)
            phases.append(figure)
    if args.figures:
        figures.write(args.figures, "publish-load", tool="tools.publish_load",
                      columns=figures.RELIABILITY, figures=phases, argv=argv,
                      rows=[row(*phases, f"python -m tools.publish_load --seconds {args.seconds}")])
    return 0


if __name__ == "__main__":
    sys.exit(main())
