"""The HTTP face: a thin FastAPI layer over the library's front door, :class:`lexicon.Lexicon`.

Nothing here decides anything about words; it parses requests, asks the Lexicon the
process's :class:`lexicon.Catalog` gives for the request's game (one release answers and
labels the whole request), and turns
:class:`~lexicon.errors.LexiconError` into JSON errors with a stable ``code``. Bad input is
answered with a 4xx and that JSON, never a 500.

This module makes the app: its layers (:class:`Service`) and error handlers; the routes
are in :mod:`service.routes`, one module per resource.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from lexicon.service import apidocs, bodies, contract, hotpath, inflight, metrics, routes
from lexicon.service.contract import error
from lexicon.service.querypool import QueryPool
from starlette.types import ASGIApp, Receive, Scope, Send

from lexicon import Catalog, InputError, LexiconError, __version__, lease_releases

#: What the API is and how it errs; :func:`service.apidocs.api_description` adds every error
#: code and every limit, from the library's ``CODES`` and ``LIMITS`` (never retyped here).
API_DESCRIPTION = """
Word validation for Kvizovka, Križemkražem, Polish Scrabble (`osps`) and Remik słowny
(`remik`). Every answer names the release that gave it.

Errors are JSON objects `{"code": ..., "message": ..., "detail"?: ...}` with a stable `code`
(every code and every limit: the tables below). A request whose form is wrong (a body that
is not JSON, not UTF-8 or not of the schema) is always 422 `invalid_request`; 400 is for
readable input whose content is refused (a path or query that is not UTF-8 once
percent-decoded is `bad_encoding`); 404 an unknown game (`unknown_game`), release
(`unknown_release`) or path; 413 a batch or body over its limit; 503 a game that cannot
answer (`no_release`, `release_damaged`, `no_index`, or `not_ready` while a running build
has not published its first release yet) while the others do, a full query pool
(`busy`, with `Retry-After`), a server out of file descriptors (`out_of_descriptors`, with
`Retry-After`; never taken for damage), an offline pack still being made
(`pack_not_ready`, with `Retry-After`), or a judge whose log cannot record the ruling
(`rulings_unavailable`: no verdict is then given).

Kvizovka input may be Latin or Cyrillic; `[dž]` forces one tile and `|` forbids a tile
across it (`nad|živeti`). The engine and referee queries (`blanks`, `pattern`, `anagrams`,
`hooks`, `prefix`, `extend`) run in a bounded pool of their own. The referee page is served
at `/`. `HEAD` works wherever `GET` does.
"""


async def _decodable_url(request: Request) -> None:
    """Every route's first check: a path or query that is not UTF-8 once percent-decoded
    is refused (400 ``bad_encoding``), not read with U+FFFD in place of its bytes. ``async``
    because it is a few byte checks: FastAPI runs a sync dependency on a worker thread, a
    hop per request on every route, which would cost more than the judge's whole ruling."""
    part = hotpath.undecodable(request.scope)
    if part is not None:
        raise InputError(f"the request's {part} is not UTF-8 once percent-decoded; send "
                         f"words, patterns and ids as percent-encoded UTF-8",
                         code="bad_encoding", detail={"part": part})


class Service(FastAPI):
    """FastAPI, with two plain ASGI layers in front of all of it (FastAPI's own error and
    telemetry layers included): outermost the single-word lane
    (:class:`service.hotpath.WordLookup`), which answers the plain lookups before anything
    else runs and reports each to the metrics, then :class:`service.metrics.Observability`,
    which counts every other request. Every HTTP request goes to :attr:`front`; it hands
    the others on as they are (lifespan events go to FastAPI directly)."""

    front: ASGIApp | None = None
    lane: hotpath.WordLookup | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.front is not None and scope["type"] == "http":
            await self.front(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


async def lexicon_error(_: Request, exc: LexiconError) -> JSONResponse:
    """A refusal by the library: its JSON, status and headers (``busy``'s Retry-After)."""
    return JSONResponse(exc.to_json(), status_code=exc.status,
                        headers=getattr(exc, "headers", None))


async def internal_error(_: Request, exc: Exception) -> JSONResponse:
    """Anything else: ``internal_error``, 500, naming the exception's type only."""
    return error(500, "internal_error", f"{type(exc).__name__}: the server failed")


def create_app(root: Path | None = None, catalog: Catalog | None = None) -> Service:
    """The app over the releases in ``root`` (or over ``catalog``, to share one process's
    open releases: LMDB opens an environment once per process)."""
    catalog = catalog or Catalog(root)
    # release files held by read leases: one truncated under the server waits for the reads
    # under way (service.inflight) instead of faulting them (lexicon.store.leases)
    lease_releases(inflight.since)
    app = Service(title="Lexicon", version=__version__,
                  description=apidocs.api_description(API_DESCRIPTION),
                  docs_url=None, redoc_url=None,   # served whole by service.docspage
                  dependencies=[Depends(_decodable_url)],
                  # the service's own figures are Prometheus's (/metrics); FastAPI's
                  # OpenTelemetry bridge, unconfigured here, would still ask on every
                  # request whether a provider had been set
                  telemetry={"tracing": False, "metrics": False, "logs": False})
    app.state.catalog = catalog
    # the queries' own workers: broad patterns cannot take the threads and the
    # interpreter from lookups and /healthz (see service/querypool.py)
    app.state.query_pool = QueryPool()
    contract.install(app)   # one error shape, HEAD, CSP, errors documented in OpenAPI
    app.add_middleware(bodies.BodyLimits)  # body size, time and big-batch bounds
    measure = metrics.install(app, catalog, partial(FastAPI.__call__, app))  # every request
    app.lane = hotpath.WordLookup(measure, catalog, measure.record)
    app.front = app.lane
    app.add_exception_handler(LexiconError, lexicon_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, internal_error)
    routes.install(app, catalog)
    return app
