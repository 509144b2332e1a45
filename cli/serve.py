"""The server: ``lexicon serve``."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from lexicon import Catalog


def serve(host: str = "127.0.0.1", port: int = 8000,
          workers: Annotated[int, typer.Option(help="uvicorn worker processes")] = 1,
          drain_seconds: Annotated[float, typer.Option(
              help="on SIGTERM, how long requests in flight may take to finish")] = 30.0,
          access_log: Annotated[bool, typer.Option(
              "--access-log/--no-access-log",
              help="one JSON line a request on stdout")] = True,
          head_timeout: Annotated[float | None, typer.Option(
              min=0.1, help="seconds a request head may take to arrive (from the connection, "
                            "or the previous answer) before the connection is closed "
                            "(default 10)")] = None,
          build_games: Annotated[list[str] | None, typer.Option(
              "--build", help="build this game if it has no release (repeatable), in a "
                              "`lexicon build --if-missing` process started beside the server: "
                              "each game is served as soon as it is published, and answers "
                              "503 not_ready (being built) until then")] = None) -> None:
    """Serve the HTTP API (OpenAPI docs at /docs; /healthz liveness, /readyz readiness).

    With --build, the missing games are built by a child process while the server answers
    the ones that are ready (`make serve`); the build's progress goes to stderr, and it runs
    to its end even if the server is stopped first (a release is published atomically).

    SIGTERM drains: the listening socket closes at once (a load balancer moves new requests
    to other replicas), requests in flight finish, idle connections close, and the process
    exits (by the re-raised SIGTERM, a clean stop for systemd); requests still running
    after --drain-seconds are cut.

    With --workers N, uvicorn's process manager runs N processes on one socket (the releases
    are memory-mapped: they share the page cache) and /metrics sums every worker's counts
    through PROMETHEUS_MULTIPROC_DIR (a fresh directory, or the given one emptied; refused,
    exit 4, while another running server uses it)."""

    from lexicon.service import heads, launch, metrics
    if workers > 1 or os.environ.get(metrics.MULTIPROC_ENV):
        metrics.prepare_multiprocess()      # before any worker records a value
    os.environ[metrics.ACCESS_LOG_ENV] = "1" if access_log else "0"
    if head_timeout is not None:
        os.environ[heads.HEAD_TIMEOUT_ENV] = str(head_timeout)   # read by every worker
    if build_games:
        for g in build_games:
            Catalog().profile(g)       # an unknown game is refused before anything starts
        import subprocess
        subprocess.Popen([sys.executable, "-m", "lexicon.cli.main", "build", "--if-missing",
                          *build_games], stdout=sys.stderr)
    # where it looks and what it found, before anything else: a server on the wrong data
    # directory answers every game 503, which says nothing of why. The catalog is closed
    # before the app opens its own (LMDB opens an environment once per process).
    from lexicon import startup_report, startup_text
    found = Catalog()
    try:
        typer.echo(f"lexicon serve: {startup_text(startup_report(found))}", err=True)
    finally:
        found.close()
    launch.run("lexicon.service.app:create_app", host=host, port=port, workers=workers,
               log_level="info", access_log=False, timeout_graceful_shutdown=drain_seconds)
