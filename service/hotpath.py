"""The single-word lookup's fast lane: answered in front of the whole app, and the one
reading of that request that the lane and the declared route share.

``GET /v1/games/{game}/words/{word}`` is the request engines and the referee page send most,
and the verdict itself costs tens of microseconds. Profiled in-process, FastAPI's routing and
parameter solving plus the middleware layers behind this one cost about as much as the
verdict, so :class:`WordLookup`, a small ASGI dispatcher placed before the app (and behind
:class:`service.metrics.Observability`, which counts and logs whatever answers), answers
the plain, successful case itself: a GET or HEAD of that path whose query is at most
``edge`` (read with pydantic's own bool rules, as FastAPI reads it), ``lang`` and
``release``, and whose word the library checks without error. Everything else (a malformed
``edge``, an unknown game, an unreadable word, a URL that is not UTF-8 once
percent-decoded, any failure) is passed on untouched to the app, whose declared route and
error contract answer it as they answer every request, so an answer never depends on
which of the two gave it (``tests/service/test_hotpath.py`` holds them side by side).

Both read the request with the same functions, :func:`word_target` (the path) and
:func:`word_query` (the query: the last value of each parameter, as Starlette keeps it; a
malformed ``edge`` is FastAPI's own 422), and answer with the same :func:`word_json`; the
route declares its parameters to OpenAPI from :func:`word_parameters` instead of having
FastAPI parse them a second way.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, unquote_to_bytes

import orjson
from fastapi.exceptions import RequestValidationError
from lexicon.service import inflight, metrics
from pydantic import TypeAdapter, ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lexicon import Catalog

_BOOL = TypeAdapter(bool)
_HEADERS = [(b"content-type", b"application/json")]


def word_json(catalog: Catalog, game: str, word: str, *, edge: bool, lang: str | None,
              release: str | None = None, wait: bool = True) -> bytes:
    """The verdict for one word, serialised as the API sends it: the Lexicon the catalog
    holds for the game's release (cached: nothing is made per request) checks it.
    ``wait=False``: a release by id that could only be opened after a wait is refused
    (:mod:`service.byid`)."""
    result = catalog.lexicon(game, release, wait=wait).check(word, edge=edge, lang=lang)
    metrics.count_verdict(game, result)
    return compact_json(result)


def compact_json(value: Any) -> bytes:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"))`` in UTF-8, byte for
    byte, written by orjson: a verdict has only strings, integers, booleans, None, lists and
    dicts with string keys, which both write alike (``tests/service/test_hotpath.py`` compares them
    on every word of the small releases), and orjson takes a fraction of the time, on the
    service's most frequent answer. A value orjson refuses (an integer beyond 64 bits, a
    key that is not a string) is written by json.dumps."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def word_target(path: str) -> tuple[str, str] | None:
    """(game, word) when the decoded ``path`` is ``/v1/games/{game}/words/{word}`` (each a
    non-empty segment without ``/``, as the router matches it), else None."""
    parts = path.split("/")
    if (len(parts) == 6 and parts[1] == "v1" and parts[2] == "games"
            and parts[4] == "words" and parts[3] and parts[5]):
        return parts[3], parts[5]
    return None


def word_query(raw: bytes) -> tuple[bool, str | None, str | None]:
    """(edge, lang, release) from a query string, read as FastAPI reads declared query
    parameters: percent-decoded UTF-8 (raw bytes as Latin-1, as Starlette does), the last
    value of a repeated name, other names ignored, ``edge`` by pydantic's bool rules. A
    malformed ``edge`` raises the RequestValidationError FastAPI raises for it (422
    ``invalid_request``, ``loc`` ``["query", "edge"]``)."""
    edge: str | None = None
    lang: str | None = None
    release: str | None = None
    if not raw:
        return False, lang, release
    for name, value in parse_qsl(raw.decode("latin-1"), keep_blank_values=True):
        if name == "edge":
            edge = value
        elif name == "lang":
            lang = value
        elif name == "release":
            release = value
    if edge is None:
        return False, lang, release
    try:
        return _BOOL.validate_python(edge), lang, release
    except ValidationError as exc:
        raise RequestValidationError([{**e, "loc": ("query", "edge", *e["loc"])}
                                      for e in exc.errors()]) from None


def word_parameters(lang_help: str, release_help: str) -> list[dict[str, Any]]:
    """The OpenAPI parameters of the route, as FastAPI would state them had it parsed them
    (the service's contract adds the game ids and the word's length limit)."""
    def text(name: str, description: str) -> dict[str, Any]:
        return {"name": name, "in": "query", "required": False, "description": description,
                "schema": {"anyOf": [{"type": "string"}, {"type": "null"}],
                           "description": description, "title": name.title()}}
    edge = "Kvizovka board-edge rule"
    return [
        {"name": "game", "in": "path", "required": True,
         "schema": {"type": "string", "title": "Game"}},
        {"name": "word", "in": "path", "required": True,
         "schema": {"type": "string", "title": "Word"}},
        {"name": "edge", "in": "query", "required": False, "description": edge,
         "schema": {"type": "boolean", "description": edge, "default": False,
                    "title": "Edge"}},
        text("lang", lang_help), text("release", release_help),
    ]


def undecodable(scope: Scope) -> str | None:
    """``"path"`` or ``"query"`` when that part of the URL is not UTF-8 once percent-decoded
    (``/words/%FFkot``), else None. The server and Starlette decode both with replacement,
    so ``%FFkot`` would be checked as U+FFFD followed by ``kot``; the app refuses it instead
    (``bad_encoding``). Cheap on the hot path: a decoded path holding no U+FFFD had no
    undecodable bytes, and a query is only decoded here when it holds a ``%`` or a byte
    above ASCII."""
    if "\ufffd" in scope["path"]:
        raw = scope.get("raw_path")
        if raw is not None and not _utf8(raw):
            return "path"
    query = scope.get("query_string", b"")
    if (b"%" in query or not query.isascii()) and not _utf8(query):
        return "query"
    return None


def _utf8(raw: bytes) -> bool:
    try:
        unquote_to_bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _query(raw: bytes) -> tuple[bool, str | None, str | None] | None:
    """:func:`word_query`, or None when the app should answer (a malformed ``edge``)."""
    try:
        return word_query(raw)
    except RequestValidationError:
        return None


class WordLookup:
    """A plain ASGI dispatcher in front of everything: a plain single-word lookup is
    answered here, and reported to ``measured`` (the metrics middleware's
    :meth:`~service.metrics.Observability.record`, which counts what either answers);
    anything it declines goes to ``app`` (the metrics middleware, then the app) untouched.
    :attr:`enabled` False sends every request to ``app`` (the declared route answers then,
    as tests compare). A lookup it answers is work under way (:mod:`service.inflight`)
    while it reads the release and sends, as every request the middleware passes on is."""

    def __init__(self, app: ASGIApp, catalog: Catalog,
                 measured: Callable[[Scope, str, int, float, bytes, bytes], None]) -> None:
        self.app = app
        self.catalog = catalog
        self.measured = measured
        self.enabled = True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.enabled or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        serial = inflight.enter()
        start = time.perf_counter()
        answer = None
        try:
            answer = self.answer(scope)
            if answer is not None:
                await send(answer[0])
                await send(answer[1])
        finally:
            inflight.leave(serial)
            if answer is not None:
                body = answer[1]["body"]
                self.measured(scope, scope.get("root_path", ""), 200,
                              time.perf_counter() - start, body, body)
        if answer is None:
            await self.app(scope, receive, send)

    def answer(self, scope: Scope) -> tuple[Message, Message] | None:
        """The response's start and body messages, or None: the app answers."""
        if scope["method"] not in ("GET", "HEAD"):
            return None
        target = word_target(scope["path"])
        if target is None or undecodable(scope) is not None:
            return None
        query = _query(scope.get("query_string", b""))
        if query is None:
            return None
        try:
            body = word_json(self.catalog, target[0], target[1], edge=query[0],
                             lang=query[1], release=query[2], wait=False)  # on the loop
        except Exception:   # the app answers, with the error contract
            return None
        return ({"type": "http.response.start", "status": 200,
                 "headers": [*_HEADERS, (b"content-length", str(len(body)).encode())]},
                {"type": "http.response.body",
                 "body": b"" if scope["method"] == "HEAD" else body})
