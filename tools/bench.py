"""``make bench``: the service's figures, each measured beside its reference in the same run.

Prints one JSON object per figure on stdout (progress goes to stderr):

* ``calibration``: Python ``set`` lookups/s right now (this machine may be shared: read
  every other figure against it) and the load average;
* ``inprocess_check``: typed words/s through :func:`lexicon.verdicts.fastcheck.valid_flags` and
  keys/s through ``Release.valid_many`` (marisa) and full records through ``Release.get``, beside
  ``set`` membership on the same words;
* ``store``: a release's size (records vs indexes) and its check latency (``get`` of one
  word, batch ``valid_many``); with ``--reference-release DIR`` the same figures for that
  release (e.g. one in the older LMDB layout) in the same run;
* ``http_single``: ``wrk`` against ``GET /v1/games/{game}/words/{word}`` and against a bare
  Starlette endpoint returning a constant, both served by uvicorn with the same options;
* ``http_batch``: words/s of ``POST /check`` (full verdicts) and ``POST /valid`` (booleans);
* ``query``: median and p95 latency of pattern, joker and 10-tile anagram queries;
* ``judge``: p99 latency of ``POST /judge`` for a 6-word play, in-process through the app,
  beside the same words through ``check_many``;
* ``amend``: wall time and peak memory of ``lexicon amend`` (two overrides) on a
  hard-linked copy of the release;
* ``build``: build time, peak memory, release and index sizes against a gzip of the words;
* ``server_rss``: resident memory of a server with every built game loaded.

All traffic goes to 127.0.0.1, every loop is bounded in count and time. ``--synthetic N``
first publishes SYNTHETIC releases (see :mod:`tools.synthetic`) under a scratch home, and
every figure then says ``"synthetic": true``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from lexicon.build.old_layouts import LegacyRelease, open_parent
from lexicon.service.launch import serving

from lexicon.catalog import Catalog
from lexicon.game.profile import Profile
from lexicon.game.tiles import speller
from lexicon.store.recordfile import RECORDS_DIR
from lexicon.store.release import OLDER_LAYOUTS, Release
from tools import figures

TARGETS = {
    "inprocess_check": ">= 1,300,000 typed words/s in batch (osps)",
    "store": "osps release <= 200 MB on disk; a warm get <= 10 us",
    "amend": "<= 60 s for an amend of osps",
    "http_batch": ">= 200,000 words/s",
    "http_single": ">= 0.6 x the bare Starlette rate",
    "pattern": "< 20 ms median",
    "anagram_2_jokers": "<= 60 ms p95",
    "judge": "<= 3 ms p99 for a 6-word play, in-process",
    "server_rss": "< 200 MB with all four games loaded",
}
PATTERNS = {"osps": ["?A??K", "KA?IN", "*OWY"], "remik": ["?A??K", "KA?IN", "*OWY"],
            "kvizovka": ["?A??K", "KA?IN", "*OST"],
            "krizemkrazem": ["?A??K", "KA?IN", "*OST"]}


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


class Figures:
    """Prints each figure as one JSON line, stamped with what every figure must say."""

    def __init__(self, synthetic: bool) -> None:
        self.synthetic = synthetic
        self.emitted: list[dict[str, Any]] = []

    def emit(self, figure: str, **fields: Any) -> None:
        row = {"figure": figure, **fields, "synthetic": self.synthetic,
               "load_avg_1m": round(os.getloadavg()[0], 2)}
        self.emitted.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)


def _per_s(n: float | None) -> str:
    if n is None:
        return "-"
    return f"{n / 1e6:.2f}M" if n >= 1e6 else f"{n / 1e3:.0f}k" if n >= 1e4 else f"{n:,.0f}"


def _mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB"


def table_rows(emitted: list[dict[str, Any]], games: list[str]) -> list[list[str]]:
    """The docs' table from the figures of one run: a row per figure, a column per game
    (``games``), each beside its target and the reference measured in the same run."""
    by: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for f in emitted:
        by.setdefault((f["figure"], f.get("game", "")), []).append(f)

    def one(figure: str, game: str) -> dict[str, Any] | None:
        found = by.get((figure, game))
        return found[0] if found else None

    rows: list[list[str]] = []

    def row(label: str, target: str, figure: str, cell: Callable[[dict[str, Any]], str],
            reference: tuple[str, Callable[[dict[str, Any]], str]] | None = None) -> None:
        got = [one(figure, g) for g in games]
        if not any(got):
            return
        refs = [r for f in got if f and reference for r in [reference[1](f)] if r]
        rows.append([label, target, *(cell(f) if f else "" for f in got),
                     f"{reference[0]} {', '.join(refs)}" if reference and refs else ""])

    first = next((f for g in games for f in [one("inprocess_check", g)] if f), None)
    row(f"in-process batch check, typed words, {first['words']:,} words" if first else "",
        "≥ 1.3M words/s", "inprocess_check", lambda f: f"{_per_s(f['typed_words_per_s'])} words/s",
        ("Python `set` of all valid keys:", lambda f: f"{_per_s(f['reference']['keys_per_s'])}/s"))
    row("HTTP batch `POST /valid` (10,000 words per request)", "≥ 200k words/s", "http_batch",
        lambda f: f"{_per_s(f['valid_words_per_s'])} words/s",
        ("in process:", lambda f: f"{_per_s(f['reference']['words_per_s'])}/s"))
    row("HTTP single word `GET /words/{w}`, metrics on", "≥ 0.6 × bare Starlette",
        "http_single", lambda f: (f"{f['requests_per_s']:,} req/s = {f['ratio_to_reference']}×"
                                  if f.get("requests_per_s") else f.get("error", "-")),
        ("bare Starlette", lambda f: (f"{f['reference']['requests_per_s']:,} req/s"
                                      if f.get("reference") else "")))
    queries: dict[tuple[str, int], dict[str, dict[str, Any]]] = {}
    for g in games:
        seen: dict[str, int] = {}
        for f in by.get(("query", g), []):
            n = seen[f["kind"]] = seen.get(f["kind"], -1) + 1
            queries.setdefault((f["kind"], n), {})[g] = f
    for (kind, _n), fs in queries.items():
        texts = " / ".join(dict.fromkeys(f"`{f['query']}`" if kind != "anagram" else f["query"]
                                         for f in fs.values()))
        if kind == "anagram":
            label, target = f"anagrams, {texts}, p95", "≤ 60 ms" if "2 jokers" in texts else ""
            cell = [f"{fs[g]['p95_ms']} ms (median {fs[g]['median_ms']})" if g in fs else ""
                    for g in games]
        else:
            label, target = f"{kind} {texts}, median", "< 20 ms"
            cell = [(f"{fs[g]['median_ms']} ms" if "median_ms" in fs[g]
                     else f"`{fs[g].get('error')}`") if g in fs else "" for g in games]
        rows.append([label, target, *cell, ""])
    row("judge `POST /judge`, 6-word play, in process, p99", "≤ 3 ms", "judge",
        lambda f: f"{f['p99_ms']} ms (median {f['median_ms']})",
        ("`check_many` alone:", lambda f: f"{f['reference']['p99_ms']} ms"))
    rss = one("server_rss", "")
    if rss:
        rows.append(["server RSS, every game open, after a check and a pattern per game",
                     "< 200 MB", f"{rss['rss_mb']} MB ({rss['rss_anon_mb']} MB anonymous)",
                     *[""] * (len(games) - 1), ""])
    row("warm record read `Release.get`, random known keys", "≤ 10 µs", "store",
        lambda f: f"{f['get_us']} µs")
    row("release on disk (records + indexes)", "≤ 200 MB", "store",
        lambda f: f"{_mb(f['release_bytes'])} ({f['records_bytes'] / 1e6:.1f} + "
                  f"{f['index_bytes'] / 1e6:.1f})")
    row("`lexicon amend`, two overrides", "≤ 60 s", "amend",
        lambda f: (f"{f['wall_s']} s wall ({f['cpu_s']} s CPU), {f['peak_rss_mb']:,} MB peak"
                   if f.get("wall_s") is not None else f"exit {f['exit']}"))
    row("the release's build (its `build_seconds`, the build's peak memory)", "", "build",
        lambda f: (f"{f['build_seconds'] / 60:.1f} min, {f['peak_rss_mb']:,} MB"
                   if f.get("build_seconds") and f.get("peak_rss_mb") else "-"),
        ("gzip of the word list:", lambda f: _mb(f["reference"]["bytes"])))
    return rows


def _rate(n: int, run: Callable[[], object], min_seconds: float = 0.5) -> float:
    """Items per second of ``run`` (which handles ``n`` items), best of repeated runs."""
    best = float("inf")
    spent = 0.0
    for _ in range(10):
        t0 = time.perf_counter()
        run()
        took = time.perf_counter() - t0
        best = min(best, took)
        spent += took
        if spent > min_seconds:
            break
    return round(n / best)


def _latency(run: Callable[[], object], reps: int) -> dict[str, float]:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        run()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {"median_ms": round(statistics.median(times), 2),
            "p95_ms": round(times[max(0, round(0.95 * len(times)) - 1)], 2),
            "p99_ms": round(times[max(0, round(0.99 * len(times)) - 1)], 3),
            "max_ms": round(times[-1], 2), "runs": reps}


def _sample_keys(cat: Catalog, game: str, n: int, seed: int = 7) -> list[str]:
    """``n`` valid keys chosen uniformly (reservoir sampling over the words trie)."""
    rng = random.Random(seed)
    sample: list[str] = []
    for i, key in enumerate(cat.release(game).indexes.words.iterkeys()):
        if i < n:
            sample.append(key)
        else:
            j = rng.randrange(i + 1)
            if j < n:
                sample[j] = key
    rng.shuffle(sample)
    return sample


def _mix(valid: list[str], seed: int = 8) -> list[str]:
    """Half valid keys, half near misses (two letters swapped), shuffled."""
    rng = random.Random(seed)
    out = list(valid)
    for key in valid:
        if len(key) > 2:
            i = rng.randrange(len(key) - 1)
            out.append(key[:i] + key[i + 1] + key[i] + key[i + 2:])
    rng.shuffle(out)
    return out


# -- in-process ----------------------------------------------------------------------------

def calibration(fig: Figures) -> None:
    rng = random.Random(1)
    keys = ["".join(rng.choices("abcdefghijklmnop", k=7)) for _ in range(200_000)]
    members = set(keys[::2])
    fig.emit("calibration", set_lookups_per_s=_rate(len(keys), lambda: [
        k in members for k in keys]), cpus=os.cpu_count())


def inprocess_check(fig: Figures, cat: Catalog, game: str, n: int) -> None:
    profile = cat.profile(game)
    rel = cat.release(game)
    keys = _mix(_sample_keys(cat, game, n // 2))
    typed = [speller(profile).to_latin(k) for k in keys]
    from lexicon.store import membership
    started = time.perf_counter()
    membership.prepare(rel)           # built once per release and process (background in a
    latin = rel.indexes.latin is not None                # server): measure the steady state
    if latin:                         # Kvizovka: the Latin spellings' arrays as well
        membership.prepare(rel, "latin")
    arrays_s = round(time.perf_counter() - started, 2)
    members = set(rel.indexes.words.iterkeys())     # the reference: all valid keys in RAM
    fig.emit(
        "inprocess_check", game=game, release=rel.id, words=len(keys),
        typed_words_per_s=_rate(len(typed), lambda: cat.lexicon(game).valid(typed)),
        hash_arrays_build_s=arrays_s,
        keys_per_s_marisa=_rate(len(keys), lambda: rel.valid_many(keys)),
        records_per_s_get=_rate(len(keys), lambda: [rel.get(k) for k in keys]),
        reference={"what": "python set membership, same keys (all valid keys in RAM: "
                           f"{len(members):,})",
                   "keys_per_s": _rate(len(keys), lambda: [k in members for k in keys])},
        target=TARGETS["inprocess_check"], latin_index=latin,
        note="typed words: the display spelling (Kvizovka: Latin; with the release's Latin "
             "index one membership test, without it words with digraphs go through the "
             "speller)")


def _disk_bytes(path: Path) -> int:
    """Bytes of the files under ``path``, a hard-linked file once."""
    seen = {}
    for p in path.rglob("*"):
        if p.is_file():
            st = p.stat()
            seen[st.st_dev, st.st_ino] = st.st_size
    return sum(seen.values())


def _store_row(rel: Release | LegacyRelease, keys: list[str]) -> dict[str, Any]:
    store = next(rel.path / d for d in (RECORDS_DIR, *OLDER_LAYOUTS) if (rel.path / d).is_dir())
    one = keys[:20_000]
    return {
        "release": rel.id, "layout": store.name,
        "release_bytes": _disk_bytes(rel.path), "records_bytes": _disk_bytes(store),
        "index_bytes": _disk_bytes(rel.path / "indexes"),
        "get_us": round(1e6 / _rate(len(one), lambda: [rel.get(k) for k in one]), 2),
        "is_valid_us": round(1e6 / _rate(len(one), lambda: [rel.is_valid(k) for k in one]),
                             2),
        "valid_many_keys_per_s": _rate(len(keys), lambda: rel.valid_many(keys)),
    }


def store_figures(fig: Figures, cat: Catalog, game: str, n: int,
                  reference: Path | None) -> None:
    """Size and check latency of the release, beside a reference release in the same run:
    the same keys (half valid, half near misses), alternating runs."""
    rel = cat.release(game)
    keys = _mix(_sample_keys(cat, game, n // 2))
    other = open_parent(reference) if reference else None   # an older layout: build.old_layouts
    try:
        rows = [_store_row(rel, keys)]
        if other is not None:
            rows.append(_store_row(other, keys))
            rows[0] = _store_row(rel, keys)      # again after the reference: same conditions
        fig.emit("store", game=game, **rows[0], target=TARGETS["store"],
                 reference=rows[1] if len(rows) > 1 else None)
    finally:
        if other is not None:
            other.close()


def _asgi_post(app: Any, path: str, body: bytes) -> Callable[[], int]:
    """One in-process request to an ASGI app (no sockets): returns a function that sends
    it and gives the status."""
    import asyncio

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "client": ("127.0.0.1", 1),
             "server": ("127.0.0.1", 80),
             "headers": [(b"host", b"bench"), (b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode())]}
    loop = asyncio.new_event_loop()

    async def once() -> int:
        sent: list[dict] = []

        async def receive() -> dict:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict) -> None:
            sent.append(message)

        await app(dict(scope), receive, send)
        return sent[0]["status"]

    return lambda: loop.run_until_complete(once())


def judge_latency(fig: Figures, cat: Catalog, game: str, reps: int) -> None:
    """``POST /v1/games/{game}/judge`` with a 6-word play, in-process through the whole ASGI
    app (rulings logged to a scratch directory), beside the same words through
    ``check_many`` alone."""
    from lexicon.service.app import create_app

    profile = cat.profile(game)
    words = [speller(profile).to_latin(k) for k in _mix(_sample_keys(cat, game, 600))]
    plays = [words[i:i + 6] for i in range(0, 6 * (len(words) // 6), 6)]
    scratch = tempfile.mkdtemp(prefix="lexicon-bench-rulings-")
    os.environ["LEXICON_RULINGS"] = scratch
    try:
        app = create_app(catalog=cat)
        calls = [_asgi_post(app, f"/v1/games/{game}/judge",
                            json.dumps({"words": p}).encode()) for p in plays[:50]]
        assert calls[0]() == 200
        pending = iter(range(reps))

        def endpoint() -> None:
            calls[next(pending) % len(calls)]()

        stats = _latency(endpoint, reps)
        plain = iter(range(reps))
        ref = _latency(lambda: cat.lexicon(game).check_many(plays[next(plain) % 50]), reps)
    finally:
        os.environ.pop("LEXICON_RULINGS", None)
        shutil.rmtree(scratch, ignore_errors=True)
    fig.emit("judge", game=game, release=cat.release(game).id, words_per_play=6, **stats,
             reference={"what": "the same plays through checker.check_many alone", **ref},
             target=TARGETS["judge"],
             note="in-process ASGI request through every middleware; each ruling appended "
                  "to the (scratch) rulings log")


def _rack(profile: Profile, rng: random.Random, tiles: int, jokers: int) -> str:
    bag = [t.canonical for t in profile.tiles if not t.joker_only
           for _ in range(t.count or 4)]
    return "".join(rng.sample(bag, tiles - jokers)) + "?" * jokers


def query_latency(fig: Figures, cat: Catalog, game: str, reps: int) -> None:
    profile = cat.profile(game)
    rel = cat.release(game)
    for text in PATTERNS.get(game, ["?A??K"]):
        calls: list[tuple[str, Callable[[], dict]]] = [
            ("pattern", lambda t=text: cat.lexicon(game).pattern(t))]
        if "*" not in text:
            calls.append(("blanks", lambda t=text: cat.lexicon(game).blanks(t)))
        for kind, call in calls:
            try:
                count = call()["count"]
                stats: dict[str, Any] = _latency(call, reps)
            except Exception as exc:  # a refused query is a figure too
                count, stats = None, {"error": getattr(exc, "code", type(exc).__name__)}
            fig.emit("query", game=game, release=rel.id, kind=kind, query=text,
                     count=count, **stats, target=TARGETS["pattern"])
    rng = random.Random(11)
    for jokers in (0, 1, 2):
        if jokers > profile.jokers.count:
            continue
        racks = [_rack(profile, rng, 10, jokers) for _ in range(reps)]
        counts: list[int] = []
        pending = iter(racks)

        def one(pending: Iterator[str] = pending, counts: list[int] = counts) -> None:
            counts.append(cat.lexicon(game).anagrams(next(pending))["count"])

        stats = _latency(one, len(racks))
        fig.emit("query", game=game, release=rel.id, kind="anagram",
                 query=f"10-tile rack, {jokers} jokers", racks=len(racks),
                 median_words=statistics.median(counts), **stats,
                 target=TARGETS["anagram_2_jokers"] if jokers == 2 else None)


def build_figures(fig: Figures, cat: Catalog, game: str) -> None:
    rel = cat.release(game)
    m = rel.manifest
    raw = bytearray()
    for key in rel.indexes.words.iterkeys():
        raw += speller(cat.profile(game)).to_latin(key).encode() + b"\n"
    gz = len(gzip.compress(bytes(raw), compresslevel=6))
    on_disk = _disk_bytes(rel.path)
    idx = m.get("indexes", {})
    fig.emit("build", game=game, release=rel.id, build_seconds=m.get("build_seconds"),
             peak_rss_mb=m.get("peak_rss_mb"), index_build_seconds=idx.get("build_seconds"),
             valid_words=m["counts"]["valid"], records=m["counts"]["records"],
             release_bytes=on_disk, index_bytes=sum(idx.get("files", {}).values()),
             reference={"what": "gzip -6 of the valid word list", "bytes": gz,
                        "plain_bytes": len(raw)})


def amend_figure(fig: Figures, cat: Catalog, game: str, scratch: Path | None) -> None:
    """Wall time and peak memory of ``lexicon amend GAME`` (two overrides) in a child
    process, on a hard-linked copy of the current release under a scratch home (the
    measured home is never written)."""
    rel = cat.release(game)
    if rel.manifest.get("vocabulary"):     # remik links osps: its amend is osps's
        return
    words = _sample_keys(cat, game, 2, seed=11)
    tmp = Path(tempfile.mkdtemp(prefix="lexicon-bench-amend-", dir=scratch))
    try:
        gdir = tmp / "releases" / game
        gdir.mkdir(parents=True)
        try:
            shutil.copytree(rel.path, gdir / rel.id, copy_function=os.link)
        except OSError:                    # another file system: a copy
            shutil.rmtree(gdir / rel.id, ignore_errors=True)
            shutil.copytree(rel.path, gdir / rel.id)
        (gdir / "CURRENT").write_text(rel.id + "\n")
        sp = speller(cat.profile(game))
        (tmp / "ov.tsv").write_text("".join(f"{sp.to_latin(w)}\tremove\tbench\n"
                                            for w in words), encoding="utf-8")
        cmd = ["/usr/bin/time", "-f", "%e %M %U %S", sys.executable, "-m", "lexicon.cli.main",
               "amend",
               game, "--overrides", str(tmp / "ov.tsv")]
        p = subprocess.run(cmd, capture_output=True, text=True, check=False,
                           env={**os.environ, "LEXICON_HOME": str(tmp)},
                           cwd=Path(__file__).resolve().parent.parent)
        last = p.stderr.strip().splitlines()[-1].split() if p.stderr.strip() else []
        ok = len(last) == 4
        fig.emit("amend", game=game, release=rel.id, overrides=len(words),
                 exit=p.returncode, wall_s=float(last[0]) if ok else None,
                 cpu_s=round(float(last[2]) + float(last[3]), 1) if ok else None,
                 peak_rss_mb=round(int(last[1]) / 1024, 1) if ok else None,
                 target=TARGETS["amend"], note="cpu_s: user + system of the amend and the "
                 "index child it forks (wall time on a shared machine is mostly waiting)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# -- HTTP ----------------------------------------------------------------------------------

def bare_app() -> Any:
    """The reference: a bare Starlette endpoint returning a constant."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def constant(_request: Any) -> JSONResponse:
        return JSONResponse({"valid": True})

    return Starlette(routes=[Route("/v1/games/{game}/words/{word}", constant)])


