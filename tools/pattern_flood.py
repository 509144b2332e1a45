"""Pattern-flood figure: 24 broad patterns at once against the real server, and meanwhile
the latency of ``/healthz`` and of a single-word lookup, beside a reference with no flood.

    python -m tools.pattern_flood --home /work/data [--seconds 30] [--clients 24]
                                  [--code DIR] [--ignore-retry-after]

The server is the real app under uvicorn (:func:`service.launch.serving`) on the releases of
``--home``; ``--code DIR`` starts it from another checkout's code (the before-and-after
figure: the child imports ``service`` and ``lexicon`` from its working directory). The
flood is ``--clients`` threads, each sending one broad pattern after another for
``--seconds``: patterns that fix neither end (``*ź*ż*`` in osps, which reads every key),
Kvizovka patterns whose Latin digraphs give 64 readings (``*lj*nj*dž*lj*nj*dž*``), and the
same opening with a set (``[^ź]*ź*ż*``), whose work is only known as it is done. A client
answered 503 ``busy`` waits the ``Retry-After`` it was given, as an engine should
(``--ignore-retry-after``: it asks again at once). Meanwhile one prober sends ``/healthz``
and ``GET /v1/games/osps/words/zażółć`` in turn, every ``--probe-every`` seconds, and the
server's resident memory is sampled from ``/proc``.

Prints one JSON object per phase (``pattern_flood`` with ``flood`` false, then true): the
probes' p50/p99/max latency, the flood's answers by status and code with their latency,
and the server's RSS at the start and its peak (VmHWM, the kernel's high-water mark).
First (``--costs``, in this process, without a server) one ``pattern_cost`` object per
query of :data:`COST_CASES`: the work it spends of ``queries.MAX_PATTERN_WORK``, its time
and its answer, for the queries engines use and for the broad ones that are refused.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from lexicon.service.launch import serving

from lexicon.catalog import Catalog
from lexicon.errors import LexiconError
from lexicon.queries import queries
from lexicon.queries.patterns import parse
from lexicon.queries.search import Budget, least_work
from tools import figures

# Broad patterns, alternately osps and kvizovka. Those fixing no tile at either end can be
# refused before any search; those opening with a set (`[^ź]`) fix a tile for the walk,
# so their work is only known as it is done: they spend the whole budget each time.
PATTERNS = [
    ("osps", "*ź*ż*"), ("kvizovka", "*lj*nj*dž*lj*nj*dž*"),
    ("osps", "[^ź]*ź*ż*"), ("kvizovka", "[^ž]*lj*nj*dž*"),
    ("osps", "*ż*ź*"), ("kvizovka", "*nj*lj*dž*nj*lj*dž*"),
    ("osps", "[^ą]*ę*ą*"), ("kvizovka", "[^c]*nj*lj*"),
]
WORD = ("osps", "zażółć")
# (game, pattern, min_length, max_length): what engines ask, then what is refused
COST_CASES = [
    ("osps", "*owy", None, None), ("osps", "?a??k", None, None), ("osps", "ka?in", None, None),
    ("osps", "*ą", 7, 7), ("osps", "k*ą", None, None), ("osps", "*ą*", 8, 8),
    ("kvizovka", "*ost", None, None), ("kvizovka", "?a??k", None, None),
    ("kvizovka", "lj*", None, None), ("kvizovka", "*nj*", 6, 6),
    ("osps", "*ź*ż*", None, None), ("osps", "[^ź]*ź*ż*", None, None),
    ("osps", "[^ź][^ź][^ź][^ź][^ź][^ź][^ź]", None, None),
    ("kvizovka", "*lj*nj*dž*lj*nj*dž*", None, None), ("kvizovka", "[^ž]*lj*nj*dž*", None, None),
]
REQUEST_TIMEOUT = 120.0     # seconds: the slowest answer before the change was 76 s
#: one flood request: (client, base URL) -> the answer
Request = Callable[[httpx.Client, str], httpx.Response]
GRACE = 15.0                # seconds the flood's last answers are waited for after the window


def _status_kb(pid: int, field: str) -> float:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return float("nan")
    found = re.search(rf"^{field}:\s+(\d+) kB", text, re.M)
    return int(found.group(1)) / 1024 if found else float("nan")


def _summary(times_ms: list[float]) -> dict[str, Any]:
    if not times_ms:
        return {"n": 0}
    ordered = sorted(times_ms)

    def pick(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, round(q * len(ordered)) - 1)], 1)

    return {"n": len(ordered), "p50_ms": round(statistics.median(ordered), 1),
            "p99_ms": pick(0.99), "max_ms": round(ordered[-1], 1)}


def _probe(base: str, stop: threading.Event, every: float,
           out: dict[str, list[float]], failures: Counter[str]) -> None:
    """``/healthz`` and one word in turn until ``stop``: their latencies in ms. Each is
    asked at least once, however short the phase, so no figure is made of no sample."""
    game, word = WORD
    targets = [("healthz", f"{base}/healthz"), ("word", f"{base}/v1/games/{game}/words/{word}")]
    with httpx.Client(timeout=REQUEST_TIMEOUT) as client:
        turn = 0
        while turn < len(targets) or not stop.is_set():
            name, url = targets[turn % 2]
            turn += 1
            started = time.perf_counter()
            try:
                r = client.get(url)
                if r.status_code != 200:
                    failures[f"{name} {r.status_code}"] += 1
            except httpx.HTTPError as exc:
                failures[f"{name} {type(exc).__name__}"] += 1
                continue
            out[name].append((time.perf_counter() - started) * 1000)
            stop.wait(every)


def pattern_request(game: str, pattern: str) -> Request:
    def send(client: httpx.Client, base: str) -> httpx.Response:
        return client.get(f"{base}/v1/games/{game}/pattern", params={"pattern": pattern})
    return send


def _flood_client(base: str, send: Request, deadline: float, honour: bool,
                  answers: Counter[str], times_ms: list[float], lock: threading.Lock,
                  budget: list[int]) -> None:
    """One engine sending its heavy request again and again until ``deadline``, or until
    the flood's ``budget`` of requests (shared by every client) is spent."""
    with httpx.Client(timeout=REQUEST_TIMEOUT) as client:
        while time.monotonic() < deadline:
            with lock:
                if budget[0] <= 0:
                    return
                budget[0] -= 1
            started = time.perf_counter()
            try:
                r = send(client, base)
            except httpx.HTTPError as exc:
                with lock:
                    answers[type(exc).__name__] += 1
                continue
            took = (time.perf_counter() - started) * 1000
            try:
                code = r.json().get("code", "ok")
            except ValueError:
                code = "not-json"
            with lock:
                answers[f"{r.status_code} {code}"] += 1
                times_ms.append(took)
            if r.status_code == 503 and honour:
                wait = float(r.headers.get("retry-after", "1"))
                time.sleep(min(wait, max(0.0, deadline - time.monotonic())))


