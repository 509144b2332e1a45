"""Remik-move flood figure: the heaviest Remik moves at once against the real server, and
meanwhile the latency of ``/healthz`` and of a single-word lookup, beside a reference with
no flood.

    python -m tools.remik_flood --home /work/data [--seconds 20] [--clients 4]
                                [--max-moves 200] [--code DIR] [--costs]

The server is the real app under uvicorn (:func:`service.launch.serving`) on the releases of
``--home`` (Remik's links the osps release); ``--code DIR`` starts it from another
checkout's code (the before-and-after figure). The flood is ``--clients`` threads, each
posting one heavy move after another to ``POST /v1/games/remik/move`` for ``--seconds``,
at most ``--max-moves`` in all (the flood is bounded in count and in time): the largest
move a request may carry (32 words of 64 random letters, each shuffled after the move, a
full shelf; 5.5 KB), as an opening and as a move, and 32 ``kot`` read out of 32 words
``kotkot…`` (millions of ways to read remnants). A client answered 503 ``busy`` waits the
``Retry-After`` it was given. Meanwhile the probes of :mod:`tools.pattern_flood` run.

Prints one JSON object per phase (``remik_flood`` with ``flood`` false, then true), shaped
like the pattern flood's. First (``--costs``, in this process, without a server) one
``remik_move_cost`` object per move of :func:`heavy_moves`: its answer (or error code) and
its CPU and wall time, beside ``remik.MAX_MOVE_STEPS``: the limits table's "about a second".
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from lexicon.catalog import Catalog
from lexicon.errors import LexiconError
from lexicon.verdicts import remik
from tools import figures, pattern_flood

LETTERS = "aąbcćdeęfghijklłmnńoóprsśtuwyzźż"
#: a move any referee asks: checked before the flood that the server rules moves at all
SMALL_MOVE = {"before": ["kotek"], "after": ["koty", "ek"], "rack": "y"}


def heavy_move(seed: int = 1) -> dict[str, Any]:
    """The largest move a request may carry: 32 words of 64 random letters, each shuffled
    after the move, and a full shelf (5.5 KB as JSON)."""
    rng = random.Random(seed)
    before = ["".join(rng.choice(LETTERS) for _ in range(64))
              for _ in range(remik.MAX_MOVE_WORDS)]
    after = ["".join(rng.sample(w, len(w))) for w in before]
    return {"before": before, "after": after,
            "rack": "".join(rng.choice(LETTERS) for _ in range(remik.MAX_MOVE_RACK))}


def heavy_moves() -> list[tuple[str, dict[str, Any]]]:
    """(label, JSON body) of each heavy move the flood sends."""
    shuffled = heavy_move(1)
    return [("32 shuffled 64-letter words, opening", {**shuffled, "opening": True}),
            ("32 shuffled 64-letter words, move", heavy_move(2)),
            ("32 kot out of 32 kotkot…", {"before": ["kot" * 21] * remik.MAX_MOVE_WORDS,
                                         "after": ["kot"] * remik.MAX_MOVE_WORDS,
                                         "rack": "y" * remik.MAX_MOVE_RACK})]


def move_request(body: dict[str, Any]) -> pattern_flood.Request:
    def send(client: httpx.Client, base: str) -> httpx.Response:
        return client.post(f"{base}/v1/games/remik/move", json=body)
    return send


def move_costs(home: Path) -> list[dict[str, Any]]:
    """Each heavy move (and the small one) ruled in this process: answer and time."""
    cat = Catalog(home)
    out = []
    for label, body in [("small: kotek -> koty ek", SMALL_MOVE), *heavy_moves()]:
        options = {k: v for k, v in body.items() if k not in ("before", "after", "rack")}
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            r = cat.lexicon("remik").move(body["before"], body["after"], body["rack"], log=False,
                                **options)
            answer: object = r["outcome"]["code"]
        except LexiconError as exc:
            answer = exc.code
        out.append({"figure": "remik_move_cost", "move": label,
                    "body_bytes": len(json.dumps(body, ensure_ascii=False).encode()),
                    "answer": answer, "max_steps": remik.MAX_MOVE_STEPS,
                    "cpu_s": round(time.process_time() - cpu, 3),
                    "wall_s": round(time.perf_counter() - wall, 3)})
    cat.close()
    return out


COLUMNS = ["phase", "`/healthz` p50 / p99 / max", "word lookup p50 / p99 / max",
           "heavy moves", "server RSS peak"]


def rows(phases: list[dict[str, Any]], costs: list[dict[str, Any]]) -> list[list[str]]:
    """The docs' table: a row per phase, the heavy moves' CPU time from ``costs``."""
    keys = ("p50_ms", "p99_ms", "max_ms")
    cpu = [c["cpu_s"] for c in costs if c["answer"] != "move_stands"]
    out = []
    for f in phases:
        moves = ""
        if f["flood"]:
            lat = f["flood_latency"]
            moves = ", ".join(f"{n:,} × {k.split()[0]} `{k.split()[1]}`"
                              for k, n in sorted(f["flood_answers"].items()))
            if cpu:
                moves += f", each {min(cpu):.1f}–{max(cpu):.1f} s of CPU in process"
            if lat.get("n"):
                moves += (f"; p50 {lat['p50_ms'] / 1000:.1f} s, max {lat['max_ms'] / 1000:.1f} s "
                          "of wall time")
            moves += f"; {f['flood_unanswered_after_grace']} unanswered"
        out.append(["flood" if f["flood"] else "reference, no flood",
                    pattern_flood.ms_cell(f["healthz"], *keys),
                    pattern_flood.ms_cell(f["word"], *keys),
                    moves, f"{f['rss_mb']['high_water']:,} MB"])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = pattern_flood.flood_arguments(__doc__, seconds=20.0, reference=5.0, clients=4)
    parser.add_argument("--max-moves", type=int, default=200,
                        help="heavy moves sent in all, at most")
    parser.add_argument("--costs", action="store_true",
                        help="first print each heavy move's answer and time in-process")
    parser.add_argument("--figures", type=Path, default=None, metavar="DIR",
                        help="also write the docs' table there (docs/figures: make bench)")
    args = parser.parse_args(argv)
    costs = move_costs(args.home) if args.costs else []
    for figure in costs:
        print(json.dumps(figure, ensure_ascii=False), flush=True)
    phases = []
    flood = [(label, move_request(body)) for label, body in heavy_moves()]
    with pattern_flood.running(args.home, args.code,
                               [("GET", "/v1/games/remik/words/kot", None),
                                ("POST", "/v1/games/remik/move", SMALL_MOVE)]) as (base, pid):
        for clients, seconds in ((0, args.reference_seconds), (args.clients, args.seconds)):
            figure = pattern_flood.phase(base, pid, seconds=seconds, clients=clients,
                                         probe_every=args.probe_every, honour=True,
                                         flood=flood, name="remik_flood",
                                         listed="flood_moves", max_requests=args.max_moves)
            figure["code"] = str(args.code or Path(__file__).resolve().parents[1])
            print(json.dumps(figure, ensure_ascii=False), flush=True)
            phases.append(figure)
    if args.figures:
        figures.write(args.figures, "remik-flood", tool="tools.remik_flood", columns=COLUMNS,
                      rows=rows(phases, costs), figures=[*costs, *phases], argv=argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