def get_paths_lua(paths: list[str]) -> str:
    """A wrk script that GETs ``paths`` in turn."""
    return ("local paths = {" + ",".join(json.dumps(p) for p in paths) + "}\n"
            "local i = 0\nrequest = function()\n  i = i % #paths + 1\n"
            "  return wrk.format('GET', paths[i])\nend\n")


def _wrk(base: str, paths: list[str], seconds: int, connections: int) -> dict[str, Any]:
    return wrk_script(base, get_paths_lua(paths), seconds, connections)


def wrk_script(base: str, lua: str, seconds: int, connections: int) -> dict[str, Any]:
    """``wrk`` with the script ``lua``: requests/s, p50/p99 in ms, non-2xx answers."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False,
                                     encoding="utf-8") as fh:
        fh.write(lua)
        script = fh.name
    try:
        out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency",
                              "-s", script, base], capture_output=True, text=True,
                             timeout=seconds + 30, check=True).stdout
    finally:
        os.unlink(script)

    def ms(label: str) -> float | None:
        found = re.search(rf"^\s*{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        if not found:
            return None
        scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[found.group(2)]
        return round(float(found.group(1)) * scale, 3)

    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"requests_per_s": round(float(rps.group(1))) if rps else None,
            "p50_ms": ms("50"), "p99_ms": ms("99"),
            "non_2xx": int(errors.group(1)) if errors else 0}


def http_figures(fig: Figures, cat: Catalog, home: Path, game: str, seconds: int) -> None:
    profile = cat.profile(game)
    sample = _mix(_sample_keys(cat, game, 500))
    paths = [f"/v1/games/{game}/words/" + urllib.parse.quote(speller(profile).to_latin(k))
             for k in sample]
    if shutil.which("wrk") is None:
        fig.emit("http_single", game=game, error="wrk is not installed (apt-get install wrk)")
    else:
        with serving("lexicon.service.app:create_app", home) as (base, _pid):
            _wrk(base, paths[:50], 1, 4)                       # warm-up
            ours = _wrk(base, paths, seconds, 8)
        with serving("tools.bench:bare_app", home) as (base, _pid):
            _wrk(base, paths[:50], 1, 4)
            bare = _wrk(base, paths, seconds, 8)
        ratio = (round(ours["requests_per_s"] / bare["requests_per_s"], 3)
                 if ours["requests_per_s"] and bare["requests_per_s"] else None)
        fig.emit("http_single", game=game, release=cat.release(game).id, **ours,
                 reference={"what": "bare Starlette constant endpoint, same uvicorn options",
                            **bare}, ratio_to_reference=ratio,
                 load="wrk -t1 -c8 on 127.0.0.1, 1000 rotating words",
                 target=TARGETS["http_single"])
    words = [speller(profile).to_latin(k) for k in _mix(_sample_keys(cat, game, 5_000))][:10_000]
    with serving("lexicon.service.app:create_app", home) as (base, _pid), \
            httpx.Client(base_url=base, timeout=120) as client:
        figures = {}
        for path, reps in (("check", 3), ("valid", 10)):
            client.post(f"/v1/games/{game}/{path}", json={"words": words[:100]})
            if path == "valid":       # the first big batch starts the server's hash arrays:
                client.post(f"/v1/games/{game}/valid", json={"words": words})
                time.sleep(15)        # measure once they are built (a few seconds)
            t0 = time.perf_counter()
            for _ in range(reps):
                r = client.post(f"/v1/games/{game}/{path}", json={"words": words})
                r.raise_for_status()
            figures[path] = round(reps * len(words) / (time.perf_counter() - t0))
        inproc = _rate(len(words), lambda: cat.lexicon(game).valid(words))
        fig.emit("http_batch", game=game, release=cat.release(game).id,
                 words_per_request=len(words), valid_words_per_s=figures["valid"],
                 check_words_per_s=figures["check"],
                 reference={"what": "the same words in-process (valid_flags)",
                            "words_per_s": inproc},
                 target=TARGETS["http_batch"],
                 note="/valid answers booleans; /check full verdicts (reasons, analyses)")


def server_rss(fig: Figures, cat: Catalog, home: Path) -> None:
    games = [g for g in cat.games() if cat.release_or_none(g)]
    with serving("lexicon.service.app:create_app", home) as (base, pid):
        for game in games:       # open every release and its indexes
            httpx.get(f"{base}/v1/games/{game}/words/kot", timeout=30)
            httpx.get(f"{base}/v1/games/{game}/pattern", params={"pattern": "ka?a"},
                      timeout=30)
        status = Path(f"/proc/{pid}/status").read_text()

        def kb(field: str) -> float:
            found = re.search(rf"^{field}:\s+(\d+) kB", status, re.M)
            return round(int(found.group(1)) / 1024, 1) if found else -1.0

        fig.emit("server_rss", games_loaded=games, rss_mb=kb("VmRSS"),
                 rss_anon_mb=kb("RssAnon"), rss_file_mb=kb("RssFile"),
                 target=TARGETS["server_rss"],
                 note="after start, one check and one pattern query per game; RssFile is "
                      "the memory-mapped release pages, shared and reclaimable")


# -- main ----------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print the service's benchmark figures.")
    parser.add_argument("--games", nargs="+", default=["osps", "kvizovka"])
    parser.add_argument("--home", type=Path, default=None, help="LEXICON_HOME to measure")
    parser.add_argument("--synthetic", type=int, default=0, metavar="N",
                        help="first publish SYNTHETIC releases (N words for osps, N/8 for "
                             "the other games) under a scratch home, and measure those")
    parser.add_argument("--synthetic-home", type=Path, default=None,
                        help="where to keep the synthetic releases (reused when present)")
    parser.add_argument("--words", type=int, default=200_000, help="in-process sample size")
    parser.add_argument("--reps", type=int, default=30, help="runs per query figure")
    parser.add_argument("--judge-reps", type=int, default=3000, help="plays judged")
    parser.add_argument("--seconds", type=int, default=8, help="wrk duration per run")
    parser.add_argument("--skip", nargs="*", default=[],
                        choices=["inprocess", "store", "amend", "http", "query", "judge",
                                 "build", "rss"])
    parser.add_argument("--scratch", type=Path, default=None, metavar="DIR",
                        help="where the amend figure copies a release (default: the temp "
                             "directory; on the releases' file system it hard-links)")
    parser.add_argument("--figures", type=Path, default=None, metavar="DIR",
                        help="also write the docs' table there (docs/figures: make bench)")
    parser.add_argument("--reference-release", type=Path, default=None, metavar="DIR",
                        help="a release directory to measure beside the first game's current "
                             "release in the store figure (same keys, same run)")
    args = parser.parse_args(argv)

    home = args.home
    if args.synthetic:
        from tools.synthetic import publish_synthetic
        home = args.synthetic_home or Path(tempfile.mkdtemp(prefix="lexicon-synthetic-"))
        for game in ("osps", "remik", "kvizovka", "krizemkrazem"):
            if Catalog(home).release_or_none(game) is None:
                n = args.synthetic if game == "osps" else max(1000, args.synthetic // 8)
                _log(f"publishing a SYNTHETIC {game} release of {n:,} words under {home}")
                publish_synthetic(home, game, n)
    home = (home or Path(os.environ.get("LEXICON_HOME", "data"))).resolve()
    os.environ["LEXICON_HOME"] = str(home)
    cat = Catalog(home)
    synthetic = any((rel := cat.release_or_none(g)) and rel.manifest["policy"].get("synthetic")
                    for g in cat.games())
    fig = Figures(synthetic=bool(synthetic))
    games = [g for g in args.games if cat.release_or_none(g)]
    for missing in sorted(set(args.games) - set(games)):
        fig.emit("skipped", game=missing, error="no release built")
    calibration(fig)
    for game in games:
        _log(f"measuring {game}")
        if "build" not in args.skip:
            build_figures(fig, cat, game)
        if "inprocess" not in args.skip:
            inprocess_check(fig, cat, game, args.words)
        if "store" not in args.skip:
            ref = args.reference_release if game == games[0] else None
            store_figures(fig, cat, game, args.words, ref)
        if "amend" not in args.skip:
            amend_figure(fig, cat, game, args.scratch)
        if "query" not in args.skip:
            query_latency(fig, cat, game, args.reps)
        if "judge" not in args.skip:
            judge_latency(fig, cat, game, args.judge_reps)
        if "http" not in args.skip:
            http_figures(fig, cat, home, game, args.seconds)
    if "rss" not in args.skip:
        server_rss(fig, cat, home)
    calibration(fig)
    if args.figures:
        figures.write(args.figures, "bench", tool="tools.bench",
                      columns=["figure", "target", *games, "reference in the same run"],
                      rows=table_rows(fig.emitted, games), figures=fig.emitted, argv=argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