def phase(base: str, pid: int, *, seconds: float, clients: int, probe_every: float,
          honour: bool, patterns: list[tuple[str, str]] = PATTERNS,
          flood: list[tuple[str, Request]] | None = None, name: str = "pattern_flood",
          listed: str = "flood_patterns", max_requests: int | None = None) -> dict[str, Any]:
    """One measured phase: probes for ``seconds``, with ``clients`` flooders (0: none), each
    sending one of ``flood`` (label, request; default: ``patterns``) again and again, at
    most ``max_requests`` in all.

    The flood's answers are counted until :data:`GRACE` seconds after the window; requests
    still unanswered then are counted as such (the server is stopped after the phase, which
    ends them: before the change, 24 whole-lexicon scans took minutes)."""
    probes: dict[str, list[float]] = {"healthz": [], "word": []}
    failures: Counter[str] = Counter()
    answers: Counter[str] = Counter()
    flood_ms: list[float] = []
    lock = threading.Lock()
    if flood is None:
        flood = [(f"{g} {p}", pattern_request(g, p)) for g, p in patterns]
    budget = [max_requests if max_requests is not None else sys.maxsize]
    rss_start = _status_kb(pid, "VmRSS")
    peak = [rss_start]
    stop = threading.Event()

    def sample_rss() -> None:
        while not stop.wait(0.2):
            peak[0] = max(peak[0], _status_kb(pid, "VmRSS"))

    prober = threading.Thread(target=_probe, args=(base, stop, probe_every, probes, failures))
    sampler = threading.Thread(target=sample_rss)
    started = time.monotonic()
    deadline = started + seconds
    flooders = [threading.Thread(target=_flood_client, daemon=True, args=(
        base, flood[i % len(flood)][1], deadline, honour, answers, flood_ms, lock, budget))
        for i in range(clients)]
    sampler.start()
    prober.start()
    for t in flooders:
        t.start()
    time.sleep(seconds)
    stop.set()                 # the probes measure the flood window only
    prober.join()
    for t in flooders:         # the last answers, for a bounded time
        t.join(max(0.0, deadline + GRACE - time.monotonic()))
    unanswered = sum(t.is_alive() for t in flooders)
    with lock:
        answers = Counter(answers)
        flood_ms = list(flood_ms)
    sampler.join()
    figure: dict[str, Any] = {
        "figure": name, "flood": clients > 0, "seconds": seconds,
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "healthz": _summary(probes["healthz"]), "word": _summary(probes["word"]),
        "probe_failures": dict(failures),
        "rss_mb": {"start": round(rss_start, 1), "peak_sampled": round(peak[0], 1),
                   "high_water": round(_status_kb(pid, "VmHWM"), 1)},
    }
    if clients:
        figure["flood_clients"] = clients
        figure[listed] = [label for label, _ in flood]
        figure["flood_answers"] = dict(sorted(answers.items()))
        figure["flood_unanswered_after_grace"] = unanswered
        figure["flood_latency"] = _summary(flood_ms)
        figure["flood_wall_s"] = round(time.monotonic() - started, 1)
        figure["honours_retry_after"] = honour
    return figure


