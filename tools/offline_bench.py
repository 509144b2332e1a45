"""``python -m tools.offline_bench``: the offline referee page's figures, each beside its budget.

For every game with a release in the data directory (``--home``, default ``$LEXICON_HOME``;
only read, never written: the server runs on a scratch home that links its releases)
or in SYNTHETIC releases (``--synthetic N``, see :mod:`tools.synthetic`; every figure then
says so), prints one JSON object per game on stdout:

* ``download``: what a phone downloads to save the game (the words, gzip -9, and the rules
  JSON, gzip) beside the budget (osps and Remik 2 MB, Kvizovka 1 MB, Križemkražem 0.5 MB),
  the two KWGs' sizes and key counts, and the seconds the server took to make the pack;
* ``check_ms``: the in-browser check (``offline.js``, in this machine's Chromium) of
  ``--words`` keys drawn from the release (valid and rejected, each in several spellings)
  plus the tricky inputs, p50 / p95 / max per check beside the 5 ms p95 budget, and the
  pack's load time (parse of the saved pack);
* ``agree``: how many of those answers equal the server's, field by field (verdict,
  reason, tiles, score, other readings, jokers, errors); any other figure than all of them
  is a bug;
* ``first_verdict_s``: with the server stopped, the time from asking Chromium for the page
  (``/?game=G&word=W``) to the verdict shown, beside the 1 s budget (measured through
  chromedriver, so an upper bound).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from lexicon.service.launch import serving

from lexicon import Catalog
from tools import figures
from tools.offline_inputs import agrees, inputs, project
from tools.synthetic import publish_synthetic

BUDGET_BYTES = {"osps": 2_000_000, "remik": 2_000_000, "kvizovka": 1_000_000,
                "krizemkrazem": 500_000}
BUDGET_P95_MS = 5.0
BUDGET_FIRST_S = 1.0

TIMED = """
const [game, words, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
(async () => {
  let t = performance.now();
  await Offline.save(game);
  const saveMs = performance.now() - t;
  t = performance.now();
  const pack = await Offline.load(game);
  const loadMs = performance.now() - t;
  const ms = [];
  const answers = [];
  for (const w of words) {
    const t0 = performance.now();
    const a = pack.answer(w, {});
    ms.push(performance.now() - t0);
    answers.push(a);
  }
  done({ saveMs, loadMs, ms, answers });
})().catch((err) => done({ failed: String(err && err.stack || err) }));
"""


@contextmanager
def chromium(profile_dir: Path) -> Iterator[Any]:
    """Headless Debian Chromium through chromedriver, as the page's tests run it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-dev-shm-usage", "--window-size=390,844",
                 f"--user-data-dir={profile_dir}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_script_timeout(600)
    try:
        yield driver
    finally:
        driver.quit()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def server_answers(base: str, game: str, words: list[str]) -> list[Any]:
    out: list[Any] = []
    for i in range(0, len(words), 5000):
        r = httpx.post(f"{base}/v1/games/{game}/check", json={"words": words[i:i + 5000]},
                       timeout=600)
        out += r.json()["results"]
    return [project(a) for a in out]


def measure(home: Path, games: list[str], n_words: int, synthetic: bool) -> Iterator[dict]:
    catalog = Catalog(home)
    served = [g for g in games if catalog.state(g)["release"]]
    words: dict[str, list[str]] = {}
    made: dict[str, dict[str, Any]] = {}
    for game in served:
        lex = catalog.lexicon(game)
        t0 = time.monotonic()
        pack = lex.offline_pack()       # kept in the scratch home: the server reads it
        seconds = time.monotonic() - t0
        p = lex.profile
        words[game] = inputs((k for k, _s in lex.release.iter_records()),
                             lex.speller.to_latin, limit=n_words,
                             lengths=[n for n in (p.min_length, p.edge_min_length,
                                                  p.max_length) if n])
        rules_gz = len(gzip.compress(json.dumps(pack.rules, ensure_ascii=False).encode(), 9))
        made[game] = {"words_gzip": len(pack.words_gzip), "rules_gzip": rules_gz,
                      "seconds": round(seconds, 1), "words": pack.rules["words"],
                      # the largest peak so far of this process and of the child
                      # processes that made packs: an upper bound of what making it took
                      "max_rss_mb": max(resource.getrusage(who).ru_maxrss for who in (
                          resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) // 1024}
        print(f"{game}: pack made in {seconds:.1f} s", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory() as scratch, chromium(Path(scratch)) as driver:
        server = ExitStack()
        with server:
            # the server makes its own packs (another process): warm them before timing
            base, _pid = server.enter_context(serving("lexicon.service.app:create_app", home,
                                                      timeout=600))
            for game in served:
                httpx.get(f"{base}/v1/games/{game}/offline", timeout=3600)
            expected = {g: server_answers(base, g, words[g]) for g in served}
            driver.get(base + "/")
            results: dict[str, dict[str, Any]] = {}
            for game in served:
                got = driver.execute_async_script(TIMED, game, words[game])
                if "failed" in got:
                    raise SystemExit(f"{game}: {got['failed']}")
                results[game] = got
            driver.get(base + "/")        # again, so the service worker controls the page
            time.sleep(1)
        # the server is stopped: the page opens and answers from the device
        first = {g: first_verdict(driver, base, g, words[g][0]) for g in served}
        yield from _report(served, made, words, expected, results, first, synthetic)


def _report(served: list[str], made: dict, words: dict, expected: dict, results: dict,
            first: dict, synthetic: bool) -> Iterator[dict]:
    for game in served:
        got = results[game]
        ms = got["ms"]
        offline = [project(a) for a in got["answers"]]
        pairs = list(zip(offline, expected[game], strict=True))
        tiling_only = made[game]["words"]["others"].get("reasons") == "tiling"
        agree = sum(1 for a, b in pairs if agrees(b, a, tiling_only))
        for a, b in [(a, b) for a, b in pairs if not agrees(b, a, tiling_only)][:5]:
            print(json.dumps({"disagrees": game, "server": b, "offline": a},
                             ensure_ascii=False), file=sys.stderr)
        m = made[game]
        total = m["words_gzip"] + m["rules_gzip"]
        yield {
            "game": game, "synthetic": synthetic,
            "download": {"bytes": total, "budget": BUDGET_BYTES.get(game),
                         "within": total <= BUDGET_BYTES.get(game, total),
                         "words_gzip": m["words_gzip"], "rules_gzip": m["rules_gzip"],
                         "admitted_kwg": m["words"]["admitted"]["bytes"],
                         "others_kwg": m["words"]["others"]["bytes"],
                         "others_keys": m["words"]["others"]["keys"],
                         "pack_seconds": m["seconds"], "pack_max_rss_mb": m["max_rss_mb"]},
            "check_ms": {"n": len(ms), "p50": round(statistics.median(ms), 3),
                         "p95": round(pct(ms, 0.95), 3), "max": round(max(ms), 3),
                         "budget_p95": BUDGET_P95_MS,
                         "within": pct(ms, 0.95) <= BUDGET_P95_MS,
                         "save_ms": round(got["saveMs"]), "load_ms": round(got["loadMs"])},
            "agree": {"same": agree, "of": len(offline), "words": len(words[game])},
            "first_verdict_s": {"seconds": first.get(game), "budget": BUDGET_FIRST_S,
                                "within": (first.get(game) or 99) <= BUDGET_FIRST_S},
        }


COLUMNS = ["game", "download (budget)", "check p95 (budget 5 ms)",
           "offline answers equal to the server's", "first offline verdict (budget 1 s)"]


def rows(figures: list[dict[str, Any]]) -> list[list[str]]:
    """The docs' table: a row per game measured (:func:`_report`)."""
    out = []
    for f in figures:
        d, c, a, v = f["download"], f["check_ms"], f["agree"], f["first_verdict_s"]
        budget = f" ({d['budget'] / 1e6:g} MB)" if d["budget"] else ""
        first = "-" if v["seconds"] is None else f"{v['seconds']:.2f} s"
        out.append([f["game"] + (" (SYNTHETIC)" if f["synthetic"] else ""),
                    f"{d['bytes'] / 1e6:.2f} MB{budget}", f"{c['p95']:.1f} ms",
                    f"{a['same']:,} of {a['of']:,}", first])
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, default=Path(os.environ.get("LEXICON_HOME", "data")))
    ap.add_argument("--games", default="osps,kvizovka,krizemkrazem,remik")
    ap.add_argument("--words", type=int, default=2000, help="keys drawn per game")
    ap.add_argument("--synthetic", type=int, default=0,
                    help="publish SYNTHETIC releases of about N words first (osps N, "
                         "kvizovka N/7, krizemkrazem N/58, as the published ratios)")
    ap.add_argument("--figures", type=Path, default=None, metavar="DIR",
                    help="also write the docs' table there (docs/figures)")
    args = ap.parse_args(argv)
    games = args.games.split(",")
    with tempfile.TemporaryDirectory() as scratch:
        # a scratch home whose releases are the given ones (a link): the packs and
        # anything else the server writes stay in the scratch directory
        home = Path(scratch) / "home"
        home.mkdir()
        if not args.synthetic:
            (home / "releases").symlink_to((args.home / "releases").resolve())
        else:
            sizes = {"osps": args.synthetic, "kvizovka": args.synthetic * 10 // 74,
                     "krizemkrazem": args.synthetic // 58}
            for game in ("osps", "kvizovka", "krizemkrazem", "remik"):
                if game in games:
                    publish_synthetic(home, game, sizes.get(game, args.synthetic))
                    print(f"{game}: SYNTHETIC release published", file=sys.stderr)
        measured = []
        for figure in measure(home, games, args.words, bool(args.synthetic)):
            print(json.dumps(figure, ensure_ascii=False), flush=True)
            measured.append(figure)
    if args.figures and measured:
        figures.write(args.figures, "offline", tool="tools.offline_bench", columns=COLUMNS,
                      rows=rows(measured), figures=measured, argv=argv)


def first_verdict(driver: Any, base: str, game: str, word: str) -> float:
    """Seconds from asking for the page to its verdict shown (server stopped)."""
    started = time.monotonic()
    driver.get(f"{base}/?game={game}&word={quote(word)}")
    deadline = started + 30
    while time.monotonic() < deadline:
        if driver.execute_script("return document.getElementById('verdict').textContent"):
            return round(time.monotonic() - started, 3)
        time.sleep(0.005)
    return float("inf")


if __name__ == "__main__":
    main()
