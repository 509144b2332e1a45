"""Metrics-label flood figure: requests with made-up methods and paths against the real
server, and what they do to ``/metrics``.

    python -m tools.label_flood [--home DIR] [--requests 5000] [--method-bytes 2048]

The server is the real app under uvicorn (:func:`service.launch.serving`) with its counters
in a fresh ``PROMETHEUS_MULTIPROC_DIR``, as ``lexicon serve --workers N`` keeps them; the
releases are those of ``--home``, or a small synthetic osps release made for the run
(:mod:`tools.synthetic`). The flood is ``--requests`` requests on loopback, one at a time
on one kept-alive connection (bounded: it measures growth, not load), each with a method
nobody uses (``--method-bytes`` long, a new one each time) on the word route or on a path
that matches no route. Every label value of a request that became its own series would stay
in memory and in the metrics files for the life of the process.

Prints one JSON object: the answers by status, the 5xx count, the size of ``/metrics`` and
of the metrics directory before and after, the number of series of
``lexicon_http_requests_total`` and of its ``method`` label values after (the first five
shown, cut to 12 characters), and the server's
``/healthz`` ``metrics`` state.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from lexicon.service.launch import serving

SERIES = "lexicon_http_requests_total{"


def _dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.iterdir() if p.is_file())


def _scrape(conn: http.client.HTTPConnection) -> str:
    conn.request("GET", "/metrics")
    return conn.getresponse().read().decode()


def flood(base: str, prom: Path, requests: int, method_bytes: int) -> dict[str, Any]:
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    before = _scrape(conn)
    dir_before = _dir_bytes(prom)
    statuses: Counter[int] = Counter()
    t0 = time.perf_counter()
    for i in range(requests):
        method = f"M{i:07d}".ljust(method_bytes, "X")
        path = "/v1/games/osps/words/kot" if i % 2 else f"/no/such/{i}"
        conn.request(method, path)
        r = conn.getresponse()
        r.read()
        statuses[r.status] += 1
        if r.getheader("connection", "").lower() == "close":
            conn.close()
            conn = http.client.HTTPConnection(host, int(port), timeout=30)
    seconds = time.perf_counter() - t0
    t1 = time.perf_counter()
    after = _scrape(conn)
    scrape_ms = (time.perf_counter() - t1) * 1000
    conn.request("GET", "/healthz")
    health = json.loads(conn.getresponse().read())
    conn.close()
    series = [line for line in after.splitlines() if line.startswith(SERIES)]
    methods = sorted({line.split('method="', 1)[1].split('"', 1)[0] for line in series
                      if 'method="' in line})
    return {"label_flood": True, "requests": requests, "method_bytes": method_bytes,
            "seconds": round(seconds, 2),
            "statuses": {str(k): v for k, v in sorted(statuses.items())},
            "server_errors": sum(v for k, v in statuses.items() if k >= 500),
            "metrics_bytes": {"before": len(before), "after": len(after)},
            "metrics_dir_bytes": {"before": dir_before, "after": _dir_bytes(prom)},
            "scrape_ms_after": round(scrape_ms, 1),
            "request_series_after": len(series), "method_labels": len(methods),
            "method_labels_shown": [m[:12] for m in methods[:5]],
            "metrics_state": health.get("metrics", {}).get("state")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, help="LEXICON_HOME (default: a synthetic osps)")
    ap.add_argument("--requests", type=int, default=5000)
    ap.add_argument("--method-bytes", type=int, default=2048)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="label-flood-") as tmp:
        home = args.home
        if home is None:
            from tools.synthetic import publish_synthetic

            home = Path(tmp) / "home"
            publish_synthetic(home, "osps", 2000)
        prom = Path(tmp) / "prom"
        prom.mkdir()
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(prom)   # the child's counters: files
        os.environ["LEXICON_ACCESS_LOG"] = "0"
        with serving("lexicon.service.app:create_app", home) as (base, _pid):
            print(json.dumps(flood(base, prom, args.requests, args.method_bytes)),
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