def pattern_costs(home: Path, games: list[str]) -> list[dict[str, Any]]:
    """The work and time of each query of :data:`COST_CASES`, under the real budget."""
    cat = Catalog(home)
    out = []
    for game, text, low_asked, high_asked in COST_CASES:
        if game not in games or cat.release_or_none(game) is None:
            continue
        profile, index = cat.profile(game), cat.release(game).indexes
        low, high = queries._lengths(profile, low_asked, high_asked)
        started = time.perf_counter()
        compiled = parse(profile, text, known=index.has_prefix)
        alphabet = sorted(profile.by_canonical)
        least = sum(least_work(index, r, alphabet, low, high) for r in compiled.readings)
        budget = Budget(queries.MAX_PATTERN_WORK, len(compiled.readings))
        try:
            answer: object = len(queries.match_keys(index, profile, compiled, low, high,
                                                    budget))
        except LexiconError as exc:
            answer = exc.code
        took = (time.perf_counter() - started) * 1000
        out.append({"figure": "pattern_cost", "game": game, "pattern": text,
                    "lengths": [low, high], "readings": len(compiled.readings),
                    "work": budget.spent, "known_up_front": least,
                    "max_work": queries.MAX_PATTERN_WORK, "ms": round(took, 1),
                    "answer": answer})
    cat.close()
    return out


@contextlib.contextmanager
def running(home: Path, code: Path | None, warm: list[tuple[str, str, Any]]
            ) -> Iterator[tuple[str, int]]:
    """The real server on ``home`` (from the checkout ``code``, default this one), its
    releases opened by the ``warm`` requests (method, path, JSON body) before measuring:
    (base URL, server pid)."""
    if code is not None:
        os.chdir(code)         # `python -m uvicorn` in the child imports from its cwd
    with serving("lexicon.service.app:create_app", home.resolve()) as (base, pid):
        for method, path, body in warm:
            httpx.request(method, f"{base}{path}", json=body, timeout=60)
        yield base, pid


def flood_arguments(doc: str, *, seconds: float, reference: float, clients: int
                    ) -> argparse.ArgumentParser:
    """The options every flood figure takes (the server, the phases, the probes)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--home", type=Path, required=True, help="LEXICON_HOME to serve")
    parser.add_argument("--seconds", type=float, default=seconds, help="flood duration")
    parser.add_argument("--reference-seconds", type=float, default=reference,
                        help="duration of the no-flood reference")
    parser.add_argument("--clients", type=int, default=clients, help="concurrent flooders")
    parser.add_argument("--probe-every", type=float, default=0.05,
                        help="seconds between probes")
    parser.add_argument("--code", type=Path, default=None,
                        help="start the server from this checkout's code")
    return parser


def ms_cell(summary: dict[str, Any], *keys: str) -> str:
    """``p50 / p99 ms`` of a probe summary (``-`` where nothing was measured)."""
    if not summary.get("n"):
        return "-"
    return " / ".join(f"{summary[k]:,}" for k in keys) + " ms"


def _answers(figure: dict[str, Any]) -> str:
    """A flood phase's answers: how many, by status and code, and the unanswered."""
    answers = figure["flood_answers"]
    by = ", ".join(f"{n:,} × {key.split()[0]} `{key.split()[1]}`"
                   for key, n in sorted(answers.items(), key=lambda kv: -kv[1]))
    left = figure["flood_unanswered_after_grace"]
    return (f"{sum(answers.values()):,} in the window: {by}; "
            + ("none unanswered" if not left else f"{left} unanswered"))


def flood_rows(phases: list[dict[str, Any]]) -> list[list[str]]:
    """The docs' flood table: a row per phase (``figure`` objects of :func:`phase`)."""
    rows = []
    for f in phases:
        name = "reference, no flood" if not f["flood"] else (
            "flood" if f["honours_retry_after"] else "flood, clients ignoring `Retry-After`")
        rss = f["rss_mb"]
        rows.append([name, ms_cell(f["healthz"], "p50_ms", "p99_ms"),
                     ms_cell(f["word"], "p50_ms", "p99_ms"), _answers(f) if f["flood"] else "",
                     f"{rss['start']:,} → {max(rss['peak_sampled'], rss['start']):,} MB"])
    return rows


FLOOD_COLUMNS = ["phase", "`/healthz` p50 / p99", "word lookup p50 / p99", "flood answers",
                 "server RSS start → peak"]
COST_COLUMNS = ["game", "pattern (lengths)", "readings", "work", "time", "answer"]


def cost_rows(costs: list[dict[str, Any]]) -> list[list[str]]:
    """The docs' cost table: a row per :func:`pattern_costs` figure."""
    rows = []
    for c in costs:
        low, high = c["lengths"]
        refused = not isinstance(c["answer"], int)
        work = f"{c['work']:,}"
        if refused and c["work"] == 0:
            work = f"0 ({c['known_up_front']:,} known up front)"
        rows.append([c["game"], f"`{c['pattern']}` ({low}..{high})", str(c["readings"]), work,
                     f"{c['ms']:,} ms",
                     f"`{c['answer']}`" if refused else f"{c['answer']:,} words"])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = flood_arguments(__doc__, seconds=30.0, reference=10.0, clients=24)
    parser.add_argument("--ignore-retry-after", action="store_true",
                        help="flooders ask again at once after a 503")
    parser.add_argument("--costs", action="store_true",
                        help="first print each COST_CASES query's work and time")
    parser.add_argument("--games", nargs="+", default=["osps", "kvizovka"],
                        help="flood with these games' patterns only")
    parser.add_argument("--figures", type=Path, default=None, metavar="DIR",
                        help="also write the docs' tables there (docs/figures: make bench)")
    args = parser.parse_args(argv)
    patterns = [(g, p) for g, p in PATTERNS if g in args.games]
    tool = "tools.pattern_flood"
    if args.costs:
        costs = pattern_costs(args.home, args.games)
        for figure in costs:
            print(json.dumps(figure, ensure_ascii=False), flush=True)
        if args.figures:
            figures.write(args.figures, "pattern-costs", tool=tool, columns=COST_COLUMNS,
                          rows=cost_rows(costs), figures=costs, argv=argv)
    phases = []
    warm = [(method, f"/v1/games/{game}/{path}", None) for game in args.games
            for method, path in (("GET", "words/kot"), ("GET", "pattern?pattern=ka%3Fa"))]
    with running(args.home, args.code, warm) as (base, pid):
        code = str(args.code or Path(__file__).resolve().parents[1])
        for clients, seconds in ((0, args.reference_seconds), (args.clients, args.seconds)):
            figure = phase(base, pid, seconds=seconds, clients=clients,
                           probe_every=args.probe_every, honour=not args.ignore_retry_after,
                           patterns=patterns)
            figure["code"] = code
            print(json.dumps(figure, ensure_ascii=False), flush=True)
            phases.append(figure)
    if args.figures:
        name = "pattern-flood" + ("-ignoring-retry-after" if args.ignore_retry_after else "")
        rows = flood_rows(phases)
        figures.write(args.figures, name, tool=tool, columns=FLOOD_COLUMNS,
                      rows=rows[1:] if args.ignore_retry_after else rows, figures=phases,
                      argv=argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
